// Explicit-state explorer (explicit/explorer.hpp).
#include "explicit/explorer.hpp"

#include "ir/access.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace siren::explicit_state {

using namespace ir;

const char* explore_verdict_name(ExploreVerdict v) {
  switch (v) {
    case ExploreVerdict::Unsafe: return "UNSAFE";
    case ExploreVerdict::Safe: return "SAFE";
    case ExploreVerdict::SafeUpToBound: return "SAFE up to bound";
    case ExploreVerdict::Unknown: return "UNKNOWN";
  }
  return "?";
}

std::string format_control_state(const ThreadModel& tm, const ControlState& cs) {
  std::string out;
  for (std::size_t t = 0; t < cs.pcs.size() && t < tm.threads.size(); ++t) {
    if (t) out += ' ';
    out += tm.threads[t].name + ':';
    const std::int32_t pc = cs.pcs[t];
    if (pc == ControlState::kNotStarted) {
      out += '-';
    } else if (pc == ControlState::kFinished) {
      out += "done";
    } else {
      const auto& code = tm.threads[t].code;
      const SourceLoc loc = static_cast<std::size_t>(pc) < code.size() ? code[pc].loc : SourceLoc{};
      out += (loc.file < tm.files.size() ? tm.files[loc.file] : std::string("?")) + ':' + std::to_string(loc.line);
    }
  }
  if (cs.terminated) out += " [terminated]";
  return out;
}

namespace {

std::size_t mix(std::size_t h, std::uint64_t v) {
  v *= 0x9e3779b97f4a7c15ULL;
  v ^= v >> 29;
  return (h ^ v) * 0x100000001b3ULL + 0x7f4a7c15;
}

}  // namespace

std::size_t StateHash::operator()(const State& s) const {
  std::size_t h = 1469598103934665603ULL;
  for (const auto& obj : s.memory)
    for (const Value& v : obj) h = mix(mix(h, v.bits), v.obj);
  for (bool b : s.live) h = mix(h, b);
  for (bool b : s.allocated) h = mix(h, b);
  for (const ThreadState& t : s.threads) {
    h = mix(h, t.pc);
    h = mix(h, (t.started ? 1 : 0) | (t.finished ? 2 : 0));
    for (const Value& v : t.locals) h = mix(mix(h, v.bits), v.obj);
    h = mix(mix(h, t.retval.bits), t.retval.obj);
  }
  h = mix(h, s.atomic);
  h = mix(h, s.terminated);
  return h;
}

namespace {

ControlState control_of(const State& s) {
  ControlState cs;
  cs.terminated = s.terminated;
  for (const ThreadState& t : s.threads)
    cs.pcs.push_back(!t.started ? ControlState::kNotStarted
                     : t.finished ? ControlState::kFinished
                                  : static_cast<std::int32_t>(t.pc));
  return cs;
}

std::vector<Value> domain_of(Type t, const ExploreOptions& o, bool& restricted) {
  std::vector<Value> out = nondet_domain(t, o.nondet_min, o.nondet_max, restricted);
  if (t.is_int())
    for (const std::int64_t x : o.nondet_extra) {
      const Value v{normalize(t, static_cast<std::uint64_t>(x)), 0};
      if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    }
  return out;
}

}  // namespace

std::vector<Value> nondet_domain(Type t, std::int64_t lo, std::int64_t hi, bool& restricted) {
  std::vector<Value> out;
  if (t.is_ptr()) {
    restricted = true;
    return {Value{}};
  }
  std::vector<std::uint64_t> seen;
  for (std::int64_t v = lo; v <= hi; ++v) {
    const std::uint64_t n = normalize(t, static_cast<std::uint64_t>(v));
    if (std::find(seen.begin(), seen.end(), n) == seen.end()) {
      seen.push_back(n);
      out.push_back({n, 0});
    }
    if (v == hi) break;  // avoid overflow when nondet_max == INT64_MAX
  }
  const double type_size = t.is_bool() ? 2.0 : (t.width >= 63 ? 1e19 : static_cast<double>(1ULL << t.width));
  if (static_cast<double>(out.size()) < type_size) restricted = true;
  if (out.empty()) out.push_back({});
  return out;
}

std::vector<std::vector<Value>> nondet_product(const std::vector<std::vector<Value>>& doms, std::size_t cap, bool& capped) {
  std::vector<std::vector<Value>> out{{}};
  for (const auto& d : doms) {
    std::vector<std::vector<Value>> next;
    for (const auto& prefix : out)
      for (const Value& v : d) {
        if (next.size() >= cap) {
          capped = true;
          break;
        }
        auto p = prefix;
        p.push_back(v);
        next.push_back(std::move(p));
      }
    out = std::move(next);
  }
  return out;
}

namespace {

struct Acc {
  std::uint64_t loc;
  bool write;
};

class AccessCollector {
 public:
  AccessCollector(const ThreadModel& tm, const Interpreter& in) : tm_(tm), in_(in) {
    base_ = tm.objects.size();
  }

  std::uint64_t cell(ObjectId o, std::uint64_t off) const { return (static_cast<std::uint64_t>(o) << 32) | (off & 0xffffffffULL); }
  std::uint64_t special(std::size_t kind, std::uint64_t idx) const { return (static_cast<std::uint64_t>(base_ + kind) << 32) | idx; }
  std::uint64_t started(ThreadId t) const { return special(0, t); }
  std::uint64_t finished(ThreadId t) const { return special(1, t); }
  std::uint64_t alloc(ObjectId o) const { return special(2, o); }
  std::uint64_t atomic() const { return special(3, 0); }
  std::uint64_t terminated() const { return special(4, 0); }

  /// The locations the next step of `t` in `s` reads and writes (ir/access.hpp: the same
  /// static summary the MPOR reduction encodes, evaluated in `s`).
  std::vector<Acc> of(const State& s, ThreadId t) const {
    std::vector<Acc> out;
    for (const Location& l : access_locations(tm_, in_, s, t)) {
      switch (l.kind) {
        case LocKind::Cell: out.push_back({l.index, l.write}); break;
        case LocKind::Started: out.push_back({started(static_cast<ThreadId>(l.index)), l.write}); break;
        case LocKind::Finished: out.push_back({special(1, l.index & 0xffffffffULL), l.write}); break;
        case LocKind::Alloc: out.push_back({alloc(static_cast<ObjectId>(l.index)), l.write}); break;
        case LocKind::Atomic: out.push_back({atomic(), l.write}); break;
        case LocKind::Terminated: out.push_back({terminated(), l.write}); break;
      }
    }
    return out;
  }

 private:
  const ThreadModel& tm_;
  const Interpreter& in_;
  std::size_t base_ = 0;
};

bool dependent(const std::vector<Acc>& a, const std::vector<Acc>& b) {
  for (const Acc& x : a)
    for (const Acc& y : b)
      if (x.loc == y.loc && (x.write || y.write)) return true;
  return false;
}

/// Lexicographically smallest linearization (by thread id) of the happens-before order of a
/// trace of transitions: a canonical representative of its Mazurkiewicz class. `open_last`:
/// the last transition is an atomic block that did not close; nothing can be ordered after it.
std::string canonical(const std::vector<ThreadId>& threads, const std::vector<std::vector<Acc>>& acc, bool open_last) {
  const std::size_t n = threads.size();
  std::vector<std::vector<std::size_t>> preds(n);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (threads[i] == threads[j] || dependent(acc[i], acc[j]) || (open_last && j + 1 == n)) preds[j].push_back(i);
  std::vector<char> done(n, 0);
  std::string key;
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t best = n;
    for (std::size_t j = 0; j < n; ++j) {
      if (done[j]) continue;
      bool ready = true;
      for (std::size_t i : preds[j])
        if (!done[i]) { ready = false; break; }
      if (ready && (best == n || threads[j] < threads[best])) best = j;
    }
    done[best] = 1;
    key += std::to_string(threads[best]);
    key += ',';
  }
  return key;
}

class Explorer {
 public:
  Explorer(const ThreadModel& tm, const ExploreOptions& o) : tm_(tm), o_(o), in_(tm), acc_(tm, in_) {}

  ExploreResult run() {
    // Initial nondet cells: first explore with all of them 0, tracking whether any execution
    // reads one before writing it; only if one does are all combinations enumerated.
    std::vector<std::vector<Value>> doms;
    bool restricted = false;
    for (const Object& obj : tm_.objects)
      if (obj.id != 0 && obj.kind != ObjectKind::Heap)
        for (std::size_t c = 0; c < obj.cells.size(); ++c)
          if (obj.cells[c].init_nondet) {
            doms.push_back(domain_of(obj.cells[c].type, o_, restricted));
            nd_index_[acc_.cell(obj.id, obj.cells[c].offset)] = nd_index_.size();  // keyed as Location::index
          }
    if (!doms.empty()) {
      lazy_ = true;
      add_state(in_.initial_state(), kNoParent, Step{}, 0, {}, std::vector<bool>(doms.size(), true));
      bfs();
      if (!lazy_failed_) {
        finish_verdict();
        if (o_.count_schedules) count();
        return std::move(r_);
      }
      // reset and enumerate every combination
      const bool hn = r_.has_nondet, nr = r_.nondet_restricted;
      r_ = ExploreResult{};
      r_.has_nondet = hn;
      r_.nondet_restricted = nr;
      states_.clear();
      nodes_.clear();
      inits_.clear();
      seen_.clear();
      distinct_.clear();
      untouched_.clear();
      lazy_ = false;
    }
    if (!doms.empty()) r_.has_nondet = true;
    if (restricted) r_.nondet_restricted = true;
    bool capped = false;
    auto inits = nondet_product(doms, o_.max_nondet_combinations, capped);
    if (capped) r_.nondet_restricted = true;
    for (const auto& init : inits) {
      State s = in_.initial_state(init);
      add_state(std::move(s), kNoParent, Step{}, 0, init, {});
    }
    bfs();
    finish_verdict();
    if (o_.count_schedules) count();
    return std::move(r_);
  }

 private:
  struct Key {
    State s;
    std::vector<bool> untouched;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::size_t h = StateHash{}(k.s);
      for (bool b : k.untouched) h = mix(h, b);
      return h;
    }
  };
  struct PtrHash {
    std::size_t operator()(const State* s) const { return StateHash{}(*s); }
  };
  struct PtrEq {
    bool operator()(const State* a, const State* b) const { return *a == *b; }
  };

  static constexpr std::size_t kNoParent = ~std::size_t{0};
  struct Node {
    std::size_t parent;
    Step step;       // the step from the parent
    std::size_t depth;
    std::size_t init;  // index into inits_
  };

  bool add_state(State s, std::size_t parent, Step step, std::size_t depth, const std::vector<Value>& init,
                 std::vector<bool> untouched) {
    Key key{s, untouched};
    if (seen_.count(key)) return false;
    if (states_.size() >= o_.max_states) {
      r_.state_limit_hit = true;
      return false;
    }
    std::size_t init_index;
    if (parent == kNoParent) {
      init_index = inits_.size();
      inits_.push_back(init);
    } else {
      init_index = nodes_[parent].init;
    }
    r_.control_states.insert(control_of(s));
    seen_.emplace(std::move(key), states_.size());
    nodes_.push_back({parent, std::move(step), depth, init_index});
    states_.push_back(std::move(s));
    untouched_.push_back(std::move(untouched));
    distinct_.insert(&states_.back());
    r_.max_depth = std::max(r_.max_depth, depth);
    return true;
  }

  /// Nondet alternatives for the next step of `t` in `s`.
  std::vector<std::vector<Value>> choices(const State& s, ThreadId t) {
    const Instr& in = tm_.threads[t].code[s.threads[t].pc];
    if (in.kind == InstrKind::Havoc && in.lhs < tm_.threads[t].locals.size()) {
      r_.has_nondet = true;
      std::vector<std::vector<Value>> out;
      for (const Value& v : domain_of(tm_.threads[t].locals[in.lhs].type, o_, r_.nondet_restricted)) out.push_back({v});
      return out;
    }
    if (in.kind == InstrKind::Malloc && in.obj < tm_.objects.size()) {
      std::vector<std::vector<Value>> doms;
      for (const Cell& c : tm_.objects[in.obj].cells)
        if (c.init_nondet) doms.push_back(domain_of(c.type, o_, r_.nondet_restricted));
      if (doms.empty()) return {{}};
      r_.has_nondet = true;
      bool capped = false;
      auto out = nondet_product(doms, o_.max_nondet_combinations, capped);
      if (capped) r_.nondet_restricted = true;
      return out;
    }
    return {{}};
  }

  void record_error(std::size_t parent, const Step& step, const StepResult& res) {
    const bool better = !r_.error_kind || (*r_.error_kind != AssertKind::Property && res.error_kind == AssertKind::Property);
    if (!better) return;
    r_.error_kind = res.error_kind;
    r_.error_message = res.error_message;
    r_.error_loc = res.loc;
    r_.error_thread = step.thread;
    std::vector<Step> trace{step};
    std::size_t n = parent;
    while (nodes_[n].parent != kNoParent) {
      trace.push_back(nodes_[n].step);
      n = nodes_[n].parent;
    }
    std::reverse(trace.begin(), trace.end());
    r_.error_trace = std::move(trace);
    r_.error_initial_nondet = inits_[nodes_[n].init];
  }

  /// Does the next instruction of `t` (enabled or not: guards count) read an initial nondet
  /// cell that no step has written yet?
  bool reads_untouched(std::size_t i, ThreadId t) const {
    const State& s = states_[i];
    const ThreadState& ts = s.threads[t];
    if (s.terminated || !ts.started || ts.finished || ts.pc >= tm_.threads[t].code.size()) return false;
    for (const Acc& a : acc_.of(s, t)) {
      auto it = nd_index_.find(a.loc);
      if (it != nd_index_.end() && untouched_[i][it->second] && !a.write) return true;
    }
    return false;
  }

  void bfs() {
    for (std::size_t i = 0; i < states_.size(); ++i) {
      if (o_.stop_at_violation && r_.error_kind == AssertKind::Property) break;
      if (o_.deadline && (i & 63) == 0 && std::chrono::steady_clock::now() >= *o_.deadline) {
        timed_out_ = true;
        break;
      }
      const std::size_t depth = nodes_[i].depth;
      for (ThreadId t = 0; t < tm_.threads.size(); ++t) {
        if (lazy_ && reads_untouched(i, t)) {
          lazy_failed_ = true;
          return;
        }
        if (!in_.enabled(states_[i], t)) continue;
        if (o_.bound && depth >= o_.bound) {
          r_.bound_hit = true;
          break;
        }
        std::vector<bool> untouched;
        if (lazy_) {
          untouched = untouched_[i];
          for (const Acc& a : acc_.of(states_[i], t))
            if (auto it = nd_index_.find(a.loc); it != nd_index_.end() && a.write) untouched[it->second] = false;
        }
        for (auto& nd : choices(states_[i], t)) {
          Step step{t, std::move(nd)};
          State next = states_[i];
          const StepResult res = in_.step(next, step);
          if (res.outcome == StepOutcome::Error) {
            record_error(i, step, res);
            continue;
          }
          if (res.outcome != StepOutcome::Ok) continue;
          add_state(std::move(next), i, std::move(step), depth + 1, {}, untouched);
        }
      }
      if (r_.state_limit_hit) break;
    }
    r_.states = distinct_.size();
  }

  void finish_verdict() {
    if (r_.error_kind && *r_.error_kind == AssertKind::Property) {
      r_.verdict = ExploreVerdict::Unsafe;
    } else if (timed_out_ || o_.stop_at_violation) {
      r_.verdict = ExploreVerdict::Unknown;
      r_.reason = timed_out_ ? "timeout" : "no property violation found";
    } else if (r_.error_kind) {
      r_.verdict = ExploreVerdict::Unknown;
      r_.reason = std::string(*r_.error_kind == AssertKind::MemSafety ? "memory-safety" : "modelling-limit") +
                  " error reachable: " + r_.error_message;
    } else if (r_.state_limit_hit) {
      r_.verdict = ExploreVerdict::Unknown;
      r_.reason = "state limit of " + std::to_string(o_.max_states) + " reached";
    } else if (r_.nondet_restricted) {
      r_.verdict = ExploreVerdict::Unknown;
      r_.reason = "nondet values restricted to " + std::to_string(o_.nondet_min) + ".." + std::to_string(o_.nondet_max);
    } else if (r_.bound_hit) {
      r_.verdict = ExploreVerdict::SafeUpToBound;
      r_.reason = "bound " + std::to_string(o_.bound) + " reached";
    } else {
      r_.verdict = ExploreVerdict::Safe;
    }
  }

  // ---- schedules and Mazurkiewicz classes: DFS over complete executions ----
  void count() {
    if (r_.has_nondet) {
      r_.counting_note = "not computed: the program has nondet choices";
      return;
    }
    if (r_.state_limit_hit) {
      r_.counting_note = "not computed: state limit reached";
      return;
    }
    if (states_.empty()) return;
    paths_ = 0;
    abort_ = false;
    State s = states_[0];
    std::vector<ThreadId> threads;
    std::vector<std::vector<Acc>> accs;
    std::unordered_set<State, StateHash> on_stack;
    dfs(s, 0, threads, accs, on_stack);
    if (abort_) {
      if (paths_ > o_.max_paths) count_memoised();
      return;
    }
    r_.schedules = paths_;
    r_.mazurkiewicz_classes = classes_.size();
  }

  // Too many executions to enumerate: count the complete schedules as paths in the state graph
  // instead, memoised per (state, depth) (per state without a bound, where the graph must be
  // acyclic). Mazurkiewicz classes need the executions themselves and stay unreported.
  void count_memoised() {
    memo_.clear();
    memo_overflow_ = false;
    memo_cycle_ = false;
    std::unordered_set<State, StateHash> on_stack;
    const std::uint64_t n = paths_from(states_[0], 0, on_stack);
    memo_.clear();
    const std::string why = "more than " + std::to_string(o_.max_paths) + " complete executions";
    if (memo_cycle_) {
      r_.counting_note = "not computed: infinitely many schedules (the state graph has a cycle; give a bound)";
    } else if (memo_overflow_) {
      r_.counting_note = "not computed: more than 2^64 schedules";
    } else if (memo_limit_hit_) {
      r_.counting_note = "not computed: " + why + " and the memo table is full";
    } else {
      r_.schedules = n;
      r_.counting_note = "Mazurkiewicz classes not computed: " + why + " (schedules counted over the state graph)";
    }
  }

  std::uint64_t paths_from(const State& s, std::size_t depth, std::unordered_set<State, StateHash>& on_stack) {
    if (memo_cycle_ || memo_overflow_ || memo_limit_hit_) return 0;
    if (o_.bound && depth >= o_.bound) return 1;
    const std::size_t key_depth = o_.bound ? depth : 0;
    auto it = memo_.find(s);
    if (it != memo_.end()) {
      auto jt = it->second.find(key_depth);
      if (jt != it->second.end()) return jt->second;
    }
    if (!o_.bound) {
      if (!on_stack.insert(s).second) {
        memo_cycle_ = true;
        return 0;
      }
    }
    std::uint64_t total = 0;
    bool moved = false;
    for (ThreadId t = 0; t < tm_.threads.size(); ++t) {
      if (!in_.enabled(s, t)) continue;
      moved = true;
      State next = s;
      const StepResult res = in_.step(next, Step{t, {}});
      const std::uint64_t n = res.outcome == StepOutcome::Error ? 1 : paths_from(next, depth + 1, on_stack);
      if (total + n < total) memo_overflow_ = true;
      total += n;
    }
    if (!o_.bound) on_stack.erase(s);
    if (!moved) total = 1;
    if (++memo_entries_ > 4 * o_.max_states) memo_limit_hit_ = true;
    memo_[s][key_depth] = total;
    return total;
  }

  void dfs(const State& s, std::size_t depth, std::vector<ThreadId>& threads,
           std::vector<std::vector<Acc>>& accs, std::unordered_set<State, StateHash>& on_stack) {
    if (abort_) return;
    bool moved = false;
    if (!(o_.bound && depth >= o_.bound)) {
      if (!o_.bound) {
        if (on_stack.count(s)) {
          abort_ = true;
          r_.counting_note = "not computed: infinitely many schedules (the state graph has a cycle; give a bound)";
          return;
        }
        on_stack.insert(s);
      }
      for (ThreadId t = 0; t < tm_.threads.size() && !abort_; ++t) {
        if (!in_.enabled(s, t)) continue;
        moved = true;
        State next = s;
        // Transitions (DESIGN.md §B1): a step of the thread that owns the atomic section
        // continues its block; `atomic` itself is 0 between transitions and left out.
        const bool cont = s.atomic == t + 1;
        std::vector<Acc> a = acc_.of(s, t);
        std::erase_if(a, [&](const Acc& x) { return x.loc == acc_.atomic(); });
        std::vector<Acc> saved;
        if (cont) {
          saved = accs.back();
          accs.back().insert(accs.back().end(), a.begin(), a.end());
        } else {
          threads.push_back(t);
          accs.push_back(std::move(a));
        }
        const StepResult res = in_.step(next, Step{t, {}});
        if (res.outcome == StepOutcome::Error) complete(threads, accs, next.atomic == t + 1);
        else dfs(next, depth + 1, threads, accs, on_stack);
        if (cont) {
          accs.back() = std::move(saved);
        } else {
          threads.pop_back();
          accs.pop_back();
        }
      }
      if (!o_.bound) on_stack.erase(s);
    }
    if (!moved) complete(threads, accs, s.atomic != 0);
  }

  void complete(const std::vector<ThreadId>& threads, const std::vector<std::vector<Acc>>& accs, bool open_last) {
    if (++paths_ > o_.max_paths) {
      abort_ = true;
      r_.counting_note = "not computed: more than " + std::to_string(o_.max_paths) + " complete executions";
      return;
    }
    classes_.insert(canonical(threads, accs, open_last));
  }

  const ThreadModel& tm_;
  const ExploreOptions& o_;
  Interpreter in_;
  AccessCollector acc_;
  ExploreResult r_;
  std::deque<State> states_;
  std::vector<std::vector<bool>> untouched_;
  std::unordered_set<const State*, PtrHash, PtrEq> distinct_;
  std::unordered_map<std::uint64_t, std::size_t> nd_index_;
  bool lazy_ = false;
  bool lazy_failed_ = false;
  bool timed_out_ = false;  // ExploreOptions::deadline passed
  std::vector<Node> nodes_;
  std::vector<std::vector<Value>> inits_;
  std::unordered_map<Key, std::size_t, KeyHash> seen_;
  std::uint64_t paths_ = 0;
  bool abort_ = false;
  std::unordered_map<State, std::unordered_map<std::size_t, std::uint64_t>, StateHash> memo_;
  std::size_t memo_entries_ = 0;
  bool memo_overflow_ = false, memo_cycle_ = false, memo_limit_hit_ = false;
  std::unordered_set<std::string> classes_;
};

}  // namespace

ExploreResult explore(const ThreadModel& tm, const ExploreOptions& options) {
  if (tm.threads.empty()) {
    ExploreResult r;
    r.verdict = ExploreVerdict::Unknown;
    r.reason = "no threads (no entry function)";
    return r;
  }
  return Explorer(tm, options).run();
}

}  // namespace siren::explicit_state
