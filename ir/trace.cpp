// Counterexample traces (see ir/trace.hpp): one row per step of a schedule, computed by replaying
// it through the concrete interpreter, never from a solver model or a search's own state store.
#include "ir/trace.hpp"

#include "ir/cfg.hpp"

#include <fmt/format.h>

#include <map>

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
  result.initial = initial;
  result.schedule = schedule;
  return result;
}

namespace {

// Does `s` replay to a property violation? Then `s` is cut after the failing step.
bool still_fails(const ThreadModel& tm, const std::vector<Value>& initial, std::vector<Step>& s) {
  const ReplayResult r = replay(tm, initial, s);
  if (r.last.outcome != StepOutcome::Error || r.last.error_kind != AssertKind::Property) return false;
  s.resize(r.steps_done);
  return true;
}

}  // namespace

std::vector<Step> minimize_schedule(const ThreadModel& tm, const std::vector<Value>& initial,
                                    std::vector<Step> schedule, std::chrono::steady_clock::time_point deadline) {
  auto expired = [&] { return std::chrono::steady_clock::now() >= deadline; };
  {
    std::vector<Step> whole = schedule;
    if (!still_fails(tm, initial, whole)) return schedule;
    schedule = std::move(whole);
  }
  // ddmin: remove one of n chunks while that still fails; refine n when none can go.
  std::size_t n = 2;
  while (schedule.size() >= 2 && !expired()) {
    const std::size_t chunk = (schedule.size() + n - 1) / n;
    bool removed = false;
    for (std::size_t start = 0; start < schedule.size() && !expired(); start += chunk) {
      std::vector<Step> cand(schedule.begin(), schedule.begin() + static_cast<std::ptrdiff_t>(start));
      if (start + chunk < schedule.size())
        cand.insert(cand.end(), schedule.begin() + static_cast<std::ptrdiff_t>(start + chunk), schedule.end());
      if (cand.empty() || !still_fails(tm, initial, cand)) continue;
      schedule = std::move(cand);
      n = std::max<std::size_t>(n - 1, 2);
      removed = true;
      break;
    }
    if (removed) continue;
    if (n >= schedule.size()) break;
    n = std::min(n * 2, schedule.size());
  }
  // Fewer context switches: swap a run of one thread with the run before it when that joins it
  // to an earlier (or later) run of its own thread.
  struct Run {
    std::size_t begin, end;
  };
  for (bool improved = true; improved && !expired();) {
    improved = false;
    std::vector<Run> runs;
    for (std::size_t i = 0; i < schedule.size(); ++i)
      if (i == 0 || schedule[i].thread != schedule[i - 1].thread) runs.push_back({i, i + 1});
      else runs.back().end = i + 1;
    for (std::size_t r = 1; r + 1 < runs.size() && !improved && !expired(); ++r) {
      // runs r-1 (a), r (b), r+1: swapping a and b helps when the run before a is b's thread
      // or the run after b is a's thread.
      const ThreadId a = schedule[runs[r - 1].begin].thread, b = schedule[runs[r].begin].thread;
      const bool joins = (r >= 2 && schedule[runs[r - 2].begin].thread == b) || schedule[runs[r + 1].begin].thread == a;
      if (!joins) continue;
      std::vector<Step> cand(schedule.begin(), schedule.begin() + static_cast<std::ptrdiff_t>(runs[r - 1].begin));
      cand.insert(cand.end(), schedule.begin() + static_cast<std::ptrdiff_t>(runs[r].begin),
                  schedule.begin() + static_cast<std::ptrdiff_t>(runs[r].end));
      cand.insert(cand.end(), schedule.begin() + static_cast<std::ptrdiff_t>(runs[r - 1].begin),
                  schedule.begin() + static_cast<std::ptrdiff_t>(runs[r - 1].end));
      cand.insert(cand.end(), schedule.begin() + static_cast<std::ptrdiff_t>(runs[r].end), schedule.end());
      const std::size_t before = schedule.size();
      if (!still_fails(tm, initial, cand) || cand.size() > before) continue;
      schedule = std::move(cand);
      improved = true;
    }
  }
  return schedule;
}

bool is_internal(const Instr& in) {
  return (in.kind == InstrKind::Assign &&
          (in.text == "create site counter" || in.text.find(": parameter ") != std::string::npos)) ||
         always_taken(in);
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
  row.pc = pc;
  if (pc < th.code.size()) {
    const Instr& in = th.code[pc];
    row.internal = is_internal(in);
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

std::string user_variable_name(const std::string& thread, const std::string& name) {
  // "t2#2:f::x#1" is a local of another thread; "f::x#1" one of this thread; cells have no "::"
  const auto colon = name.find(':');
  if (colon != std::string::npos && name.compare(colon, 2, "::") != 0) {
    const std::string other = name.substr(0, colon);
    const std::string var = user_variable_name(other, name.substr(colon + 1));
    return var.empty() ? "" : other + ":" + var;
  }
  if (name.rfind("create#", 0) == 0) return "";
  std::string fn, var = name;
  if (const auto q = name.rfind("::"); q != std::string::npos) {
    fn = name.substr(0, q);
    var = name.substr(q + 2);
  }
  if (const auto hash = var.rfind('#'); hash != std::string::npos && hash + 1 < var.size() &&
                                         var.find_first_not_of("0123456789", hash + 1) == std::string::npos)
    var.erase(hash);
  if (var.empty() || var.rfind("__", 0) == 0) return "";
  const std::string start = thread.substr(0, thread.find('#'));
  return fn.empty() || fn == start ? var : fn + "::" + var;
}

std::vector<TraceRow> statement_rows(const std::vector<TraceRow>& rows) {
  std::vector<TraceRow> out;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> pending;  // thread -> hidden values
  auto rank = [](char a) { return a == 'S' ? 4 : a == 'B' ? 3 : (a == 'W' || a == 'R') ? 2 : 1; };
  auto set_value = [](std::vector<std::pair<std::string, std::string>>& vs, const std::string& n, const std::string& v) {
    for (auto& [name, value] : vs)
      if (name == n) {
        value = v;
        return;
      }
    vs.emplace_back(n, v);
  };
  auto user_values = [&](const TraceRow& r) {
    std::vector<std::pair<std::string, std::string>> vs;
    for (const auto& [name, value] : r.values)
      if (std::string n = user_variable_name(r.thread, name); !n.empty()) set_value(vs, n, value);
    return vs;
  };
  const TraceRow* last = nullptr;  // the input row merged into out.back() most recently
  for (const TraceRow& r : rows) {
    if (r.internal && &r != &rows.back()) {
      for (auto& [n, v] : user_values(r)) set_value(pending[r.thread], n, v);
      continue;
    }
    const bool same = last && !out.empty() && last->thread == r.thread && last->file == r.file &&
                      last->line == r.line && last->stmt == r.stmt && r.pc > last->pc;
    if (!same) {
      TraceRow row = r;
      row.step = static_cast<unsigned>(out.size() + 1);
      row.values.clear();
      row.internal = false;
      out.push_back(std::move(row));
    }
    TraceRow& cur = out.back();
    if (auto it = pending.find(r.thread); it != pending.end()) {
      for (auto& [n, v] : it->second) set_value(cur.values, n, v);
      pending.erase(it);
    }
    for (auto& [n, v] : user_values(r)) set_value(cur.values, n, v);
    if (same) {
      if (rank(r.access) > rank(cur.access)) cur.access = r.access;
      if ((cur.access == 'R' && r.access == 'W') || (cur.access == 'W' && r.access == 'R')) cur.access = 'B';
      if (!cur.nondet) cur.nondet = r.nondet;
      if (r.started_thread >= 0) {
        cur.started_thread = r.started_thread;
        cur.started = r.started;
      }
      if (!r.stmt.empty()) cur.stmt = r.stmt;
    }
    cur.pc = r.pc;
    last = &r;
  }
  return out;
}

}  // namespace siren::ir
