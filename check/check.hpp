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

/// Did `r` end UNKNOWN because a thread-instance limit (--threads) is reachable? (Its reason
/// is the "modelling limit reached at LOC: threads: ..." that every engine writes.)
bool thread_limit_reached(const CheckResult& r);

/// The explicit-state part of --engine explicit / auto (explicit/search.hpp) on its own: fills
/// `res` and returns true when that is the final answer (UNSAFE with a replayed trace, SAFE, or
/// an answer BMC cannot improve on); false when BMC should run next (auto).
bool check_explicit(const ir::ThreadModel& tm, const CheckOptions& options, CheckResult& res);

/// Runs the checker. Catches std::bad_alloc (UNKNOWN "memory limit").
CheckResult check(const ir::ThreadModel& tm, const CheckOptions& options);

/// check(tm, options), with `siren check`'s thread schedule when max_threads > threads:
///  * a model that cuts executions at its thread bound (ir::ThreadModel::thread_bound, with a
///    deadline): checked with 2, 3, ..., `threads`, then twice as many threads up to
///    `max_threads` (models from `with_threads(n)`, nullopt: stop) while each check is complete
///    for its threads (complete_up_to_threads) and the deadline has not passed. The answer is
///    a violation (real: replayed) or SAFE as soon as one is found, else the complete answer
///    with the most threads, else the first answer;
///  * a model that fails at the thread limit (UNKNOWN, thread_limit_reached): checked again
///    with twice the threads while that is the answer and time is left.
CheckResult check_growing_threads(const ir::ThreadModel& tm, const CheckOptions& options, unsigned threads,
                                  unsigned max_threads,
                                  const std::function<std::optional<ir::ThreadModel>(unsigned threads)>& with_threads);

}  // namespace siren::check
