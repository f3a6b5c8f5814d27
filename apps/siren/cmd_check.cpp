// `siren check FILE.c`: bounded assertion checking with the interleaved BMC encoder
// (check/check.hpp). Prints the verdict (DESIGN.md Part A) and, for UNSAFE, the replayed
// counterexample; --json prints one object. Exit codes: apps/siren/commands.hpp.
#include "apps/siren/commands.hpp"
#include "apps/siren/model_options.hpp"
#include "apps/siren/native_confirmation.hpp"
#include "apps/siren/sarif_output.hpp"
#include "apps/siren/trace_html.hpp"
#include "apps/siren/trace_output.hpp"
#include "apps/siren/witness_output.hpp"
#include "check/check.hpp"
#include "check/portfolio.hpp"
#include "race/race.hpp"
#include "ir/thread_model.hpp"
#include "reduction/scheduler_constraints.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace siren::app {
namespace {

struct CheckArgs {
  std::string file;
  FrontArgs front;
  /// --bound, --reduction, --solver, --engine: bound to these fields, so the defaults of
  /// `siren check` are the library's (check/result.hpp).
  check::CheckOptions options;
  double timeout = 0;    // 0 = none
  unsigned memory = 0;   // MB, 0 = none
  bool json = false;
  bool count_schedules = false;
  std::string reach;  // --reach: thread:file:line,... (empty: check assertions)
  bool threads_given = false;  // --threads on the command line (else more are tried at the limit)
  std::string trace_detail = "statement";
  WitnessArgs witness;
  std::string sarif;  // --sarif FILE ("": none)
  std::string trace_html;  // --trace-html FILE ("": none)
  bool test_skip_native = false;  // TEST ONLY: --test-skip-native-confirmation
};

// Without --threads, a check that ends at the thread limit is repeated with twice the limit
// while time is left, up to this many threads.
constexpr unsigned kMaxAutoThreads = 32;

// What --bound counts: instructions ("steps") or transactions (--granularity).
const char* bound_unit(const check::CheckResult& r) {
  return r.stats.granularity == "transaction" ? "transactions" : "steps";
}

std::string verdict_line(const check::CheckResult& r) {
  switch (r.verdict) {
    case check::Verdict::Unsafe: return "VERIFICATION RESULT: UNSAFE";
    case check::Verdict::Safe:
      if (r.any_number_of_threads)
        return fmt::format("VERIFICATION RESULT: SAFE for any number of threads ({}: {} thread-modular states)",
                           r.method, r.stats.states);
      if (r.engine == "explicit")
        return fmt::format("VERIFICATION RESULT: SAFE (explicit-state search: all {} reachable states visited)",
                           r.stats.states);
      return fmt::format("VERIFICATION RESULT: SAFE (every execution ends within {} {})", r.bound, bound_unit(r));
    case check::Verdict::SafeUpToBound:
      if (r.thread_bound && !r.steps_bounded)
        return r.engine == "explicit"
                   ? fmt::format("VERIFICATION RESULT: SAFE up to bound (no violation in executions with at most {} "
                                 "threads: all {} reachable states visited; not a proof)",
                                 r.thread_bound, r.stats.states)
                   : fmt::format("VERIFICATION RESULT: SAFE up to bound (no violation in executions with at most {} "
                                 "threads, each of which ends within {} {}; not a proof)",
                                 r.thread_bound, r.bound, bound_unit(r));
      if (r.thread_bound)
        return fmt::format("VERIFICATION RESULT: SAFE up to bound {} (no violation in executions with at most {} "
                           "threads and {} {}; not a proof)",
                           r.bound, r.thread_bound, r.bound, bound_unit(r));
      return fmt::format(
          "VERIFICATION RESULT: SAFE up to bound {} (no violation in executions of at most {} {}; "
          "not a proof)",
          r.bound, r.bound, bound_unit(r));
    case check::Verdict::Unknown: return "VERIFICATION RESULT: UNKNOWN: " + r.reason;
  }
  return "";
}

void print_text(const check::CheckResult& r, const std::string& detail) {
  if (r.schedules) {
    std::printf("schedules: %llu\n", static_cast<unsigned long long>(*r.schedules));
    return;
  }
  std::printf("%s\n", verdict_line(r).c_str());
  if (r.verdict != check::Verdict::Unsafe) return;
  std::printf("Counterexample (%s):\n", trace_size(r.trace).c_str());
  print_trace_table(r.trace, detail);
}

void print_json(const check::CheckResult& r, const std::vector<std::string>& warnings, const std::string& detail,
                const std::optional<confirm::LibraryValues>& lv) {
  nlohmann::ordered_json j;
  j["verdict"] = check::verdict_name(r.verdict);
  j["bound"] = r.bound;
  j["reason"] = r.reason;
  // a counterexample that used values of functions without a body: its native replay
  if (lv && lv->attempted) j["native_confirmation"] = library_values_json(*lv);
  // SAFE_UP_TO_BOUND: what limited the executions explored (null: nothing of that kind)
  j["bounds"] = {{"steps", r.verdict == check::Verdict::SafeUpToBound && r.steps_bounded ? nlohmann::ordered_json(r.bound)
                                                                                          : nlohmann::ordered_json()},
                 {"threads", r.any_number_of_threads ? nlohmann::ordered_json("unbounded")
                             : r.thread_bound      ? nlohmann::ordered_json(r.thread_bound)
                                                   : nlohmann::ordered_json()}};
  // SAFE: how it was proven (null otherwise)
  j["method"] = r.method.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.method);
  j["warnings"] = warnings;  // the model's assumptions (front end), also printed on stderr
  j["engine"] = r.engine;
  add_trace_json(j, r.trace, detail);
  j["stats"] = {{"frames", r.stats.frames},
                {"granularity", r.stats.granularity},
                {"instructions", r.trace.size()},
                {"statements", ir::statement_rows(r.trace).size()},
                {"context_switches", check::context_switches(r.trace)},
                // the counterexample as the engine found it, before shortening (0: not shortened)
                {"found_steps", r.stats.found_steps},
                {"found_statements", r.stats.found_statements},
                {"found_context_switches", r.stats.found_switches},
                {"vars", r.stats.vars},
                {"clauses", r.stats.clauses},
                {"solve_seconds", r.stats.solve_seconds},
                {"states", r.stats.states},
                {"explicit_seconds", r.stats.explicit_seconds},
                {"modular_seconds", r.stats.modular_seconds},
                {"total_seconds", r.stats.total_seconds},
                {"peak_rss_mb", r.stats.peak_rss_mb}};
  for (const auto& [name, value] : r.stats.reduction) j["stats"][name] = value;
  for (const auto& [name, text] : r.stats.reduction_text) j["stats"][name] = text;
  if (r.schedules) j["schedules"] = *r.schedules;
  std::printf("%s\n", j.dump(2).c_str());
}

// --- --reach: control-state (location-tuple) reachability ----------------------------------

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// Parses "thread:file:line,thread:done,..." against the thread model; on failure returns
/// nullopt with `error` set.
std::optional<std::vector<race::ControlTarget>> parse_reach(const ir::ThreadModel& tm, const std::string& spec,
                                                               std::string& error) {
  std::vector<race::ControlTarget> out;
  std::size_t from = 0;
  while (from <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', from), spec.size());
    const std::string item = spec.substr(from, comma - from);
    from = comma + 1;
    const auto colon = item.find(':');
    if (colon == std::string::npos) {
      error = "'" + item + "' is not thread:file:line or thread:done";
      return std::nullopt;
    }
    const std::string thread = item.substr(0, colon), where = item.substr(colon + 1);
    race::ControlTarget target;
    const auto it = std::find_if(tm.threads.begin(), tm.threads.end(), [&](const ir::ThreadCode& t) { return t.name == thread; });
    if (it == tm.threads.end()) {
      std::string names;
      for (const auto& t : tm.threads) names += (names.empty() ? "" : ", ") + t.name;
      error = "no thread named '" + thread + "' (threads: " + names + ")";
      return std::nullopt;
    }
    target.thread = static_cast<ir::ThreadId>(it - tm.threads.begin());
    if (std::any_of(out.begin(), out.end(), [&](const race::ControlTarget& c) { return c.thread == target.thread; })) {
      error = "thread '" + thread + "' is named twice";
      return std::nullopt;
    }
    if (where == "done") {
      target.pcs.push_back(static_cast<std::uint32_t>(it->code.size()));
    } else {
      const auto last = where.rfind(':');
      unsigned line = 0;
      if (last == std::string::npos || last + 1 >= where.size() || where.size() - last > 10 ||
          where.find_first_not_of("0123456789", last + 1) != std::string::npos ||
          (line = static_cast<unsigned>(std::stoul(where.substr(last + 1)))) == 0) {
        error = "'" + item + "' is not thread:file:line or thread:done";
        return std::nullopt;
      }
      const std::string file = where.substr(0, last);
      for (std::uint32_t pc = 0; pc < it->code.size(); ++pc) {
        const ir::SourceLoc& loc = it->code[pc].loc;
        if (loc.line != line || loc.file >= tm.files.size()) continue;
        const std::string& f = tm.files[loc.file];
        if (f == file || base_name(f) == base_name(file)) target.pcs.push_back(pc);
      }
      if (target.pcs.empty()) {
        error = "thread '" + thread + "' has no instruction at " + where;
        return std::nullopt;
      }
    }
    out.push_back(std::move(target));
  }
  return out;
}

int run_reach(const ir::ThreadModel& tm, const CheckArgs& a, const check::CheckOptions& co,
              std::chrono::steady_clock::time_point start) {
  std::string error;
  const auto targets = parse_reach(tm, a.reach, error);
  if (!targets) {
    std::fprintf(stderr, "siren: --reach: %s\n", error.c_str());
    return kExitUsage;
  }
  check::CheckStats stats;
  const race::RaceAnswer r = race::check_reach(tm, co, *targets, &stats);
  stats.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const char* verdict = "UNKNOWN";
  switch (r.verdict) {
    case check::Verdict::Unsafe: verdict = "REACHABLE"; break;
    case check::Verdict::Safe: verdict = "UNREACHABLE"; break;
    case check::Verdict::SafeUpToBound: verdict = "UNREACHABLE_UP_TO_BOUND"; break;
    case check::Verdict::Unknown: break;
  }
  if (r.internal_error) std::fprintf(stderr, "siren: %s\n", r.reason.c_str());
  if (a.json) {
    nlohmann::ordered_json j;
    j["verdict"] = verdict;
    j["reach"] = a.reach;
    j["bound"] = r.bound;
    j["reason"] = r.reason;
    j["engine"] = "bmc";
    add_trace_json(j, r.trace, a.trace_detail);
    j["stats"] = {{"frames", stats.frames}, {"granularity", stats.granularity}, {"vars", stats.vars}, {"clauses", stats.clauses},
                  {"solve_seconds", stats.solve_seconds}, {"total_seconds", stats.total_seconds},
                  {"peak_rss_mb", stats.peak_rss_mb}};
    std::printf("%s\n", j.dump(2).c_str());
  } else if (!r.internal_error) {
    const char* unit = stats.granularity == "transaction" ? "transactions" : "steps";
    switch (r.verdict) {
      case check::Verdict::Unsafe:
        std::printf("VERIFICATION RESULT: REACHABLE (%s)\n", a.reach.c_str());
        std::printf("Schedule to the control state (%s, replayed):\n", trace_size(r.trace).c_str());
        print_trace_table(r.trace, a.trace_detail);
        break;
      case check::Verdict::Safe:
        std::printf("VERIFICATION RESULT: UNREACHABLE (every execution ends within %u %s)\n", r.bound, unit);
        break;
      case check::Verdict::SafeUpToBound:
        std::printf("VERIFICATION RESULT: UNREACHABLE up to bound %u (not in executions of at most %u %s; "
                    "not a proof)\n", r.bound, r.bound, unit);
        break;
      case check::Verdict::Unknown: std::printf("VERIFICATION RESULT: UNKNOWN: %s\n", r.reason.c_str()); break;
    }
  }
  return verdict_exit_code(r.verdict, r.internal_error);
}

// --sarif: a violation is one result at the failing statement with the replayed interleaving
// as a code flow (a thread flow per thread); other verdicts give a log without results whose
// invocation states the verdict.
SarifRun check_sarif(const std::string& file, const check::CheckResult& r) {
  SarifRun run;
  run.program = file;
  run.verdict = check::verdict_name(r.verdict);
  run.verdict_text = verdict_line(r).substr(std::string("VERIFICATION RESULT: ").size());
  run.notification_level = r.verdict == check::Verdict::Unknown ? "warning" : "note";
  run.successful = !r.internal_error;
  if (r.verdict != check::Verdict::Unsafe || r.trace.empty()) return run;
  const ir::TraceRow& last = r.trace.back();
  SarifResult res;
  res.rule = kSarifAssertionRule;
  res.level = "error";
  res.kind = "fail";
  res.message = fmt::format("'{}' fails in thread {} after an interleaving of {}, replayed.", last.stmt, last.thread,
                            trace_size(r.trace));
  res.where = {last.file, last.line, 0};
  res.trace = r.trace;
  run.results.push_back(std::move(res));
  return run;
}

// --witness: written from the model the counterexample came from, the first with a.front's
// thread count or more whose replay of the schedule gives the same rows.
bool write_check_witness(const CheckArgs& a, const ir::ThreadModel& tm, const check::CheckResult& r) {
  auto replays = [&](const ir::ThreadModel& m) {
    const ir::ReplayedTrace t = ir::replay_counterexample(m, r.initial, r.schedule);
    if (!t.failure.empty() || t.rows.size() != r.trace.size()) return false;
    for (std::size_t i = 0; i < t.rows.size(); ++i)
      if (t.rows[i].thread != r.trace[i].thread || t.rows[i].pc != r.trace[i].pc) return false;
    return true;
  };
  const witness::Violation v;  // reach: the last step fails
  if (replays(tm)) return write_witness(a.witness, tm, a.file, a.front, r.trace, v);
  for (unsigned threads = a.front.threads * 2; threads <= kMaxAutoThreads; threads *= 2) {
    FrontArgs more = a.front;
    more.threads = threads;
    more.block_at_thread_limit = true;
    const LoadedModel lm = load_model(a.file, more);
    if (lm.tm && replays(*lm.tm)) return write_witness(a.witness, *lm.tm, a.file, a.front, r.trace, v);
  }
  std::fprintf(stderr, "siren: no witness written: the counterexample does not replay on the program's model\n");
  return false;
}

int run_check(const CheckArgs& a) {
  if (!a.sarif.empty() && (!a.reach.empty() || a.count_schedules)) {
    std::fprintf(stderr, "siren: --sarif writes a check's verdict (not with --reach or --count-schedules)\n");
    return kExitUsage;
  }
  const auto start = std::chrono::steady_clock::now();
  check::CheckResult result;
  std::vector<std::string> warnings;
  LoadedModel lm;
  const ir::ThreadModel* loaded = nullptr;  // the model of a.front (answers may come from one with more threads)
  auto report = [&](const check::CheckResult& found) {
    // A counterexample that uses values of functions without a body is printed only when it
    // happens natively with the real library (confirm/library_values.hpp); else UNKNOWN.
    check::CheckResult r = found;
    std::optional<confirm::LibraryValues> lv;
    if (r.verdict == check::Verdict::Unsafe && !r.internal_error && !r.trace.empty()) {
      lv = confirm::confirm_library_values(a.file, r.trace, {},
                                           library_value_options(a.front, false, a.test_skip_native));
      if (!lv->confirmed) {
        r.verdict = check::Verdict::Unknown;
        r.reason = lv->reason;
        r.trace.clear();
      }
    }
    if (r.internal_error) std::fprintf(stderr, "siren: %s\n", r.reason.c_str());
    if (a.json) print_json(r, warnings, a.trace_detail, lv);
    else if (!r.internal_error) print_text(r, a.trace_detail);
    if (!a.witness.files.empty() && r.verdict == check::Verdict::Unsafe && loaded &&
        !write_check_witness(a, *loaded, r))
      return static_cast<int>(kExitInputError);
    if (!a.sarif.empty() && !write_sarif(a.sarif, check_sarif(a.file, r)))
      return static_cast<int>(kExitInputError);
    if (!a.trace_html.empty() && !r.schedules) {
      const std::string verdict = verdict_line(r).substr(std::string("VERIFICATION RESULT: ").size());
      if (!write_trace_html(a.trace_html, {"check", a.file, verdict, shown_rows(r.trace, a.trace_detail),
                                           r.verdict == check::Verdict::Unsafe, {}}))
        return static_cast<int>(kExitInputError);
    }
    return verdict_exit_code(r.verdict, r.internal_error);
  };
  try {
    // Executions that would need more threads than --threads are cut, not failed (the verdict
    // states the thread bound); --reach asks about the program's states, so it keeps the limit
    // as a failure (UNKNOWN).
    FrontArgs front = a.front;
    front.block_at_thread_limit = a.reach.empty() && !a.count_schedules;
    lm = load_model(a.file, front);
    if (lm.input_error) return lm.input_error;
    warnings = lm.warnings;
    if (!lm.tm) {
      result.verdict = check::Verdict::Unknown;
      result.internal_error = lm.internal_error;
      result.reason = lm.unknown.value_or(a.file + ": unsupported construct");
      result.stats.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      result.stats.peak_rss_mb = check::peak_rss_mb();
      return report(result);
    }
    const ir::ThreadModel& tm = *lm.tm;
    loaded = &tm;

    check::CheckOptions co = a.options;
    // The explicit search's state storage is freed before BMC starts; keep a margin for the
    // interpreter's working states and the front end's memory.
    if (a.memory > 0) co.explicit_memory_mb = std::max<std::size_t>(16, a.memory * 6 / 10);
    co.count_schedules = a.count_schedules;
    if (a.timeout > 0)
      co.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(a.timeout));
    if (!a.reach.empty()) {
      if (a.options.engine == "explicit" || a.count_schedules || a.options.solver != "cadical") {
        std::fprintf(stderr, "siren: --reach runs the BMC engine with CaDiCaL (not with --engine explicit, "
                             "--count-schedules or --solver %s)\n", a.options.solver.c_str());
        return kExitUsage;
      }
      return run_reach(tm, a, co, start);
    }
    if (a.options.solver == "portfolio") {
      // The explicit search runs once, here; the two solver processes then run BMC only.
      if (co.engine != "bmc" && !co.count_schedules) {
        if (check::check_explicit(tm, co, result)) {
          if (co.shorten) check::shorten_counterexample(tm, co, result);  // (BMC's: in the children)
          result.stats.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          result.stats.peak_rss_mb = check::peak_rss_mb();
          return report(result);
        }
        co.engine = "bmc";
      }
      return check::run_portfolio(tm, co, start, report);
    }
    // Unless --threads was given, a check that ends at the thread limit is tried again with
    // more threads while time is left. One that ends UNKNOWN because an access may be past the
    // capacity of an object of a non-constant size is tried again with 16 times that capacity
    // while time is left and the objects fit (at most 100000 cells each; else that answer stays),
    // and so is one at a malloc site executed more often than it has objects (16 times as many).
    for (;;) {
      result = check::check_growing_threads(*loaded, co, a.front.threads,
                                            a.threads_given ? a.front.threads : kMaxAutoThreads,
                                            [&](unsigned threads) {
                                              FrontArgs more = front;
                                              more.threads = threads;
                                              return load_model(a.file, more).tm;
                                            });
      if (result.verdict != check::Verdict::Unknown || result.internal_error ||
          (co.deadline && std::chrono::steady_clock::now() >= *co.deadline))
        break;
      FrontArgs larger = front;
      if (result.limit == ir::LimitKind::Capacity && !lm.capped.empty()) larger.capacity *= 16;
      else if (result.limit == ir::LimitKind::HeapSlots && front.heap_slots < check::kMaxHeapSlots) larger.heap_slots *= 16;
      else break;
      LoadedModel next = load_model(a.file, larger);
      if (!next.tm) break;
      lm = std::move(next);
      front = larger;
      loaded = &*lm.tm;
    }
    result.stats.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } catch (const std::bad_alloc&) {
    result = {};
    result.verdict = check::Verdict::Unknown;
    result.reason = "memory limit";
  }
  return report(result);
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand(
      "check",
      "Bounded assertion checking: is a failing assert / reach_error() call reachable?\n"
      "Verdicts: UNSAFE (with a replayed trace), SAFE (every execution ends within the bound),\n"
      "SAFE up to bound K (not a proof), UNKNOWN (unsupported C, timeout, memory limit,\n"
      "possible memory-safety error or modelling limit).");
  cmd->add_option("file", args->file, "C source file")->required();
  add_bound_option(cmd, args->options.bound);
  cmd->add_option("--reduction", args->options.reduction,
                  "Scheduler reduction of the BMC engine: sir (schedule-insensitivity reduction: MPOR "
                  "whose dependency chains skip the location pairs the octagon invariants prove "
                  "schedule-insensitive; MPOR where the analysis gives up; `siren tg` shows the pairs), mpor "
                  "(monotonic partial order reduction) or none. An atomic block is one transition for both")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            for (const auto& n : reduction::scheduler_constraint_names())
              if (s == n) return "";
            return "unknown reduction '" + s + "' (use none, mpor or sir)";
          },
          "none|mpor|sir", "REDUCTION"))
      ->capture_default_str();
  cmd->add_option("--engine", args->options.engine,
                  "auto: when the program can create any number of threads, a proof for any number first "
                  "(thread-modular reachability, up to 25% of --timeout); then explicit-state search for up to "
                  "80% of the time (20% once it draws nondet values "
                  "from a restricted domain or reaches a modelling limit, which then ends the check with UNKNOWN; "
                  "SAFE when every reachable state is visited, UNSAFE with a trace), then interleaved BMC with the "
                  "rest; bmc: BMC only; "
                  "explicit: explicit-state search only; modular: the proof for any number of threads only "
                  "(SAFE or UNKNOWN with the reason; docs/unbounded-threads.md)")
      ->check(CLI::IsMember(check::engine_names()))
      ->capture_default_str();
  add_granularity_option(cmd, args->options.granularity);
  cmd->add_option("--tx-unwind", args->options.tx_unwind,
                  "Transaction frames: a transaction may run on through the head of a loop whose body it "
                  "carries (local steps, accesses no other thread can touch meanwhile) this many times before it "
                  "ends there; 0 ends it at the loop's head on every iteration")
      ->check(CLI::Range(0u, 1000u))
      ->capture_default_str();
  cmd->add_option("--deepening", args->options.deepening,
                  "How the BMC deepens: linear (every frame a real step; the property asked at every depth) or "
                  "geometric (frames may be idle, so one query covers every shorter depth; asked at depths 1, 2, 4, "
                  "8, ... and the bound)")
      ->check(CLI::IsMember({"linear", "geometric"}))
      ->capture_default_str();
  cmd->add_flag("--count-schedules", args->count_schedules,
                "Instead of checking: count the complete schedules (up to the bound) the encoded scheduler "
                "admits under the reduction, by enumeration (small programs without nondet only); --json adds "
                "\"schedules\": N");
  cmd->add_option("--reach", args->reach,
                  "Instead of checking assertions: is a state reachable in which each named thread is at the "
                  "given line (before executing it) or has finished? THREAD:FILE:LINE or THREAD:done, "
                  "comma-separated; thread names as `siren explore` prints them (main, t#1, ...). REACHABLE "
                  "(exit 10, replayed schedule), UNREACHABLE, UNREACHABLE up to bound K or UNKNOWN (BMC with "
                  "the chosen --reduction)");
  cmd->add_option("--solver", args->options.solver,
                  "Solver: cadical (bit-blasting), z3 (in-process SMT), boolector (the boolector "
                  "program, one process per query), portfolio (cadical and z3 in two processes, first "
                  "definite answer wins)")
      ->check(CLI::IsMember({"cadical", "z3", "boolector", "portfolio"}))
      ->capture_default_str();
  cmd->add_option("--timeout", args->timeout, "Give up after SEC seconds of wall-clock time: UNKNOWN (default: none)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--memory", args->memory,
                  "Let the check allocate at most MB megabytes of address space beyond what the process has mapped "
                  "when it starts; UNKNOWN \"memory limit\" when exceeded (default: none)")
      ->check(CLI::Range(1u, 100000000u));
  cmd->add_flag("!--no-shorten", args->options.shorten,
                "Print the counterexample the engine found, without looking for a shorter one (by default a "
                "minimization judged by replay and a breadth-first search for a violation in fewer steps run for up to 3 s)");
  cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
  add_trace_detail_option(cmd, args->trace_detail);
  add_witness_options(cmd, args->witness);
  cmd->add_option("--sarif", args->sarif,
                  "Also write the verdict as a SARIF 2.1.0 log to FILE: UNSAFE is one result at the failing "
                  "statement whose codeFlows hold one threadFlow per thread, steps numbered in global order "
                  "(executionOrder) and changed values as state; other verdicts give no result (the verdict is "
                  "the invocation's notification). Not with --reach or --count-schedules");
  add_trace_html_option(cmd, args->trace_html);  // not with --reach or --count-schedules either
  add_front_options(cmd, args->front);
  // TEST ONLY: print counterexamples that use values of functions without a body unconfirmed
  // (deliberately wrong; tests show that the native confirmation is what stops them).
  cmd->add_flag("--test-skip-native-confirmation", args->test_skip_native)->group("");
  cmd->callback([args, cmd, &exit_code] {
    args->threads_given = cmd->count("--threads") > 0;
    if (args->memory > 0) limit_memory_mb(args->memory);
    exit_code = run_check(*args);
  });
}

}  // namespace siren::app
