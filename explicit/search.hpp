// Explicit-state model checking (`siren check --engine explicit` and `auto`; with a target,
// siren race's and triage's search for a racy state, race/race.cpp): a search over the global
// states of a ThreadModel with the concrete interpreter, built for speed, not for counting. The
// explorer (explicit/explorer.hpp) stays the simple test oracle; this engine is checked against
// it (tests/unit/check/search_test.cpp, and siren-fuzz's `--engine explicit`).
//
// * States are stored once, flattened into fixed-size rows of 64-bit words (long rows are cut
//   into 8-word blocks stored once each); one open-addressing hash table per store.
// * Depth-first search with partial-order reduction by singleton ample sets: when thread t's
//   next step is *invisible* (an Assign, Havoc, Goto or enabled Assume whose expressions read
//   no memory: no Load, no ValidPtr), or visible but in conflict with nothing any other
//   unfinished thread can still execute (a static summary of the rest of each thread's code),
//   only t's step is expanded. Such a step commutes with every step of every other thread, and
//   the others cannot enable or disable it except by blocking every thread (atomic sections,
//   abort), which postpones it without changing what they do. Cycle proviso (DFS): if one of
//   those successors is on the DFS stack, the state is expanded in full. This preserves the
//   reachability of every error (docs/semantics.md, "Errors"), not depths: the search has no
//   step bound, and counterexamples are not the shortest ones. Without reduction (`por =
//   false`) the search is breadth-first.
// * Nondet values (Havoc, init_nondet cells) range over a small domain, as in the explorer; a
//   SAFE answer is only given when no value was drawn from a domain smaller than its type.
//   Indeterminate cells get their value at their first read (see Search in search.cpp).
//   Errors found with restricted values are real (the trace replays).
#pragma once

#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace siren::explicit_state {

struct SearchOptions {
  std::int64_t nondet_min = -2;  // nondet domain (normalized into each type)
  std::int64_t nondet_max = 2;
  std::size_t max_nondet_combinations = 4096;  // initial nondet cells / one Malloc step
  std::size_t max_memory_mb = 2048;            // state storage (arena + table + parents)
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Give up earlier, at this point, once a nondet value has been drawn from a restricted domain
  /// or a MemSafety / Limit error was found (the search can then no longer answer SAFE, only
  /// find Property errors).
  std::optional<std::chrono::steady_clock::time_point> restricted_deadline;
  bool por = true;  // ample sets of invisible steps (see above)
  /// Also singleton ample sets of visible steps that conflict with nothing another unfinished
  /// thread can still execute (a static summary of the rest of its code; Search::ample_thread).
  bool por_visible = true;
  /// A state property searched for instead of Property errors (`siren race`: two threads'
  /// next steps race). The first visited state where it holds ends the search as Unsafe, its
  /// error_trace leading to that state (no error step after it). `settled[t]` is 0 when thread
  /// t's next step reads an indeterminate cell whose value is not chosen yet (its address
  /// operands then mean nothing in the state): `target` must ignore that thread's next step,
  /// and the search no longer answers Safe (SearchResult::target_unsettled). A Property
  /// error ends its execution without being reported (an assertion is not the property).
  /// Every reachable state where the property holds is kept by the partial-order reduction
  /// when the property is one of next steps' memory accesses: an ample step of one thread
  /// reads or writes nothing another thread can still access, so it changes neither the other
  /// threads' next steps nor their addresses, and a state of the full graph where some pair
  /// holds is matched by one of the reduced graph where a pair holds (docs/semantics.md).
  std::function<bool(const ir::State&, const std::vector<char>& settled)> target;
};

enum class SearchVerdict {
  Unsafe,   // a Property error is reachable (error_trace replays to it)
  Safe,     // every reachable state visited, no error, no restricted nondet value
  Unknown,  // see `reason`
};

struct SearchResult {
  SearchVerdict verdict = SearchVerdict::Unknown;
  std::string reason;
  bool time_limit = false;  // Unknown because SearchOptions::deadline (or restricted_deadline) passed
  /// Every reachable state (of the restricted nondet domain) was visited.
  bool exhausted = false;
  /// A MemSafety / Limit error is reachable (real: found by execution): never SAFE.
  std::optional<ir::ErrorReason> other_error;
  bool nondet_restricted = false;
  /// A visited state has a thread blocked by the thread bound (ir::is_thread_bound_cut): SAFE
  /// holds only up to ir::ThreadModel::thread_bound threads.
  bool thread_cut = false;
  /// SearchOptions::target: some visited state had a thread whose next step read an unchosen
  /// indeterminate cell, so the target was not evaluated for it there: never Safe.
  bool target_unsettled = false;
  // Unsafe: the error as replay() takes it, error step last (with a target: the path to the
  // state where it holds, no error step).
  std::vector<ir::Value> error_initial_nondet;
  std::vector<ir::Step> error_trace;
  std::string error_message;
  std::size_t states = 0;      // distinct states stored
  std::size_t expanded = 0;    // states whose successors were computed
  std::size_t reduced = 0;     // ... of them through a singleton ample set
  std::size_t state_words = 0; // words per stored state
};

SearchResult search(const ir::ThreadModel& tm, const SearchOptions& options);

/// Is instruction `pc` of thread `t` invisible (see above)? Exposed for tests.
bool invisible_step(const ir::ThreadModel& tm, ir::ThreadId t, std::uint32_t pc);

}  // namespace siren::explicit_state
