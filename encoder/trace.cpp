// Counterexamples: the solver's model of Φ_k ∧ bad^k becomes a schedule (sel^0..sel^{k-1} up
// to the first idle frame, then the thread that fails its assertion), the nondet inputs of every step (Havoc values,
// init_nondet cells of objects a Malloc makes live) and the initial nondet cell values. The
// concrete interpreter (ir/interpreter.hpp) replays them from the initial state; only a replay
// that ends in a Property error at the last step is reported as UNSAFE (DESIGN.md Part C,
// "Self-checks"). Trace rows come from the replay, never from the model.
#include "encoder/engine.hpp"

#include <fmt/format.h>

namespace siren::encoder {

ir::Value Engine::model_value(Term t, ir::Type type) {
  const std::uint64_t raw = dp.value(t);
  if (type.is_ptr()) {
    ir::Value v;
    v.obj = static_cast<ir::ObjectId>(raw >> 32);
    v.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(raw & 0xffffffffu)));
    return v;
  }
  return ir::Value{ir::normalize(type, raw), 0};
}

void Engine::extract_trace(unsigned k, const ErrorSite& site, CheckResult& result) {
  auto internal = [&](std::string why) {
    result.verdict = Verdict::Unknown;
    result.internal_error = true;
    result.reason = "internal error: counterexample did not replay (" + why + ")";
    result.trace.clear();
  };

  // Initial nondet values: init_nondet cells of non-heap objects, (object, cell) order.
  std::vector<ir::Value> initial;
  for (const auto& o : tm.objects) {
    if (o.kind == ir::ObjectKind::Heap) continue;
    for (std::size_t c = 0; c < o.cells.size(); ++c)
      if (o.cells[c].init_nondet) initial.push_back(model_value(nondet_init[o.id][c], o.cells[c].type));
  }

  std::vector<ir::Step> schedule;
  for (unsigned j = 0; j <= k; ++j) {
    ir::Step st;
    if (j == k) {
      st.thread = site.thread;
      schedule.push_back(st);
      break;
    }
    st.thread = static_cast<ir::ThreadId>(dp.value(frames[j].sel));
    if (st.thread == tm.threads.size()) {  // idle: the execution has j steps before the error
      st.thread = site.thread;
      schedule.push_back(st);
      break;
    }
    if (st.thread > tm.threads.size()) return internal(fmt::format("step {}: thread {} out of range", j + 1, st.thread));
    const auto& th = tm.threads[st.thread];
    const auto pc = static_cast<std::uint32_t>(dp.value(states[j].pc[st.thread]));
    if (pc >= th.code.size()) return internal(fmt::format("step {}: pc {} out of range", j + 1, pc));
    const ir::Instr& in = th.code[pc];
    if (in.kind == ir::InstrKind::Havoc) {
      const ir::Type ty = th.locals[in.lhs].type;
      if (ty.is_ptr()) st.nondet.push_back(model_value(frames[j].havoc_ptr, ty));
      else if (ty.is_bool()) st.nondet.push_back(ir::Value{dp.value(frames[j].havoc_int) & 1, 0});
      else st.nondet.push_back(ir::Value{ir::normalize(ty, dp.value(frames[j].havoc_int)), 0});
    } else if (in.kind == ir::InstrKind::Malloc) {
      const ir::Object& o = tm.objects[in.obj];
      for (std::size_t c = 0; c < o.cells.size(); ++c)
        if (o.cells[c].init_nondet) st.nondet.push_back(model_value(nondet_init[o.id][c], o.cells[c].type));
    }
    schedule.push_back(std::move(st));
  }

  replay_trace(tm, initial, schedule, result);
}

void replay_trace(const ir::ThreadModel& tm, const std::vector<ir::Value>& initial,
                  const std::vector<ir::Step>& schedule, CheckResult& result) {
  auto internal = [&](std::string why) {
    result.verdict = Verdict::Unknown;
    result.internal_error = true;
    result.reason = "internal error: counterexample did not replay (" + why + ")";
    result.trace.clear();
  };
  // Independent check: the whole schedule through ir::replay.
  const ir::ReplayResult whole = ir::replay(tm, initial, schedule);
  if (whole.last.outcome != ir::StepOutcome::Error || whole.last.error_kind != ir::AssertKind::Property ||
      whole.steps_done != schedule.size())
    return internal(fmt::format("replay stopped after {} of {} steps", whole.steps_done, schedule.size()));

  // Trace rows, step by step.
  ir::Interpreter interp(tm);
  ir::State state = interp.initial_state(initial);
  result.trace.clear();
  for (std::size_t j = 0; j < schedule.size(); ++j) {
    const ir::State before = state;
    const ir::StepResult r = interp.step(state, schedule[j]);
    const bool last = j + 1 == schedule.size();
    if (!last && r.outcome != ir::StepOutcome::Ok)
      return internal(fmt::format("step {} did not execute", j + 1));
    if (last && (r.outcome != ir::StepOutcome::Error || r.error_kind != ir::AssertKind::Property))
      return internal("the last step is not a property violation");
    TraceRow row = make_trace_row(tm, interp, static_cast<unsigned>(j + 1), schedule[j], r, before, state);
    if (last && row.stmt.empty()) row.stmt = r.error_message;
    result.trace.push_back(std::move(row));
  }
  result.verdict = Verdict::Unsafe;
  result.bound = static_cast<unsigned>(schedule.size());
}

TraceRow make_trace_row(const ir::ThreadModel& tm, const ir::Interpreter& interp, unsigned step_no,
                        const ir::Step& step, const ir::StepResult& r, const ir::State& before,
                        const ir::State& after) {
  const ir::ThreadId t = step.thread;
  const auto& th = tm.threads[t];
  const auto pc = before.threads[t].pc;
  TraceRow row;
  row.step = step_no;
  row.thread = th.name;
  row.file = r.loc.file < tm.files.size() ? tm.files[r.loc.file] : std::string();
  row.line = r.loc.line;
  row.stmt = pc < th.code.size() ? th.code[pc].text : std::string();
  if (pc < th.code.size()) {
    const ir::Instr& in = th.code[pc];
    bool reads = false;
    for (ir::ExprRef e : {in.a, in.b})
      if (e && !ir::loads_in(e).empty()) reads = true;
    for (ir::ExprRef e : in.args)
      if (e && !ir::loads_in(e).empty()) reads = true;
    switch (in.kind) {
      case ir::InstrKind::Store: row.access = reads ? 'B' : 'W'; break;
      case ir::InstrKind::Lock: case ir::InstrKind::TryLock: case ir::InstrKind::Unlock:
      case ir::InstrKind::CondWait: case ir::InstrKind::RdLock: case ir::InstrKind::WrLock:
      case ir::InstrKind::RwUnlock: case ir::InstrKind::ThreadCreate: case ir::InstrKind::ThreadJoin:
      case ir::InstrKind::AtomicBegin: row.access = 'S'; break;
      default: row.access = reads ? 'R' : 'L'; break;
    }
  }
  if (pc < th.code.size() && ir::is_nondet_call(th.code[pc]) && !step.nondet.empty() &&
      th.code[pc].lhs < th.locals.size()) {
    const ir::Type ty = th.locals[th.code[pc].lhs].type;
    if (!ty.is_ptr()) row.nondet = ir::as_signed(ty, ir::normalize(ty, step.nondet[0].bits));
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
      const ir::Cell& cell = tm.objects[o].cells[c];
      row.values.emplace_back(cell.name, interp.format_value(after.memory[o][c], cell.type));
    }
  return row;
}

}  // namespace siren::encoder
