// Explicit-state exploration of a ThreadModel with the concrete interpreter (`siren explore`).
//
// Breadth-first over global states (State hashing makes it terminate on loops), one step =
// one instruction of one thread (the encoder's granularity). Nondet values (Havoc, init_nondet
// cells) are drawn from a small domain; when the program consumes a nondet value whose type
// has more values than the domain, a SAFE answer is reported as UNKNOWN.
//
// Schedules and Mazurkiewicz classes are counted by enumerating every complete execution
// (depth-first, no state merging), only for programs without nondet choices, and only while
// the number of executions stays under ExploreOptions::max_paths (beyond it, schedules alone are
// counted as paths in the state graph, memoised per (state, depth)); an unbounded exploration
// whose state graph has a cycle has infinitely many schedules and is not counted.
// Mazurkiewicz classes are over transitions (DESIGN.md §B1): a step, or a whole atomic block
// (AtomicBegin to its AtomicEnd; its accesses are the union of its steps', without `atomic`,
// which is 0 between transitions); an execution that ends inside a block keeps that block last.
#pragma once

#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <chrono>
#include <compare>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace siren::explicit_state {

struct ExploreOptions {
  std::size_t bound = 0;            // max steps per execution; 0 = unbounded
  std::int64_t nondet_min = -2;     // nondet domain (normalized into each type)
  std::int64_t nondet_max = 2;
  std::size_t max_states = 2'000'000;   // stop (verdict Unknown) beyond this many states
  bool count_schedules = true;          // schedules + Mazurkiewicz classes
  std::size_t max_paths = 200'000;      // cap on complete executions enumerated for counting
  std::size_t max_nondet_combinations = 4096;  // per initial state set / per Malloc step
  /// Values added to every integer nondet domain (e.g. those a counterexample to be shortened
  /// used, so that the search can take them again).
  std::vector<std::int64_t> nondet_extra;
  /// Stop at the first property violation: breadth-first, a shortest one (in steps). The
  /// verdict is then UNSAFE, or UNKNOWN when none was found (nothing else is concluded).
  bool stop_at_violation = false;
  /// Stop (verdict UNKNOWN, reason "timeout") when this point is passed.
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

enum class ExploreVerdict { Unsafe, Safe, SafeUpToBound, Unknown };
const char* explore_verdict_name(ExploreVerdict v);  // "UNSAFE", "SAFE", "SAFE up to bound", "UNKNOWN"

/// A global control state: one entry per thread, its pc, or kNotStarted / kFinished.
struct ControlState {
  static constexpr std::int32_t kNotStarted = -1;
  static constexpr std::int32_t kFinished = -2;
  std::vector<std::int32_t> pcs;
  bool terminated = false;  // after Abort / main's return
  auto operator<=>(const ControlState&) const = default;
};

struct ExploreResult {
  ExploreVerdict verdict = ExploreVerdict::Unknown;
  std::string reason;  // why Unknown / SafeUpToBound

  // The first error found (BFS: a shortest one; Property errors take precedence).
  std::optional<ir::AssertKind> error_kind;
  std::string error_message;
  ir::SourceLoc error_loc;
  ir::ThreadId error_thread = 0;
  std::vector<ir::Value> error_initial_nondet;  // for replay()
  std::vector<ir::Step> error_trace;            // the schedule with nondet values, error step last

  std::size_t states = 0;                   // distinct reachable global states (error steps excluded)
  std::set<ControlState> control_states;    // their control parts
  std::size_t max_depth = 0;                // deepest BFS level reached
  bool has_nondet = false;                  // some nondet value was consumed
  bool nondet_restricted = false;           // ... from a domain smaller than its type
  bool bound_hit = false;                   // some state at depth `bound` could still move
  bool state_limit_hit = false;

  std::optional<std::uint64_t> schedules;             // distinct complete schedules
  std::optional<std::uint64_t> mazurkiewicz_classes;  // distinct happens-before orders of transitions
  std::string counting_note;                          // why they were not computed
};

ExploreResult explore(const ir::ThreadModel& tm, const ExploreOptions& options);

/// A hash of a whole global state (memory, liveness, threads, atomic, terminated), for sets of
/// visited states.
struct StateHash {
  std::size_t operator()(const ir::State& s) const;
};

/// The nondet values tried for type `t`: lo..hi normalized into `t` (duplicates removed; only
/// null for pointers); sets `restricted` when the type has more values than that.
std::vector<ir::Value> nondet_domain(ir::Type t, std::int64_t lo, std::int64_t hi, bool& restricted);
/// The Cartesian product of `doms`, at most `cap` tuples (`capped` is set when cut).
std::vector<std::vector<ir::Value>> nondet_product(const std::vector<std::vector<ir::Value>>& doms, std::size_t cap,
                                               bool& capped);

/// `main:file.c:12 t#1:file.c:5 t#2:-` (`-` not started, `done` finished; ` [terminated]`).
std::string format_control_state(const ir::ThreadModel& tm, const ControlState& cs);

}  // namespace siren::explicit_state
