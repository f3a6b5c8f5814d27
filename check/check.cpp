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
      apply_thread_bound(res, sr.thread_cut ? tm.thread_bound : 0);
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
    apply_thread_bound(res, res.thread_bound);
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
  auto time_left = [&] { return !(options.deadline && std::chrono::steady_clock::now() >= *options.deadline); };
  if (tm.thread_bound > 0 && max_threads > threads && options.deadline && !options.count_schedules) {
    // Executions are cut at the thread bound (the program can create threads without end, or
    // more than `threads`): the answer is complete for the largest thread count whose check
    // finishes in time. A program whose threads are alike grows about tenfold per thread
    // (pthread-ext/06_ticket: 0.5 M states with 6 threads, 5.6 M with 7, more than the time
    // allows with 8), so the counts rise one by one up to `threads`, then double.
    std::optional<CheckResult> best;
    for (unsigned n = 2; n <= max_threads && time_left(); n = n < threads ? n + 1 : 2 * n) {
      std::optional<ir::ThreadModel> other;
      if (n != threads) {
        other = with_threads(n);
        if (!other) break;
      }
      CheckResult r = check(other ? *other : tm, options);
      if (r.verdict == Verdict::Unsafe || r.verdict == Verdict::Safe) return r;  // Safe: no thread bound left
      if (complete_up_to_threads(r)) {
        best = std::move(r);
        continue;
      }
      if (!best) best = std::move(r);  // nothing complete: the first answer, bounded or UNKNOWN
      break;
    }
    if (best) return *best;
  }
  CheckResult result = check(tm, options);
  for (unsigned more = threads * 2; more <= max_threads && thread_limit_reached(result) && time_left(); more *= 2) {
    const std::optional<ir::ThreadModel> again = with_threads(more);
    if (!again) break;
    result = check(*again, options);
  }
  return result;
}

}  // namespace siren::check
