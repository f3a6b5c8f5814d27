// Data-race queries over one incremental encoding (race/race.hpp, DESIGN.md §B7).
#include "race/race.hpp"

#include "encoder/engine.hpp"
#include "explicit/search.hpp"
#include "modular/thread_modular.hpp"
#include "ir/access.hpp"
#include "ir/cfg.hpp"
#include "reduction/scheduler_constraints.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <tuple>

namespace siren::race {

using namespace encoder;  // the BMC engine these queries are encoded in

namespace {
using clock = std::chrono::steady_clock;
}  // namespace

bool atomic_held_by_neither(std::uint32_t atomic, ir::ThreadId t1, ir::ThreadId t2) {
  return atomic == 0 || atomic == t1 + 1 || atomic == t2 + 1;
}

bool is_data_cell(const ir::ThreadModel& tm, ir::ObjectId obj, std::uint32_t cell) {
  if (obj == 0 || obj >= tm.objects.size() || cell >= tm.objects[obj].cells.size()) return false;
  const auto k = tm.objects[obj].cells[cell].kind;
  return k == ir::CellKind::Data || k == ir::CellKind::ThreadHandle;
}

std::vector<RaceAccess> data_accesses(const ir::ThreadModel& tm, ir::ThreadId t, std::uint32_t pc) {
  std::vector<RaceAccess> out;
  if (t >= tm.threads.size() || pc >= tm.threads[t].code.size()) return out;
  const ir::Instr& in = tm.threads[t].code[pc];
  for (const ir::Access& a : ir::memory_accesses(tm, t, pc)) {
    if (!a.addr) continue;
    // The synchronization instruction's own cell operation (its operand's loads stay).
    if (ir::sync_address_operand(in.kind) && a.addr == in.a) continue;
    bool dup = false;
    for (const RaceAccess& r : out) dup = dup || (r.addr == a.addr && r.write == a.write);
    if (!dup) out.push_back({t, pc, a.addr, a.write});
  }
  if (in.kind == ir::InstrKind::Free && in.a) out.push_back({t, pc, in.a, true, true});
  return out;
}

namespace {
constexpr std::uint32_t kWholeObject = ~std::uint32_t{0};  // racing_pair: a Free's object

// A heap object as a race names it: its first cell's name without the field or index
// ("malloc@13", as its cells are named), "(the whole object)".
std::string whole_object_name(const ir::Object& o) {
  if (o.cells.empty()) return o.name;
  const std::string& c = o.cells[0].name;
  return c.substr(0, c.find_first_of(".[")) + " (the whole object)";
}
}  // namespace

std::vector<RaceAccess> all_data_accesses(const ir::ThreadModel& tm) {
  std::vector<RaceAccess> out;
  for (ir::ThreadId t = 0; t < tm.threads.size(); ++t)
    for (std::uint32_t i = 0; i < tm.threads[t].code.size(); ++i) {
      auto a = data_accesses(tm, t, i);
      out.insert(out.end(), a.begin(), a.end());
    }
  return out;
}

std::optional<std::pair<RaceEnd, RaceEnd>> racing_pair(const ir::ThreadModel& tm, const ir::Interpreter& interp,
                                                       const ir::State& state, const std::vector<RaceAccess>& first,
                                                       const std::vector<RaceAccess>& second) {
  // Both threads are started, not finished, not terminated, no third thread holds `atomic`
  // (one of the two may be inside its atomic section: race.hpp) and their next instructions
  // access the same live data cell, one of them writing.
  if (state.terminated) return std::nullopt;
  auto movable = [&](ir::ThreadId t) {
    const auto& ts = state.threads[t];
    return ts.started && !ts.finished && ts.pc < tm.threads[t].code.size();
  };
  auto cell_of = [&](const RaceAccess& a) -> std::optional<std::pair<ir::ObjectId, std::uint32_t>> {
    if (!movable(a.thread) || state.threads[a.thread].pc != a.pc) return std::nullopt;
    const ir::Value p = interp.eval(state, a.thread, a.addr);
    const auto cell = interp.cell_of(state, p);
    if (a.object) {  // a free that succeeds: the start of a live heap object
      if (!cell || p.bits != 0 || tm.objects[p.obj].kind != ir::ObjectKind::Heap) return std::nullopt;
      return std::make_pair(p.obj, kWholeObject);
    }
    if (!cell || !is_data_cell(tm, p.obj, *cell)) return std::nullopt;
    return std::make_pair(p.obj, *cell);
  };
  auto same = [](std::pair<ir::ObjectId, std::uint32_t> a, std::pair<ir::ObjectId, std::uint32_t> b) {
    return a.first == b.first && (a.second == b.second || a.second == kWholeObject || b.second == kWholeObject);
  };
  auto end_of = [&](const RaceAccess& a, std::pair<ir::ObjectId, std::uint32_t> c) {
    RaceEnd r;
    const ir::Instr& in = tm.threads[a.thread].code[a.pc];
    r.thread = a.thread;
    r.pc = a.pc;
    r.thread_name = tm.threads[a.thread].name;
    r.file = in.loc.file < tm.files.size() ? tm.files[in.loc.file] : std::string();
    r.line = in.loc.line;
    r.column = in.loc.col;
    r.variable = c.second == kWholeObject ? whole_object_name(tm.objects[c.first]) : tm.objects[c.first].cells[c.second].name;
    r.write = a.write;
    r.stmt = in.text;
    return r;
  };
  for (const RaceAccess& a1 : first) {
    const auto c1 = cell_of(a1);
    if (!c1) continue;
    for (const RaceAccess& a2 : second.empty() ? first : second) {
      if (a2.thread == a1.thread || !(a1.write || a2.write)) continue;
      if (!atomic_held_by_neither(state.atomic, a1.thread, a2.thread)) continue;
      const auto c2 = cell_of(a2);
      if (!c2 || !same(*c1, *c2)) continue;
      return std::make_pair(end_of(a1, *c1), end_of(a2, *c2));
    }
  }
  return std::nullopt;
}

namespace {

struct Side {
  // [thread] cell key -> (reads, writes)
  std::vector<std::map<std::uint64_t, std::pair<std::vector<Term>, std::vector<Term>>>> by_thread;
};

class RaceSession {
 public:
  RaceSession(const ir::ThreadModel& tm, const RaceRunOptions& opt)
      : tm_(tm), opt_(opt) {}

  void run(const std::vector<RaceQuery>& qs, const std::function<void(std::size_t, const RaceAnswer&)>& on_answer,
           CheckStats* stats);

 private:
  Side side(const std::vector<RaceAccess>& acc, unsigned k);
  Term query_term(const RaceQuery& q, unsigned k);
  Term base_pair(unsigned k, ir::ThreadId t1, ir::ThreadId t2);
  void extract(unsigned k, const RaceQuery& q, RaceAnswer& a);

  // The cells one access (thread, pc, address) may touch at depth k, with the condition of
  // each: the same access is in many warnings of a harness, so it is encoded once per depth.
  using Hits = std::vector<std::pair<std::uint64_t, Term>>;
  const Hits& hits_of(const RaceAccess& a, unsigned k);
  struct AccessKey {
    ir::ThreadId thread;
    std::uint32_t pc;
    ir::ExprRef addr;
    bool object;
    bool operator<(const AccessKey& o) const {
      return std::tie(thread, pc, addr, object) < std::tie(o.thread, o.pc, o.addr, o.object);
    }
  };
  std::map<AccessKey, Hits> hits_;
  unsigned hits_depth_ = ~0u;

  const ir::ThreadModel& tm_;
  const RaceRunOptions& opt_;
  std::unique_ptr<solvers::TermManager> terms_;
  std::unique_ptr<solvers::DecisionProcedure> dp_;
  std::unique_ptr<reduction::SchedulerConstraints> sch_;
  std::unique_ptr<Engine> e_;
  std::optional<ir::Transactions> tx_;  // the engine's transactions (transaction frames)
  std::string stats_granularity_ = "instruction";
  clock::time_point start_ = clock::now();
};

Term RaceSession::base_pair(unsigned k, ir::ThreadId t1, ir::ThreadId t2) {
  auto& T = *terms_;
  const State& s = e_->states[k];
  // atomic_held_by_neither (race.hpp): no third thread holds `atomic`.
  auto holds = [&](std::uint64_t owner) { return T.mk_eq(s.atomic, T.mk_bv(e_->atomic_bits, owner)); };
  Term atomic_ok = T.mk_or(holds(0), T.mk_or(holds(t1 + 1), holds(t2 + 1)));
  return T.mk_and(T.mk_and(s.started[t1], s.started[t2]), T.mk_and(T.mk_not(s.terminated), atomic_ok));
}

const RaceSession::Hits& RaceSession::hits_of(const RaceAccess& a, unsigned k) {
  if (hits_depth_ != k) {
    hits_.clear();
    hits_depth_ = k;
  }
  const AccessKey key{a.thread, a.pc, a.addr, a.object};
  if (auto it = hits_.find(key); it != hits_.end()) return it->second;
  Hits& out = hits_[key];
  auto& T = *terms_;
  const State& s = e_->states[k];
  const Frame& f = e_->frames[k];
  const auto& reach = f.reach[a.thread];
  if (!std::binary_search(reach.begin(), reach.end(), a.pc)) return out;
  Term pc_is = T.mk_eq(s.pc[a.thread], T.mk_bv(e_->pc_bits[a.thread], a.pc));
  if (pc_is == T.mk_false()) return out;
  Term p = e_->encode(a.thread, a.addr, k);
  if (a.object) {  // free(p): every data cell of the live heap object p is the start of
    const Term at_start = T.mk_eq(e_->ptr_off(p), T.mk_bv(32, 0));
    for (const Engine::Target& tg : e_->targets(p, e_->candidates(a.addr), s)) {
      if (tg.cell != 0 || tm_.objects[tg.obj].kind != ir::ObjectKind::Heap) continue;
      Term hit = T.mk_and(pc_is, T.mk_and(tg.hit, at_start));
      if (hit == T.mk_false()) continue;
      for (std::uint32_t c = 0; c < tm_.objects[tg.obj].cells.size(); ++c)
        if (is_data_cell(tm_, tg.obj, c)) out.emplace_back((std::uint64_t{tg.obj} << 32) | c, hit);
    }
    return out;
  }
  for (const Engine::Target& tg : e_->targets(p, e_->candidates(a.addr), s)) {
    if (!is_data_cell(tm_, tg.obj, tg.cell)) continue;
    Term hit = T.mk_and(pc_is, tg.hit);
    if (hit == T.mk_false()) continue;
    out.emplace_back((std::uint64_t{tg.obj} << 32) | tg.cell, hit);
  }
  return out;
}

Side RaceSession::side(const std::vector<RaceAccess>& acc, unsigned k) {
  Side out;
  out.by_thread.resize(tm_.threads.size());
  for (const RaceAccess& a : acc)
    for (const auto& [cell, hit] : hits_of(a, k)) {
      auto& slot = out.by_thread[a.thread][cell];
      (a.write ? slot.second : slot.first).push_back(hit);
    }
  return out;
}

Term RaceSession::query_term(const RaceQuery& q, unsigned k) {
  auto& T = *terms_;
  if (!q.control.empty()) {
    const State& s = e_->states[k];
    const Frame& f = e_->frames[k];
    std::vector<Term> all;
    for (const ControlTarget& c : q.control) {
      const auto& reach = f.reach[c.thread];
      std::vector<Term> at;
      for (std::uint32_t pc : c.pcs)
        if (std::binary_search(reach.begin(), reach.end(), pc))
          at.push_back(T.mk_eq(s.pc[c.thread], T.mk_bv(e_->pc_bits[c.thread], pc)));
      all.push_back(T.mk_and(s.started[c.thread], T.mk_or(at)));
    }
    return T.mk_and(all);
  }
  const Side s1 = side(q.first, k);
  const Side s2 = q.second.empty() ? s1 : side(q.second, k);
  const std::size_t n = tm_.threads.size();
  std::vector<Term> out;
  for (ir::ThreadId t1 = 0; t1 < n; ++t1)
    for (ir::ThreadId t2 = 0; t2 < n; ++t2) {
      if (t1 == t2 || s1.by_thread[t1].empty() || s2.by_thread[t2].empty()) continue;
      std::vector<Term> cells;
      for (const auto& [key, rw1] : s1.by_thread[t1]) {
        auto it = s2.by_thread[t2].find(key);
        if (it == s2.by_thread[t2].end()) continue;
        const auto& rw2 = it->second;
        Term r1 = T.mk_or(rw1.first), w1 = T.mk_or(rw1.second);
        Term r2 = T.mk_or(rw2.first), w2 = T.mk_or(rw2.second);
        cells.push_back(T.mk_or(T.mk_and(w1, T.mk_or(r2, w2)), T.mk_and(r1, w2)));
      }
      Term any = T.mk_or(cells);
      if (any == T.mk_false()) continue;
      out.push_back(T.mk_and(base_pair(k, t1, t2), any));
    }
  return T.mk_or(out);
}

/// The answer of query `q` from a schedule that should reach a state where it holds (the
/// BMC's model, the explicit search's path): replayed by the concrete interpreter, the trace
/// rows from the replay, the final state checked (racing_pair, or the control targets).
void replay_answer(const ir::ThreadModel& tm, const RaceQuery& q, const std::vector<ir::Value>& initial,
                   const std::vector<ir::Step>& schedule, RaceAnswer& ans) {
  auto internal = [&](std::string why) {
    ans.verdict = Verdict::Unknown;
    ans.internal_error = true;
    ans.reason = std::string("internal error: ") + (q.control.empty() ? "race witness" : "schedule to the control state") + " did not replay (" + why + ")";
    ans.trace.clear();
  };
  // Replay step by step (trace rows come from the replay, never from the model).
  ir::Interpreter interp(tm);
  ir::State state = interp.initial_state(initial);
  ans.trace.clear();
  ans.schedule.clear();
  for (std::size_t j = 0; j < schedule.size(); ++j) {
    const ir::State before = state;
    const ir::StepResult r = interp.step(state, schedule[j]);
    if (r.outcome != ir::StepOutcome::Ok) return internal(fmt::format("step {} did not execute", j + 1));
    ans.trace.push_back(ir::make_trace_row(tm, interp, static_cast<unsigned>(j + 1), schedule[j], r, before, state));
    ans.schedule.push_back(schedule[j].thread);
  }

  if (!q.control.empty()) {  // a control-state query: every listed thread at one of its pcs
    for (const ControlTarget& c : q.control) {
      const auto& ts = state.threads[c.thread];
      const std::uint32_t at = ts.finished ? static_cast<std::uint32_t>(tm.threads[c.thread].code.size()) : ts.pc;
      if (!ts.started || std::find(c.pcs.begin(), c.pcs.end(), at) == c.pcs.end())
        return internal(fmt::format("thread {} is not at a target location in the final state",
                                    tm.threads[c.thread].name));
    }
    ans.verdict = Verdict::Unsafe;
    ans.bound = static_cast<unsigned>(schedule.size());
    return;
  }

  // The racy state, checked concretely (racing_pair).
  if (state.terminated) return internal("the program has terminated in the final state");
  if (auto pair = racing_pair(tm, interp, state, q.first, q.second)) {
    ans.first = std::move(pair->first);
    ans.second = std::move(pair->second);
    ans.verdict = Verdict::Unsafe;
    ans.bound = static_cast<unsigned>(schedule.size());
    // An access the kernel model gives a function without a body (it may read or write there,
    // or not): the race cannot be replayed natively, nor shown to happen in the kernel.
    for (const RaceEnd* end : {&ans.first, &ans.second}) {
      const std::string& m = tm.threads[end->thread].code[end->pc].message;
      const std::string mark = ir::kKernelModelAccess;
      if (m.rfind(mark, 0) == 0) {
        ans.verdict = Verdict::Unknown;
        ans.reason = fmt::format("a data race at {}:{} through the access the kernel model gives '{}' (it may {} "
                                 "there): not shown to happen, no native run makes that access",
                                 end->file, end->line, m.substr(mark.size()), end->write ? "write" : "read");
        ans.trace.clear();
        ans.schedule.clear();
        break;
      }
    }
    return;
  }
  internal("no conflicting pair of next accesses in the final state");
}

void RaceSession::extract(unsigned k, const RaceQuery& q, RaceAnswer& ans) {
  Engine& e = *e_;
  std::vector<ir::Value> initial;
  for (const auto& o : tm_.objects) {
    if (o.kind == ir::ObjectKind::Heap) continue;
    for (std::size_t c = 0; c < o.cells.size(); ++c)
      if (o.cells[c].init_nondet) initial.push_back(e.model_value(e.nondet_init[o.id][c], o.cells[c].type));
  }
  std::vector<ir::Step> schedule;
  std::string why;
  if (!e.schedule_of(k, schedule, why)) {
    ans.verdict = Verdict::Unknown;
    ans.internal_error = true;
    ans.reason = std::string("internal error: ") + (q.control.empty() ? "race witness" : "schedule to the control state") + " did not replay (" + why + ")";
    ans.trace.clear();
    return;
  }
  replay_answer(tm_, q, initial, schedule, ans);
}

void RaceSession::run(const std::vector<RaceQuery>& qs,
                      const std::function<void(std::size_t, const RaceAnswer&)>& on_answer, CheckStats* stats) {
  const CheckOptions& co = opt_.check;
  std::vector<char> open(qs.size(), 1);
  std::size_t n_open = qs.size();
  std::vector<double> spent(qs.size(), 0.0);
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start_).count(); };
  auto answer = [&](std::size_t i, RaceAnswer a) {
    if (!open[i]) return;
    open[i] = 0;
    --n_open;
    a.seconds = elapsed();
    on_answer(i, a);
  };
  auto all = [&](Verdict v, unsigned bound, const ir::ErrorReason& reason, unsigned clean_bound = 0,
                 bool time_limit = false) {
    for (std::size_t i = 0; i < qs.size(); ++i) {
      if (!open[i]) continue;
      RaceAnswer a;
      a.verdict = v;
      a.bound = bound;
      a.reason = reason.text;
      a.limit = reason.limit;
      a.clean_bound = clean_bound;
      a.time_limit = time_limit;
      answer(i, a);
    }
  };
  auto collect = [&] {
    if (!stats || !dp_) return;
    const auto st = dp_->stats();
    stats->frames = e_ ? static_cast<unsigned>(e_->states.size() - 1) : 0;
    stats->granularity = stats_granularity_;
    stats->vars = st.vars;
    stats->clauses = st.clauses;
    stats->solve_calls = st.solve_calls;
    stats->solve_seconds = st.solve_seconds;
    if (sch_) {
      stats->reduction = sch_->stats();
      stats->reduction_text = sch_->text_stats();
    }
  };
  if (qs.empty()) return;

  // SIR keeps every reachable control state, and with it the addresses the threads are about
  // to access there: an address computed from a value an insensitive pair's order can change is
  // a conditional of that pair, undecided, so the pair is sensitive (reduction/sir.cpp). So it
  // keeps every racy state too.
  const std::string& reduction = co.reduction;
  sch_ = reduction::make_scheduler_constraints(reduction, tm_);
  if (!sch_) return all(Verdict::Unknown, 0, {"reduction '" + reduction + "' is not implemented"});
  if (co.solver != "cadical") return all(Verdict::Unknown, 0, {"solver '" + co.solver + "' is not available"});
  if (tm_.threads.empty()) return all(Verdict::Unknown, 0, {"internal error: the thread model has no main thread"});

  // Per-query deadline (reset at every solve) and the global one.
  std::optional<clock::time_point> query_deadline;
  auto timed_out = [&] {
    const auto now = clock::now();
    return (co.deadline && now >= *co.deadline) || (query_deadline && now >= *query_deadline);
  };
  auto global_timed_out = [&] { return co.deadline && clock::now() >= *co.deadline; };
  terms_ = std::make_unique<solvers::TermManager>();
  dp_ = solvers::make_cadical_bitblaster(*terms_);
  dp_->set_terminate(timed_out);
  e_ = std::make_unique<Engine>(tm_, *terms_, *dp_, *sch_);
  Engine& e = *e_;
  auto& T = *terms_;
  e.absorbing_idle = false;
  // Transaction frames when asked for and every queried location starts a transaction (a
  // race query's accesses always do: they are visible, atomic regions are not merged here and
  // protected steps only where no query names them: main's set-up before its threads, a
  // driver harness's, is one frame); else instruction frames. Transactions never run on
  // through a loop's head here (unwind 0): a control target there must be a frame's state.
  if (co.granularity != "instruction" && ir::granularity_known(co.granularity)) {
    auto& tx = tx_;
    ir::TransactionOptions to = ir::transaction_options(co.granularity);
    if (std::any_of(qs.begin(), qs.end(), [](const RaceQuery& q) { return q.control.empty(); })) {
      to.merge_atomic_regions = false;  // a race query
      for (const RaceQuery& q : qs)
        for (const auto* side : {&q.first, &q.second})
          for (const RaceAccess& a : *side) to.keep.insert({a.thread, a.pc});
    }
    tx.emplace(tm_, to);
    bool all_boundaries = true;
    for (const RaceQuery& q : qs) {
      for (const ControlTarget& c : q.control)
        for (std::uint32_t pc : c.pcs) all_boundaries = all_boundaries && tx->boundary(c.thread, pc);
      for (const auto* side : {&q.first, &q.second})
        for (const RaceAccess& a : *side) all_boundaries = all_boundaries && tx->boundary(a.thread, a.pc);
    }
    if (all_boundaries) e.tx = &*tx;
    stats_granularity_ = all_boundaries ? co.granularity : "instruction";
  }
  e.make_initial_state();

  std::optional<ir::ErrorReason> other;  // a memory-safety or limit error that may be reached
  unsigned other_at = 0;              // ... by a step after this many error-free steps
  unsigned checked = 0;
  // No race and no error in the executions of at most `b` steps searched (RaceAnswer::clean_bound).
  auto clean = [&](unsigned b) { return other ? std::min(b, other_at) : b; };
  const unsigned K = co.bound;
  auto solve = [&](Term a) {
    if (a == T.mk_false()) return solvers::SolveResult::Unsat;
    if (a == T.mk_true()) return dp_->solve({});
    const Term as[1] = {a};
    return dp_->solve(as);
  };
  auto finish_all = [&](Verdict v, unsigned bound) {
    if (other) all(Verdict::Unknown, bound, *other, clean(bound));
    else all(v, bound, {});
  };
  auto timeout_all = [&] {
    all(Verdict::Unknown, checked,
        other ? ir::ErrorReason{"timeout (also: " + other->text + ")", other->limit} : ir::ErrorReason{"timeout"},
        clean(checked),
        true);
  };
  // A solve on behalf of the queries `who`: its time counts for each of them, and it stops when
  // the one with the least time left has none (Unknown without solving when one has none left).
  auto solve_for = [&](Term a, const std::vector<std::size_t>& who) {
    if (opt_.query_timeout > 0) {
      double left = opt_.query_timeout;
      for (std::size_t i : who) left = std::min(left, opt_.query_timeout - spent[i]);
      if (left <= 0) return solvers::SolveResult::Unknown;
      query_deadline = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(left));
    }
    const auto q0 = clock::now();
    const auto r = solve(a);
    const double took = std::chrono::duration<double>(clock::now() - q0).count();
    for (std::size_t i : who) spent[i] += took;
    query_deadline.reset();
    return r;
  };
  // A solve for every open query (completeness, MemSafety/Limit errors). Unknown: the time ran
  // out (the global limit, or an open query's own: the caller times them all out).
  auto shared_solve = [&](Term a) {
    std::vector<std::size_t> who;
    for (std::size_t i = 0; i < qs.size(); ++i)
      if (open[i]) who.push_back(i);
    return solve_for(a, who);
  };
  auto complete_at = [&](unsigned k) { return shared_solve(e.frames[k].any_can_move); };
  auto completeness_checkpoint = [](unsigned k) { return k <= 8 || k % (k <= 64 ? 4 : 8) == 0; };
  static const bool verbose = std::getenv("SIREN_BMC_VERBOSE") != nullptr;

  auto query_timed_out = [&](std::size_t i) {  // query i used up its own time (--timeout per warning)
    RaceAnswer a;
    a.verdict = Verdict::Unknown;
    a.bound = checked;
    a.reason = other ? "timeout (also: " + other->text + ")" : std::string("timeout");
    if (other) a.limit = other->limit;
    a.clean_bound = clean(checked);
    a.time_limit = true;
    answer(i, a);
  };
  // The queries at depth k (states after k steps); only control-state queries when
  // `only_control` (at depth K: a state after K steps is within the bound, while a race
  // there would need a step K+1). False: the global time limit ran out.
  auto ask_each = [&](unsigned k, const std::vector<std::size_t>& which) {
    for (std::size_t i : which) {
      if (!open[i]) continue;
      if (global_timed_out()) return false;
      if (opt_.query_timeout > 0) {
        const double left = opt_.query_timeout - spent[i];
        if (left <= 0) {
          query_timed_out(i);
          continue;
        }
        query_deadline = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(left));
      }
      const Term q = query_term(qs[i], k);
      const auto q0 = clock::now();
      const auto r = solve(q);
      spent[i] += std::chrono::duration<double>(clock::now() - q0).count();
      query_deadline.reset();
      if (verbose)
        std::fprintf(stderr, "[race] depth %u query %zu: %s\n", k, i,
                     r == solvers::SolveResult::Sat ? "sat" : r == solvers::SolveResult::Unsat ? "unsat" : "unknown");
      if (r == solvers::SolveResult::Unknown) {
        if (global_timed_out()) return false;
        query_timed_out(i);
        continue;
      }
      if (r == solvers::SolveResult::Sat) {
        RaceAnswer a;
        extract(k, qs[i], a);
        answer(i, a);
      }
    }
    return true;
  };
  // The open queries at depth k together: one solve of their disjunction. Unsat decides them
  // all at this depth; a model answers every query it satisfies (each replayed on its own by
  // extract), and the rest are asked again without them. The time of a joint solve counts
  // for every query in it, so no query gets more than its --timeout of solving.
  auto ask = [&](unsigned k, bool only_control) {
    std::vector<std::size_t> group;
    for (std::size_t i = 0; i < qs.size(); ++i)
      if (open[i] && !(only_control && qs[i].control.empty())) group.push_back(i);
    if (group.size() <= 1) return ask_each(k, group);
    std::vector<Term> term(qs.size(), nullptr);
    for (std::size_t i : group) term[i] = query_term(qs[i], k);
    while (!group.empty()) {
      if (global_timed_out()) return false;
      std::vector<Term> any;
      for (std::size_t i : group) any.push_back(term[i]);
      const auto r = solve_for(T.mk_or(any), group);
      if (verbose)
        std::fprintf(stderr, "[race] depth %u: %zu queries together: %s\n", k, group.size(),
                     r == solvers::SolveResult::Sat ? "sat" : r == solvers::SolveResult::Unsat ? "unsat" : "unknown");
      if (r == solvers::SolveResult::Unsat) return true;
      if (r == solvers::SolveResult::Unknown) {
        if (global_timed_out()) return false;
        // The query with the least time left ran out (or had none left, and nothing was
        // solved); the others of the group had as much.
        const double slack = 0.05;
        bool any_out = false;
        for (std::size_t i : group)
          if (opt_.query_timeout - spent[i] <= slack) query_timed_out(i), any_out = true;
        if (!any_out)
          for (std::size_t i : group) query_timed_out(i);
        std::erase_if(group, [&](std::size_t i) { return !open[i]; });
        continue;
      }
      std::vector<std::size_t> hit;
      for (std::size_t i : group)
        if (e.dp.value(term[i]) != 0) hit.push_back(i);
      if (hit.empty()) return ask_each(k, group);  // no query true in the model: ask each on its own
      if (opt_.test_blame_all_of_group) hit = group;
      for (std::size_t i : hit) {
        RaceAnswer a;
        extract(k, qs[i], a);
        answer(i, a);
      }
      std::erase_if(group, [&](std::size_t i) { return !open[i]; });
    }
    return true;
  };
  try {
    for (unsigned k = 0;; ++k) {
      if (global_timed_out()) return collect(), timeout_all();
      e.build_frame(k);
      const Frame& f = e.frames[k];
      if (k == K) {
        if (!ask(k, true)) return collect(), timeout_all();
        if (n_open == 0) return collect();
        const auto r = complete_at(k);
        if (r == solvers::SolveResult::Unknown) return collect(), timeout_all();
        return collect(), finish_all(r == solvers::SolveResult::Unsat ? Verdict::Safe : Verdict::SafeUpToBound, K);
      }
      // MemSafety / Limit errors of the next step: the answer can no longer be "no race".
      if (!other && f.bad_other != T.mk_false()) {
        const auto r = shared_solve(f.bad_other);
        if (r == solvers::SolveResult::Unknown) return collect(), timeout_all();
        if (r == solvers::SolveResult::Sat) {
          for (const ErrorSite& s : f.errors)
            if (s.kind != ir::AssertKind::Property && e.dp.value(s.term) != 0) {
              other = encoder::error_reason(tm_, s);
              break;
            }
          if (!other) other = ir::ErrorReason{"an error of an unknown kind is reachable"};
          other_at = opt_.test_clean_past_errors ? K : k;
        }
      }
      if (!ask(k, false)) return collect(), timeout_all();
      if (n_open == 0) return collect();
      checked = k + 1;
      if (completeness_checkpoint(k)) {
        const auto c = complete_at(k);
        if (c == solvers::SolveResult::Unknown) return collect(), timeout_all();
        if (c == solvers::SolveResult::Unsat) return collect(), finish_all(Verdict::Safe, k);
      }
      if (global_timed_out()) return collect(), timeout_all();
      e.add_transition(k);
    }
  } catch (const std::bad_alloc&) {
    // As bmc.cpp: CaDiCaL may be left invalid by an allocation failure; do not destroy it.
    (void)dp_.release();
    throw;
  }
}

}  // namespace

namespace {
// The explicit-state search for a state where an open race query holds: accesses of the query
// are the next steps of settled threads, and racing_pair finds two of them racing (of its first
// and second lists; a query without `second`: two of its first). The one search behind siren
// race's all-accesses query (search_race) and triage's per-warning queries
// (search_race_queries). `hit`: the query that held (Unsafe); `first_only`: only the first open
// query is asked (RaceRunOptions::test_search_first_only, deliberately broken).
struct QuerySearch {
  explicit_state::SearchResult result;
  std::size_t hit = 0;
};
QuerySearch search_for_queries(const ir::ThreadModel& tm, const std::vector<RaceQuery>& qs, const std::vector<char>& open,
                               explicit_state::SearchOptions so, bool first_only = false) {
  // (thread, pc) -> the (query, side) entries of its accesses.
  struct Entry {
    std::size_t query;
    int side;  // 1: first, 2: second
    RaceAccess access;
  };
  std::vector<std::vector<std::vector<Entry>>> entries(tm.threads.size());
  for (ir::ThreadId t = 0; t < tm.threads.size(); ++t) entries[t].resize(tm.threads[t].code.size());
  std::size_t first_open = qs.size();
  for (std::size_t i = 0; i < qs.size(); ++i) {
    if (!open[i] || !qs[i].control.empty() || (first_only && first_open < qs.size())) continue;
    first_open = i;
    for (int side = 1; side <= 2; ++side)
      for (const RaceAccess& a : side == 1 ? qs[i].first : qs[i].second)
        if (a.thread < entries.size() && a.pc < entries[a.thread].size()) entries[a.thread][a.pc].push_back({i, side, a});
  }
  ir::Interpreter interp(tm);
  std::map<std::size_t, std::pair<std::vector<RaceAccess>, std::vector<RaceAccess>>> next;
  QuerySearch out;
  so.target = [&](const ir::State& st, const std::vector<char>& settled) {
    next.clear();
    unsigned movers = 0;  // threads with an access next: a race needs two
    for (ir::ThreadId t = 0; t < tm.threads.size(); ++t) {
      const auto& ts = st.threads[t];
      if (!settled[t] || !ts.started || ts.finished || ts.pc >= entries[t].size() || entries[t][ts.pc].empty()) continue;
      ++movers;
      for (const Entry& e : entries[t][ts.pc]) {
        auto& n = next[e.query];
        (e.side == 1 ? n.first : n.second).push_back(e.access);
      }
    }
    if (movers < 2) return false;
    for (const auto& [i, n] : next) {
      if (n.first.empty() || (!qs[i].second.empty() && n.second.empty())) continue;
      if (racing_pair(tm, interp, st, n.first, qs[i].second.empty() ? std::vector<RaceAccess>{} : n.second)) {
        out.hit = i;
        return true;
      }
    }
    return false;
  };
  out.result = explicit_state::search(tm, so);
  return out;
}

// RaceRunOptions::explicit_first: search_for_queries over the open queries. Each race found
// answers its query (replayed, as the BMC's) and the search starts again for the others; a
// search that visits every reachable state answers the open ones race-free (a proof). Queries
// it cannot decide (time, memory, a nondet value it cannot enumerate, a reachable memory-safety
// or limit error, a thread cut) stay open for the BMC.
void search_race_queries(const ir::ThreadModel& tm, const std::vector<RaceQuery>& qs, std::vector<char>& open,
                         const RaceRunOptions& options,
                         const std::function<void(std::size_t, const RaceAnswer&)>& answer) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const double budget = options.query_timeout > 0 ? options.query_timeout : 10.0;
  auto at = [&](double f) {
    auto d = t0 + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(budget * f));
    if (options.check.deadline && *options.check.deadline < d) d = *options.check.deadline;
    return d;
  };
  for (;;) {
    bool any = false;
    for (std::size_t i = 0; i < qs.size(); ++i) any = any || (open[i] && qs[i].control.empty());
    if (!any || clock::now() >= at(options.check.explicit_share)) return;
    explicit_state::SearchOptions so;
    so.deadline = at(options.check.explicit_share);
    so.restricted_deadline = at(options.check.explicit_share_restricted);
    so.max_memory_mb = options.check.explicit_memory_mb;
    const QuerySearch qs_found = search_for_queries(tm, qs, open, so, options.test_search_first_only);
    const explicit_state::SearchResult& sr = qs_found.result;
    if (sr.verdict == explicit_state::SearchVerdict::Unsafe) {
      RaceAnswer a;
      a.engine = "explicit";
      replay_answer(tm, qs[qs_found.hit], sr.error_initial_nondet, sr.error_trace, a);
      a.seconds = std::chrono::duration<double>(clock::now() - t0).count();
      open[qs_found.hit] = 0;
      answer(qs_found.hit, a);
      continue;
    }
    if (sr.verdict == explicit_state::SearchVerdict::Safe && !sr.thread_cut) {
      for (std::size_t i = 0; i < qs.size(); ++i) {
        if (!open[i] || !qs[i].control.empty()) continue;
        RaceAnswer a;
        a.engine = "explicit";
        a.verdict = Verdict::Safe;
        a.method = "explicit-state search: every reachable state visited";
        a.seconds = std::chrono::duration<double>(clock::now() - t0).count();
        open[i] = 0;
        answer(i, a);
      }
    }
    return;
  }
}
}  // namespace

void solve_race_queries(const ir::ThreadModel& tm, const std::vector<RaceQuery>& queries,
                        const RaceRunOptions& options,
                        const std::function<void(std::size_t, const RaceAnswer&)>& on_answer, CheckStats* stats) {
  std::vector<char> done(queries.size(), 0);
  auto wrapped = [&](std::size_t i, const RaceAnswer& a) {
    done[i] = 1;
    on_answer(i, a);
  };
  try {
    std::vector<char> open(queries.size(), 1);
    if (options.explicit_first) {
      const auto t0 = std::chrono::steady_clock::now();
      search_race_queries(tm, queries, open, options, wrapped);
      if (stats) stats->explicit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    // The BMC answers the queries the search left open.
    std::vector<RaceQuery> rest;
    std::vector<std::size_t> index;
    for (std::size_t i = 0; i < queries.size(); ++i)
      if (open[i]) rest.push_back(queries[i]), index.push_back(i);
    if (!rest.empty()) {
      RaceSession s(tm, options);
      s.run(rest, [&](std::size_t j, const RaceAnswer& a) { wrapped(index[j], a); }, stats);
    }
  } catch (const std::bad_alloc&) {
    for (std::size_t i = 0; i < queries.size(); ++i)
      if (!done[i]) {
        RaceAnswer a;
        a.verdict = Verdict::Unknown;
        a.reason = "memory limit";
        wrapped(i, a);
      }
  }
  if (stats) stats->peak_rss_mb = check::peak_rss_mb();
}

namespace {
RaceAnswer solve_one(const ir::ThreadModel& tm, RaceQuery query, const CheckOptions& options, CheckStats* stats) {
  RaceRunOptions ro;
  ro.check = options;
  RaceAnswer out;
  out.verdict = Verdict::Unknown;
  out.reason = "no answer";
  solve_race_queries(tm, {std::move(query)}, ro, [&](std::size_t, const RaceAnswer& a) { out = a; }, stats);
  return out;
}
}  // namespace

std::vector<ControlTarget> control_targets(const ir::ThreadModel& tm, const explicit_state::ControlState& cs) {
  std::vector<ControlTarget> out;
  for (ir::ThreadId t = 0; t < cs.pcs.size() && t < tm.threads.size(); ++t) {
    if (cs.pcs[t] == explicit_state::ControlState::kNotStarted) continue;
    const auto pc = cs.pcs[t] == explicit_state::ControlState::kFinished ? static_cast<std::uint32_t>(tm.threads[t].code.size())
                                                             : static_cast<std::uint32_t>(cs.pcs[t]);
    out.push_back({t, {pc}});
  }
  return out;
}

RaceAnswer check_reach(const ir::ThreadModel& tm, const CheckOptions& options,
                       const std::vector<ControlTarget>& targets, CheckStats* stats) {
  RaceQuery q;
  q.control = targets;
  return solve_one(tm, std::move(q), options, stats);
}

std::optional<RaceAnswer> search_race(const ir::ThreadModel& tm, const RaceSearchLimits& limits) {
  const auto start = std::chrono::steady_clock::now();
  RaceQuery q;
  q.first = all_data_accesses(tm);
  if (limits.test_writes_only) std::erase_if(q.first, [](const RaceAccess& a) { return !a.write; });
  explicit_state::SearchOptions so;
  so.deadline = limits.deadline;
  so.restricted_deadline = limits.restricted_deadline;
  so.max_memory_mb = limits.memory_mb;
  const explicit_state::SearchResult sr = search_for_queries(tm, {q}, {1}, so).result;
  RaceAnswer ans;
  ans.engine = "explicit";
  switch (sr.verdict) {
    case explicit_state::SearchVerdict::Unsafe:
      replay_answer(tm, q, sr.error_initial_nondet, sr.error_trace, ans);
      break;
    case explicit_state::SearchVerdict::Safe:
      ans.verdict = Verdict::Safe;
      ans.method = "explicit-state search: every reachable state visited";
      if (sr.thread_cut && tm.thread_bound) {
        ans.verdict = Verdict::SafeUpToBound;
        ans.thread_bound = tm.thread_bound;
        ans.steps_bounded = false;
      }
      break;
    case explicit_state::SearchVerdict::Unknown:
      if (!sr.exhausted || !sr.other_error) return std::nullopt;
      ans.verdict = Verdict::Unknown;
      ans.reason = sr.other_error->text;
      ans.limit = sr.other_error->limit;
      break;
  }
  ans.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return ans;
}

RaceAnswer check_race(const ir::ThreadModel& tm, const CheckOptions& options, CheckStats* stats,
                      const ir::ThreadModel* search_tm) {
  using clock = std::chrono::steady_clock;
  if ((options.engine == "auto" && search_tm) || options.engine == "modular") {
    modular::RaceFreedomQuery rq;
    for (const RaceAccess& a : all_data_accesses(tm)) rq.accesses.push_back({a.thread, a.pc, a.addr, a.write, a.object});
    rq.is_data = [&](ir::ObjectId o, std::uint32_t c) { return is_data_cell(tm, o, c); };
    modular::ModularOptions mo;
    mo.test_no_interference = options.test_modular_no_interference;
    if (options.deadline)
      mo.deadline = options.engine == "modular" ? *options.deadline
                                                : clock::now() + std::chrono::duration_cast<clock::duration>(
                                                                     (*options.deadline - clock::now()) * options.modular_share);
    const modular::ModularResult mr = modular::prove_race_freedom(tm, rq, mo);
    if (stats) stats->reduction_text.push_back({"modular", mr.proven ? std::string("proven") : mr.reason});
    if (mr.proven || options.engine == "modular") {
      RaceAnswer a;
      a.engine = "modular";
      a.seconds = mr.seconds;
      if (mr.proven) {
        a.verdict = Verdict::Safe;
        a.any_number_of_threads = true;
        a.method = modular::kRaceMethod;
      } else {
        a.reason = mr.reason;
      }
      return a;
    }
  }
  if (options.engine == "auto" || options.engine == "explicit") {
    // As check's auto (check/result.hpp): a share of the time for the search, then BMC.
    const auto t0 = clock::now();
    RaceSearchLimits limits;
    limits.memory_mb = options.explicit_memory_mb;
    limits.test_writes_only = options.test_race_search_writes_only;
    limits.deadline = options.deadline;
    if (options.deadline && options.engine == "auto") {
      auto share = [&](double f) { return t0 + std::chrono::duration_cast<clock::duration>((*options.deadline - t0) * f); };
      limits.deadline = share(options.explicit_share);
      limits.restricted_deadline = share(options.explicit_share_restricted);
    }
    std::optional<RaceAnswer> a = search_race(search_tm ? *search_tm : tm, limits);
    if (stats) stats->explicit_seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (a) return *a;
    if (options.engine == "explicit") {
      RaceAnswer u;
      u.engine = "explicit";
      u.reason = "the explicit-state search did not decide (time or memory limit, or nondet values it cannot enumerate)";
      return u;
    }
  }
  RaceQuery q;
  q.first = all_data_accesses(tm);
  return solve_one(tm, std::move(q), options, stats);
}

}  // namespace siren::race
