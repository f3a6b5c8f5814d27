// Transactions of a thread model (DESIGN.md Part C, "Step granularity"; §B8.9): the step
// granularity of the transaction-granular BMC. A *transaction* of thread t starts at one of
// its boundary pcs, executes that instruction, and goes on through the instructions that are
// not boundaries until it reaches a boundary again (not executed) or the thread's end.
//
// A boundary is
//   - pc 0 (the thread's entry);
//   - every *visible* instruction: anything but a local step (see local_step());
//   - enough cut points that every cycle of the thread's code passes through a boundary (a
//     loop whose body is all carried steps ends its transaction at its head, unless the
//     transaction may still run on through it: TransactionOptions::unwind, passable()).
// except at a *protected step* (ir::protected_steps: an Assign, Assume, Assert, Goto or Store
// all of whose memory accesses no conflicting access of another thread can run beside, by a
// common must-held lock or create/join order: Lipton's both-mover; see
// carried_protected_steps in transactions.cpp for the ones that still start a transaction),
// and inside a merged atomic
// region: the instructions after an AtomicBegin up to the AtomicEnds that close it, when
// every one of them is a carried step (carried_step()), the thread owns `atomic` at each (on
// every path), the region has no cycle and does not reach the thread's end. No other thread
// can move while the owner of `atomic` is inside, so the region joins the transaction its
// AtomicBegin starts (one frame per __VERIFIER_atomic_* block): that transaction may then
// read and write memory after its first instruction.
//
// A protected step is carried by the transaction it is reached in: locks, creates and joins
// are always boundaries, so the lock that protects it is held (the other thread stopped) from
// that transaction's first instruction on, and no step that can run beside the transaction
// touches what the protected step touches.
//
// A local step reads and writes only the thread's own locals, never memory, never blocks on
// another thread: other threads' steps commute with it, so an interleaving that switches
// threads only at boundaries reaches every state in which all threads are at boundaries, and
// every error an instruction-granular interleaving reaches (an error in the middle of a
// transaction is an error of that transaction's frame). A transaction therefore holds at
// most one visible instruction that is not protected, its first, or is a merged atomic region
// (with what comes before and after it); a race query's accesses, when they are boundaries,
// are the first instruction of their transactions (race/race.cpp uses instruction frames
// otherwise). An Assume that fails (or an Assert that fails) in the middle of a transaction
// stops the thread for good, since it reads locals only or, when protected, cells no other
// thread can change while the thread waits there: the transaction then ends there, at a pc
// that is no boundary, after its first instruction (which other threads may see) has happened.
//
// One definition for every consumer: the BMC's frames (encoder/), the reductions see frames
// start at boundaries only (reduction/), race queries and `--count-schedules` count
// transactions.
#pragma once

#include "ir/thread_model.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace siren::ir {

/// Does the expression read memory (a Load, or a ValidPtr, which reads whether objects exist)?
bool reads_memory(ExprRef e);

/// An instruction a merged atomic region may hold: Assign, Havoc, Goto, Assume, Assert, Skip,
/// Store, AtomicEnd.
bool carried_step(const Instr& in);

/// A local step: Assign, Havoc, Goto, Assume, Assert or Skip whose expressions read no memory
/// (no Load, no ValidPtr): it reads and writes only locals of its thread.
bool local_step(const Instr& in);

struct TransactionOptions {
  /// Merge atomic regions into their AtomicBegin's transaction. Race queries turn it off: an
  /// access inside a region is then a boundary, as a racy access must be.
  bool merge_atomic_regions = true;
  /// Carry protected steps (ir::protected_steps) in the transaction they are reached in. Race
  /// queries keep the ones they name boundaries (`keep`: a protected access races with
  /// nothing, but a query names it).
  bool merge_protected = true;
  /// Boundaries whatever else holds: (thread, pc) pairs a query names (a race query's accesses
  /// with merge_protected on: the protected steps it does not name are still carried).
  std::set<std::pair<ThreadId, std::uint32_t>> keep;
  /// TEST ONLY: a deliberately wrong boundary. Every visible Assign, Assume, Assert or Goto
  /// that directly follows a carried step other than a Goto (and is not a jump target) is
  /// merged into that step's transaction instead of starting its own — a visible access merged
  /// into its predecessor. Protected steps are not merged then. Tests show that the
  /// random-program oracles catch it.
  bool test_merge_visible = false;
  /// TEST ONLY: protected steps computed with ir::protected_steps' test_one_sided_lock (an
  /// access counts as protected when the step alone holds some lock).
  bool test_one_sided_lock = false;
  /// How many times one transaction may run on through a loop's cut point (a boundary that is
  /// there only to cut a cycle of carried steps, see passable()) before it ends there; 0: a
  /// loop of carried steps ends its transaction at its head on every iteration.
  unsigned unwind = 0;
};

/// Step granularities of the BMC by name (check::CheckOptions::granularity): "instruction"
/// (no transactions), "transaction", and TEST ONLY "test-merge-visible" and
/// "test-one-sided-lock" (transactions with TransactionOptions::test_merge_visible /
/// test_one_sided_lock).
bool granularity_known(const std::string& name);
/// `unwind`: TransactionOptions::unwind (check::CheckOptions::tx_unwind).
TransactionOptions transaction_options(const std::string& granularity, unsigned unwind = 0);

class Transactions {
 public:
  Transactions() = default;
  Transactions(const ThreadModel& tm, const TransactionOptions& options = {});

  /// Does a transaction of thread t start at pc (pc = code.size(), finished, counts)?
  bool boundary(ThreadId t, std::uint32_t pc) const { return boundary_[t][pc] != 0; }
  /// Number of boundary pcs of thread t (finished not counted).
  std::size_t boundaries(ThreadId t) const;
  /// Longest run of instructions one transaction of thread t can execute without passing a
  /// cut point (each pass may add as much again).
  std::size_t longest(ThreadId t) const { return longest_[t]; }
  /// Is pc a *cut point* a transaction of thread t may run on through: a boundary only
  /// because it cuts a cycle of carried steps (a local or protected step at a loop's head,
  /// not an Assume or Assert), with TransactionOptions::unwind > 0. A transaction that reaches it having passed fewer
  /// than unwind() cut points executes it as one of its later steps and goes on; otherwise
  /// the transaction ends there and the next one starts there. The steps it runs on through
  /// are carried steps like every other after the first, so the argument of the header holds
  /// for any number of passes; unwind() only bounds the size of a frame.
  bool passable(ThreadId t, std::uint32_t pc) const { return pc < passable_[t].size() && passable_[t][pc] != 0; }
  unsigned unwind() const { return unwind_; }
  /// Can a transaction of thread t from boundary b pass a cut point (passable())?
  bool unwinds_from(ThreadId t, std::uint32_t b) const { return unwinds_from_[t].count(b) != 0; }
  /// The merged atomic regions of thread t: AtomicBegin pc -> the region's pcs (sorted).
  const std::map<std::uint32_t, std::vector<std::uint32_t>>& atomic_regions(ThreadId t) const {
    return regions_[t];
  }
  /// The steps after the first that a transaction of thread t starting at boundary b may
  /// execute (through cut points too, passable()) and that touch memory or `atomic`
  /// (protected steps, a merged atomic region's steps): b -> their pcs (sorted); boundaries
  /// whose transactions carry none are absent.
  const std::map<std::uint32_t, std::vector<std::uint32_t>>& carried(ThreadId t) const { return carried_[t]; }
  /// Number of protected steps carried by transactions (all threads).
  std::size_t protected_steps() const { return protected_; }

 private:
  std::vector<std::vector<char>> boundary_;  // [thread][pc], pc = 0 .. code.size()
  std::vector<std::vector<char>> passable_;  // [thread][pc], pc = 0 .. code.size() - 1
  std::vector<std::set<std::uint32_t>> unwinds_from_;  // [thread] boundaries
  unsigned unwind_ = 0;
  std::vector<std::size_t> longest_;
  std::vector<std::map<std::uint32_t, std::vector<std::uint32_t>>> regions_;
  std::vector<std::map<std::uint32_t, std::vector<std::uint32_t>>> carried_;
  std::size_t protected_ = 0;
};

}  // namespace siren::ir
