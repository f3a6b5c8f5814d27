// Control flow and step classes of thread-model code: the ONE successor rule and the ONE
// synchronisation classification that the engines (explicit/, encoder/) and the analyses
// (ir/concurrency, invariants/, reduction/, race/) use. Where analyses need a different
// approximation on purpose, the difference is a named field of SuccessorRule, not a copy of
// the rule.
#pragma once

#include "ir/program.hpp"

#include <cstdint>
#include <vector>

namespace siren::ir {

/// Which successors successors() lists. The defaults are the transition relation's
/// (docs/semantics.md): ThreadExit finishes the thread (pc = code.size()), Abort has no
/// successor (the program has terminated), a Goto whose condition is constant true goes to its
/// target only, every other instruction to pc + 1 (code.size() after the last: finished).
struct SuccessorRule {
  /// false: ThreadExit has no successor (analyses that stop at the thread's end).
  bool exit_to_end = true;
  /// true: a Goto that is always taken also lists pc + 1 — more paths, still sound (analyses
  /// whose result does not need that precision, and the BMC, whose frame condition then stays
  /// one rule for every Goto).
  bool taken_goto_falls_through = false;
  /// false: only pcs inside the code (code.size(), "finished", is left out).
  bool include_end = true;
  /// true: an Assert whose condition is constant false (reach_error()) has no successor: the
  /// step is an error, and no execution continues after it (the thread model's dead-code
  /// pruning). false: the transition relation's view, where the step's successor is pc + 1.
  bool failing_assert_ends = false;
};

/// The pcs instruction `pc` of `code` may move to, under `rule`.
std::vector<std::uint32_t> successors(const std::vector<Instr>& code, std::uint32_t pc,
                                      const SuccessorRule& rule = {});

/// Is `in` a Goto that is always taken (no condition, or a constant true one)?
bool always_taken(const Instr& in);

/// What kind of step an instruction is, for reductions, races and transactions.
enum class StepClass : std::uint8_t {
  Data,        // Assign, Store, Goto, Assert, Havoc, Skip: reads and writes data cells only
  SyncObject,  // lock, trylock, unlock, rwlock operations, condition wait/signal/broadcast:
               // operates on the synchronisation cell its operand `a` designates
  Thread,      // ThreadCreate, ThreadJoin, ThreadExit
  Atomic,      // AtomicBegin, AtomicEnd
  Control,     // Assume (blocks), Abort, Malloc, Free, Call, Return
};

StepClass step_class(InstrKind k);

/// Anything but a plain data step synchronises (or blocks, or changes which objects exist).
inline bool is_sync_step(InstrKind k) { return step_class(k) != StepClass::Data; }

/// Does the instruction's operand `a` designate a synchronisation cell that it operates on (the
/// SyncObject steps, and ThreadCreate's store of the thread handle)? That cell operation is
/// synchronisation, not a data access: it never races.
inline bool sync_address_operand(InstrKind k) {
  return step_class(k) == StepClass::SyncObject || k == InstrKind::ThreadCreate;
}

}  // namespace siren::ir
