// siren-fuzz: the ground-truth oracle loop (tools/fuzz/README.md).
//   siren-fuzz --programs N [--seed S]        N programs, seeds S, S+1, ..., S+N-1
//   siren-fuzz --minutes M [--seed S]         as many as fit in M minutes
//   siren-fuzz --print SEED                   print the C program of one seed
// Prints `programs N, disagreements D` and the SAFE/UNSAFE mix; exit 0 iff D == 0 (with
// --expect-disagreements: iff D > 0, for the test that a broken encoder is caught).
#include "tools/fuzz/broken_reduction.hpp"
#include "tools/fuzz/driver.hpp"
#include "tools/fuzz/generator.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;
using namespace siren::fuzz;

int main(int argc, char** argv) {
  register_broken_reduction();  // --test-reduction test-broken (unlisted: only named runs use it)
  CLI::App app{"siren-fuzz: random concurrent C programs, explorer vs. siren check (every reduction and solver)"};
  std::uint64_t programs = 0, seed = 1;
  double minutes = 0;
  std::string keep_dir;
  bool expect_disagreements = false, verbose = false, no_shrink = false;
  std::size_t stop_after = 0;
  double require_mix = 0, require_constructs = 0, require_pointers = 0, require_unwinding = 0, require_unlocks = 0,
         require_sections = 0, require_tickets = 0,
         require_proofs = 0;
  std::uint64_t param_safe = 0, param_proven = 0;  // programs whose instances all pass; of them proven
  std::optional<std::uint64_t> print_seed;
  DriverOptions o;
  app.add_option("--programs,-n", programs, "Number of programs");
  app.add_option("--minutes,-m", minutes, "Run for this many minutes (with --programs: whichever ends first)");
  app.add_option("--seed,-s", seed, "First seed (program i uses seed S+i; default 1)");
  app.add_option("--bound,-k", o.bound, "Bound K for the explorer and siren check (default 30)");
  app.add_option("--keep-failures", keep_dir,
                 "Shrink every disagreement and write it as a regression case DIR/fuzz_<seed>/ "
                 "(main.c + test.desc; use tests/regression to add it to ctest)");
  app.add_flag("--no-shrink", no_shrink, "With --keep-failures: write the unshrunk program");
  app.add_option("--stop-after", stop_after, "Stop after this many disagreements (0: never)");
  app.add_flag("--expect-disagreements", expect_disagreements,
               "Exit 0 iff some disagreement was found (tests that a broken encoder is caught)");
  app.add_option("--require-mix", require_mix,
                 "Fail unless at least PCT% of the decided programs are UNSAFE and PCT% SAFE");
  app.add_option("--require-constructs", require_constructs,
                 "Fail unless every construct of the summary line `constructs:` appears in at least PCT% of "
                 "the programs");
  app.add_option("--require-unwinding", require_unwinding,
                 "Fail unless at least PCT% of the programs have a transaction that runs on through a loop's head "
                 "(--tx-unwind > 0)");
  app.add_option("--require-carried-unlocks", require_unlocks,
                 "Fail unless at least PCT% of the programs have a transaction that carries an unlock (a critical "
                 "section in one transaction, ir::carried_unlocks)");
  app.add_option("--require-sections", require_sections,
                 "Fail unless at least PCT% of the programs have a mutex only ever locked in balanced critical "
                 "sections (ir::Transactions::balanced)");
  app.add_option("--require-pointers", require_pointers,
                 "Fail unless at least PCT% of the programs access a global or heap object through a pointer");
  std::vector<std::string> test_reductions;
  app.add_option("--test-reduction", test_reductions,
                 "Check only under this reduction (with CaDiCaL), even if it is not listed (e.g. test-broken, "
                 "the deliberately unsound one ctest uses to prove the driver catches bugs)");
  std::vector<std::string> test_reach_reductions;
  app.add_option("--test-reach-reduction", test_reach_reductions,
                 "Only ask the explorer's control states with check --reach under this reduction (a focused run, "
                 "e.g. sir after a change to it)");
  std::vector<std::string> test_race_reductions;
  app.add_option("--test-race-reduction", test_race_reductions,
                 "Compare only race checking under this reduction (e.g. the test-only test-broken) with race "
                 "checking without one");
  app.add_option("--granularity", o.granularity,
                 "BMC step granularity of the bmc, race and reach configurations: instruction, transaction, or "
                 "the test-only test-merge-visible (a deliberately wrong transaction boundary) or "
                 "test-one-sided-lock (a step counts as protected when it alone holds a lock) or "
                 "test-carry-any-unlock (every unlock carried, also of a mutex a trylock uses); with "
                 "--expect-disagreements they show the oracles catch them")
      ->check(CLI::IsMember({"instruction", "transaction", "test-merge-visible", "test-one-sided-lock",
                             "test-carry-any-unlock"}));
  app.add_option("--tx-unwind", o.tx_unwind,
                 "Transaction frames of the bmc configurations: passes through a loop's head per transaction "
                 "(check --tx-unwind)")
      ->capture_default_str();
  app.add_option("--deepening", o.deepening, "BMC deepening of the bmc configurations: linear or geometric (check --deepening)")
      ->check(CLI::IsMember({"linear", "geometric"}))
      ->capture_default_str();
  std::string solvers_filter;
  app.add_option("--solvers", solvers_filter,
                 "Comma-separated solvers to use (default: every available one)");
  app.add_option("--check-timeout", o.check_timeout, "Seconds per siren check run (default 30)");
  app.add_option("--reach-samples", o.reach_samples,
                 "Control states of the explorer asked per program and reduction with check --reach (default 0: all)");
  app.add_option("--native-runs", o.native_runs,
                 "Native oracle: PCT schedules per stress test of a program proven SAFE / race-free, then half as many "
                 "of the mixed strategy (default 200)");
  bool no_native = false, test_native_only = false, broken_native = false, generate_only = false;
  app.add_flag("--generate-only", generate_only,
               "Only generate the programs and print their statistics (with --require-constructs)");
  app.add_flag("--no-native", no_native, "Leave out the native oracle");
  app.add_flag("--test-native", test_native_only, "Compare only with the native oracle");
  app.add_flag("--test-broken-frontend", o.broken_frontend,
               "Translate with a deliberately broken front end (global pointer initialisers dropped; test only): "
               "with --test-native and --expect-disagreements, shows the native oracle catches it");
  app.add_flag("--mutex-kinds", o.generator.mutex_kinds,
               "Every program with a mutex makes it recursive or error-checking (issue 40), checked against the "
               "explorer and native execution");
  app.add_flag("--bitfields", o.generator.bitfields,
               "Every program also declares a struct of bit-fields that workers update and main asserts on, "
               "checked against the explorer and native execution");
  app.add_flag("--sections", o.generator.sections,
               "Every program also has a second mutex whose critical sections are balanced (DESIGN.md §B9.3: "
               "SIR judges them by their data), checked against the explorer and native execution");
  app.add_flag("--test-broken-bitfields", o.broken_bitfields,
               "Translate with a deliberately broken front end that places every bit-field one bit off (test only): "
               "with --bitfields, --test-native and --expect-disagreements, shows the native oracle catches it");
  app.add_flag("--test-broken-mutex-kinds", o.broken_mutex_kinds,
               "Translate with a deliberately broken front end for which every mutex is a default one (test only): "
               "with --mutex-kinds, --test-native and --expect-disagreements, shows the native oracle catches it");
  app.add_flag("--test-broken-native", broken_native,
               "Run the native oracle's runtime deliberately broken (it never preempts a thread; test only): "
               "shows the comparison catches a broken oracle");
  app.add_flag("--parameterized", o.generator.parameterized,
               "Programs whose main creates a worker in `while (__VERIFIER_nondet_bool())` (template param): "
               "check --threads N (N = 1..max-instances + 1) under the explicit engine and the BMC, and the thread "
               "schedule, against the explorer on the instances with 0..max-instances workers");
  app.add_option("--max-instances", o.max_instances, "--parameterized: worker instances explored")
      ->capture_default_str();
  app.add_option("--require-tickets", require_tickets,
                 "--parameterized: fail unless the thread schedule finds at least PCT% of the ticket bugs that need "
                 "more workers than --max-instances (UNSAFE; any other answer that covers them is a disagreement)");
  app.add_option("--require-proofs", require_proofs,
                 "--parameterized: fail unless the thread schedule proves at least PCT% of the programs whose instances "
                 "all pass SAFE for any number of threads");
  app.add_option("--param-timeout", o.param_timeout,
                 "--parameterized: seconds for the thread schedule per program")
      ->capture_default_str();
  app.add_flag("--test-unstated-thread-bound", o.test_unstated_thread_bound,
               "--parameterized, test only: the models forget their thread bound, so bounded answers claim SAFE; "
               "with --expect-disagreements, shows the instance comparison catches it");
  app.add_flag("--shorten", o.shorten,
               "siren check shortens its counterexamples (as `siren check` does; off by default for time), so "
               "that the native replay checks the shortened traces");
  app.add_flag("--test-modular-no-interference", o.test_modular_no_interference,
               "--parameterized, test only: the proof for any number of threads ignores the other threads' steps "
               "(modular::ModularOptions::test_no_interference); with --expect-disagreements, shows the instance "
               "comparison catches it");
  app.add_option("--print", print_seed, "Print the program of this seed and exit");
  app.add_flag("--verbose,-v", verbose, "One line per program");
  CLI11_PARSE(app, argc, argv);

  if (print_seed) {
    o.tmp_dir = (fs::temp_directory_path() / fmt::format("siren-fuzz-{}", ::getpid())).string();
    fs::create_directories(o.tmp_dir);
    std::fputs(generate_program(*print_seed, o).to_c().c_str(), stdout);
    fs::remove_all(o.tmp_dir);
    return 0;
  }
  if (programs == 0 && minutes <= 0) {
    std::fprintf(stderr, "siren-fuzz: give --programs N and/or --minutes M\n");
    return 2;
  }
  o.tmp_dir = (fs::temp_directory_path() / fmt::format("siren-fuzz-{}", ::getpid())).string();
  fs::create_directories(o.tmp_dir);
  o.configs = available_configs();
  if (!solvers_filter.empty()) {
    const std::string list = "," + solvers_filter + ",";
    std::erase_if(o.configs, [&](const Config& c) { return list.find("," + c.solver + ",") == std::string::npos; });
    if (o.configs.empty()) {
      std::fprintf(stderr, "siren-fuzz: no available configuration uses --solvers %s\n", solvers_filter.c_str());
      return 2;
    }
  }
  // A test-only reduction is checked on its own (the point is that the oracle catches it; the
  // shrinker re-runs every configuration for every candidate program).
  if (!test_reductions.empty() || !test_race_reductions.empty() || !test_reach_reductions.empty()) o.configs.clear();
  if (no_native) std::erase_if(o.configs, [](const Config& c) { return c.engine == "native"; });
  if (test_native_only) std::erase_if(o.configs, [](const Config& c) { return c.engine != "native"; });
  if (broken_native) ::setenv("SIREN_RT_TEST_BROKEN", "1", 1);
  for (const std::string& r : test_reductions) o.configs.push_back({r, "cadical"});
  for (const std::string& r : test_race_reductions) o.configs.push_back({r, "cadical", "race"});
  for (const std::string& r : test_reach_reductions) o.configs.push_back({r, "cadical", "reach"});
  std::string cfgs;
  for (const Config& c : o.configs) cfgs += (cfgs.empty() ? "" : ", ") + c.str();
  std::printf("siren-fuzz: seed %llu, bound %u, %s frames (tx-unwind %u, %s deepening), configurations: %s\n",
              static_cast<unsigned long long>(seed), o.bound, o.granularity.c_str(), o.tx_unwind, o.deepening.c_str(),
              cfgs.c_str());
  std::fflush(stdout);

  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  std::uint64_t n = 0, disagreements = 0, skipped = 0, timeouts = 0;
  std::uint64_t explicit_compared = 0, explicit_safe = 0;  // --engine explicit vs the unbounded explorer
  std::uint64_t race_compared = 0, race_found = 0;          // race under a reduction vs under none
  std::uint64_t search_compared = 0, search_found = 0;      // race's explicit-state search vs the same
  std::uint64_t reach_asked = 0;                            // control states asked under reductions
  std::uint64_t pointer_programs = 0;                       // programs with accesses through pointers
  std::uint64_t unwinding_programs = 0;                     // programs whose transactions unwind a loop
  std::uint64_t unlock_programs = 0;                        // programs with a transaction carrying an unlock
  std::uint64_t section_programs = 0;                       // ... with balanced critical sections
  std::uint64_t section_pair_programs = 0;                  // ... and SIR pairs of them (--sections)
  std::uint64_t kind_programs = 0;                          // with a recursive / error-checking mutex
  std::uint64_t native_programs = 0, native_replayed = 0, native_runs = 0;  // the native oracle
  double t_native = 0;
  std::map<std::string, std::uint64_t> verdicts, templ_total, templ_unsafe, construct_count;
  std::uint64_t three_workers = 0, deep = 0, max_steps = 0;
  // --parameterized: failing instances by their fewest workers; tickets beyond max_instances
  // and how many of them the thread schedule found UNSAFE; answers of the schedule.
  std::map<unsigned, std::uint64_t> param_fail;
  std::uint64_t beyond = 0, beyond_found = 0;
  std::map<std::string, std::uint64_t> schedule_answers;
  double t_front = 0, t_explore = 0, t_check = 0, worst = 0;
  std::uint64_t worst_seed = 0;
  for (;; ++n) {
    if (programs && n >= programs) break;
    if (minutes > 0 && elapsed() >= minutes * 60) break;
    if (stop_after && disagreements >= stop_after) break;
    const std::uint64_t s = seed + n;
    const Program p = generate_program(s, o);
    kind_programs += p.mutex && p.lock_style >= 4;
    if (generate_only) {  // only the generator's statistics (constructs, templates)
      ++templ_total[p.templ];
      for (const std::string& c : p.constructs()) ++construct_count[c];
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = run_program(p, o);
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (dt > worst) worst = dt, worst_seed = s;
    t_front += r.frontend_seconds;
    t_explore += r.explore_seconds;
    t_check += r.check_seconds;
    reach_asked += r.reach_asked;
    pointer_programs += r.pointer_to_shared;
    unwinding_programs += r.unwinds_loop;
    unlock_programs += r.carries_unlock;
    section_programs += r.balanced_sections;
    section_pair_programs += r.section_pairs;
    native_replayed += r.native_replayed;
    native_runs += r.native_runs;
    t_native += r.native_seconds;
    for (const ConfigResult& c : r.checks) native_programs += c.config.engine == "native";
    ++templ_total[p.templ];
    for (const std::string& c : p.constructs()) ++construct_count[c];
    if (p.templ == "param" && r.outcome != Outcome::Skipped) {
      if (r.oracle == siren::explicit_state::ExploreVerdict::Unsafe) ++param_fail[r.param_failing_instance];
      if (r.param_schedule) {
        const auto& a = *r.param_schedule;
        ++schedule_answers[a.verdict == siren::check::Verdict::SafeUpToBound && a.thread_bound
                               ? fmt::format("SAFE_UP_TO_BOUND ({} threads)", a.thread_bound)
                           : a.any_number_of_threads ? std::string("SAFE (any number of threads)")
                                                     : std::string(siren::check::verdict_name(a.verdict))];
        if (r.oracle == siren::explicit_state::ExploreVerdict::Safe && !r.param_ticket_beyond) {
          ++param_safe;
          param_proven += a.any_number_of_threads;
        }
        if (r.param_ticket_beyond) {
          ++beyond;
          beyond_found += a.verdict == siren::check::Verdict::Unsafe;
        }
      }
    }
    for (const ConfigResult& c : r.checks)
      if (c.config.engine == "explicit" && c.result.engine == "explicit") {
        ++explicit_compared;
        if (c.result.verdict == siren::check::Verdict::Safe) ++explicit_safe;
      } else if (c.config.engine == "race" && c.result.verdict != siren::check::Verdict::Unknown) {
        ++race_compared;
        if (c.result.verdict == siren::check::Verdict::Unsafe) ++race_found;
      } else if (c.config.engine == "race-search" && c.result.verdict != siren::check::Verdict::Unknown) {
        ++search_compared;
        if (c.result.verdict == siren::check::Verdict::Unsafe) ++search_found;
      }
    const char* oracle = r.oracle == siren::explicit_state::ExploreVerdict::Unsafe ? "UNSAFE"
                         : r.oracle == siren::explicit_state::ExploreVerdict::Safe ? "SAFE"
                         : r.oracle == siren::explicit_state::ExploreVerdict::SafeUpToBound ? "SAFE_UP_TO_BOUND"
                                                                                 : "UNKNOWN";
    ++verdicts[oracle];
    if (r.oracle == siren::explicit_state::ExploreVerdict::Unsafe) {
      ++templ_unsafe[p.templ];
      if (r.error_workers >= 3) ++three_workers;
      if (r.error_steps >= 20) ++deep;
      max_steps = std::max<std::uint64_t>(max_steps, r.error_steps);
    }
    if (verbose)
      std::printf("seed %llu %-6s %-16s states %zu steps %zu threads %zu  %.3fs%s%s\n",
                  static_cast<unsigned long long>(s), p.templ.c_str(), oracle, r.oracle_states, r.error_steps,
                  r.error_threads, dt, r.outcome == Outcome::Agree ? "" : "  ", r.detail.c_str());
    switch (r.outcome) {
      case Outcome::Agree: break;
      case Outcome::Skipped: ++skipped; break;
      case Outcome::Timeout: ++timeouts; break;
      case Outcome::Disagree: {
        ++disagreements;
        std::printf("DISAGREEMENT seed %llu: %s\n", static_cast<unsigned long long>(s), r.detail.c_str());
        if (verbose)
          for (const ConfigResult& c : r.checks)
            for (const auto& row : c.result.trace)
              std::printf("    %s %3u %-8s %s:%u %s\n", c.config.reduction.c_str(), row.step, row.thread.c_str(),
                          row.file.c_str(), row.line, row.stmt.c_str());
        if (!keep_dir.empty()) {
          Program small = p;
          RunResult sr = r;
          int steps = 0;
          if (!no_shrink) {
            small = shrink(p, o, failure_signature(r), steps);
            sr = run_program(small, o);
          }
          const std::string dir = (fs::path(keep_dir) / fmt::format("fuzz_{}", s)).string();
          write_regression_case(dir, small, sr, o);
          std::printf("  shrunk %zu -> %zu statements in %d steps: %s\n", p.size(), small.size(), steps, dir.c_str());
        }
        std::fflush(stdout);
        break;
      }
    }
  }
  fs::remove_all(o.tmp_dir);

  const std::uint64_t unsafe = verdicts["UNSAFE"];
  const std::uint64_t safe = verdicts["SAFE"] + verdicts["SAFE_UP_TO_BOUND"];
  const double decided = static_cast<double>(unsafe + safe);
  const double pu = decided > 0 ? 100.0 * static_cast<double>(unsafe) / decided : 0;
  const double ps = decided > 0 ? 100.0 * static_cast<double>(safe) / decided : 0;
  std::printf("oracle verdicts: UNSAFE %llu (%.0f%%), SAFE %llu (%.0f%%; %llu of them up to bound), UNKNOWN %llu\n",
              static_cast<unsigned long long>(unsafe), pu, static_cast<unsigned long long>(safe), ps,
              static_cast<unsigned long long>(verdicts["SAFE_UP_TO_BOUND"]),
              static_cast<unsigned long long>(verdicts["UNKNOWN"]));
  std::string templ;
  for (const auto& [name, total] : templ_total)
    templ += fmt::format("{}{} {} ({} UNSAFE)", templ.empty() ? "" : ", ", name, total, templ_unsafe[name]);
  std::printf("templates: %s\n", templ.c_str());
  std::string constructs;
  std::vector<std::string> rare;
  for (const std::string& name : construct_names()) {
    if (name == "bit-field" && !o.generator.bitfields) continue;  // only with --bitfields
    const std::uint64_t k = construct_count[name];
    const double pc = n > 0 ? 100.0 * static_cast<double>(k) / static_cast<double>(n) : 0;
    constructs += fmt::format("{}{} {}/{} ({:.0f}%)", constructs.empty() ? "" : ", ", name, k, n, pc);
    if (pc < require_constructs) rare.push_back(fmt::format("{} {:.0f}%", name, pc));
  }
  std::printf("constructs: %s\n", constructs.c_str());
  std::printf("UNSAFE whose shortest counterexample needs 3 worker threads: %llu; deep (>= 20 steps): %llu; "
              "longest shortest counterexample: %llu steps\n",
              static_cast<unsigned long long>(three_workers), static_cast<unsigned long long>(deep),
              static_cast<unsigned long long>(max_steps));
  std::printf("time: %.1fs (front end %.1fs, explorer %.1fs, check %.1fs; slowest seed %llu %.2fs); "
              "skipped %llu, check timeouts %llu\n",
              elapsed(), t_front, t_explore, t_check, static_cast<unsigned long long>(worst_seed), worst,
              static_cast<unsigned long long>(skipped), static_cast<unsigned long long>(timeouts));
  std::printf("explicit engine compared with the unbounded explorer on %llu programs (%llu SAFE)\n",
              static_cast<unsigned long long>(explicit_compared), static_cast<unsigned long long>(explicit_safe));
  std::printf("control states of the explorer asked with check --reach under a reduction: %llu\n",
              static_cast<unsigned long long>(reach_asked));
  const double pp = n > 0 ? 100.0 * static_cast<double>(pointer_programs) / static_cast<double>(n) : 0;
  std::printf("programs accessing a global or heap object through a pointer: %llu (%.0f%%)\n",
              static_cast<unsigned long long>(pointer_programs), pp);
  std::printf("programs with a recursive or error-checking mutex: %llu\n", static_cast<unsigned long long>(kind_programs));
  const double up = n > 0 ? 100.0 * static_cast<double>(unwinding_programs) / static_cast<double>(n) : 0;
  std::printf("programs with a transaction that runs on through a loop's head: %llu (%.0f%%)\n",
              static_cast<unsigned long long>(unwinding_programs), up);
  const double lp = n > 0 ? 100.0 * static_cast<double>(unlock_programs) / static_cast<double>(n) : 0;
  std::printf("programs with a transaction that carries an unlock: %llu (%.0f%%), with balanced critical sections: %llu",
              static_cast<unsigned long long>(unlock_programs), lp, static_cast<unsigned long long>(section_programs));
  if (o.generator.sections)
    std::printf(" (SIR's insensitive pairs with a section: %llu)", static_cast<unsigned long long>(section_pair_programs));
  std::printf("\n");
  std::printf("race checks under a reduction compared with race --reduction none: %llu (%llu with a race)\n",
              static_cast<unsigned long long>(race_compared), static_cast<unsigned long long>(race_found));
  std::printf("race's explicit-state search compared with race --reduction none: %llu decided (%llu with a race)\n",
              static_cast<unsigned long long>(search_compared), static_cast<unsigned long long>(search_found));
  std::printf("native oracle: %llu programs compiled and run, %llu counterexamples replayed natively, %llu native "
              "runs of programs proven SAFE or race-free (%.1fs)\n",
              static_cast<unsigned long long>(native_programs), static_cast<unsigned long long>(native_replayed),
              static_cast<unsigned long long>(native_runs), t_native);
  if (o.generator.parameterized) {
    std::string fails, answers;
    for (const auto& [k, c] : param_fail) fails += fmt::format("{}{} with {}", fails.empty() ? "" : ", ", c, k);
    for (const auto& [a, c] : schedule_answers) answers += fmt::format("{}{} {}", answers.empty() ? "" : ", ", a, c);
    std::printf("parameterized: failing instances by fewest workers: %s; thread schedule: %s; tickets needing more "
                "than %u workers: %llu, found UNSAFE by the thread schedule: %llu\n",
                fails.empty() ? "none" : fails.c_str(), answers.c_str(), o.max_instances,
                static_cast<unsigned long long>(beyond), static_cast<unsigned long long>(beyond_found));
  }
  std::printf("programs %llu, disagreements %llu\n", static_cast<unsigned long long>(n),
              static_cast<unsigned long long>(disagreements));
  bool ok = expect_disagreements ? disagreements > 0 : disagreements == 0;
  if (require_pointers > 0 && pp < require_pointers) {
    std::printf("FAIL: programs with accesses through pointers below %.0f%%\n", require_pointers);
    ok = false;
  }
  if (require_unwinding > 0 && up < require_unwinding) {
    std::printf("FAIL: programs whose transactions unwind a loop below %.0f%%\n", require_unwinding);
    ok = false;
  }
  if (require_unlocks > 0 && lp < require_unlocks) {
    std::printf("FAIL: programs with a transaction that carries an unlock below %.0f%%\n", require_unlocks);
    ok = false;
  }
  const double sp = n > 0 ? 100.0 * static_cast<double>(section_programs) / static_cast<double>(n) : 0;
  if (require_sections > 0 && sp < require_sections) {
    std::printf("FAIL: programs with balanced critical sections below %.0f%%\n", require_sections);
    ok = false;
  }
  if (require_tickets > 0 && (beyond == 0 || 100.0 * static_cast<double>(beyond_found) < require_tickets * static_cast<double>(beyond))) {
    std::printf("FAIL: the thread schedule found %llu of %llu ticket bugs beyond the instances (below %.0f%%)\n",
                static_cast<unsigned long long>(beyond_found), static_cast<unsigned long long>(beyond), require_tickets);
    ok = false;
  }
  if (o.generator.parameterized)
    std::printf("parameterized proofs: %llu of the %llu programs whose instances all pass are proven for any number of "
                "threads\n",
                static_cast<unsigned long long>(param_proven), static_cast<unsigned long long>(param_safe));
  if (require_proofs > 0 &&
      (param_safe == 0 || 100.0 * static_cast<double>(param_proven) < require_proofs * static_cast<double>(param_safe))) {
    std::printf("FAIL: proofs for any number of threads below %.0f%%\n", require_proofs);
    ok = false;
  }
  if (require_mix > 0 && (pu < require_mix || ps < require_mix)) {
    std::printf("FAIL: mix below %.0f%%\n", require_mix);
    ok = false;
  }
  if (!rare.empty()) {
    std::string list;
    for (const std::string& r : rare) list += (list.empty() ? "" : ", ") + r;
    std::printf("FAIL: constructs below %.0f%% of the programs: %s\n", require_constructs, list.c_str());
    ok = false;
  }
  return ok ? 0 : 1;
}
