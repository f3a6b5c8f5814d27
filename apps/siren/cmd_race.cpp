// `siren race FILE.c`: data-race checking, SV-COMP `no-data-race` (DESIGN.md §B7) with the
// interleaved BMC (race/race.hpp). A race is printed with both accesses and the schedule
// leading to the racy state (replayed by the interpreter), exit 10; otherwise SAFE / SAFE up to
// bound K / UNKNOWN as for `check`. --json, --sarif FILE, --witness FILE (GraphML or YAML).
#include "apps/siren/commands.hpp"
#include "apps/siren/native_confirmation.hpp"
#include "apps/siren/race_common.hpp"
#include "apps/siren/sarif_output.hpp"
#include "apps/siren/trace_html.hpp"
#include "apps/siren/triage_driver.hpp"
#include "apps/siren/witness_output.hpp"
#include "race/race.hpp"
#include "race/triage_batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace siren::app {
namespace {

constexpr unsigned kMaxRaceThreads = 32;  // as check's thread schedule

struct RaceArgs {
  std::string file;
  unsigned bound = check::CheckOptions{}.bound;
  FrontArgs front;
  std::string reduction = "sir";
  std::string granularity = "transaction";
  std::string solver = "cadical";
  std::string engine = "auto";
  double timeout = 0;
  unsigned memory = 0;
  bool json = false;
  std::string sarif;
  WitnessArgs witness;
  std::string trace_detail = "statement";
  std::string trace_html;  // --trace-html FILE ("": none)
  bool test_skip_native = false;  // TEST ONLY: --test-skip-native-confirmation
  bool test_search_writes_only = false;  // TEST ONLY: --test-race-search-writes-only
  bool test_no_interference = false;     // TEST ONLY: --test-modular-no-interference
  bool threads_given = false;  // --threads on the command line (else more are tried, as check does)
};

// A kernel module's race-freedom holds for the harness's two entry-point calls after init
// (docs/drivers.md, "siren race on a module"): SAFE there is SAFE up to that bound.
constexpr const char* kModuleBound =
    "no data race between two calls of the module's entry points after its init, each explored to its end; not a "
    "proof: more calls can run";

// unit: what --bound counted ("steps" or "transactions", stats.granularity).
std::string verdict_line(const race::RaceAnswer& r, const char* unit, bool module = false) {
  if (module && r.verdict == check::Verdict::SafeUpToBound)
    return r.steps_bounded ? fmt::format("VERIFICATION RESULT: SAFE up to bound {} (no data race between two calls of "
                                         "the module's entry points after its init, in executions of at most {} {}; "
                                         "not a proof)",
                                         r.bound, r.bound, unit)
                           : fmt::format("VERIFICATION RESULT: SAFE up to bound ({})", kModuleBound);
  switch (r.verdict) {
    case check::Verdict::Unsafe: return "VERIFICATION RESULT: UNSAFE (data race)";
    case check::Verdict::Safe:
      return r.any_number_of_threads ? "VERIFICATION RESULT: SAFE (no data race, for any number of threads)"
                                     : "VERIFICATION RESULT: SAFE (no data race)";
    case check::Verdict::SafeUpToBound:
      if (r.thread_bound && !r.steps_bounded)
        return fmt::format("VERIFICATION RESULT: SAFE up to bound (no data race in executions with at most {} threads, "
                           "each explored to its end; not a proof: a pthread_create site can run more often)",
                           r.thread_bound);
      return fmt::format("VERIFICATION RESULT: SAFE up to bound {} (no data race in executions of at most {} {}; "
                         "not a proof)", r.bound, r.bound, unit);
    case check::Verdict::Unknown: return "VERIFICATION RESULT: UNKNOWN: " + r.reason;
  }
  return "";
}

void print_text(const race::RaceAnswer& r, const check::CheckStats& stats, const std::string& detail, bool module) {
  std::printf("%s\n", verdict_line(r, stats.granularity == "transaction" ? "transactions" : "steps", module).c_str());
  if (r.verdict != check::Verdict::Unsafe) return;
  auto side = [](const char* label, const race::RaceEnd& e) {
    std::printf("  %s %-12s %s:%u:%u  %-5s %s   [%s]\n", label, e.thread_name.c_str(), e.file.c_str(), e.line,
                e.column, e.write ? "write" : "read", e.variable.c_str(), e.stmt.c_str());
  };
  std::printf("Data race on '%s':\n", r.first.variable.c_str());
  side("first: ", r.first);
  side("second:", r.second);
  std::printf("Schedule to the racy state (%s, replayed):\n", trace_size(r.trace).c_str());
  print_trace_table(r.trace, detail);
}

void print_json(const race::RaceAnswer& r, const check::CheckStats& st, const std::string& detail,
                const std::optional<confirm::LibraryValues>& lv, const ModuleHarness* module) {
  nlohmann::ordered_json j;
  j["verdict"] = check::verdict_name(r.verdict);
  j["bound"] = r.bound;
  j["reason"] = r.reason;
  j["engine"] = r.engine;
  if (!r.method.empty()) j["method"] = r.method;
  if (r.any_number_of_threads) j["bounds"] = {{"threads", "unbounded"}};
  if (r.verdict == check::Verdict::SafeUpToBound) {
    j["bounds"] = nlohmann::ordered_json::object();
    if (r.steps_bounded) j["bounds"]["steps"] = r.bound;
    if (r.thread_bound) j["bounds"]["threads"] = r.thread_bound;
    if (module) j["bounds"]["entry_point_calls"] = 2;
  }
  if (module)
    j["module"] = {{"harness", r.verdict == check::Verdict::Unsafe ? module->path : std::string()},
                   {"init", module->init},
                   {"exit", module->exit},
                   {"entry_points", module->entry_points},
                   {"left_out", module->left_out}};
  if (lv && lv->attempted) j["native_confirmation"] = library_values_json(*lv);
  add_trace_json(j, r.trace, detail);
  if (r.verdict == check::Verdict::Unsafe)
    j["race"] = {{"first", race_end_json(r.first)}, {"second", race_end_json(r.second)}};
  j["stats"] = {{"explicit_seconds", st.explicit_seconds},
                {"frames", st.frames},
                {"granularity", st.granularity},
                {"vars", st.vars},
                {"clauses", st.clauses},
                {"solve_seconds", st.solve_seconds},
                {"total_seconds", st.total_seconds},
                {"peak_rss_mb", st.peak_rss_mb}};
  for (const auto& [name, value] : st.reduction) j["stats"][name] = value;  // as check's --json
  for (const auto& [name, text] : st.reduction_text) j["stats"][name] = text;
  std::printf("%s\n", j.dump(2).c_str());
}

// --sarif: a race is one result at the first access, the second as a related location and the
// schedule to the racy state as a code flow.
SarifRun race_sarif(const std::string& file, const race::RaceAnswer& r, const check::CheckStats& st, bool module) {
  SarifRun run;
  run.program = file;
  run.verdict = check::verdict_name(r.verdict);
  run.verdict_text = verdict_line(r, st.granularity == "transaction" ? "transactions" : "steps", module)
                         .substr(std::string("VERIFICATION RESULT: ").size());
  run.notification_level = r.verdict == check::Verdict::Unknown ? "warning" : "note";
  run.successful = !r.internal_error;
  if (r.verdict != check::Verdict::Unsafe) return run;
  const race::RaceEnd& f = r.first;
  const race::RaceEnd& s = r.second;
  SarifResult res;
  res.rule = kSarifRaceRule;
  res.level = "error";
  res.kind = "fail";
  res.message = fmt::format("Data race on '{}': {} of {} ({}) and {} of {} ({}), confirmed by a replayed schedule of {} "
                            "steps.",
                            f.variable, f.write ? "write" : "read", f.thread_name, f.stmt, s.write ? "write" : "read",
                            s.thread_name, s.stmt, r.trace.size());
  res.where = {f.file, f.line, f.column};
  res.related = {{{s.file, s.line, s.column},
                  fmt::format("The other access: {} of '{}' by {}.", s.write ? "write" : "read", s.variable,
                              s.thread_name)}};
  res.trace = r.trace;
  res.properties = {{"verdict", "RACE"}, {"variable", f.variable}};
  run.results.push_back(std::move(res));
  return run;
}

int run_race(const RaceArgs& given) {
  const auto start = std::chrono::steady_clock::now();
  race::RaceAnswer result;
  check::CheckStats stats;
  std::optional<ir::ThreadModel> tm;
  // A Linux kernel module: the harness of every pair of its entry points is the program.
  std::optional<ModuleHarness> module;
  if (is_kernel_module(given.file)) {
    module.emplace();
    if (const int rc = module_harness(given.file, given.front, *module)) return rc;
  }
  RaceArgs a = given;
  if (module) {
    a.file = module->path;
    a.front = module->front;
  }
  // The harness's directory goes at the end, whatever the way out, unless a printed race
  // names its lines (`keep`).
  struct HarnessCleanup {
    const ModuleHarness* h;
    bool keep = false;
    ~HarnessCleanup() {
      if (h && !keep) remove_module_harness(*h);
    }
  } harness_dir{module ? &*module : nullptr};
  try {
    LoadedModel lm = load_model(a.file, a.front);
    if (lm.input_error) return lm.input_error;
    if (lm.unknown) {
      result.verdict = check::Verdict::Unknown;
      result.reason = *lm.unknown;
      result.internal_error = lm.internal_error;
    } else {
      tm = std::move(lm.tm);
      check::CheckOptions co;
      co.bound = a.bound;
      co.reduction = a.reduction;
      co.granularity = a.granularity;
      co.solver = a.solver;
      co.engine = a.engine;
      co.test_race_search_writes_only = a.test_search_writes_only;
      co.test_modular_no_interference = a.test_no_interference;
      if (a.timeout > 0)
        co.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(a.timeout));
      // One model's answer: `tm` becomes the model the answer is of.
      auto answer = [&](const FrontArgs& front) {
        // A create site that can run out of instances: the explicit search explores the model
        // that blocks there instead (its race-freedom then holds up to --threads threads, stated).
        std::optional<ir::ThreadModel> blocking;
        if (tm->limited) {
          FrontArgs f = front;
          f.block_at_thread_limit = true;
          LoadedModel b = load_model(a.file, f);
          if (b.tm && b.tm->thread_bound) blocking = std::move(b.tm);
        }
        stats = {};
        result = race::check_race(*tm, co, &stats, blocking ? &*blocking : nullptr);
        // Race-free up to the thread bound, each execution to its end: as check does (its thread
        // schedule), more threads while time is left (doubling, to 32, unless --threads was given).
        for (unsigned threads = front.threads * 2;
             !a.threads_given && blocking && result.engine == "explicit" &&
             result.verdict == check::Verdict::SafeUpToBound && threads <= kMaxRaceThreads &&
             (!co.deadline || std::chrono::steady_clock::now() < *co.deadline);
             threads *= 2) {
          FrontArgs f = front;
          f.threads = threads;
          f.block_at_thread_limit = true;
          LoadedModel more = load_model(a.file, f);
          if (!more.tm) break;
          race::RaceSearchLimits limits;
          limits.deadline = co.deadline;
          limits.memory_mb = co.explicit_memory_mb;
          limits.test_writes_only = co.test_race_search_writes_only;
          std::optional<race::RaceAnswer> next = race::search_race(*more.tm, limits);
          if (!next || next->verdict == check::Verdict::Unknown) break;
          result = std::move(*next);
          blocking = std::move(more.tm);
        }
        if (blocking && result.engine == "explicit") tm = std::move(blocking);
      };
      answer(a.front);
      // As check does (run_check): an UNKNOWN that may be the capacity of an object of a
      // non-constant size is asked again with 16 times that capacity while time is left, and
      // one at a malloc site executed more often than it has objects with 16 times as many.
      FrontArgs front = a.front;
      while (result.verdict == check::Verdict::Unknown && !result.internal_error &&
             ((result.limit == ir::LimitKind::Capacity && !lm.capped.empty()) ||
              (result.limit == ir::LimitKind::HeapSlots && front.heap_slots < check::kMaxHeapSlots)) &&
             (!co.deadline || std::chrono::steady_clock::now() < *co.deadline)) {
        if (result.limit == ir::LimitKind::Capacity) front.capacity *= 16;
        else front.heap_slots *= 16;
        LoadedModel larger = load_model(a.file, front);
        if (!larger.tm) break;
        lm = std::move(larger);
        tm = std::move(lm.tm);
        answer(front);
      }
    }
  } catch (const std::bad_alloc&) {
    result = {};
    result.verdict = check::Verdict::Unknown;
    result.reason = "memory limit";
  }
  // A module's race-freedom is the harness's (two entry-point calls): up to that bound.
  if (module && result.verdict == check::Verdict::Safe) {
    result.verdict = check::Verdict::SafeUpToBound;
    result.steps_bounded = false;
    result.thread_bound = 0;
    result.any_number_of_threads = false;
  }
  stats.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stats.peak_rss_mb = check::peak_rss_mb();
  // A race that uses values of functions without a body: printed only when it happens natively.
  const std::optional<confirm::LibraryValues> lv = confirm_race(a.file, a.front, result, a.test_skip_native);
  if (result.internal_error) std::fprintf(stderr, "siren: %s\n", result.reason.c_str());
  if (a.json) print_json(result, stats, a.trace_detail, lv, module ? &*module : nullptr);
  else if (!result.internal_error) print_text(result, stats, a.trace_detail, module.has_value());

  if (!a.sarif.empty() && !write_sarif(a.sarif, race_sarif(given.file, result, stats, module.has_value()))) return kExitInputError;
  if (!a.trace_html.empty()) {
    const bool race = result.verdict == check::Verdict::Unsafe;
    const std::string verdict =
        verdict_line(result, stats.granularity == "transaction" ? "transactions" : "steps", module.has_value());
    if (!write_trace_html(a.trace_html, {"race", given.file, verdict.substr(std::string("VERIFICATION RESULT: ").size()),
                                         race ? shown_rows(result.trace, a.trace_detail) : std::vector<ir::TraceRow>{},
                                         false, race ? std::vector<race::RaceEnd>{result.first, result.second}
                                                     : std::vector<race::RaceEnd>{}}))
      return kExitInputError;
  }
  if (!a.witness.files.empty() && result.verdict == check::Verdict::Unsafe && tm) {
    witness::Violation v;
    v.property = witness::Property::Race;
    v.first_thread = result.first.thread;
    v.first_pc = result.first.pc;
    v.second_thread = result.second.thread;
    v.second_pc = result.second.pc;
    // A module's witness names the module (its hash); its lines are the harness's and the
    // module's, which `siren validate` rebuilds (cmd_validate.cpp).
    if (!write_witness(a.witness, *tm, given.file, a.front, result.trace, v)) return kExitInputError;
  }
  harness_dir.keep = result.verdict == check::Verdict::Unsafe;
  return verdict_exit_code(result.verdict, result.internal_error);
}

}  // namespace

void add_race_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RaceArgs>();
  auto* cmd = app.add_subcommand(
      "race",
      "Data-race checking (SV-COMP no-data-race): can two threads' next steps access the same\n"
      "memory location, at least one writing, not both atomic? UNSAFE prints both accesses and\n"
      "the replayed schedule; SAFE / SAFE up to bound K / UNKNOWN as for check. A Linux kernel\n"
      "module (module_init, no main): two of its entry points after init (docs/drivers.md).");
  cmd->add_option("file", args->file, "C source file")->required();
  add_bound_option(cmd, args->bound);
  add_race_reduction_option(cmd, args->reduction);
  add_granularity_option(cmd, args->granularity);
  cmd->add_option("--solver", args->solver, "Solver: cadical (default)")->check(CLI::IsMember({"cadical"}));
  cmd->add_option("--engine", args->engine,
                  "auto: when a create site can run out of instances, the thread-modular race-freedom proof for "
                  "any number of threads first (up to 25% of --timeout); then the explicit-state search for a racy "
                  "state (up to 80% of the time, 20% once it restricts a nondet value), then BMC's race query with "
                  "the rest; bmc: BMC only (what --reduction restricts); explicit: the search only; modular: the "
                  "proof only")
      ->check(CLI::IsMember(check::engine_names()));
  cmd->add_option("--timeout", args->timeout, "Give up after SEC seconds of wall-clock time: UNKNOWN")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--memory", args->memory, "Allocate at most MB megabytes more: UNKNOWN \"memory limit\"")
      ->check(CLI::Range(1u, 100000000u));
  cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
  add_trace_detail_option(cmd, args->trace_detail);
  cmd->add_option("--sarif", args->sarif,
                  "Also write the result as a SARIF 2.1.0 log to FILE (a race: one result at the first access, "
                  "the second as a related location, the schedule as a code flow with a threadFlow per thread)");
  add_trace_html_option(cmd, args->trace_html);
  add_witness_options(cmd, args->witness);
  add_front_options(cmd, args->front);
  cmd->add_flag("--test-skip-native-confirmation", args->test_skip_native)->group("");  // TEST ONLY
  cmd->add_flag("--test-race-search-writes-only", args->test_search_writes_only)->group("");  // TEST ONLY
  cmd->add_flag("--test-modular-no-interference", args->test_no_interference)->group("");  // TEST ONLY
  cmd->callback([args, cmd, &exit_code] {
    args->threads_given = cmd->count("--threads") > 0;
    if (args->memory > 0) limit_memory_mb(args->memory);
    exit_code = run_race(*args);
  });
}

}  // namespace siren::app
