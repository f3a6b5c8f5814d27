// Static facts about which instructions of two threads can run concurrently: must-locksets
// (the mutexes held on every path to an instruction) and create/join order (a thread not yet
// created, or already joined, by its parent). Used by the triage's candidate pairs
// (race/triage.cpp), by the transaction graph, whose transactions run through accesses that
// no conflicting access of another thread can run beside (invariants/program_facts.cpp,
// invariants/transactions.cpp), and by the BMC's transactions (protected_steps).
#pragma once

#include "ir/points_to.hpp"
#include "ir/thread_model.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

namespace siren::ir {

/// A held lock: the mutex cell (object << 32 | byte offset), or kAtomicKey for "inside an
/// atomic section" (a lock every atomic section holds).
inline constexpr std::uint64_t kAtomicKey = ~std::uint64_t{0};

/// The must-lockset before every instruction of thread t (nullopt: not reachable from the
/// thread's entry). Only pthread_mutex_lock adds a lock, on a constant mutex or, given a
/// points-to analysis, through a pointer whose points-to set is one mutex cell
/// (`pthread_mutex_lock(&dev->lock)`); trylock and rwlocks add none. An unlock of such a mutex
/// removes it, an unlock through any other pointer forgets every mutex. pthread_cond_wait is
/// lowered to unlock + lock by the thread model, so it needs no case.
std::vector<std::optional<std::set<std::uint64_t>>> must_locksets(const ThreadModel& tm, ThreadId t,
                                                                   const PointsTo* points_to = nullptr);

/// Create/join order of thread p: stopped[pc] lists the threads u (ascending) that p alone
/// creates and that are certainly not running while p is at pc, because on every path to pc p
/// has not yet executed a create that may start u, or has joined u. A join counts when its
/// thread id is the handle stored by a create that starts only u, executes at most once (it
/// is on no cycle), and whose handle cell nothing else writes or takes the address of.
struct CreateJoinOrder {
  std::vector<std::vector<ThreadId>> stopped;  // [pc]
  bool stopped_at(std::uint32_t pc, ThreadId u) const;
};
CreateJoinOrder create_join_order(const ThreadModel& tm, ThreadId p);

/// The cells an access through address `addr` of thread t may touch, as keys object << 32 |
/// byte offset (empty: the constant address designates no cell); nullopt when the points-to
/// set is "anywhere".
std::optional<std::vector<std::uint64_t>> access_cells(const ThreadModel& tm, const PointsTo& points_to, ThreadId t,
                                                       ExprRef addr);

/// Protected steps (Lipton's both-movers; DESIGN.md §B5 step 1, "POR with synchronization
/// constraints"): result[t][pc] is true iff instruction pc of thread t is an Assign, Assume,
/// Assert, Goto (a branch on memory) or Store that touches memory and every memory access of it is *protected*: for each
/// cell c it may access (its address constant, or a points-to set without "anywhere"), every
/// access of c by another thread u that conflicts with it (one of the two writes) cannot run
/// beside it — the two hold a common must-held lock (must_locksets), or create/join order keeps
/// one stopped while the other is at its access (create_join_order). An access that may check
/// whether a heap object is still allocated is protected only when no other thread frees
/// anything. While t is at a protected step no other thread can touch what the step touches,
/// so the step commutes with every step that can run beside it: a transaction may carry it
/// after its first instruction (ir/transactions.hpp), provided a lock or a create/join is
/// always a transaction's first instruction, so that the lock is held (the other thread
/// stopped) from that first instruction on.
/// TEST ONLY: `test_one_sided_lock` makes a lock that only the step holds enough (a
/// deliberately unsound analysis, so that a test can show the random-program oracle catches it).
std::vector<std::vector<char>> protected_steps(const ThreadModel& tm, const PointsTo& points_to,
                                               bool test_one_sided_lock = false);

}  // namespace siren::ir
