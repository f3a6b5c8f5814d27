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

  check::set_counterexample(result, ir::replay_counterexample(tm, initial, schedule));
}

}  // namespace siren::encoder
