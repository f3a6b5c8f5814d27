// The vocabulary every engine speaks: the options of a check, its verdict, statistics and
// replayed trace (DESIGN.md §B2, docs/semantics.md). Header-only, so that the engines below
// check/ (the BMC in encoder/, race and reach queries in race/) fill a CheckResult without
// depending on check/'s orchestration (check/check.hpp), which sits above them.
//
// The verdict is data (CheckResult), never an exception.
#pragma once

#include "ir/trace.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace siren::check {

enum class Verdict { Unsafe, Safe, SafeUpToBound, Unknown };

/// "UNSAFE", "SAFE", "SAFE_UP_TO_BOUND", "UNKNOWN" (the --json spelling).
inline const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Unsafe: return "UNSAFE";
    case Verdict::Safe: return "SAFE";
    case Verdict::SafeUpToBound: return "SAFE_UP_TO_BOUND";
    case Verdict::Unknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

/// How `check` searches (`--engine`):
///  bmc       interleaved BMC only (DESIGN.md §B2);
///  explicit  the explicit-state search of explicit/search.hpp only (SAFE when every reachable state was
///            visited, UNSAFE with a replayed trace, else UNKNOWN);
///  modular   the proof for any number of threads of modular/thread_modular.hpp only (SAFE "for
///            any number of threads", else UNKNOWN with the reason it does not apply);
///  auto      for a program that can create any number of threads, that proof first (for
///            `modular_share` of the time); then the explicit-state search, for at most
///            `explicit_share` of the time limit (or
///            `explicit_share_restricted` once a nondet value comes from a restricted domain or
///            a MemSafety / Limit error was found, so that the search can only find errors, not
///            prove SAFE; a reachable MemSafety / Limit error without a property violation ends
///            the check with UNKNOWN and that error as the reason) and
///            `explicit_memory_mb` of state storage, then BMC with the time that is left. The
///            explicit search answers programs whose reachable state space is small (including
///            SAFE for programs with infinite executions, which BMC can never prove); BMC answers
///            programs with wide nondet inputs and deep state spaces.
/// The defaults are `siren check`'s (its options are bound to these fields). `siren race`
/// (race::check_race) under `auto` runs the explicit-state search for a racy state with the
/// same shares, then BMC; reach queries and triage use the BMC whatever `engine` says.
struct CheckOptions {
  std::string engine = "auto";
  double explicit_share = 0.8;
  double explicit_share_restricted = 0.2;  // (both shares from benchmarks/AUTO.md)
  /// auto (and modular): a program that can create any number of threads (a create site can run
  /// out of instances) first gets a proof for any number of threads tried
  /// (modular/thread_modular.hpp), for at most this share of the time limit.
  double modular_share = 0.25;
  /// TEST ONLY: that proof ignores the other threads' steps (modular::ModularOptions::
  /// test_no_interference, deliberately unsound; siren-fuzz --test-modular-no-interference).
  bool test_modular_no_interference = false;
  /// TEST ONLY (`siren race --test-race-search-writes-only`): race::search_race counts only
  /// write/write pairs (deliberately broken: read/write races are missed, a wrong SAFE).
  bool test_race_search_writes_only = false;
  std::size_t explicit_memory_mb = 4096;
  unsigned bound = 200;             // K: executions of at most K steps are explored
  std::string reduction = "sir";    // reduction/scheduler_constraints.hpp names
  std::string solver = "cadical";
  /// How the BMC deepens (`--deepening`, encoder/bmc.cpp): "linear" (default): every frame is a
  /// real step, the property is asked at every depth and completeness at most; "geometric":
  /// frames may be idle (absorbing), so one query at depth d covers every depth <= d, and the
  /// property and completeness are asked at depths 1, 2, 4, 8, ... and K only
  /// (benchmarks/DEEPENING.md compares them).
  std::string deepening = "linear";
  /// BMC step granularity: "instruction" (one frame = one instruction of one thread) or
  /// "transaction" (one frame = one transaction: a visible instruction and the local steps
  /// after it, ir/transactions.hpp); --bound then counts transactions.
  /// TEST ONLY: "test-merge-visible" is "transaction" with a deliberately wrong boundary
  /// (ir::TransactionOptions::test_merge_visible); no command accepts it.
  std::string granularity = "transaction";
  /// Transaction frames: how many times one transaction may run on through the head of a loop
  /// whose body it carries (ir::TransactionOptions::unwind); 0: such a loop ends the
  /// transaction at its head on every iteration. 4 answers the most shared SV-COMP tasks
  /// (benchmarks/GRANULARITY.md).
  unsigned tx_unwind = 4;
  /// Give up (UNKNOWN "timeout") when this point is passed; checked between frames and
  /// inside the solver.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Instead of checking: count the complete schedules the encoded scheduler admits up to the
  /// bound (CheckResult::schedules), by enumerating models over sel^0..sel^{k-1} with blocking
  /// clauses. Complete, as the explorer counts them (docs/semantics.md): an execution that ends
  /// (no thread can move), ends in an error step, or has K steps. For programs without nondet.
  bool count_schedules = false;
  std::uint64_t max_schedules = 10'000'000;  // give up counting beyond this
  /// UNSAFE: look for a shorter counterexample (check::shorten_counterexample): the trace
  /// minimized by replay (ir::minimize_schedule), and a breadth-first search for a violation in
  /// fewer steps, for at most `shorten_seconds` (and a fifth of the time left, but at least 2 s,
  /// or half the time left when that is less than 4 s; never past the deadline).
  bool shorten = true;
  double shorten_seconds = 3;
  /// TEST ONLY: shortening takes the minimized schedule without replaying any candidate
  /// (ir::minimize_schedule's `judge` false), deliberately wrong; no command accepts it.
  bool test_shorten_unjudged = false;
};

struct CheckStats {
  unsigned frames = 0;
  std::string granularity;  // of the BMC's frames ("" when the BMC did not run)
  std::uint64_t vars = 0;
  std::uint64_t clauses = 0;
  std::uint64_t solve_calls = 0;
  std::uint64_t states = 0;         // explicit-state search: distinct states stored (modular: pairs)
  double explicit_seconds = 0;      // time spent in the explicit-state search
  double modular_seconds = 0;       // time spent in the proof for any number of threads
  double solve_seconds = 0;
  double total_seconds = 0;
  double peak_rss_mb = 0;
  /// The scheduler reduction's own size statistics (e.g. mpor_dc_vars, mpor_dep_vars).
  std::vector<std::pair<std::string, std::uint64_t>> reduction;
  /// ... and its textual facts (e.g. sir_gave_up_reason, sir_relevant_vars).
  std::vector<std::pair<std::string, std::string>> reduction_text;
  /// UNSAFE: the counterexample as the engine found it, before shortening: its steps,
  /// statements (ir::statement_rows) and context switches (0 when not shortened).
  unsigned found_steps = 0, found_statements = 0, found_switches = 0;
};

struct CheckResult {
  Verdict verdict = Verdict::Unknown;
  /// UNSAFE: steps of the trace; SAFE: the depth the completeness check passed at;
  /// SAFE_UP_TO_BOUND: K; UNKNOWN: the largest bound fully checked.
  unsigned bound = 0;
  std::string reason;               // UNKNOWN (and internal errors): why
  /// UNKNOWN because of this model limit (the reason says where): check and race translate the
  /// program again with more of it and ask again (ir::LimitKind).
  ir::LimitKind limit = ir::LimitKind::None;
  bool internal_error = false;      // a bug in siren (e.g. a trace that did not replay)
  /// UNKNOWN because a time limit ran out (the reason: "timeout...", and what else was found).
  bool time_limit = false;
  std::vector<ir::TraceRow> trace;      // UNSAFE only
  /// UNSAFE: what `trace` replays (the initial nondet cell values and the schedule), for
  /// shortening it (check::shorten_counterexample).
  std::vector<ir::Value> initial;
  std::vector<ir::Step> schedule;
  /// Which engine gave the verdict: "bmc", "explicit" (SAFE from it: every reachable state
  /// was visited; `bound` is then 0) or "modular" (SAFE for any number of threads).
  std::string engine = "bmc";
  /// SAFE: proven for executions with any number of threads, by `method`.
  bool any_number_of_threads = false;
  /// SAFE: how it was proven (the explicit-state search, the BMC's completeness check or
  /// modular::kMethod); empty otherwise.
  std::string method;
  CheckStats stats;
  /// CheckOptions::count_schedules: the number of complete schedules (unset: not counted,
  /// `reason` says why).
  std::optional<std::uint64_t> schedules;
  /// > 0: only executions with at most this many threads (main included) were explored, since
  /// a pthread_create site could run out of instances (ir::ThreadModel::thread_bound). A SAFE
  /// answer of the engines then becomes SAFE_UP_TO_BOUND with `steps_bounded` false.
  unsigned thread_bound = 0;
  /// An engine reached a state with a thread blocked by the thread bound (ir::is_thread_bound_cut),
  /// whatever the verdict: some execution of the program needs more threads than the model has.
  bool thread_cut_reached = false;
  /// SAFE_UP_TO_BOUND: whether `bound` limits the steps too (false: every execution within the
  /// thread bound was explored to its end).
  bool steps_bounded = true;
};

/// What the engines proved about a model whose executions are cut at a thread bound
/// (`threads`: ir::ThreadModel::thread_bound) when they reached a cut (thread_cut_reached): that
/// no execution with at most `threads` threads violates the property, not that none does. The
/// one place where a reached cut becomes `thread_bound` (SAFE becomes SAFE_UP_TO_BOUND).
inline void apply_thread_bound(CheckResult& r, unsigned threads) {
  if (!threads || !r.thread_cut_reached || (r.verdict != Verdict::Safe && r.verdict != Verdict::SafeUpToBound)) return;
  r.thread_bound = threads;
  if (r.verdict == Verdict::Safe) {
    r.verdict = Verdict::SafeUpToBound;
    r.steps_bounded = false;
  }
}

/// SAFE_UP_TO_BOUND only because of the thread bound: complete for that many threads.
inline bool complete_up_to_threads(const CheckResult& r) {
  return r.verdict == Verdict::SafeUpToBound && r.thread_bound > 0 && !r.steps_bounded;
}

/// Peak resident set size of this process in MiB.
inline double peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

/// UNSAFE with the rows of `t`, or an internal error when the counterexample did not replay.
inline void set_counterexample(CheckResult& res, ir::ReplayedTrace&& t) {
  res.trace = std::move(t.rows);
  res.initial = std::move(t.initial);
  res.schedule = std::move(t.schedule);
  if (!t.failure.empty()) {
    res.verdict = Verdict::Unknown;
    res.internal_error = true;
    res.reason = "internal error: counterexample did not replay (" + t.failure + ")";
    return;
  }
  res.verdict = Verdict::Unsafe;
  res.bound = static_cast<unsigned>(res.trace.size());
}

}  // namespace siren::check
