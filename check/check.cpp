// The engine choice of `siren check` (check/check.hpp): `explicit` runs the explicit-state
// search alone, `bmc` the interleaved BMC alone, and `auto` the explicit search first for a
// share of the time limit (it proves SAFE for small state spaces, including programs with
// infinite executions, which BMC never can), then the BMC with the time that is left (wide
// nondet inputs, deep state spaces). Both engines' counterexamples are replayed through the
// concrete interpreter (ir/trace.hpp) before they become an UNSAFE verdict.
#include "check/check.hpp"

#include "encoder/bmc.hpp"
#include "explicit/search.hpp"

#include <chrono>
#include <new>

namespace siren::check {

bool thread_limit_reached(const CheckResult& r) {
  return r.verdict == Verdict::Unknown && !r.internal_error && r.reason.rfind("modelling limit reached at ", 0) == 0 &&
         r.reason.find(": threads: ") != std::string::npos;
}

bool check_explicit(const ir::ThreadModel& tm, const CheckOptions& options, CheckResult& res) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const bool only = options.engine == "explicit";
  explicit_state::SearchOptions so;
  so.max_memory_mb = options.explicit_memory_mb;
  auto share = [&](double f) {
    return start + std::chrono::duration_cast<clock::duration>((*options.deadline - start) * f);
  };
  if (options.deadline) {
    so.deadline = only ? *options.deadline : share(options.explicit_share);
    if (!only) so.restricted_deadline = share(options.explicit_share_restricted);
  }
  const explicit_state::SearchResult sr = explicit_state::search(tm, so);
  res.stats.states = sr.states;
  res.stats.explicit_seconds = std::chrono::duration<double>(clock::now() - start).count();
  res.engine = "explicit";
  switch (sr.verdict) {
    case explicit_state::SearchVerdict::Unsafe:
      set_counterexample(res, ir::replay_counterexample(tm, sr.error_initial_nondet, sr.error_trace));
      return true;
    case explicit_state::SearchVerdict::Safe:
      res.verdict = Verdict::Safe;
      res.bound = 0;
      return true;
    case explicit_state::SearchVerdict::Unknown:
      break;
  }
  res.verdict = Verdict::Unknown;
  res.reason = sr.reason;
  // A MemSafety / Limit error is reachable (found by execution, so real): the answer cannot be
  // SAFE any more, only UNSAFE if some other execution violates the property. The search looked
  // for that in its (shortened) budget; the user gets the limit now instead of after the whole
  // timeout, with what to change (e.g. --threads).
  if (sr.other_error) {
    res.reason = *sr.other_error + (sr.exhausted ? "" : "; no property violation among the " +
                                                            std::to_string(sr.states) + " states explored");
    return true;
  }
  if (only) return true;
  res.engine = "bmc";
  res.reason.clear();
  return false;
}

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names{"auto", "bmc", "explicit"};
  return names;
}

CheckResult check(const ir::ThreadModel& tm, const CheckOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  CheckResult res;
  try {
    const bool done = options.engine != "bmc" && !options.count_schedules && check_explicit(tm, options, res);
    if (!done) encoder::run_bmc(tm, options, res);
  } catch (const std::bad_alloc&) {
    res.verdict = Verdict::Unknown;
    res.trace.clear();
    res.reason = "memory limit";
  }
  res.stats.total_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  res.stats.peak_rss_mb = peak_rss_mb();
  return res;
}

CheckResult check_growing_threads(const ir::ThreadModel& tm, const CheckOptions& options, unsigned threads,
                                  unsigned max_threads,
                                  const std::function<std::optional<ir::ThreadModel>(unsigned threads)>& with_threads) {
  CheckResult result = check(tm, options);
  for (unsigned more = threads * 2; more <= max_threads && thread_limit_reached(result) &&
                                    !(options.deadline && std::chrono::steady_clock::now() >= *options.deadline);
       more *= 2) {
    const std::optional<ir::ThreadModel> again = with_threads(more);
    if (!again) break;
    result = check(*again, options);
  }
  return result;
}

}  // namespace siren::check
