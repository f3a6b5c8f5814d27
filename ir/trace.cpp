// Counterexample traces (see ir/trace.hpp): one row per step of a schedule, computed by replaying
// it through the concrete interpreter, never from a solver model or a search's own state store.
#include "ir/trace.hpp"

#include "ir/cfg.hpp"

#include <fmt/format.h>

#include <algorithm>
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

// ir::minimize_schedule's passes over one schedule. Every candidate is replayed through the
// concrete interpreter, from the state the current schedule reaches just before the first step
// the candidate changes (from the nearest checkpoint, every state while they fit in about
// 256 MB), which is what makes thousands of candidates affordable.
class Minimizer {
 public:
  Minimizer(const ThreadModel& tm, const std::vector<Value>& initial, std::vector<Step> schedule, bool judge,
            std::chrono::steady_clock::time_point deadline)
      : tm_(tm), interp_(tm), initial_(initial), judge_(judge), deadline_(deadline), schedule_(std::move(schedule)) {}

  bool expired() const { return std::chrono::steady_clock::now() >= deadline_; }
  std::vector<Step>& schedule() { return schedule_; }

  // Replays the schedule whole: does it fail (then it is cut after the failing step)?
  bool start() {
    State s = interp_.initial_state(initial_);
    // Checkpoints every `stride_` steps, in at most about 256 MB.
    std::size_t cells = 64;
    for (const auto& o : s.memory) cells += o.size();
    for (const auto& t : s.threads) cells += t.locals.size();
    stride_ = 1 + schedule_.size() * cells * sizeof(Value) / (std::size_t{256} << 20);
    checkpoints_.assign(1, s);
    for (std::size_t i = 0; i < schedule_.size(); ++i) {
      const StepResult r = interp_.step(s, schedule_[i]);
      if (r.outcome == StepOutcome::Ok) continue;
      if (r.outcome != StepOutcome::Error || r.error_kind != AssertKind::Property) return false;
      schedule_.resize(i + 1);
      refresh(0);
      return true;
    }
    return false;
  }

  // Per thread, in its own order wherever its steps are interleaved: the longest suffix of its
  // steps that can go (not the failing thread's), then loop iterations — a stretch of its steps
  // from a pc back to the same pc, so its later steps still run the same instructions — widest
  // first. True when something went.
  bool thread_pass() {
    bool any = false;
    std::vector<ThreadId> threads;
    for (const Step& s : schedule_)
      if (std::find(threads.begin(), threads.end(), s.thread) == threads.end()) threads.push_back(s.thread);
    for (ThreadId t : threads) {
      std::vector<std::size_t> pos = positions_of(t);
      if (schedule_.back().thread != t)
        for (std::size_t k = 0; k < pos.size() && !expired(); ++k)
          if (take(without(pos, k, pos.size()), pos[k])) {
            any = true;
            pos = positions_of(t);
            break;
          }
      for (std::size_t a = 0; a < pos.size() && !expired(); ++a) {
        const std::uint32_t pc = pc_before(pos[a]);
        for (std::size_t b = pos.size() - 1; b > a && !expired(); --b)
          if (pc_before(pos[b]) == pc && take(without(pos, a, b), pos[a])) {
            any = true;
            pos = positions_of(t);
            break;
          }
      }
    }
    return any;
  }

  // ddmin: remove one of n chunks of consecutive steps while that still fails; refine n when
  // none can go. True when something went.
  bool ddmin() {
    bool any = false;
    std::size_t n = 2;
    while (schedule_.size() >= 2 && !expired()) {
      const std::size_t chunk = (schedule_.size() + n - 1) / n;
      bool removed = false;
      for (std::size_t begin = 0; begin < schedule_.size() && !expired(); begin += chunk) {
        std::vector<Step> cand(schedule_.cbegin(), at(begin));
        if (begin + chunk < schedule_.size()) cand.insert(cand.end(), at(begin + chunk), schedule_.cend());
        if (cand.empty() || !take(std::move(cand), begin)) continue;
        n = std::max<std::size_t>(n - 1, 2);
        removed = any = true;
        break;
      }
      if (removed) continue;
      if (n >= schedule_.size()) break;
      n = std::min(n * 2, schedule_.size());
    }
    return any;
  }

  // Fewer context switches: a run of one thread moved next to its thread's next run (x gap y
  // -> gap x y), or that run moved next to it (x y gap), while the schedule still fails with
  // fewer switches and no more steps; and the last step of x moved to the front of y when both
  // run the same statement (a join that waited, say), so that it shows as one row, with no
  // more switches.
  void switch_pass() {
    struct Run {
      std::size_t begin, end;
    };
    std::size_t rounds = 4 * schedule_.size();  // (moving a step later need not lower switches)
    for (bool improved = judge_; improved && !expired() && rounds-- > 0;) {
      improved = false;
      std::vector<Run> runs;
      for (std::size_t i = 0; i < schedule_.size(); ++i)
        if (i == 0 || schedule_[i].thread != schedule_[i - 1].thread) runs.push_back({i, i + 1});
        else runs.back().end = i + 1;
      const std::size_t before = switches(schedule_);
      for (std::size_t r = 0; r < runs.size() && !improved && !expired(); ++r) {
        std::size_t next = r + 1;
        while (next < runs.size() && schedule_[runs[next].begin].thread != schedule_[runs[r].begin].thread) ++next;
        if (next >= runs.size() || next == r + 1) continue;
        const Run x = runs[r], y = runs[next];
        for (int way = 0; way < 3 && !improved; ++way) {
          const bool split = way == 2 && x.end - x.begin >= 2 && same_statement(x.end - 1, y.begin);
          if (way == 2 && !split) continue;
          const std::size_t moved = way == 2 ? x.end - 1 : x.begin;  // x[moved..end) goes
          std::vector<Step> cand(schedule_.cbegin(), at(moved));
          if (way != 1) {
            cand.insert(cand.end(), at(x.end), at(y.begin));
            cand.insert(cand.end(), at(moved), at(x.end));
          } else {
            cand.insert(cand.end(), at(x.begin), at(x.end));
            cand.insert(cand.end(), at(y.begin), at(y.end));
            cand.insert(cand.end(), at(x.end), at(y.begin));
          }
          cand.insert(cand.end(), at(way == 1 ? y.end : y.begin), schedule_.cend());
          const std::size_t limit = way == 2 ? before + 1 : before;
          if (switches(cand) >= limit) continue;
          improved = take(std::move(cand), moved, limit);
        }
      }
    }
  }

 private:
  static std::size_t switches(const std::vector<Step>& s) {
    std::size_t n = 0;
    for (std::size_t i = 1; i < s.size(); ++i) n += s[i].thread != s[i - 1].thread;
    return n;
  }

  std::vector<Step>::const_iterator at(std::size_t i) const {
    return schedule_.begin() + static_cast<std::ptrdiff_t>(i);
  }

  std::uint32_t pc_before(std::size_t i) const { return pcs_[i]; }

  // The checkpoints and pcs_ from step `from` on, after the schedule changed there.
  void refresh(std::size_t from) {
    const std::size_t k = from / stride_;
    checkpoints_.resize(k + 1);
    State s = checkpoints_[k];
    pcs_.resize(schedule_.size());
    for (std::size_t j = k * stride_; j < schedule_.size(); ++j) {
      if (j % stride_ == 0 && j / stride_ == checkpoints_.size()) checkpoints_.push_back(s);
      pcs_[j] = s.threads[schedule_[j].thread].pc;
      interp_.step(s, schedule_[j]);
    }
  }

  // Steps i and j (of one thread) run instructions of the same statement.
  bool same_statement(std::size_t i, std::size_t j) const {
    const auto& code = tm_.threads[schedule_[i].thread].code;
    const std::uint32_t a = pc_before(i), b = pc_before(j);
    return a < code.size() && b < code.size() && b > a && code[a].text == code[b].text && code[a].loc.line == code[b].loc.line;
  }

  std::vector<std::size_t> positions_of(ThreadId t) const {
    std::vector<std::size_t> p;
    for (std::size_t i = 0; i < schedule_.size(); ++i)
      if (schedule_[i].thread == t) p.push_back(i);
    return p;
  }

  // The schedule without the steps at positions[from..to) (positions ascending).
  std::vector<Step> without(const std::vector<std::size_t>& positions, std::size_t from, std::size_t to) const {
    std::vector<Step> out;
    out.reserve(schedule_.size() - (to - from));
    for (std::size_t i = 0, k = from; i < schedule_.size(); ++i) {
      if (k < to && positions[k] == i) {
        ++k;
        continue;
      }
      out.push_back(schedule_[i]);
    }
    return out;
  }

  // `cand` (equal to the schedule in its first `same` steps) becomes the schedule when it
  // replays to a property violation, cut after the failing step, in fewer steps (or, with
  // `switches_below`, with fewer context switches than that and no more steps).
  bool take(std::vector<Step> cand, std::size_t same, std::size_t switches_below = 0) {
    if (!judge_) {  // TEST ONLY: unjudged
      if (cand.empty()) return false;
      schedule_ = std::move(cand);
      return true;
    }
    State s = checkpoints_[same / stride_];
    for (std::size_t j = same / stride_ * stride_; j < same; ++j) interp_.step(s, schedule_[j]);
    for (std::size_t i = same; i < cand.size(); ++i) {
      const StepResult r = interp_.step(s, cand[i]);
      if (r.outcome == StepOutcome::Ok) continue;
      if (r.outcome != StepOutcome::Error || r.error_kind != AssertKind::Property) return false;
      cand.resize(i + 1);
      if (switches_below ? cand.size() > schedule_.size() || switches(cand) >= switches_below
                         : cand.size() >= schedule_.size())
        return false;
      schedule_ = std::move(cand);
      refresh(same);  // (again: cheaper than keeping every candidate's states)
      return true;
    }
    return false;
  }

  const ThreadModel& tm_;
  Interpreter interp_;
  const std::vector<Value>& initial_;
  bool judge_;
  std::chrono::steady_clock::time_point deadline_;
  std::vector<Step> schedule_;
  std::size_t stride_ = 1;
  std::vector<State> checkpoints_;  // [k]: the state before schedule_[k * stride_]
  std::vector<std::uint32_t> pcs_;  // [i]: the pc of schedule_[i]'s thread before it
};

}  // namespace

std::vector<Step> minimize_schedule(const ThreadModel& tm, const std::vector<Value>& initial,
                                    std::vector<Step> schedule, std::chrono::steady_clock::time_point deadline,
                                    bool judge) {
  Minimizer m(tm, initial, schedule, judge, deadline);
  if (schedule.empty() || !m.start()) return schedule;
  // Per thread first (cheap, and it shrinks what ddmin's quadratic passes work on), then
  // ddmin, again while either removes something; then fewer context switches.
  for (bool again = true; again && !m.expired();) {
    again = m.thread_pass();
    again = m.ddmin() || again;
    if (!judge) break;
  }
  m.switch_pass();
  return std::move(m.schedule());
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
    row.nondet_from = bodyless_function(th.code[pc]);
    row.object_from = object_choice_function(th.code[pc]);
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
      if (!cur.nondet) {
        cur.nondet = r.nondet;
        cur.nondet_from = r.nondet_from;
      }
      if (cur.object_from.empty()) cur.object_from = r.object_from;
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
