// Proofs for any number of threads (issue 22, item 2): thread-modular reachability after
// Flanagan and Qadeer ("Thread-modular model checking", SPIN 2003), over the concrete
// interpreter's exact values, with lock ownership. docs/unbounded-threads.md argues soundness.
//
// A program whose main creates threads in a loop (`while (1) pthread_create(&t, 0, f, 0)`) has
// executions with any number of instances of `f`. The analysis keeps, for each thread *kind*
// (main, and one kind per create site of main), the set R of pairs (shared state, local state)
// that one thread of that kind can be in, and the set G of shared-state transitions any thread
// can make (its guarantee). A thread's own steps and every other thread's transitions from G
// grow R; R's steps grow G; to a fixpoint. Every instance of a kind is covered by the same R,
// so the result holds for any number of instances: if no step from R fails an assertion, no
// execution with any number of threads does.
//
// Lock ownership keeps mutual exclusion: a shared integer cell starting at 0 is "held" by the
// thread whose step made it non-zero until that thread's step makes it 0 again. When no thread
// ever changes such a cell while another holds it (checked during the fixpoint; a cell that
// breaks the discipline is dropped and the fixpoint restarts), two threads never hold it at
// once, so a transition made while holding it is never applied to a thread that holds it.
// `__VERIFIER_atomic_*` functions and atomic blocks run as one step.
//
// Values stay exact. A nondet value must come from a finite domain the analysis can enumerate
// completely: a bool; an integer that no condition, address or assertion ever depends on (cone
// of influence: one value stands for all); or an integer that the next condition bounds to a
// small range (`x = nondet(); assume(0 <= x && x < 6)`). Otherwise, and when the program
// joins threads, lets a thread other than main create threads, or lets a pointer to one thread's
// own objects reach another, the analysis does not apply: it answers "not proven" with the
// reason, never a wrong proof.
#pragma once

#include "ir/thread_model.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace siren::modular {

struct ModularOptions {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::size_t max_pairs = 6'000'000;      // (shared, local) pairs over all kinds
  std::uint64_t max_nondet_range = 4096;  // the largest bounded nondet range enumerated
  /// TEST ONLY: other threads' transitions are never applied (a deliberately unsound
  /// analysis: each thread is analysed as if it ran alone), so that tests can show that the
  /// checks of a proof catch an analysis that misses interference.
  bool test_no_interference = false;
};

struct ModularResult {
  bool proven = false;
  /// Not proven: why ("file:line: possible violation in the thread-modular abstraction", an
  /// unsupported feature, a limit).
  std::string reason;
  std::size_t pairs = 0;           // (kind, shared, local) triples in R
  std::size_t shared_states = 0;   // distinct shared states
  std::size_t transitions = 0;     // distinct guarantee transitions
  std::size_t pairs_compared = 0;  // prove_race_freedom: (g, l1), (g, l2) pairs whose accesses were compared
  unsigned kinds = 0;              // main + one per create site
  unsigned lock_cells = 0;         // cells whose ownership was kept (mutual exclusion)
  unsigned restarts = 0;           // fixpoints restarted after a cell broke the lock discipline
  double seconds = 0;
};

/// One data access of instruction `pc` of `thread` (race::RaceAccess's shape; modular/ sees
/// only ir/): `addr` is evaluated in the state before the step.
struct Access {
  ir::ThreadId thread = 0;
  std::uint32_t pc = 0;
  ir::ExprRef addr = nullptr;
  bool write = false;
  bool object = false;  // free(addr): a write of every cell of the object (race::RaceAccess::object)
};

/// What a race-freedom proof checks: the data accesses of every instruction, and which cells
/// count as data (race::is_data_cell).
struct RaceFreedomQuery {
  std::vector<Access> accesses;
  std::function<bool(ir::ObjectId, std::uint32_t)> is_data;
};

/// The method's name, as `siren check --json` reports it.
inline constexpr const char* kMethod = "thread-modular reachability (Flanagan-Qadeer) with lock ownership";

/// Tries to prove that no assertion of the program fails, whatever the number of threads its
/// create sites start. `tm` is any thread model of the program in which every create site of
/// main has at least one instance slot (the first slot's code stands for every instance).
ModularResult prove_any_number_of_threads(const ir::ThreadModel& tm, const ModularOptions& options = {});

/// The race-freedom proof's name (`siren race --json`'s "method").
inline constexpr const char* kRaceMethod =
    "thread-modular race-freedom (Flanagan-Qadeer reachability with lock ownership)";

/// Tries to prove that no two threads' next steps ever race, whatever the number of threads
/// the create sites start (issue 43). The same fixpoint as above (an assertion is not the
/// property here: a failing one ends its execution); then, for every shared state g and every
/// two pairs (g, l1) of kind k1 and (g, l2) of kind k2 in R (not both main; k1 = k2 is two
/// instances of one kind, also with l1 = l2) whose held lock cells are disjoint, no access of
/// l1's next step and one of l2's may touch one data cell with one of them writing. Sound: in
/// any execution, two threads u, v standing at a racy pair in state σ have (shared(σ), l_u) and
/// (shared(σ), l_v) in R (the invariant of docs/unbounded-threads.md), hold disjoint lock cells
/// (the lock invariant), and the addresses are evaluated exactly (addresses are in the cone of
/// influence). Programs with atomic sections are not handled (a thread inside one stands at
/// all of its accesses): "not proven".
ModularResult prove_race_freedom(const ir::ThreadModel& tm, const RaceFreedomQuery& query,
                                 const ModularOptions& options = {});

}  // namespace siren::modular
