// Interleaved ("sel") bounded model checking of a thread model (DESIGN.md §B2): one thread
// step per time frame, the property checked at every depth in one incremental solver, a
// completeness check that turns "no violation up to K" into SAFE when no execution is longer
// than K steps, and every counterexample replayed through the concrete interpreter.
//
// The verdict is data (CheckResult), never an exception.
#pragma once

#include "ir/thread_model.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace siren::encoder {

enum class Verdict { Unsafe, Safe, SafeUpToBound, Unknown };

/// "UNSAFE", "SAFE", "SAFE_UP_TO_BOUND", "UNKNOWN" (the --json spelling).
const char* verdict_name(Verdict v);

/// How `check` searches (`--engine`):
///  bmc       interleaved BMC only (DESIGN.md §B2);
///  explicit  the explicit-state search of ir/search.hpp only (SAFE when every reachable state was
///            visited, UNSAFE with a replayed trace, else UNKNOWN);
///  auto      explicit-state search first, for at most `explicit_share` of the time limit (or
///            `explicit_share_restricted` once a nondet value comes from a restricted domain or
///            a MemSafety / Limit error was found, so that the search can only find errors, not
///            prove SAFE; a reachable MemSafety / Limit error without a property violation ends
///            the check with UNKNOWN and that error as the reason) and
///            `explicit_memory_mb` of state storage, then BMC with the time that is left. The
///            explicit search answers programs whose reachable state space is small (including
///            SAFE for programs with infinite executions, which BMC can never prove); BMC answers
///            programs with wide nondet inputs and deep state spaces.
/// The library default is bmc (race, triage and the tests rely on BMC's bounded semantics);
/// `siren check` defaults to auto.
struct CheckOptions {
  std::string engine = "bmc";
  double explicit_share = 0.8;
  double explicit_share_restricted = 0.3;
  std::size_t explicit_memory_mb = 4096;
  unsigned bound = 200;             // K: executions of at most K steps are explored
  std::string reduction = "none";   // reduction/scheduler_constraints.hpp names
  std::string solver = "cadical";
  /// false (default): every frame is a real step and the property is asked at every depth.
  /// true: frames may be idle (absorbing), so one query at depth k covers all depths <= k and
  /// the property is asked only at checkpoints (measured slower on the SV-COMP tasks so far).
  bool absorbing_idle = false;
  /// Give up (UNKNOWN "timeout") when this point is passed; checked between frames and
  /// inside the solver.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Instead of checking: count the complete schedules the encoded scheduler admits up to the
  /// bound (CheckResult::schedules), by enumerating models over sel^0..sel^{k-1} with blocking
  /// clauses. Complete, as the explorer counts them (docs/semantics.md): an execution that ends
  /// (no thread can move), ends in an error step, or has K steps. For programs without nondet.
  bool count_schedules = false;
  std::uint64_t max_schedules = 10'000'000;  // give up counting beyond this
};

/// One replayed step of a counterexample.
struct TraceRow {
  unsigned step = 0;        // 1-based
  std::string thread;       // ThreadCode::name
  std::string file;
  unsigned line = 0;
  std::string stmt;         // Instr::text
  std::vector<std::pair<std::string, std::string>> values;  // name, value that changed
  int started_thread = -1;  // a ThreadCreate step: the thread instance it started
  std::string started;      // ... and its name
  /// A __VERIFIER_nondet_*() call: the value it returned (signed for signed types). Lets the
  /// native oracle (native/) replay the trace with the same inputs.
  std::optional<std::int64_t> nondet;
  /// What the step does to memory other threads may see: 'R' reads, 'W' writes, 'B' both,
  /// 'S' a synchronisation (lock, unlock, create, join, atomic section), 'L' none (a step on
  /// locals only). The native oracle matches its scheduling points to these steps.
  char access = 'L';
};

struct CheckStats {
  unsigned frames = 0;
  std::uint64_t vars = 0;
  std::uint64_t clauses = 0;
  std::uint64_t solve_calls = 0;
  std::uint64_t states = 0;         // explicit-state search: distinct states stored
  double explicit_seconds = 0;      // time spent in the explicit-state search
  double solve_seconds = 0;
  double total_seconds = 0;
  double peak_rss_mb = 0;
  /// The scheduler reduction's own size statistics (e.g. mpor_dc_vars, mpor_dep_vars).
  std::vector<std::pair<std::string, std::uint64_t>> reduction;
};

struct CheckResult {
  Verdict verdict = Verdict::Unknown;
  /// UNSAFE: steps of the trace; SAFE: the depth the completeness check passed at;
  /// SAFE_UP_TO_BOUND: K; UNKNOWN: the largest bound fully checked.
  unsigned bound = 0;
  std::string reason;               // UNKNOWN (and internal errors): why
  bool internal_error = false;      // a bug in siren (e.g. a trace that did not replay)
  std::vector<TraceRow> trace;      // UNSAFE only
  /// Which engine gave the verdict: "bmc" or "explicit" (SAFE from it: every reachable state
  /// was visited; `bound` is then 0).
  std::string engine = "bmc";
  CheckStats stats;
  /// CheckOptions::count_schedules: the number of complete schedules (unset: not counted,
  /// `reason` says why).
  std::optional<std::uint64_t> schedules;
};

/// The engine names `CheckOptions::engine` accepts.
const std::vector<std::string>& engine_names();

/// Did `r` end UNKNOWN because a thread-instance limit (--threads) is reachable? (Its reason
/// is the "modelling limit reached at LOC: threads: ..." that every engine writes.)
bool thread_limit_reached(const CheckResult& r);

/// The explicit-state part of --engine explicit / auto (ir/search.hpp) on its own: fills `res`
/// and returns true when that is the final answer (UNSAFE with a replayed trace, SAFE, or an
/// answer BMC cannot improve on); false when BMC should run next (auto).
bool check_explicit(const ir::ThreadModel& tm, const CheckOptions& options, CheckResult& res);

/// Runs the checker. Catches std::bad_alloc (UNKNOWN "memory limit").
CheckResult check(const ir::ThreadModel& tm, const CheckOptions& options);

/// Peak resident set size of this process in MiB.
double peak_rss_mb();

}  // namespace siren::encoder
