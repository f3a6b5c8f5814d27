// `siren test FILE.c`: native stress testing (native/README.md). The program is compiled by
// clang-16 with ThreadSanitizer's instrumentation, linked with siren's scheduling runtime and
// run many times, each time under a seeded random or PCT schedule (probabilistic concurrency
// testing), or under the schedules of a systematic, stateful search (dfs). Finds bugs in programs too large to verify; finding none proves nothing. Shares
// nothing with siren's front end, thread model or interpreter — which is why a failing run is
// then followed by siren's interpreter over siren's model of the same file
// (confirm/native_confirm.hpp): agreement is evidence, disagreement a bug in siren's model.
#include "apps/siren/commands.hpp"
#include "confirm/native_confirm.hpp"
#include "frontend/frontend.hpp"
#include "native/native.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <algorithm>
#include <string>
#include <vector>

namespace siren::app {
namespace {

struct TestArgs {
  std::string file;
  unsigned runs = 1000;
  bool runs_given = false;
  std::uint64_t seed = 1;
  std::string strategy = "mixed";
  unsigned depth = 3;
  std::uint64_t pct_k = 50;
  bool race = false;
  double timeout = 300;
  std::uint64_t max_steps = 100'000;
  unsigned run_ms = 5000;
  bool json = false;
  bool keep = false;
  bool broken_frontend = false;  // test only: confirm with the front end that drops pointer initialisers
  std::string replay;  // a check/race --json output whose trace is replayed natively
  std::string schedule;  // dfs: the choices of one run (a failing run's "this run again")
  bool no_snapshots = false;  // dfs: re-execute each run from the start
  std::vector<std::string> defines, includes, clang_args;
};

std::string source_line(const std::string& dir, const std::string& file, unsigned line) {
  static std::map<std::string, std::vector<std::string>> cache;
  const std::string path = (std::filesystem::path(dir) / file).string();
  auto it = cache.find(path);
  if (it == cache.end()) {
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    it = cache.emplace(path, std::move(lines)).first;
  }
  if (line == 0 || line > it->second.size()) return "";
  std::string s = it->second[line - 1];
  const auto b = s.find_first_not_of(" \t");
  s = b == std::string::npos ? "" : s.substr(b);
  if (s.size() > 48) s = s.substr(0, 45) + "...";
  return s;
}

int run_test(const TestArgs& a) {
  if (!a.schedule.empty() && a.strategy != "dfs") {
    std::fprintf(stderr, "siren: --schedule is a run of --strategy dfs\n");
    return kExitUsage;
  }
  if (!std::filesystem::exists(a.file)) {
    std::fprintf(stderr, "siren: %s: no such file\n", a.file.c_str());
    return kExitInputError;
  }
  char tmpl[] = "/tmp/siren-test-XXXXXX";
  const char* tmp = ::mkdtemp(tmpl);
  if (!tmp) {
    std::fprintf(stderr, "siren: cannot create a temporary directory\n");
    return kExitInternal;
  }
  const std::string dir = tmp;
  std::vector<std::string> cargs;
  for (const auto& d : a.defines) cargs.push_back("-D" + d);
  for (const auto& i : a.includes) cargs.push_back("-I" + i);
  cargs.insert(cargs.end(), a.clang_args.begin(), a.clang_args.end());
  const frontend::CompatibleFile source = frontend::gcc_compatible_file(a.file, dir);
  cargs.insert(cargs.end(), source.extra_args.begin(), source.extra_args.end());
  const native::Binary bin = native::compile(source.path, cargs, dir);
  auto cleanup = [&] {
    if (!a.keep) std::filesystem::remove_all(dir);
  };
  if (!bin.ok) {
    std::fprintf(stderr, "siren: %s: %s\n", a.file.c_str(), bin.error.c_str());
    cleanup();
    return bin.error.rfind("clang could not compile", 0) == 0 ? kExitInputError : kExitInternal;
  }
  native::Summary s;
  if (!a.replay.empty()) {
    std::ifstream in(a.replay);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    // Every step of the schedule: "ir_trace" (check/race --json print the statement-level view
    // as "trace"; older results and --trace-detail ir have every step in "trace").
    const char* key = j.is_object() && j.contains("ir_trace") ? "ir_trace" : "trace";
    if (j.is_discarded() || !j.is_object() || !j.contains(key) || !j[key].is_array()) {
      std::fprintf(stderr, "siren: %s: not a siren check/race --json result with a trace\n", a.replay.c_str());
      cleanup();
      return kExitInputError;
    }
    std::vector<native::TraceStep> steps;
    for (const auto& row : j[key]) {
      native::TraceStep t;
      t.thread = row.value("thread", std::string());
      t.line = row.value("line", 0u);
      t.started = row.value("started", std::string());
      // a value of a function without a body that the real library defines is not taken natively
      if (row.contains("nondet") && row["nondet"].is_number_integer() &&
          bin.takes_nondet(row.value("nondet_from", std::string())))
        t.nondet = row["nondet"].get<std::int64_t>();
      if (const std::string acc = row.value("access", std::string()); acc.size() == 1) t.access = acc[0];
      steps.push_back(std::move(t));
    }
    std::vector<native::TraceRaceEnd> race;
    if (j.contains("race") && j["race"].is_object())
      for (const char* end : {"first", "second"})
        if (j["race"].contains(end)) {
          const auto& e = j["race"][end];
          race.push_back({e.value("thread", std::string()), e.value("line", 0u), e.value("access", std::string()) == "write",
                          e.value("variable", std::string())});
        }
    s = native::replay(bin, native::schedule_of(steps, race), a.race, a.run_ms);
  } else {
    native::Options o;
    // dfs searches until it has explored every state (or --timeout) unless --runs says otherwise.
    o.runs = a.strategy == "dfs" && !a.runs_given ? 100'000'000 : a.runs;
    o.seed = a.seed;
    o.strategy = a.strategy;
    o.schedule = a.schedule;
    o.snapshots = !a.no_snapshots;
    o.pct_depth = a.depth;
    o.pct_k = a.pct_k;
    o.races = a.race;
    o.max_steps = a.max_steps;
    o.run_ms = a.run_ms;
    o.timeout_s = a.timeout;
    s = native::run(bin, o);
  }
  if (!s.ok) {
    std::fprintf(stderr, "siren: %s: %s\n", a.file.c_str(), s.error.c_str());
    cleanup();
    return kExitInternal;
  }
  const std::string srcdir = std::filesystem::path(a.file).parent_path().string();
  std::string mix;
  for (const auto& [o2, n] : s.counts) mix += (mix.empty() ? "" : ", ") + std::string(native::outcome_name(o2)) + " " + std::to_string(n);

  std::vector<native::TraceLine> trace;
  if (s.failure) trace = native::trace_lines(bin, *s.failure);
  const bool found = s.failure.has_value();
  const char* what = found && s.failure->outcome == native::Outcome::Race ? "DATA RACE" : "VIOLATION";
  // A failing run of our own schedules is followed by siren's interpreter (a replayed siren
  // trace came from siren's model in the first place). The exit code stays that of the
  // native result: the violation happened.
  std::optional<confirm::Confirmation> confirmation;
  if (found && a.replay.empty()) {
    confirm::ConfirmOptions co;
    co.clang_args = cargs;
    co.test_drop_pointer_initialisers = a.broken_frontend;
    confirmation = confirm::confirm_native_failure(a.file, co, bin, *s.failure);
  }
  if (a.json) {
    nlohmann::ordered_json j;
    j["result"] = found ? what : "NO VIOLATION FOUND";
    j["runs"] = s.runs;
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (const auto& [o2, n] : s.counts) counts[native::outcome_name(o2)] = n;
    j["outcomes"] = counts;
    j["seconds"] = s.seconds;
    if (a.strategy == "dfs" && a.schedule.empty()) {
      j["states"] = s.states;
      j["exhausted"] = s.exhausted;
    }
    if (found) {
      j["run"] = s.failure->index;
      j["seed"] = s.failure->seed;
      j["strategy"] = s.failure->strategy;
      j["message"] = s.failure->message;
      if (!s.failure->schedule.empty()) j["schedule"] = s.failure->schedule;
      auto rows = nlohmann::ordered_json::array();
      unsigned step = 0;
      for (const auto& t : trace) {
        rows.push_back({{"step", ++step}, {"thread", t.thread_name}, {"file", t.file}, {"line", t.line},
                        {"stmt", source_line(srcdir, t.file, t.line)}, {"event", t.what}});
        if (t.nondet) rows.back()["nondet"] = *t.nondet;
      }
      j["trace"] = rows;
      if (confirmation)
        j["interpreter"] = {{"result", confirm::confirm_result_name(confirmation->result)},
                            {"why", confirmation->why},
                            {"steps", confirmation->steps}};
    }
    std::printf("%s\n", j.dump(2).c_str());
  } else if (found) {
    const auto& f = *s.failure;
    if (!a.replay.empty())
      std::printf("NATIVE REPLAY RESULT: %s reproduced (%s): the trace's schedule, run natively\n", what,
                  f.message.c_str());
    else
      std::printf("NATIVE TEST RESULT: %s (%s) in run %u of %u (seed %llu, %s schedule)\n", what, f.message.c_str(),
                  f.index + 1, s.runs, static_cast<unsigned long long>(f.seed), f.strategy.c_str());
    std::size_t wt = 6, wl = 4;
    std::vector<std::string> locs;
    for (const auto& t : trace) {
      locs.push_back(t.file + ":" + std::to_string(t.line));
      wt = std::max(wt, t.thread_name.size());
      wl = std::max(wl, locs.back().size());
    }
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const auto& t = trace[i];
      std::string line = std::to_string(i + 1);
      line = std::string(line.size() < 4 ? 4 - line.size() : 0, ' ') + line;
      line += "  " + t.thread_name + std::string(wt - t.thread_name.size(), ' ');
      line += "  " + locs[i] + std::string(wl - locs[i].size(), ' ');
      line += "  " + source_line(srcdir, t.file, t.line) + "   [" + t.what + "]";
      std::printf("%s\n", line.c_str());
    }
    if (confirmation) {
      const confirm::Confirmation& c = *confirmation;
      switch (c.result) {
        case confirm::ConfirmResult::Confirmed:
          std::printf("confirmed by siren's interpreter: the same %s (%zu siren steps; %s)\n",
                      f.outcome == native::Outcome::Race ? "data race" : "violation", c.steps, c.why.c_str());
          break;
        case confirm::ConfirmResult::NotConfirmed:
          std::printf("NOT confirmed by siren's interpreter: %s — a disagreement between native execution and "
                      "siren's model of the program; please report it\n",
                      c.why.c_str());
          break;
        case confirm::ConfirmResult::NotChecked:
          std::printf("not checked by siren's interpreter: %s\n", c.why.c_str());
          break;
      }
    }
    std::printf("outcomes: %s\n", mix.c_str());
    if (a.strategy == "dfs" && a.schedule.empty())
      std::printf("systematic search: %llu states visited\n", static_cast<unsigned long long>(s.states));
    if (a.replay.empty() && !f.schedule.empty())
      std::printf("this run again: siren test %s --strategy dfs --seed %llu --schedule %s\n", a.file.c_str(),
                  static_cast<unsigned long long>(f.seed), f.schedule.c_str());
    else if (a.replay.empty())
      std::printf("this run again: siren test %s --runs 1 --seed %llu --pct-k %llu%s\n", a.file.c_str(),
                  static_cast<unsigned long long>(f.seed), static_cast<unsigned long long>(f.pct_k),
                  a.strategy == "mixed" ? "" : (" --strategy " + a.strategy).c_str());
  } else if (!a.replay.empty()) {
    std::printf("NATIVE REPLAY RESULT: NOT REPRODUCED (the trace's schedule, run natively, ends: %s)\n", mix.c_str());
  } else if (a.strategy == "dfs" && a.schedule.empty() && s.exhausted) {
    std::printf("NATIVE TEST RESULT: NO VIOLATION FOUND: every reachable state explored (%llu states, %u runs; "
                "outcomes: %s)\n",
                static_cast<unsigned long long>(s.states), s.runs, mix.c_str());
    std::printf("not a proof: schedules only, each __VERIFIER_nondet_* call gets the one value of seed %llu; and "
                "states are compared by a 64-bit hash of the memory the program accessed and its threads' stacks, "
                "so two different states could be taken for one\n",
                static_cast<unsigned long long>(a.seed));
  } else if (a.strategy == "dfs" && a.schedule.empty()) {
    std::printf("NATIVE TEST RESULT: NO VIOLATION FOUND in %u runs: the systematic search stopped at %s before it "
                "explored every state (%llu states visited; not a proof; outcomes: %s)\n",
                s.runs, s.table_full ? "its table of states (full)" : "--runs or --timeout",
                static_cast<unsigned long long>(s.states), mix.c_str());
  } else {
    std::printf("NATIVE TEST RESULT: NO VIOLATION FOUND in %u runs (not a proof; outcomes: %s)\n", s.runs,
                mix.c_str());
  }
  cleanup();
  return found ? kExitUnsafe : kExitSafe;
}

}  // namespace

void add_test_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<TestArgs>();
  CLI::App* cmd = app.add_subcommand(
      "test",
      "Native stress testing: compile FILE.c with clang-16 (ThreadSanitizer instrumentation, siren's "
      "scheduling runtime) and run it under many random / PCT schedules, or search its schedules "
      "systematically (--strategy dfs). Exit 10 when a violation (or, "
      "with --race, a data race) is found, 0 when none is (not a proof), 6 when clang cannot compile it.");
  cmd->add_option("file", args->file, "C file")->required();
  cmd->add_option("--runs", args->runs, "Number of runs (default 1000; dfs: until every state is explored)")
      ->check(CLI::Range(1u, 100000000u))
      ->each([args](const std::string&) { args->runs_given = true; });
  cmd->add_option("--seed", args->seed, "Seed of the first run (run i uses seed+i; default 1)");
  cmd->add_option("--strategy", args->strategy,
                  "mixed (default: PCT with depth 1, 2, 3 on odd seeds; on even ones demote, uniform random and "
                  "round robin with a random quantum of 1-6 in turn), pct, random, round-robin or demote (round "
                  "robin among the threads not yet demoted; 1-3 change points demote the running thread behind all "
                  "others) or dfs (a systematic, stateful search: depth first over the schedules, re-executing "
                  "the program, pruning each state some run has reached; it stops at a violation, when every "
                  "reachable state is explored, at --runs or at --timeout)")
      ->check(CLI::IsMember({"mixed", "pct", "random", "round-robin", "demote", "dfs"}));
  cmd->add_option("--schedule", args->schedule,
                  "With --strategy dfs: one run that follows these choices (a failing run's \"this run again\")");
  cmd->add_flag("--no-snapshots", args->no_snapshots,
               "With --strategy dfs: re-execute each run from the program's start instead of forking the "
               "process at each choice point (slower; the search without snapshots, for comparison)");
  cmd->add_option("--depth", args->depth, "PCT bug depth with --strategy pct (default 3; 0: 1, 2, 3 in turn)")
      ->check(CLI::Range(0u, 8u));
  cmd->add_option("--pct-k", args->pct_k, "PCT's first estimate of the steps of a run (default 50; then the longest seen)");
  cmd->add_flag("--race", args->race, "Also report data races (two threads at conflicting accesses, not both atomic)");
  cmd->add_option("--timeout", args->timeout, "Seconds for all runs (default 300)")->check(CLI::Range(0.1, 1e7));
  cmd->add_option("--max-steps", args->max_steps, "Scheduling points per run before it is cut off (default 100000)");
  cmd->add_option("--run-timeout-ms", args->run_ms, "Milliseconds per run (default 5000)")->check(CLI::Range(100u, 3600000u));
  cmd->add_option("--replay", args->replay,
                  "Instead of random schedules, follow the trace of a `siren check --json` or `siren race --json` "
                  "result (with --race for a race): exit 10 when the violation (race) happens natively too")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_flag("--keep", args->keep, "Keep the instrumented program (its directory is printed on failure)");
  // Hidden, test only: shows that a wrong model of the program is NOT confirmed.
  cmd->add_flag("--test-broken-frontend", args->broken_frontend,
                "Confirm a failing run with a deliberately broken front end (global pointer initialisers dropped)")
      ->group("");
  cmd->add_option("-D", args->defines, "Preprocessor definition passed to clang");
  cmd->add_option("-I", args->includes, "Include directory passed to clang");
  cmd->add_option("clang_args", args->clang_args, "Arguments after -- are passed to clang");
  cmd->callback([args, &exit_code] { exit_code = run_test(*args); });
}

}  // namespace siren::app
