// Data races as reachability in the interleaved BMC (DESIGN.md §B7).
//
// SV-COMP `no-data-race` (G ! data-race), operationally: a reachable state in which the next
// steps of two different threads access the same memory cell, at least one of them writes,
// and not both are atomic. In the encoding, at frame k and for a pair of accesses (t1 at pc i,
// t2 at pc j), t1 != t2:
//
//   pc_t1^k = i ∧ pc_t2^k = j ∧ started_t1 ∧ started_t2 ∧ ¬terminated
//     ∧ atomic ∈ {0, t1 + 1, t2 + 1} ∧ addr_i ≡ addr_j (the same live data cell)
//
// An atomic section is one transition for every other thread: while t1 holds `atomic` only t1
// moves, so the other threads stand at their next steps throughout t1's block. A thread at
// the AtomicBegin of a block therefore stands at all of the block's accesses, and the states
// inside the block (atomic = t1 + 1, t1 at one of them) are where they are compared with
// t2's next plain access: an atomic access and a plain one race. Two atomic accesses never
// do: the other thread stands at its own AtomicBegin, which accesses no data, and no third
// thread's section may be held (it would stop both). (pthread-atomic/lamport.c shows the
// plain side: its plain read `int x1 = x` races with `x = 2`; docs/benchmark-labels.md explains
// why we score that task as a race although its stored label says none.) Only data cells
// count: mutex, condition and rwlock cells and the synchronization operations on them (lock,
// unlock, signal, the handle store of pthread_create) are synchronization, not data.
//
// A query is a pair of access sets (S1, S2): it holds at frame k when some thread is at an
// access of S1 and another thread at a conflicting access of S2. `siren race` asks one query
// (all accesses, all accesses); `siren triage` asks one query per warning, all over ONE
// encoding (DESIGN.md Part C, "Triage amortisation"): frames are built once, and at every depth
// the open queries are ONE solve under the assumption of their disjunction. Unsat decides them
// all at that depth; a model answers each query it satisfies (each replayed against its own
// accesses), and the others are asked again without them. A driver's pair of entry points has
// 50-100 candidate warnings, none of which completes: asked one by one, each used its whole
// --timeout at the same depth. The time of a joint solve counts for every query in it. The deepening loop, the completeness
// rule and the treatment of MemSafety/Limit errors are those of encoder/bmc.cpp: Property
// errors end an execution (they are not races), a reachable MemSafety/Limit error turns an
// answer that would be "no race" into UNKNOWN.
//
// Every race found is replayed by the concrete interpreter: the schedule must execute, and in
// the final state both threads' next instructions must be the accesses, with equal concrete
// addresses of a live data cell; otherwise the answer is an internal error, never a race.
#pragma once

#include "check/result.hpp"
#include "explicit/explorer.hpp"
#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace siren::race {

using check::CheckOptions;
using check::CheckStats;
using check::Verdict;
using ir::TraceRow;

/// One data access of an instruction: `addr` (an expression of `thread`'s code, evaluated
/// before the step) designates the cell; it happens iff ValidPtr(addr).
struct RaceAccess {
  ir::ThreadId thread = 0;
  std::uint32_t pc = 0;
  ir::ExprRef addr = nullptr;
  bool write = false;
  /// `free(addr)`: a write of every cell of the heap object `addr` points to the start of
  /// (C11 7.22.3p2: for data races, the allocation functions access only the objects their
  /// arguments point to, as if they wrote them; a `free` racing with a thread's access is a race).
  bool object = false;
};

/// The data accesses of instruction `pc` of thread `t` (loads of its operands, its store,
/// ThreadJoin's retval store, Free's object); the cell operations of synchronization
/// instructions excluded.
std::vector<RaceAccess> data_accesses(const ir::ThreadModel& tm, ir::ThreadId t, std::uint32_t pc);

/// Every data access of every thread.
std::vector<RaceAccess> all_data_accesses(const ir::ThreadModel& tm);

/// May threads t1 and t2 stand at a racy pair while `atomic` has this value? Yes unless a
/// third thread holds it (one of the two may be inside its own atomic section).
bool atomic_held_by_neither(std::uint32_t atomic, ir::ThreadId t1, ir::ThreadId t2);

/// Does cell (obj, cell) count as data for races? (Data and ThreadHandle cells.)
bool is_data_cell(const ir::ThreadModel& tm, ir::ObjectId obj, std::uint32_t cell);

/// One thread's part of a control-state query: the thread has started and is at one of
/// `pcs` (pc == code.size(): it has finished).
struct ControlTarget {
  ir::ThreadId thread = 0;
  std::vector<std::uint32_t> pcs;
};

struct RaceQuery {
  std::vector<RaceAccess> first, second;  // second empty: the same set as first
  /// Non-empty: a control-state (location-tuple) query instead of a race: a state in which
  /// every listed thread is at one of its pcs; unlisted threads are anywhere. `first` and
  /// `second` are then unused. The answer's trace is replayed and its final state checked.
  std::vector<ControlTarget> control;
};

/// One side of a race found (from the replayed final state).
struct RaceEnd {
  ir::ThreadId thread = 0;
  std::uint32_t pc = 0;
  std::string thread_name;
  std::string file;
  unsigned line = 0, column = 0;
  std::string variable;  // the cell, e.g. "g", "a[2]"
  bool write = false;
  std::string stmt;
};

/// A pair of next accesses that race in `state` (`first` against `second`, or `first` against
/// itself when `second` is empty), as the replayed final state of every race answer is checked:
/// both threads started and not finished, the program not terminated, no third thread holding
/// `atomic`, the same live data cell, one of them writing.
std::optional<std::pair<RaceEnd, RaceEnd>> racing_pair(const ir::ThreadModel& tm, const ir::Interpreter& interp,
                                                       const ir::State& state, const std::vector<RaceAccess>& first,
                                                       const std::vector<RaceAccess>& second);

struct RaceAnswer {
  /// Unsafe = a race (replayed); Safe / SafeUpToBound = no race (proven / within the bound);
  /// Unknown with reason.
  Verdict verdict = Verdict::Unknown;
  unsigned bound = 0;  // as CheckResult::bound (RACE: the number of steps before the race)
  std::string reason;
  /// Unknown because of this model limit (the reason says where): siren race translates the
  /// program again with more of it and asks again (ir::LimitKind).
  ir::LimitKind limit = ir::LimitKind::None;
  /// Unknown only: the executions of at most `clean_bound` steps were all searched, and none
  /// has a race or a memory-safety or modelling-limit error (`bound` when no such error is
  /// reachable; else at most the steps before the first). Triage answers such a warning as a
  /// bounded checker does (NO_RACE_UP_TO_BOUND clean_bound); 0: nothing to say.
  unsigned clean_bound = 0;
  bool time_limit = false;  // Unknown because a time limit ran out (the global or the query's)
  bool internal_error = false;
  /// Which engine answered: "bmc" (the interleaved BMC's race queries), "explicit" (the
  /// explicit-state search over every interleaving, explicit/search.hpp) or "modular" (the
  /// thread-modular race-freedom proof for any number of threads).
  std::string engine = "bmc";
  /// SAFE: how race-freedom was proven (the BMC's completeness check, or every reachable state
  /// of the explicit search visited); empty otherwise.
  std::string method;
  /// > 0: SAFE_UP_TO_BOUND because only executions with at most this many threads (main
  /// included) were explored (a create site ran out of instances); `steps_bounded` false: every
  /// such execution was explored to its end.
  unsigned thread_bound = 0;
  bool steps_bounded = true;
  /// SAFE: race-free for any number of threads (engine "modular", modular::prove_race_freedom).
  bool any_number_of_threads = false;
  std::vector<TraceRow> trace;   // the schedule leading to the racy state
  std::vector<ir::ThreadId> schedule;
  RaceEnd first, second;
  double seconds = 0;           // wall-clock time from the start of the run to this answer
};

struct RaceRunOptions {
  CheckOptions check;
  double query_timeout = 0;  // seconds of solving per query (0: none)
  /// TEST ONLY (`siren triage --test-race-blame-all-of-group`, hidden): deliberately broken
  /// joint solving: a model that satisfies one open query answers every open query of the
  /// depth with it (each is then replayed against its own accesses, so a query it does not
  /// satisfy gets an internal error instead of its verdict). tests/e2e/triage.cmake catches it.
  bool test_blame_all_of_group = false;
  /// TEST ONLY (`siren triage --test-race-clean-past-errors`, hidden): a reachable memory-safety
  /// or limit error does not end RaceAnswer::clean_bound, so triage claims no race in executions
  /// that may have gone through it. tests/e2e/triage.cmake catches it.
  bool test_clean_past_errors = false;
  /// Before the BMC, the explicit-state search for a state where an open race query holds
  /// (`siren triage`): CheckOptions' explicit shares of `query_timeout` (10 s without one),
  /// beside the BMC's time; a race it finds answers its query, and a search that visits every
  /// reachable state answers the others race-free (SAFE, a proof).
  bool explicit_first = false;
  /// TEST ONLY (`siren triage --test-race-search-first-only`, hidden): deliberately broken
  /// explicit_first: each search looks for the first open query's race only, yet a search
  /// that visits every state answers every open query race-free. tests/e2e/race.cmake catches it.
  bool test_search_first_only = false;
};

/// Answers the queries over one encoding; `on_answer(i, answer)` is called as soon as query i
/// is decided (every query gets exactly one call). Catches std::bad_alloc (UNKNOWN).
void solve_race_queries(const ir::ThreadModel& tm, const std::vector<RaceQuery>& queries,
                        const RaceRunOptions& options,
                        const std::function<void(std::size_t, const RaceAnswer&)>& on_answer,
                        CheckStats* stats = nullptr);

/// The control-state query for a control state of the explorer: every started thread at its
/// pc (finished: code.size()); threads not started are left free.
std::vector<ControlTarget> control_targets(const ir::ThreadModel& tm, const explicit_state::ControlState& cs);

/// `siren check --reach`: is a state with these control locations reachable? UNSAFE =
/// reachable (the schedule is replayed), SAFE = unreachable (every execution ends within the
/// bound), SAFE_UP_TO_BOUND = not within the bound. Used by the SIR tests to check that a
/// reduction keeps every control state.
RaceAnswer check_reach(const ir::ThreadModel& tm, const CheckOptions& options,
                       const std::vector<ControlTarget>& targets, CheckStats* stats = nullptr);

/// The explicit-state search for a racy state (explicit/search.hpp with a target: some pair of
/// next accesses races, racing_pair): UNSAFE with the path replayed, SAFE when every reachable
/// state was visited (SAFE_UP_TO_BOUND with the thread bound when a create site was cut), else
/// UNKNOWN with the error when every reachable state was visited and a memory-safety or
/// modelling-limit error is reachable, else nullopt (the search could not decide within the
/// limits: `deadline`, `restricted_deadline` once it can no longer prove race-freedom, and
/// `memory_mb`). `test_writes_only` (TEST ONLY, `siren race --test-race-search-writes-only`): a
/// deliberately broken target that counts only write/write pairs.
struct RaceSearchLimits {
  std::optional<std::chrono::steady_clock::time_point> deadline, restricted_deadline;
  std::size_t memory_mb = 4096;
  bool test_writes_only = false;
};
std::optional<RaceAnswer> search_race(const ir::ThreadModel& tm, const RaceSearchLimits& limits);

/// `siren race`: one query over all data accesses. Under `auto`, when `search_tm` is given (a
/// create site can run out of instances), first the thread-modular race-freedom proof for any
/// number of threads (for CheckOptions::modular_share of the time; `modular`: only it); then
/// the explicit-state search (search_race, with CheckOptions' shares of the time; `explicit`:
/// only it), on
/// `search_tm` when given: the same program's model that blocks where a create site runs out
/// of instances (its SAFE is then up to that many threads), then the BMC on `tm`.
RaceAnswer check_race(const ir::ThreadModel& tm, const CheckOptions& options, CheckStats* stats = nullptr,
                      const ir::ThreadModel* search_tm = nullptr);

}  // namespace siren::race
