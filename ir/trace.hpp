// Counterexample traces: a schedule (ir::Step list, error step last) and the initial nondet cell
// values are replayed through the concrete interpreter (ir/interpreter.hpp); the rows printed
// to the user, and handed to the native oracle, come from that replay (DESIGN.md Part C,
// "Self-checks"). Every engine (the BMC in encoder/, the explicit search in explicit/, race and
// reach queries in race/) builds its traces here.
#pragma once

#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace siren::ir {

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

/// The trace row of step number `step_no` (1-based): `step` took `before` to `after` with
/// result `r`. Values are those that changed; `started_thread` is set when the step started a
/// thread (ThreadCreate).
TraceRow make_trace_row(const ThreadModel& tm, const Interpreter& interp, unsigned step_no,
                        const Step& step, const StepResult& r, const State& before, const State& after);

struct ReplayedTrace {
  std::vector<TraceRow> rows;  // one per step of the schedule
  std::string failure;         // non-empty: the replay did not end in a Property violation at
                               // its last step (rows are then empty)
};

/// Replays `schedule` (the failing step last) from the initial state with `initial` nondet cell
/// values, once whole through ir::replay and once step by step for the rows.
ReplayedTrace replay_counterexample(const ThreadModel& tm, const std::vector<Value>& initial,
                                   const std::vector<Step>& schedule);

}  // namespace siren::ir
