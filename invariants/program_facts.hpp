// Program facts for the transaction graph (DESIGN.md §B5 step 1): which objects each instruction
// of the thread model reads or writes (`InstrFacts`; through a pointer: any object), which
// instructions are visible whatever they touch (synchronisation on an address, thread operations,
// ValidPtr), which objects escape (their address is taken, or they are on the heap), and which
// instructions may run outside an atomic section. The switch points (transactions.cpp) are
// computed from these.
#pragma once

#include "ir/thread_model.hpp"

#include <cstdint>
#include <vector>

namespace siren::invariants::detail {

using ir::ExprRef;
using ir::Instr;
using ir::InstrKind;
using ir::Op;
using ir::ThreadId;

// --- thread-model facts --------------------------------------------------------------------
constexpr ir::ObjectId kAnyObject = ~0u;

/// Objects accessed by an instruction (kAnyObject for a non-constant address) and whether it is
/// visible whatever objects it touches (sync, thread operations, ValidPtr).
struct InstrFacts {
  std::vector<ir::ObjectId> objects;  // read or written (kAnyObject: through a pointer)
  std::vector<ir::ObjectId> written;  // written (kAnyObject: through a pointer)
  bool inherently_visible = false;
};

class Facts {
 public:
  explicit Facts(const ir::ThreadModel& tm);

  bool escaped(ir::ObjectId o) const { return o < escaped_.size() && escaped_[o]; }
  const InstrFacts& at(ThreadId t, std::uint32_t pc) const { return facts_[t][pc]; }
  bool may_be_outside_atomic(ThreadId t, std::uint32_t pc) const { return outside_[t][pc]; }

 private:
  void scan(ExprRef e, bool direct_addr, InstrFacts& f);
  void access(ExprRef p, InstrFacts& f, bool write);
  InstrFacts scan_instr(const Instr& in);

  const ir::ThreadModel& tm_;
  std::vector<bool> escaped_;
  std::vector<std::vector<InstrFacts>> facts_;
  std::vector<std::vector<bool>> outside_;
};

}  // namespace siren::invariants::detail
