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

/// check(tm, options), then `siren check`'s thread-limit retry: while the answer is UNKNOWN
/// because the thread-instance limit `threads` is reachable and the deadline has not passed,
/// check the model `with_threads(2 * threads)` builds (nullopt: stop), up to `max_threads`. A
/// violation found with more threads is real (and replayed); SAFE still needs the limit to be
/// unreachable in the model that gave it.
CheckResult check_growing_threads(const ir::ThreadModel& tm, const CheckOptions& options, unsigned threads,
                                  unsigned max_threads,
                                  const std::function<std::optional<ir::ThreadModel>(unsigned threads)>& with_threads);

}  // namespace siren::check
