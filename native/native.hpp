// The native oracle (native/README.md): a C program compiled by clang-16 with
// ThreadSanitizer's instrumentation and linked with siren's scheduling runtime
// (native/runtime/siren_rt.c), then run under a given schedule (a siren trace) or under many
// seeded random / PCT schedules. Real compiler, real memory, real C semantics: this module
// deliberately depends on nothing else of siren (no front end, IR, thread model or
// interpreter), so that it can check them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace siren::native {

struct Toolchain {
  std::string clang = "clang-16";
  std::string dwarfdump = "llvm-dwarfdump-16";
  std::string nm = "nm";
  std::string runtime;  // libsiren_native_rt.a; empty: $SIREN_NATIVE_RT or the build's copy
};

/// One row of the program's DWARF line table.
struct LineRow {
  std::uint64_t pc = 0;
  unsigned line = 0;
  unsigned file = 0;  // index into Binary::files
};

/// A compiled program.
struct Binary {
  bool ok = false;
  std::string error;        // !ok: why (compiler diagnostics, missing tool)
  std::string exe;          // the instrumented executable
  std::string dir;          // its work directory (removed by the destructor of Workdir users)
  std::vector<std::string> files;
  std::vector<LineRow> lines;  // sorted by pc
  std::string atomic_fns;   // hex addresses of the program's __VERIFIER_atomic_* functions
  std::string error_fns;    // ... of reach_error / __VERIFIER_error if the program defines them
  std::string lines_file;   // the table as the runtime reads it
  std::map<std::uint64_t, std::string> functions;  // the program's function symbols
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> variables;  // global: address, size
  /// A pthread function the program calls that rules out dfs snapshots (runtime/siren_rt.c:
  /// threads as contexts of one kernel thread): the runtime does not wrap it. Empty: none.
  std::string no_snapshots;
  /// The functions the program calls without defining them that no library linked defines:
  /// each got a stub returning a logged nondet value (compile()). A function the program does
  /// not define that the C library does (ffs, rand) runs for real and consumes no nondet value.
  std::set<std::string> stubbed;
  /// Whether a trace's nondet value returned by a call of `function` ("": __VERIFIER_nondet_*)
  /// is taken natively: by the runtime's __VERIFIER_nondet_* and the stubs, not by a real
  /// library function.
  bool takes_nondet(const std::string& function) const { return function.empty() || stubbed.count(function) > 0; }
  /// file:line of a code address (0 -> "?").
  std::pair<std::string, unsigned> where(std::uint64_t pc) const;
};

/// Compiles `c_file` (extra clang arguments, e.g. -I/-D, in `clang_args`) into `work_dir`
/// (created if missing).
Binary compile(const std::string& c_file, const std::vector<std::string>& clang_args,
               const std::string& work_dir, const Toolchain& tc = {});

/// Visited: a dfs run stopped at a state an earlier run of the search had reached.
/// Restart: a dfs run in which a thread accessed another thread's stack, which the search had
/// taken as private (its accesses no scheduling points): the search started again.
enum class Outcome { Ok, Violation, Race, Pruned, Deadlock, Bound, Timeout, Crash, Limit, Visited, Restart };
const char* outcome_name(Outcome o);

/// A scheduling point that executed: thread (native index: main 0, then creation order),
/// kind (R read, W write, M read-modify-write, L lock, U unlock, C create, J join, S start,
/// X exit, A atomic section, Y yield), code address, data address (S: the start routine).
struct Event {
  int thread = 0;
  char kind = '-';
  std::uint64_t pc = 0, addr = 0;
  bool atomic = false;
};

struct Run {
  unsigned index = 0;
  std::uint64_t seed = 0;
  std::string strategy;
  Outcome outcome = Outcome::Ok;
  std::string message;
  std::uint64_t steps = 0;
  unsigned threads = 0;
  std::uint64_t pc = 0, pc2 = 0;  // violation: the failing call; race: both accesses
  int thread = 0, thread2 = -1;
  std::uint64_t pct_k = 0;        // PCT's step estimate when the run started (with the seed,
  unsigned pct_depth = 0;         // Options::pct_k and the strategy it repeats the run)
  std::string schedule;           // dfs, a failing run: its choices (Options::schedule repeats it)
  std::vector<Event> events;      // the first failing run only
};

struct Options {
  unsigned runs = 1000;
  std::uint64_t seed = 1;
  std::string strategy = "mixed";  // mixed (PCT depth 1-3, demote, random, round robin), pct, random,
                                   // round-robin, demote, dfs (native/README.md)
  std::string schedule;            // dfs: follow these choices in one run (Run::schedule)
  bool snapshots = true;           // dfs: fork at choice points (threads as contexts of one kernel
                                   // thread) rather than re-execute every run from the start
  unsigned pct_depth = 3;          // strategy pct: PCT's depth; 0: 1, 2, 3 in turn
  std::uint64_t pct_k = 50;        // PCT's first estimate of a run's steps (then: the longest seen)
  bool races = false;              // report data races (a run ends at the first)
  std::uint64_t max_steps = 100'000;
  unsigned run_ms = 5000;          // per run
  bool stop_at_first = true;       // stop after the first violation (or race)
  double timeout_s = 0;            // whole batch; 0: none (no run starts after it)
};

struct Summary {
  bool ok = false;                 // the batch ran (false: `error`)
  std::string error;
  unsigned runs = 0;
  std::map<Outcome, unsigned> counts;
  std::optional<Run> failure;      // the first violation / race (with its events)
  std::uint64_t max_steps_seen = 0;
  double seconds = 0;
  /// dfs: the states the search visited, whether it explored every reachable one (under the
  /// nondet values of its seed), whether it stopped because its table of states was full.
  std::uint64_t states = 0;
  bool exhausted = false, table_full = false;
  bool snapshots = false;          // dfs: the search forked at choice points (Options::snapshots)
  unsigned count(Outcome o) const {
    auto it = counts.find(o);
    return it == counts.end() ? 0 : it->second;
  }
};

/// Runs the program `o.runs` times under seeded schedules.
Summary run(const Binary& b, const Options& o);

/// A schedule to follow: the steps of a trace (native thread index and source line, in
/// order) and each thread's __VERIFIER_nondet_* values in order. The runtime matches each
/// thread's pending event to the first unmatched step of that thread at the same line and
/// runs the thread whose event comes first.
struct Schedule {
  struct Step {
    int thread = 0;
    unsigned line = 0;
    char access = '?';  // as TraceStep::access
  };
  std::vector<Step> steps;
  std::vector<std::pair<int, std::int64_t>> nondet;
  /// A race: the two racy accesses. They are matched after the steps, and a thread standing
  /// at its racy access (same kind; same variable when it is a global the symbol table names,
  /// else same line) is held there while another thread can move, so that both stand at
  /// their accesses together.
  struct RaceAccess {
    int thread = 0;
    unsigned line = 0;
    bool write = false;
    std::string variable;  // as siren names the cell: "g", "arr[2]", "s.next"
  };
  std::vector<RaceAccess> race;
};

/// One step of a counterexample trace as siren prints it (check/race --json "trace"): the
/// thread's name, the source line, the thread a pthread_create step started, and the value a
/// __VERIFIER_nondet_*() call returned.
struct TraceStep {
  std::string thread;
  unsigned line = 0;
  std::string started;
  std::optional<std::int64_t> nondet;
  /// 'R', 'W', 'B' (memory other threads may see), 'S' (synchronisation), 'L' (locals only),
  /// '?' (not said): a native access is matched to an R/W/B step, a pthread call to an S step.
  char access = '?';
};

/// The schedule of a trace: main is native thread 0, the others are numbered in the order the
/// trace starts them (the runtime numbers threads in creation order).
struct TraceRaceEnd {
  std::string thread;
  unsigned line = 0;
  bool write = false;
  std::string variable;
};
Schedule schedule_of(const std::vector<TraceStep>& trace, const std::vector<TraceRaceEnd>& race = {});

/// Runs the program once under `s` (races: also report data races).
Summary replay(const Binary& b, const Schedule& s, bool races, unsigned run_ms = 5000);

/// The events of a failing run as rows "thread file:line what"; threads are named after
/// their start routine and creation index ("main", "worker#1", ...).
struct TraceLine {
  int thread = 0;
  std::string thread_name;
  std::string file;
  unsigned line = 0;
  std::string what;
  std::optional<std::int64_t> nondet;  // a __VERIFIER_nondet_* call's value (event 'N')
};
std::vector<TraceLine> trace_lines(const Binary& b, const Run& r);

}  // namespace siren::native
