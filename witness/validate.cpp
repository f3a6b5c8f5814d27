// Validating a violation witness (witness.hpp): a depth-first search over the product of the
// program's states (the concrete interpreter) and the witness automaton's nodes.
#include "witness/witness.hpp"

#include "explicit/explorer.hpp"
#include "ir/cfg.hpp"
#include "race/race.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

namespace siren::witness {
namespace {

/// What a step did, as far as waypoints can see.
struct StepFacts {
  int thread = -1;  // witness id of the stepping thread (-1: not mapped)
  std::string file;
  unsigned line = 0;
  bool internal = false;               // a create-site counter or a parameter binding
  std::optional<bool> branch;          // a conditional jump: the C condition's value
  std::optional<std::int64_t> result;  // a nondet call: the value
  int created = -1;                    // the thread instance it started
  bool violation = false;              // an assertion failed (Property)
};

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool plain(const Match& m) { return !m.branch && !m.result && !m.creates && !m.target; }

bool matches(const Match& m, const StepFacts& f, const std::vector<int>& wid_of) {
  if (m.thread && static_cast<int>(*m.thread) != f.thread) return false;
  if (m.line && m.line != f.line) return false;
  if (!m.file.empty() && m.file != base_name(f.file)) return false;
  if (m.branch && m.branch != f.branch) return false;
  if (m.result && m.result != f.result) return false;
  if (m.target && !f.violation) return false;
  if (m.creates) {
    if (f.created < 0) return false;
    // The id must not name another thread already.
    for (std::size_t u = 0; u < wid_of.size(); ++u)
      if (wid_of[u] == static_cast<int>(*m.creates) && static_cast<int>(u) != f.created) return false;
  }
  if (plain(m) && f.internal) return false;
  return true;
}

struct Node {
  ir::State state;
  unsigned q = 0;
  std::vector<int> wid_of;  // siren thread instance -> witness thread id (-1: none yet)
  std::size_t parent = 0;
  ir::Step step;            // the step from the parent
  int last_thread = -1;     // the thread that last advanced the witness, and its line
  unsigned last_line = 0;
};

struct Key {
  const std::vector<Node>* nodes;
  std::size_t i;
};
struct KeyHash {
  std::size_t operator()(const Key& k) const {
    const Node& n = (*k.nodes)[k.i];
    std::size_t h = explicit_state::StateHash{}(n.state) ^ (static_cast<std::size_t>(n.q) * 0x9e3779b97f4a7c15ULL);
    for (int w : n.wid_of) h = h * 31 + static_cast<std::size_t>(w + 1);
    return h;
  }
};
struct KeyEq {
  bool operator()(const Key& a, const Key& b) const {
    const Node& x = (*a.nodes)[a.i];
    const Node& y = (*b.nodes)[b.i];
    return x.q == y.q && x.wid_of == y.wid_of && x.state == y.state;
  }
};

class Validator {
 public:
  Validator(const ir::ThreadModel& tm, const Witness& w, const ValidateOptions& o)
      : tm_(tm), w_(w), o_(o), interp_(tm), accesses_(race::all_data_accesses(tm)) {
    out_.resize(w.nodes);
    for (const Edge& e : w.edges) {
      if (e.match.result) witness_values_.push_back(*e.match.result);
      out_[e.from].push_back(&e);
    }
  }

  Validation run() {
    Validation v;
    // (Thread handles are written by pthread_create before anything reads them.)
    for (const ir::Object& obj : tm_.objects)
      for (const ir::Cell& c : obj.cells)
        if (c.init_nondet && c.kind != ir::CellKind::ThreadHandle && obj.kind != ir::ObjectKind::Heap)
          incomplete("uninitialised values are tried as 0 only");
    // First only runs that take no step the witness leaves out: steps that follow it, the rest
    // of the statement the last one began, and the thread model's bookkeeping. A witness with a
    // waypoint per statement (siren's) is followed almost without search. Then every run.
    Ending e = search(true, o_.max_states / 4, v);
    if (e == Ending::Exhausted || e == Ending::StateLimit) e = search(false, o_.max_states, v);
    v.states = nodes_.size();
    switch (e) {
      case Ending::Confirmed: v.outcome = Outcome::Confirmed; return v;
      case Ending::Timeout:
        v.outcome = Outcome::Unknown;
        v.reason = "timeout" + progress();
        return v;
      case Ending::StateLimit:
        v.outcome = Outcome::Unknown;
        v.reason = fmt::format("more than {} states", o_.max_states) + progress();
        return v;
      case Ending::Exhausted: break;
    }
    if (!incomplete_.empty()) {
      v.outcome = Outcome::Unknown;
      v.reason = "no run follows the witness to a violation among those tried (" + incomplete_ + ")" + progress();
      return v;
    }
    v.outcome = Outcome::Rejected;
    v.reason = fmt::format("no run of the program follows the witness to a violation ({} states searched{})",
                           nodes_.size(), progress());
    return v;
  }

 private:
  enum class Ending { Confirmed, Exhausted, Timeout, StateLimit };

  Ending search(bool strict, std::size_t max_states, Validation& v) {
    strict_ = strict;
    nodes_.clear();
    seen_.clear();
    Node root;
    root.state = interp_.initial_state();
    root.q = w_.entry;
    root.wid_of.assign(tm_.threads.size(), -1);
    root.wid_of[0] = 0;
    nodes_.push_back(std::move(root));
    seen_.insert(Key{&nodes_, 0});
    std::vector<std::size_t> stack{0};
    while (!stack.empty()) {
      if (o_.deadline && std::chrono::steady_clock::now() > *o_.deadline) return Ending::Timeout;
      if (nodes_.size() > max_states) return Ending::StateLimit;
      const std::size_t n = stack.back();
      stack.pop_back();
      if (expand(n, stack, v)) return Ending::Confirmed;
    }
    return Ending::Exhausted;
  }

  const ir::ThreadModel& tm_;
  const Witness& w_;
  const ValidateOptions& o_;
  ir::Interpreter interp_;
  std::vector<race::RaceAccess> accesses_;
  std::vector<std::int64_t> witness_values_;
  std::vector<Node> nodes_;
  std::unordered_set<Key, KeyHash, KeyEq> seen_;
  std::string incomplete_;
  std::vector<std::vector<const Edge*>> out_;  // the edges leaving each node
  bool strict_ = false;  // search(): only steps the witness accounts for
  unsigned deepest_ = 0;  // the highest witness node reached (for linear witnesses: waypoints followed)

  std::string progress() const {
    for (const Edge* e : out_[deepest_])
      if (e->match.line)
        return fmt::format("; the furthest run follows {} of the witness's {} edges, up to line {}", deepest_,
                           w_.edges.size(), e->match.line);
    return "";
  }

  void incomplete(const std::string& why) {
    if (incomplete_.find(why) == std::string::npos) incomplete_ += (incomplete_.empty() ? "" : "; ") + why;
  }

  std::vector<ir::Step> path_to(std::size_t n) const {
    std::vector<ir::Step> out;
    for (std::size_t i = n; i != 0; i = nodes_[i].parent) out.push_back(nodes_[i].step);
    std::reverse(out.begin(), out.end());
    return out;
  }

  // The nondet choices of thread t's next step, the witness's values first.
  std::vector<std::vector<ir::Value>> choices(const Node& n, ir::ThreadId t) {
    const ir::Instr& in = tm_.threads[t].code[n.state.threads[t].pc];
    if (in.kind == ir::InstrKind::Malloc && in.obj < tm_.objects.size()) {
      for (const ir::Cell& c : tm_.objects[in.obj].cells)
        if (c.init_nondet && c.kind != ir::CellKind::ThreadHandle) incomplete("uninitialised heap values are tried as 0 only");
      return {{}};
    }
    if (in.kind != ir::InstrKind::Havoc || in.lhs >= tm_.threads[t].locals.size()) return {{}};
    const ir::Type ty = tm_.threads[t].locals[in.lhs].type;
    std::vector<ir::Value> vals;
    auto add = [&](std::int64_t x) {
      const ir::Value v{ir::normalize(ty, static_cast<std::uint64_t>(x)), 0};
      if (std::find(vals.begin(), vals.end(), v) == vals.end()) vals.push_back(v);
    };
    for (const Edge* e : out_[n.q])
      if (e->match.result && (!e->match.line || e->match.line == in.loc.line)) add(*e->match.result);
    bool restricted = false;
    for (const ir::Value& v : explicit_state::nondet_domain(ty, -2, 2, restricted))
      if (std::find(vals.begin(), vals.end(), v) == vals.end()) vals.push_back(v);
    for (std::int64_t x : witness_values_) add(x);
    if (restricted) incomplete("nondet values are tried from -2..2 and the witness's values only");
    std::vector<std::vector<ir::Value>> out;
    for (const ir::Value& v : vals) out.push_back({v});
    return out;
  }

  StepFacts facts(const Node& n, ir::ThreadId t, const ir::Step& step, const ir::StepResult& r, const ir::State& after) {
    StepFacts f;
    const std::uint32_t pc = n.state.threads[t].pc;
    const ir::Instr& in = tm_.threads[t].code[pc];
    f.thread = n.wid_of[t];
    f.file = in.loc.file < tm_.files.size() ? tm_.files[in.loc.file] : std::string();
    f.line = in.loc.line;
    f.internal = ir::is_internal(in) && !(in.kind == ir::InstrKind::Goto);
    if (in.kind == ir::InstrKind::Goto && !ir::always_taken(in)) {
      const bool jumped = after.threads[t].pc == in.target;
      f.branch = in.a && in.a->op == ir::Op::LNot ? !jumped : jumped;
    }
    if (ir::is_nondet_call(in) && !step.nondet.empty() && in.lhs < tm_.threads[t].locals.size()) {
      const ir::Type ty = tm_.threads[t].locals[in.lhs].type;
      if (!ty.is_ptr()) f.result = ir::as_signed(ty, ir::normalize(ty, step.nondet[0].bits));
    }
    for (std::size_t u = 0; u < after.threads.size(); ++u)
      if (after.threads[u].started && !n.state.threads[u].started) f.created = static_cast<int>(u);
    f.violation = r.outcome == ir::StepOutcome::Error && r.error_kind == ir::AssertKind::Property;
    return f;
  }

  // Does the YAML race segment's pair of targets race in node n's state?
  bool targets_race(const Node& n) const {
    if (w_.race_targets.size() != 2) return false;
    std::vector<race::RaceAccess> side[2];
    for (int k = 0; k < 2; ++k) {
      const Match& m = w_.race_targets[k];
      for (const race::RaceAccess& a : accesses_) {
        if (m.thread && n.wid_of[a.thread] != static_cast<int>(*m.thread)) continue;
        const ir::Instr& in = tm_.threads[a.thread].code[a.pc];
        if (m.line && in.loc.line != m.line) continue;
        side[k].push_back(a);
      }
    }
    return !side[0].empty() && !side[1].empty() && race::racing_pair(tm_, interp_, n.state, side[0], side[1]);
  }

  // The step's thread, at its next access, races with another thread in node n's state.
  bool races_with(const Node& n, ir::ThreadId t) const {
    std::vector<race::RaceAccess> mine, others;
    for (const race::RaceAccess& a : accesses_) (a.thread == t ? mine : others).push_back(a);
    return !mine.empty() && !others.empty() && race::racing_pair(tm_, interp_, n.state, mine, others);
  }

  // Expands node i; true when it confirms (v.schedule set).
  bool expand(std::size_t i, std::vector<std::size_t>& stack, Validation& v) {
    if (w_.property == Property::Race) {
      const Node& n = nodes_[i];
      const bool here = o_.test_ignore_witness        ? races_with_any(n)
                        : w_.format == Format::Yaml ? n.q == w_.race_node && targets_race(n)
                                                    : w_.violation[n.q] && races_with_any(n);
      if (here) {
        v.schedule = path_to(i);
        return true;
      }
    }
    struct Succ {
      Node node;
      int priority;
    };
    std::vector<Succ> succs;
    // The threads the next waypoints name (they may need to reach them), and the lines there.
    std::vector<ir::ThreadId> wanted;
    std::vector<std::pair<ir::ThreadId, unsigned>> preparing;  // (thread, line) of a next waypoint
    for (const Edge* e : out_[nodes_[i].q])
      if (e->match.thread)
        for (std::size_t u = 0; u < tm_.threads.size(); ++u)
          if (nodes_[i].wid_of[u] == static_cast<int>(*e->match.thread)) {
            wanted.push_back(static_cast<ir::ThreadId>(u));
            preparing.emplace_back(static_cast<ir::ThreadId>(u), e->match.line);
          }
    for (ir::ThreadId t = 0; t < tm_.threads.size(); ++t) {
      if (!interp_.enabled(nodes_[i].state, t)) continue;
      for (auto& nd : choices(nodes_[i], t)) {
        const Node& n = nodes_[i];
        ir::Step step{t, std::move(nd)};
        ir::State after = n.state;
        const ir::StepResult r = interp_.step(after, step);
        if (r.outcome == ir::StepOutcome::NotEnabled) continue;
        const StepFacts f = facts(n, t, step, r, after);
        // The witness's moves: every matching edge out of q (none: q stays).
        std::vector<std::pair<unsigned, std::vector<int>>> moves;
        for (const Edge* e : out_[n.q]) {
          if (o_.test_ignore_witness || !matches(e->match, f, n.wid_of)) continue;
          std::vector<int> wid = n.wid_of;
          if (e->match.creates) wid[f.created] = static_cast<int>(*e->match.creates);
          moves.emplace_back(e->to, std::move(wid));
        }
        if (moves.empty()) moves.emplace_back(n.q, n.wid_of);
        for (auto& [q, wid] : moves) {
          if (f.created >= 0 && wid[f.created] < 0) {  // not named by the witness: the next id
            int next = 0;
            for (int w : wid) next = std::max(next, w + 1);
            wid[f.created] = next;
          }
          if (w_.sink[q]) continue;
          const bool advanced = q != n.q;
          if (w_.property == Property::Race && w_.format == Format::GraphML && advanced && w_.violation[q] &&
              races_with(n, t)) {  // the edge into the violation node is a racing access
            v.schedule = path_to(i);
            return true;
          }
          if (r.outcome == ir::StepOutcome::Error) {
            if (f.violation && w_.property == Property::Reach && (w_.violation[q] || o_.test_ignore_witness)) {
              v.schedule = path_to(i);
              v.schedule.push_back(step);
              return true;
            }
            continue;  // an error ends the run
          }
          Node m;
          m.state = after;
          m.q = q;
          m.wid_of = std::move(wid);
          m.parent = i;
          m.step = step;
          m.last_thread = advanced ? static_cast<int>(t) : n.last_thread;
          m.last_line = advanced ? f.line : n.last_line;
          const bool finishing = static_cast<int>(t) == n.last_thread && f.line == n.last_line;
          const bool wanted_thread = std::find(wanted.begin(), wanted.end(), t) != wanted.end();
          // Strict: the step follows the witness, finishes the statement the last waypoint began,
          // begins the statement of a next one (a nondet call before the condition it decides) or
          // is bookkeeping.
          const bool begins = std::find(preparing.begin(), preparing.end(), std::pair{t, f.line}) != preparing.end();
          if (strict_ && !advanced && !finishing && !begins && !ir::is_internal(tm_.threads[t].code[n.state.threads[t].pc]))
            continue;
          succs.push_back({std::move(m), advanced ? 3 : finishing ? 2 : wanted_thread ? 1 : 0});
        }
      }
    }
    // Depth first: the best successor is pushed last.
    std::stable_sort(succs.begin(), succs.end(), [](const Succ& a, const Succ& b) { return a.priority < b.priority; });
    for (Succ& s : succs) {
      deepest_ = std::max(deepest_, s.node.q);
      nodes_.push_back(std::move(s.node));
      if (!seen_.insert(Key{&nodes_, nodes_.size() - 1}).second) {
        nodes_.pop_back();
        continue;
      }
      stack.push_back(nodes_.size() - 1);
    }
    return false;
  }

  bool races_with_any(const Node& n) const {
    return race::racing_pair(tm_, interp_, n.state, accesses_, {}).has_value();
  }
};

}  // namespace

Validation validate(const ir::ThreadModel& tm, const Witness& w, const ValidateOptions& options) {
  return Validator(tm, w, options).run();
}

}  // namespace siren::witness
