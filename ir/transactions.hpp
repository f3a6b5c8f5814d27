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
// at a *carried unlock* (carried_unlocks(): an Unlock of a mutex that only locks and unlocks
// use, a left mover, so that a whole critical section `lock; ...; unlock` is one transaction),
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
// most one visible instruction that is neither protected nor a carried unlock, its first, or
// is a merged atomic region (with what comes before and after it); a race query's accesses,
// when they are boundaries, are the first instruction of their transactions (race/race.cpp
// uses instruction frames otherwise). An Assume that fails (or an Assert that fails) in the middle of a transaction
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

/// Unlocks a transaction may carry after its first instruction (DESIGN.md §B9.3; Lipton's
/// left movers): result[t][pc] is true iff instruction pc of thread t is an Unlock whose
/// address reads no memory and may designate only *lock-only* cells: cells (never "anywhere")
/// that no instruction of any thread touches but Lock, Unlock and Stores of the constant 0
/// (pthread_mutex_init, spin_lock_init). Such an unlock u of thread t is a left mover: t holds
/// the mutex, so no other thread's step s just before u is a Lock of it; s may be an Unlock of
/// another mutex, a Store of 0 (the same cell value either way: u writes 0 too), or a step
/// that does not touch the cell; u never blocks and reads nothing s could write, so s·u and
/// u·s reach the same state. A transaction is then its first instruction followed by both
/// movers (local and protected steps) and left movers (these unlocks), which Lipton's
/// reduction makes atomic: an execution that switches threads only at boundaries reaches every
/// state with all threads at boundaries, and every error. A trylock breaks it (it fails before
/// u, succeeds after), as does a condition wait (it releases and retakes the mutex) or a data
/// access of the mutex (a mutex of a recursive or error-checking kind is read as data), so
/// their mutexes' unlocks stay boundaries. `any`: TEST ONLY, every Unlock whose address reads
/// no memory (TransactionOptions::test_carry_any_unlock).
std::vector<std::vector<char>> carried_unlocks(const ThreadModel& tm, bool any = false);
class PointsTo;
std::vector<std::vector<char>> carried_unlocks(const ThreadModel& tm, const PointsTo& points_to, bool any = false);

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
  /// Carry unlocks (carried_unlocks()) in the transaction they are reached in.
  bool carry_unlocks = true;
  /// TEST ONLY: carry every Unlock whose address reads no memory, also of a mutex that a
  /// trylock, a condition wait or a data access uses (where an unlock is no left mover: a
  /// trylock of another thread fails before it and succeeds after it). Tests show that the
  /// random-program oracles and a trylock program catch it.
  bool test_carry_any_unlock = false;
  /// How many times one transaction may run on through a loop's cut point (a boundary that is
  /// there only to cut a cycle of carried steps, see passable()) before it ends there; 0: a
  /// loop of carried steps ends its transaction at its head on every iteration.
  unsigned unwind = 0;
};

/// Step granularities of the BMC by name (check::CheckOptions::granularity): "instruction"
/// (no transactions), "transaction", and TEST ONLY "test-merge-visible",
/// "test-one-sided-lock" and "test-carry-any-unlock" (transactions with
/// TransactionOptions::test_merge_visible / test_one_sided_lock / test_carry_any_unlock).
bool granularity_known(const std::string& name);
/// `unwind`: TransactionOptions::unwind (check::CheckOptions::tx_unwind).
TransactionOptions transaction_options(const std::string& granularity, unsigned unwind = 0);

class Transactions {
 public:
  Transactions() = default;
  /// `points_to`: the program's points-to analysis, if the caller has one (else it is made here).
  Transactions(const ThreadModel& tm, const TransactionOptions& options = {}, const PointsTo* points_to = nullptr);

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
  /// Number of unlocks carried by transactions (all threads; carried_unlocks(), less those
  /// TransactionOptions::keep makes boundaries).
  std::size_t carried_unlock_steps() const { return unlocks_; }
  /// Is boundary b of thread t the Lock of a *balanced critical section* (DESIGN.md §B9.3)?
  /// Its address designates one mutex cell m, every path of the transaction from b reaches a
  /// carried Unlock of m (and of no other mutex) with no Assume before it (a thread stopped
  /// there would keep m), and every Lock of the program that may take m is such a Lock. Then
  /// no thread holds m at any boundary: m is free in every state in which all threads are at
  /// boundaries, so a transaction of such a section is always enabled where its thread is, and
  /// changes no other transaction's enabledness (SIR judges it by its data, reduction/sir.cpp).
  bool balanced(ThreadId t, std::uint32_t b) const { return b < balanced_[t].size() && balanced_[t][b] != 0; }
  /// Number of such Locks (all threads).
  std::size_t balanced_sections() const { return balanced_count_; }

 private:
  void find_balanced_sections(const ThreadModel& tm, const PointsTo& pts);

  std::vector<std::vector<char>> boundary_;  // [thread][pc], pc = 0 .. code.size()
  std::vector<std::vector<char>> passable_;  // [thread][pc], pc = 0 .. code.size() - 1
  std::vector<std::set<std::uint32_t>> unwinds_from_;  // [thread] boundaries
  unsigned unwind_ = 0;
  std::vector<std::size_t> longest_;
  std::vector<std::map<std::uint32_t, std::vector<std::uint32_t>>> regions_;
  std::vector<std::map<std::uint32_t, std::vector<std::uint32_t>>> carried_;
  std::size_t protected_ = 0, unlocks_ = 0;
  std::vector<std::vector<char>> balanced_;  // [thread][pc]
  std::size_t balanced_count_ = 0;
};

}  // namespace siren::ir
