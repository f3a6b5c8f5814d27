// Structural checks of an ir::Program: every invariant the consumers rely on (types of
// operands, goto targets in range, locals in range, one memory access per instruction,
// functions end with Return, entry exists). A failure is a front-end bug, not user error.
#pragma once

#include "ir/program.hpp"

#include <string>
#include <vector>

namespace siren::ir {

/// Empty when the program is well formed; otherwise one message per problem
/// ("main:12: goto target 40 out of range").
std::vector<std::string> validate(const Program& p);

}  // namespace siren::ir
