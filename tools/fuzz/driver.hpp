// The differential driver (tools/fuzz/README.md): one generated program -> the explicit-state
// explorer (the oracle) and the BMC engine under every reduction and solver that exists ->
// compare. Everything runs in-process (one Clang parse per program).
#pragma once

#include "check/check.hpp"
#include "explicit/explorer.hpp"
#include "tools/fuzz/generator.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace siren::fuzz {

struct Config {
  std::string reduction;
  std::string solver;
  /// "bmc", or "explicit" (explicit/search.hpp; compared with an UNBOUNDED explorer run, since the
  /// explicit search has no step bound; reduction and solver are then unused), or "race"
  /// (race::check_race under `reduction`, compared with check_race under none: a reduction
  /// must keep every racy state reachable), or "reach" (race::check_reach under
  /// `reduction` on control states the explorer reached: each must be REACHABLE), or "native"
  /// (the program compiled by clang-16 and run by the native oracle, native/: the explorer's
  /// and race --reduction none's counterexamples must happen natively, and a program they
  /// prove SAFE / race-free must stay so under DriverOptions::native_runs PCT schedules and
  /// half as many of the mixed strategy).
  std::string engine = "bmc";
  std::string str() const {
    if (engine == "explicit") return "--engine explicit";
    if (engine == "race") return "race --reduction " + reduction;
    if (engine == "race-search") return "race (explicit-state search)";
    if (engine == "reach") return "check --reach --reduction " + reduction;
    if (engine == "native") return "native execution";
    return "--engine " + engine + " --reduction " + reduction + " --solver " + solver;
  }
};

/// Every reduction and solver the engine accepts right now (probed on a one-thread program),
/// as the cross product reductions x solvers (BMC), plus the explicit engine, plus race
/// checking under mpor (the reduction `siren race` offers besides none), plus control-state
/// reachability under every reduction other than none.
std::vector<Config> available_configs();

struct DriverOptions {
  unsigned bound = 30;              // K for both the explorer and the BMC
  std::size_t max_states = 300'000;  // explorer: beyond -> UNKNOWN (skipped)
  double check_timeout = 30;         // seconds per BMC run (timeout: counted, not a disagreement)
  std::vector<Config> configs;
  std::string tmp_dir;               // where program files are written
  GeneratorOptions generator;
  double safe_share = 0.3;          // share of free-form seeds steered towards SAFE
  /// "reach" configurations: how many of the explorer's control states to ask (0: all).
  std::size_t reach_samples = 0;
  /// "native": schedules per stress test (one batch for assertions, one for races).
  unsigned native_runs = 200;
  /// Test-only: translate with frontend::FrontendOptions::test_drop_pointer_initialisers (a
  /// deliberately broken front end the native oracle must catch).
  bool broken_frontend = false;
  /// Test-only: translate with frontend::FrontendOptions::test_ignore_mutex_kinds (every mutex a
  /// default one: the wrong verdicts of issue 40), for --mutex-kinds programs.
  bool broken_mutex_kinds = false;
  /// Test-only: translate with frontend::FrontendOptions::test_wrong_bitfield_layout (every
  /// bit-field one bit off), for --bitfields programs.
  bool broken_bitfields = false;
  /// The BMC's step granularity for the bmc, race and reach configurations under test
  /// (check::CheckOptions::granularity; the TEST ONLY "test-merge-visible" too). The
  /// references stay instruction-granular: the explorer, and race --reduction none. With
  /// transactions, `reach` asks only the control states where every thread is at a boundary.
  std::string granularity = check::CheckOptions{}.granularity;
  /// check::CheckOptions::tx_unwind of the bmc configurations (transaction frames).
  unsigned tx_unwind = check::CheckOptions{}.tx_unwind;
  /// check::CheckOptions::deepening of the bmc configurations.
  std::string deepening = check::CheckOptions{}.deepening;
  /// Parameterized programs (template "param", generator.hpp; issue 22): their instances with
  /// 0..max_instances workers are explored without a bound, and `siren check --threads N`
  /// (N = 1..max_instances + 1, the blocking model: ir::ThreadModelOptions::block_at_thread_limit)
  /// under the explicit engine and the BMC must agree with the instances it covers; one run of
  /// the thread schedule (check::check_growing_threads, from 8 threads, param_timeout seconds)
  /// must not contradict them either, and its counterexamples must happen natively.
  unsigned max_instances = 3;
  double param_timeout = 8;
  /// TEST ONLY: the parameterized program's models forget their thread bound
  /// (ir::ThreadModel::thread_bound = 0), so an answer bounded in threads is stated as SAFE: a
  /// deliberately broken model the instance comparison must catch.
  bool test_unstated_thread_bound = false;
  /// TEST ONLY: the thread schedule's proof for any number of threads ignores interference
  /// (check::CheckOptions::test_modular_no_interference), so it proves programs whose workers
  /// fail together: a deliberately unsound proof the instance comparison must catch.
  bool test_modular_no_interference = false;
  /// siren check shortens its counterexamples (check::CheckOptions::shorten; off by default
  /// here for time): the shortened traces then go through the native replay like the others.
  bool shorten = false;
};

/// generate() plus the verdict steering (driver.cpp): for a share of the free-form seeds,
/// the assertions the explorer finds failing are deleted until the program is SAFE.
Program generate_program(std::uint64_t seed, const DriverOptions& o);

enum class Outcome { Agree, Disagree, Skipped, Timeout };

struct ConfigResult {
  Config config;
  check::CheckResult result;
  bool agrees = true;
  std::string why;  // for a disagreement
};

struct RunResult {
  Outcome outcome = Outcome::Agree;
  std::string detail;                 // disagreement / skip reason
  explicit_state::ExploreVerdict oracle = explicit_state::ExploreVerdict::Unknown;
  std::size_t oracle_states = 0;
  /// The program accesses a global or heap object through a pointer (points-to analysis).
  bool pointer_to_shared = false;
  /// With transaction frames and tx_unwind > 0: some transaction of the program may run on
  /// through a loop's head (ir::Transactions::unwinds_from).
  bool unwinds_loop = false;
  /// With transaction frames: some transaction of the program carries an unlock
  /// (ir::carried_unlocks: a whole critical section in one transaction).
  bool carries_unlock = false;
  /// ... and one of its mutexes is only ever locked in balanced critical sections
  /// (ir::Transactions::balanced: SIR judges them by their data).
  bool balanced_sections = false;
  /// ... and (GeneratorOptions::sections) SIR finds insensitive pairs of such sections.
  bool section_pairs = false;
  std::size_t error_steps = 0;        // UNSAFE: length of the shortest counterexample
  std::size_t error_threads = 0;      // ... number of distinct threads in it
  std::size_t error_workers = 0;      // ... of which not main
  double explore_seconds = 0, check_seconds = 0, frontend_seconds = 0;
  std::size_t reach_asked = 0;        // control states asked ("reach" configurations)
  std::size_t native_replayed = 0;    // counterexamples (violation, race) replayed natively
  std::size_t native_runs = 0;        // native stress-test runs of programs proven SAFE / race-free
  double native_seconds = 0;
  std::vector<ConfigResult> checks;
  /// Parameterized programs: the fewest workers whose instance fails (when oracle is UNSAFE),
  /// and the thread schedule's answer (UNSAFE for a ticket beyond the instances compared: the
  /// bug that needs many threads was found).
  unsigned param_failing_instance = 0;
  bool param_ticket_beyond = false;  // a ticket whose bug needs more workers than max_instances
  std::optional<check::CheckResult> param_schedule;
};

/// Runs one program through the oracle and every configuration.
RunResult run_program(const Program& p, const DriverOptions& o);

/// Signature of a disagreement, to decide whether a shrunk program still fails the same way:
/// the first disagreeing configuration and the two verdicts.
std::string failure_signature(const RunResult& r);

/// Deletes threads and statements (and unwraps compound statements) while the disagreement
/// keeps its signature. Returns the smallest program found; `steps` counts accepted deletions.
Program shrink(const Program& p, const DriverOptions& o, const std::string& signature, int& steps,
               double max_seconds = 120);

/// Writes `dir/main.c` and `dir/test.desc` (tests/regression layout) for a shrunk failure.
void write_regression_case(const std::string& dir, const Program& p, const RunResult& r, const DriverOptions& o);

}  // namespace siren::fuzz
