// The engine choice of `siren check` (check/check.hpp): `explicit` runs the explicit-state
// search alone, `bmc` the interleaved BMC alone, and `auto` the explicit search first for a
// share of the time limit (it proves SAFE for small state spaces, including programs with
// infinite executions, which BMC never can), then the BMC with the time that is left (wide
// nondet inputs, deep state spaces). Both engines' counterexamples are replayed through the
// concrete interpreter (ir/trace.hpp) before they become an UNSAFE verdict.
#include "check/check.hpp"

#include "encoder/bmc.hpp"
#include "explicit/explorer.hpp"
#include "explicit/search.hpp"
#include "modular/thread_modular.hpp"

#include <chrono>
#include <new>
#include <tuple>

namespace siren::check {

bool thread_limit_reached(const CheckResult& r) {
  return r.verdict == Verdict::Unknown && !r.internal_error && r.limit == ir::LimitKind::Threads;
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
  res.thread_cut_reached = res.thread_cut_reached || sr.thread_cut;
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
      apply_thread_bound(res, tm.thread_bound);
      return true;
    case explicit_state::SearchVerdict::Unknown:
      break;
  }
  res.verdict = Verdict::Unknown;
  res.reason = sr.reason;
  res.time_limit = sr.time_limit;
  // A MemSafety / Limit error is reachable (found by execution, so real): the answer cannot be
  // SAFE any more, only UNSAFE if some other execution violates the property. The search looked
  // for that in its (shortened) budget; the user gets the limit now instead of after the whole
  // timeout, with what to change (e.g. --threads).
  if (sr.other_error) {
    res.reason = sr.other_error->text + (sr.exhausted ? "" : "; no property violation among the " +
                                                                 std::to_string(sr.states) + " states explored");
    res.limit = sr.other_error->limit;
    res.time_limit = false;
    return true;
  }
  if (only) return true;
  res.engine = "bmc";
  res.reason.clear();
  res.time_limit = false;
  return false;
}

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names{"auto", "bmc", "explicit", "modular"};
  return names;
}

unsigned context_switches(const std::vector<ir::TraceRow>& trace) {
  unsigned n = 0;
  for (std::size_t i = 1; i < trace.size(); ++i) n += trace[i].thread != trace[i - 1].thread;
  return n;
}

void shorten_counterexample(const ir::ThreadModel& tm, const CheckOptions& options, CheckResult& res) {
  using clock = std::chrono::steady_clock;
  if (res.verdict != Verdict::Unsafe || res.trace.size() < 2 || res.schedule.size() != res.trace.size()) return;
  res.stats.found_steps = static_cast<unsigned>(res.trace.size());
  res.stats.found_statements = static_cast<unsigned>(ir::statement_rows(res.trace).size());
  res.stats.found_switches = context_switches(res.trace);
  const auto now = clock::now();
  auto budget = std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(options.shorten_seconds));
  if (options.deadline) {
    // A fifth of the time left, but not less than 2 s (half of what is left when that is less
    // than 4 s) after an engine that took long; never past the deadline.
    const clock::duration left = *options.deadline - now;
    const clock::duration floor = std::min<clock::duration>(std::chrono::seconds(2), left / 2);
    budget = std::min(budget, std::max(left / 5, floor));
  }
  if (budget <= clock::duration::zero()) return;
  const auto end = now + budget;
  const bool judge = !options.test_shorten_unjudged;
  // The best counterexample so far: fewest statements, then context switches, then steps.
  auto key = [](const std::vector<ir::TraceRow>& rows) {
    return std::make_tuple(ir::statement_rows(rows).size(), context_switches(rows), rows.size());
  };
  ir::ReplayedTrace best{res.trace, res.initial, res.schedule, {}};
  bool improved = false;
  auto consider = [&](const std::vector<ir::Value>& initial, const std::vector<ir::Step>& schedule) {
    if (schedule == best.schedule && initial == best.initial) return;
    ir::ReplayedTrace t = ir::replay_counterexample(tm, initial, schedule);
    if (!t.failure.empty() || key(t.rows) >= key(best.rows)) return;
    best = std::move(t);
    improved = true;
  };
  // 1. The engine's trace, minimized (ir::minimize_schedule: per thread, ddmin, switches), for
  //    at most two thirds (0.25 s on the longest shared trace, bounded_buffer's 1403 steps).
  std::vector<ir::Step> minimized =
      ir::minimize_schedule(tm, res.initial, res.schedule, now + budget * 2 / 3, judge);
  if (!judge) {
    // TEST ONLY (test_shorten_unjudged): taken as it is, without replaying it.
    res.schedule = std::move(minimized);
    res.trace.resize(std::min(res.trace.size(), res.schedule.size()));
    res.bound = static_cast<unsigned>(res.schedule.size());
    return;
  }
  consider(res.initial, minimized);
  // 2. Half of what is left: a breadth-first search for a violation in fewer steps than that
  //    (a shortest one in steps, when it finishes), with the trace's nondet values in its
  //    domains; what it finds is minimized in turn with the rest.
  if (clock::now() < end && best.schedule.size() >= 2) {
    explicit_state::ExploreOptions eo;
    eo.bound = best.schedule.size() - 1;
    eo.count_schedules = false;
    eo.stop_at_violation = true;
    eo.max_states = 500'000;
    for (const ir::TraceRow& row : res.trace)
      if (row.nondet) eo.nondet_extra.push_back(*row.nondet);
    eo.deadline = clock::now() + (end - clock::now()) / 2;
    const explicit_state::ExploreResult er = explicit_state::explore(tm, eo);
    if (er.verdict == explicit_state::ExploreVerdict::Unsafe) {
      consider(er.error_initial_nondet, er.error_trace);
      consider(er.error_initial_nondet, ir::minimize_schedule(tm, er.error_initial_nondet, er.error_trace, end));
    }
  }
  if (improved) set_counterexample(res, std::move(best));  // replayed: every candidate was
}

bool check_modular(const ir::ThreadModel& tm, const CheckOptions& options, CheckResult& res) {
  modular::ModularOptions mo;
  mo.deadline = options.deadline;
  mo.test_no_interference = options.test_modular_no_interference;
  const modular::ModularResult m = modular::prove_any_number_of_threads(tm, mo);
  res.stats.states = m.pairs;
  res.stats.modular_seconds = m.seconds;
  res.stats.reduction_text.push_back({"modular", m.proven ? "proven" : m.reason});
  if (!m.proven) {
    res.verdict = Verdict::Unknown;
    res.reason = "no proof for any number of threads: " + m.reason;
    return false;
  }
  res.verdict = Verdict::Safe;
  res.bound = 0;
  res.engine = "modular";
  res.any_number_of_threads = true;
  res.method = modular::kMethod;
  return true;
}

CheckResult check(const ir::ThreadModel& tm, const CheckOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  CheckResult res;
  try {
    if (options.engine == "modular") {
      check_modular(tm, options, res);
    } else {
      const bool done = options.engine != "bmc" && !options.count_schedules && check_explicit(tm, options, res);
      if (!done) encoder::run_bmc(tm, options, res);
      apply_thread_bound(res, tm.thread_bound);
      if (options.shorten) shorten_counterexample(tm, options, res);
    }
    if (res.verdict == Verdict::Safe && res.method.empty())
      res.method = res.engine == "explicit" ? "explicit-state search (every reachable state visited)"
                                            : "bmc completeness check (every execution ends within the bound)";
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

namespace {

// `options` with a fraction `f` of the time left until its deadline (none: none).
CheckOptions share_of(const CheckOptions& options, double f) {
  using clock = std::chrono::steady_clock;
  CheckOptions o = options;
  if (options.deadline)
    o.deadline = clock::now() + std::chrono::duration_cast<clock::duration>((*options.deadline - clock::now()) * f);
  return o;
}

CheckResult grow_threads(const ir::ThreadModel& tm, const CheckOptions& options, unsigned threads,
                         unsigned max_threads,
                         const std::function<std::optional<ir::ThreadModel>(unsigned threads)>& with_threads) {
  using clock = std::chrono::steady_clock;
  auto time_left = [&] { return !(options.deadline && clock::now() >= *options.deadline); };
  if (tm.thread_bound > 0 && max_threads > threads && options.deadline && !options.count_schedules) {
    // A create site can run out of instances: executions are cut at `threads` (where a cut is
    // reachable). An answer complete for n threads grows them (doubling, while each answer is
    // complete); a violation or SAFE ends the schedule.
    auto grow = [&](CheckResult r, unsigned n) {
      for (unsigned more = n * 2; more <= max_threads && time_left(); more *= 2) {
        const std::optional<ir::ThreadModel> again = with_threads(more);
        if (!again) break;
        CheckResult next = check(*again, options);
        if (next.verdict != Verdict::Unsafe && next.verdict != Verdict::Safe && !complete_up_to_threads(next)) break;
        r = std::move(next);
        if (r.verdict != Verdict::SafeUpToBound) break;
      }
      return r;
    };
    // A third of the time with `threads` threads.
    CheckResult r = check(tm, share_of(options, 1.0 / 3));
    if (r.verdict == Verdict::Unsafe || r.verdict == Verdict::Safe) return r;
    if (complete_up_to_threads(r)) return grow(std::move(r), threads);
    // An answer bounded in steps (both bounds stated when a cut was reached) stands; without a
    // cut the program may fit after all: the rest of the time with `threads` threads.
    if (r.verdict == Verdict::SafeUpToBound) return r;
    if (!r.thread_cut_reached) return check(tm, options);
    // Some execution needs more than `threads` threads. A bug that needs them is often found
    // fast with enough threads (pthread/sigma: 17 threads, UNSAFE in 0.04 s with 32, no answer
    // in 60 s with 8 or 16): a quarter of the time left for each of 2x, 4x, ... threads.
    for (unsigned more = threads * 2; more <= max_threads && time_left(); more *= 2) {
      const std::optional<ir::ThreadModel> again = with_threads(more);
      if (!again) break;
      CheckResult c = check(*again, share_of(options, 0.25));
      if (c.verdict == Verdict::Unsafe || c.verdict == Verdict::Safe) return c;
      if (complete_up_to_threads(c)) return grow(std::move(c), more);
    }
    // Threads that run the same code multiply the states about tenfold per thread
    // (pthread-ext/06_ticket: 0.5 M states with 6 threads, 5.6 M with 7, more than the time
    // allows with 8): 2, 3, ..., `threads` - 1 while each check is complete in the time left.
    // The answer is a violation, or the complete answer with the most threads, else one
    // bounded in steps too, else the first.
    std::optional<CheckResult> best;
    for (unsigned n = 2; n < threads && time_left(); ++n) {
      const std::optional<ir::ThreadModel> fewer = with_threads(n);
      if (!fewer) break;
      CheckResult c = check(*fewer, options);
      if (c.verdict == Verdict::Unsafe) return c;
      if (complete_up_to_threads(c)) {
        best = std::move(c);
        continue;
      }
      if (!best && c.verdict == Verdict::SafeUpToBound) best = std::move(c);  // bounded in steps too
      break;
    }
    return best ? *best : r;
  }
  CheckResult result = check(tm, options);
  for (unsigned more = threads * 2; more <= max_threads && thread_limit_reached(result) && time_left(); more *= 2) {
    const std::optional<ir::ThreadModel> again = with_threads(more);
    if (!again) break;
    result = check(*again, options);
  }
  return result;
}

}  // namespace

CheckResult check_growing_threads(const ir::ThreadModel& tm, const CheckOptions& options, unsigned threads,
                                  unsigned max_threads,
                                  const std::function<std::optional<ir::ThreadModel>(unsigned threads)>& with_threads) {
  if (options.engine == "modular" || tm.thread_bound == 0 || options.engine != "auto" || options.count_schedules)
    return options.engine == "modular" ? check(tm, options) : grow_threads(tm, options, threads, max_threads, with_threads);
  // Some execution may need more threads than any model has: a proof for any number first,
  // then the bounded answers of the thread schedule, which say why there is no proof.
  CheckOptions o = share_of(options, options.modular_share);
  o.engine = "modular";
  CheckResult proof = check(tm, o);
  if (proof.verdict == Verdict::Safe) return proof;
  CheckResult r = grow_threads(tm, options, threads, max_threads, with_threads);
  r.stats.reduction_text.push_back({"modular", proof.reason});
  return r;
}

}  // namespace siren::check
