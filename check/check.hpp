// `siren check` as a library call: the engine choice (`--engine auto|bmc|explicit`) over the
// explicit-state search (explicit/search.hpp) and the interleaved BMC (encoder/bmc.hpp), with
// the vocabulary of check/result.hpp. The layer above both engines; nothing below includes it.
#pragma once

#include "check/result.hpp"
#include "ir/thread_model.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace siren::check {

/// The engine names `CheckOptions::engine` accepts.
const std::vector<std::string>& engine_names();

/// Did `r` end UNKNOWN because a thread-instance limit (--threads) is reachable
/// (CheckResult::limit, ir::LimitKind::Threads)?
bool thread_limit_reached(const CheckResult& r);

/// An UNKNOWN at ir::LimitKind::HeapSlots (a malloc site executed more often than it has
/// objects, ir::ThreadModelOptions::heap_slots): check and race load the program again with 16
/// times as many, to this many, while time is left; at ir::LimitKind::Capacity, with 16 times
/// the capacity of objects of a non-constant size (frontend::FrontendOptions::capacity).
inline constexpr unsigned kMaxHeapSlots = 256;

/// The explicit-state part of --engine explicit / auto (explicit/search.hpp) on its own: fills
/// `res` and returns true when that is the final answer (UNSAFE with a replayed trace, SAFE, or
/// an answer BMC cannot improve on); false when BMC should run next (auto).
bool check_explicit(const ir::ThreadModel& tm, const CheckOptions& options, CheckResult& res);

/// Context switches of a trace: neighbouring steps of different threads.
unsigned context_switches(const std::vector<ir::TraceRow>& trace);

/// An UNSAFE answer's counterexample made shorter where possible (issue 23), within the options'
/// shortening budget: the trace minimized by replay (ir::minimize_schedule: per-thread suffixes
/// and loop iterations, ddmin, runs moved to merge), then a breadth-first search of the explorer
/// (explicit/explorer.hpp) for a property violation in fewer steps than that, with the trace's
/// nondet values in its domains, minimized in turn. Every candidate is replayed
/// (ir::replay_counterexample); the one with the fewest statements (ir::statement_rows), then
/// context switches, then steps replaces the trace; the stats keep the found trace's size.
void shorten_counterexample(const ir::ThreadModel& tm, const CheckOptions& options, CheckResult& res);

/// Runs the checker (an UNSAFE counterexample shortened, CheckOptions::shorten). Catches
/// std::bad_alloc (UNKNOWN "memory limit").
CheckResult check(const ir::ThreadModel& tm, const CheckOptions& options);

/// check(tm, options), with `siren check`'s thread schedule when max_threads > threads:
///  * a model with a thread bound (ir::ThreadModel::thread_bound: some create site can run out
///    of instances; with a deadline): a third of the time with `threads` threads. A violation
///    or SAFE ends it; an answer complete for its threads (complete_up_to_threads) grows the
///    threads (`with_threads(2 * n)`, nullopt: stop) up to `max_threads` while each answer is
///    complete; an answer bounded in steps stands; without a cut reached
///    (CheckResult::thread_cut_reached), `threads` threads again with the whole time. With a
///    cut reached (some execution needs more threads): 2x, 4x, ... threads with a quarter of
///    the time left each (a violation, SAFE or a complete answer, then grown, ends it), then
///    2, 3, ..., threads - 1 while each is complete: the complete answer with the most threads,
///    else one bounded in steps too, else the first answer;
///  * a model that fails at the thread limit (UNKNOWN, thread_limit_reached): checked again
///    with twice the threads while that is the answer and time is left.
CheckResult check_growing_threads(const ir::ThreadModel& tm, const CheckOptions& options, unsigned threads,
                                  unsigned max_threads,
                                  const std::function<std::optional<ir::ThreadModel>(unsigned threads)>& with_threads);

}  // namespace siren::check
