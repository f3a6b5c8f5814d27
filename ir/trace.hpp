// Counterexample traces: a schedule (ir::Step list, error step last) and the initial nondet cell
// values are replayed through the concrete interpreter (ir/interpreter.hpp); the rows printed
// to the user, and handed to the native oracle, come from that replay (DESIGN.md Part C,
// "Self-checks"). Every engine (the BMC in encoder/, the explicit search in explicit/, race and
// reach queries in race/) builds its traces here.
#pragma once

#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <chrono>
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
  /// ... when that call is of a function without a body (ir::bodyless_function): its name. Such
  /// a value is an assumption about the real function (confirm/library_values.hpp).
  std::string nondet_from;
  /// ... when the value chooses the object a function without a body returns a pointer to
  /// (ir::object_choice_function): that function's name.
  std::string object_from;
  /// What the step does to memory other threads may see: 'R' reads, 'W' writes, 'B' both,
  /// 'S' a synchronisation (lock, unlock, create, join, atomic section), 'L' none (a step on
  /// locals only). The native oracle matches its scheduling points to these steps.
  char access = 'L';
  std::uint32_t pc = 0;   // the instruction's index in its thread's code
  /// Bookkeeping of the thread model, not a C statement: a create site's counter, the binding
  /// of an inlined call's parameter, an unconditional jump (statement_rows() hides it).
  bool internal = false;
};

/// Bookkeeping of the thread model rather than a C statement (TraceRow::internal): a create
/// site's counter, the binding of an inlined call's parameter, an unconditional jump.
bool is_internal(const Instr& in);

/// The trace row of step number `step_no` (1-based): `step` took `before` to `after` with
/// result `r`. Values are those that changed; `started_thread` is set when the step started a
/// thread (ThreadCreate).
TraceRow make_trace_row(const ThreadModel& tm, const Interpreter& interp, unsigned step_no,
                        const Step& step, const StepResult& r, const State& before, const State& after);

/// The statement-level view of replayed rows (issue 23), for people and witnesses: one row per
/// executed C statement (consecutive rows of one thread at the same statement, its instructions
/// in increasing code order, become one; a loop back to the statement starts a new row),
/// bookkeeping rows hidden (their values go to the thread's next row), and only the values of
/// variables the program names: temporaries (`__t3`) and counters are left out, a local of the
/// thread's start routine is shown as `i`, one of an inlined function `f` as `f::i`. Rows are
/// numbered from 1; `access` is the strongest of the merged rows' (S > B > W/R > L).
std::vector<TraceRow> statement_rows(const std::vector<TraceRow>& rows);

/// A variable name of a trace row as statement_rows() shows it (thread `thread`), or "" when
/// it is not one the program names.
std::string user_variable_name(const std::string& thread, const std::string& name);

struct ReplayedTrace {
  std::vector<TraceRow> rows;  // one per step of the schedule
  std::vector<Value> initial;  // what was replayed: the initial nondet cell values ...
  std::vector<Step> schedule;  // ... and the schedule
  std::string failure;         // non-empty: the replay did not end in a Property violation at
                               // its last step (rows are then empty)
};

/// Replays `schedule` (the failing step last) from the initial state with `initial` nondet cell
/// values, once whole through ir::replay and once step by step for the rows.
ReplayedTrace replay_counterexample(const ThreadModel& tm, const std::vector<Value>& initial,
                                   const std::vector<Step>& schedule);

/// A shorter failing schedule, judged by replay alone (so whatever it returns is a real
/// counterexample: ir::replay ends in a property violation at its last step). Per thread, in
/// its own order wherever its steps are interleaved: the longest suffix of its steps that can
/// go, then loop iterations (a stretch of its steps from a pc back to the same pc, so its later
/// steps run the same instructions); then delta debugging (ddmin) over chunks of consecutive
/// steps; both again while either removes something; then fewer context switches: a run of one
/// thread moved next to its thread's next run (or that run next to it), and a statement split
/// over two runs (a join that waited) joined into one row. Stops at `deadline`; returns
/// `schedule` itself when nothing shorter replays. `judge` false is TEST ONLY
/// (CheckOptions::test_shorten_unjudged): candidates are accepted without replay, deliberately
/// wrong.
std::vector<Step> minimize_schedule(const ThreadModel& tm, const std::vector<Value>& initial,
                                    std::vector<Step> schedule,
                                    std::chrono::steady_clock::time_point deadline, bool judge = true);

}  // namespace siren::ir
