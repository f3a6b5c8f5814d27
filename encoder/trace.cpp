// Counterexamples: the solver's model of Φ_k ∧ bad^k becomes a schedule (sel^0..sel^{k-1} up
// to the first idle frame, then the thread that fails its assertion), the nondet inputs of every step (Havoc values,
// init_nondet cells of objects a Malloc makes live) and the initial nondet cell values. The
// concrete interpreter (ir/interpreter.hpp) replays them from the initial state; only a replay
// that ends in a Property error at the last step is reported as UNSAFE (DESIGN.md Part C,
// "Self-checks"). Trace rows come from the replay, never from the model.
#include "encoder/engine.hpp"

#include <fmt/format.h>

#include <string>

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

  // Frames before the error (up to an idle frame), then the failing thread's step(s).
  std::vector<ir::Step> schedule;
  std::string why;
  if (!schedule_of(k, schedule, why)) return internal(why);
  if (tx && !tx->boundary(site.thread, site.pc)) {
    // An error after the first instruction of the failing transaction: its steps before it
    // (frame k's guards: V^k is the state after the frames of the schedule, idle ones too).
    if (!transaction_steps(k, site.thread, site.pc, schedule, why)) return internal(why);
  }
  ir::Step last;
  last.thread = site.thread;  // the failing step reads no input
  schedule.push_back(last);

  check::set_counterexample(result, ir::replay_counterexample(tm, initial, schedule));
}

ir::Step Engine::step_at(unsigned k, ir::ThreadId t, std::uint32_t pc, Term tail_havoc) {
  const auto& th = tm.threads[t];
  const ir::Instr& in = th.code[pc];
  ir::Step st;
  st.thread = t;
  if (in.kind == ir::InstrKind::Havoc) {
    const ir::Type ty = th.locals[in.lhs].type;
    if (tail_havoc) st.nondet.push_back(model_value(tail_havoc, ty));
    else if (ty.is_ptr()) st.nondet.push_back(model_value(frames[k].havoc_ptr, ty));
    else if (ty.is_bool()) st.nondet.push_back(ir::Value{dp.value(frames[k].havoc_int) & 1, 0});
    else st.nondet.push_back(ir::Value{ir::normalize(ty, dp.value(frames[k].havoc_int)), 0});
  } else if (in.kind == ir::InstrKind::Malloc) {
    const ir::Object& o = tm.objects[in.obj];
    for (std::size_t c = 0; c < o.cells.size(); ++c)
      if (o.cells[c].init_nondet) st.nondet.push_back(model_value(nondet_init[o.id][c], o.cells[c].type));
  }
  return st;
}

bool Engine::transaction_steps(unsigned k, ir::ThreadId t, std::uint32_t stop, std::vector<ir::Step>& out,
                               std::string& why) {
  const auto pc = static_cast<std::uint32_t>(dp.value(states[k].pc[t]));
  if (pc >= tm.threads[t].code.size()) {
    why = fmt::format("frame {}: pc {} out of range", k, pc);
    return false;
  }
  if (pc == stop) return true;
  // The path: the later steps whose guards hold, in the order they run. It stops at `stop`
  // (a blocked or failing step ends it), which it may have passed before in an earlier pass
  // of a loop (ir::Transactions::passable): the last one on the path.
  std::vector<const TxNode*> path;
  for (const TxNode& n : frames[k].tail[t])
    if (dp.value(n.guard) != 0) path.push_back(&n);
  std::size_t end = path.size();
  if (stop != ~0u) {
    while (end > 0 && path[end - 1]->pc != stop) --end;
    if (end == 0) {
      why = fmt::format("frame {}: instruction {} not on the transaction's path", k, stop);
      return false;
    }
    --end;
  }
  out.push_back(step_at(k, t, pc));
  for (std::size_t i = 0; i < end; ++i) out.push_back(step_at(k, t, path[i]->pc, path[i]->havoc));
  return true;
}

bool Engine::schedule_of(unsigned k, std::vector<ir::Step>& out, std::string& why) {
  for (unsigned j = 0; j < k; ++j) {
    const auto t = static_cast<ir::ThreadId>(dp.value(frames[j].sel));
    if (t == tm.threads.size()) return true;  // idle (absorbing): the execution has j frames
    if (t > tm.threads.size()) {
      why = fmt::format("frame {}: thread {} out of range", j + 1, t);
      return false;
    }
    const auto pc = static_cast<std::uint32_t>(dp.value(states[j].pc[t]));
    if (pc >= tm.threads[t].code.size()) {
      why = fmt::format("frame {}: pc {} out of range", j + 1, pc);
      return false;
    }
    if (tx) {
      // The transaction ran to its next boundary, or stopped at a blocking step (its pc after).
      const auto end = static_cast<std::uint32_t>(dp.value(states[j + 1].pc[t]));
      const std::uint32_t stop = end <= tm.threads[t].code.size() && !tx->boundary(t, end) ? end : ~0u;
      if (!transaction_steps(j, t, stop, out, why)) return false;
    } else {
      out.push_back(step_at(j, t, pc));
    }
  }
  return true;
}

}  // namespace siren::encoder
