// `siren check` as a library call: the engine choice (`--engine auto|bmc|explicit`) over the
// explicit-state search (explicit/search.hpp) and the interleaved BMC (encoder/bmc.hpp), with
// the vocabulary of check/result.hpp. The layer above both engines; nothing below includes it.
#pragma once

#include "check/result.hpp"
#include "ir/thread_model.hpp"

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

}  // namespace siren::check
