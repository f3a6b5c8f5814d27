// Printing of ir::Program: a readable listing and Graphviz DOT (one cluster per function).
#pragma once

#include "ir/program.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace siren::ir {

/// Expression with names: locals by their LocalVar name, `&g`, `&a[2]`, `*p`, `a[i]` where the
/// shape allows it; falls back to to_string()'s form.
std::string format_expr(const Program& p, const Function& f, ExprRef e);
/// One instruction, e.g. `12: data := *&data + 1` / `7: if !(t > 0) goto 11`.
std::string format_instr(const Program& p, const Function& f, const Instr& in);
/// Objects (with cells and initial values), then every function with numbered instructions
/// and source locations.
std::string print_program(const Program& p);
/// Graphviz DOT: one `subgraph cluster_<fn>` per function, a node per instruction, edges for
/// fall-through and goto targets (labelled with the condition).
std::string print_dot(const Program& p);

/// The name of the cell of object o at byte offset `off` ("g", "a[2]", "s.next"; the object's
/// name for a single unnamed cell; `obj+off` for an offset no cell starts at or contains).
std::string cell_name(const std::vector<Object>& objects, ObjectId o, std::int64_t off);

// Context-free variants (also used for thread-model code, whose locals and objects live in
// the ThreadModel): names come from `objects` and `locals`.
std::string format_expr(const std::vector<Object>& objects, const std::vector<LocalVar>& locals,
                        ExprRef e);
/// `index: instruction`; callees of Call/ThreadCreate are printed as `fn#<id>`.
std::string format_instr(const std::vector<Object>& objects, const std::vector<LocalVar>& locals,
                         const Instr& in, std::uint32_t index);

}  // namespace siren::ir
