// Counterexample traces (see ir/trace.hpp): one row per step of a schedule, computed by replaying
// it through the concrete interpreter, never from a solver model or a search's own state store.
#include "ir/trace.hpp"

#include <fmt/format.h>

namespace siren::ir {

ReplayedTrace replay_counterexample(const ThreadModel& tm, const std::vector<Value>& initial,
                                   const std::vector<Step>& schedule) {
  ReplayedTrace result;
  auto internal = [&](std::string why) {
    result.failure = std::move(why);
    result.rows.clear();
    return result;
  };
  // Independent check: the whole schedule through replay.
  const ReplayResult whole = replay(tm, initial, schedule);
  if (whole.last.outcome != StepOutcome::Error || whole.last.error_kind != AssertKind::Property ||
      whole.steps_done != schedule.size())
    return internal(fmt::format("replay stopped after {} of {} steps", whole.steps_done, schedule.size()));

  // Trace rows, step by step.
  Interpreter interp(tm);
  State state = interp.initial_state(initial);
  for (std::size_t j = 0; j < schedule.size(); ++j) {
    const State before = state;
    const StepResult r = interp.step(state, schedule[j]);
    const bool last = j + 1 == schedule.size();
    if (!last && r.outcome != StepOutcome::Ok)
      return internal(fmt::format("step {} did not execute", j + 1));
    if (last && (r.outcome != StepOutcome::Error || r.error_kind != AssertKind::Property))
      return internal("the last step is not a property violation");
    TraceRow row = make_trace_row(tm, interp, static_cast<unsigned>(j + 1), schedule[j], r, before, state);
    if (last && row.stmt.empty()) row.stmt = r.error_message;
    result.rows.push_back(std::move(row));
  }
  return result;
}

TraceRow make_trace_row(const ThreadModel& tm, const Interpreter& interp, unsigned step_no,
                        const Step& step, const StepResult& r, const State& before,
                        const State& after) {
  const ThreadId t = step.thread;
  const auto& th = tm.threads[t];
  const auto pc = before.threads[t].pc;
  TraceRow row;
  row.step = step_no;
  row.thread = th.name;
  row.file = r.loc.file < tm.files.size() ? tm.files[r.loc.file] : std::string();
  row.line = r.loc.line;
  row.stmt = pc < th.code.size() ? th.code[pc].text : std::string();
  if (pc < th.code.size()) {
    const Instr& in = th.code[pc];
    bool reads = false;
    for (ExprRef e : {in.a, in.b})
      if (e && !loads_in(e).empty()) reads = true;
    for (ExprRef e : in.args)
      if (e && !loads_in(e).empty()) reads = true;
    switch (in.kind) {
      case InstrKind::Store: row.access = reads ? 'B' : 'W'; break;
      case InstrKind::Lock: case InstrKind::TryLock: case InstrKind::Unlock:
      case InstrKind::CondWait: case InstrKind::RdLock: case InstrKind::WrLock:
      case InstrKind::RwUnlock: case InstrKind::ThreadCreate: case InstrKind::ThreadJoin:
      case InstrKind::AtomicBegin: row.access = 'S'; break;
      default: row.access = reads ? 'R' : 'L'; break;
    }
  }
  if (pc < th.code.size() && is_nondet_call(th.code[pc]) && !step.nondet.empty() &&
      th.code[pc].lhs < th.locals.size()) {
    const Type ty = th.locals[th.code[pc].lhs].type;
    if (!ty.is_ptr()) row.nondet = as_signed(ty, normalize(ty, step.nondet[0].bits));
  }
  for (std::size_t u = 0; u < after.threads.size(); ++u) {
    if (after.threads[u].started && !before.threads[u].started) {
      row.started_thread = static_cast<int>(u);
      row.started = tm.threads[u].name;
    }
    const auto& locals = after.threads[u].locals;
    for (std::size_t l = 0; l < locals.size() && l < before.threads[u].locals.size(); ++l) {
      if (locals[l] == before.threads[u].locals[l]) continue;
      const auto& var = tm.threads[u].locals[l];
      std::string name = u == t ? var.name : tm.threads[u].name + ":" + var.name;
      row.values.emplace_back(std::move(name), interp.format_value(locals[l], var.type));
    }
  }
  for (std::size_t o = 0; o < after.memory.size(); ++o)
    for (std::size_t c = 0; c < after.memory[o].size() && c < before.memory[o].size(); ++c) {
      if (after.memory[o][c] == before.memory[o][c]) continue;
      const Cell& cell = tm.objects[o].cells[c];
      row.values.emplace_back(cell.name, interp.format_value(after.memory[o][c], cell.type));
    }
  return row;
}

}  // namespace siren::ir
