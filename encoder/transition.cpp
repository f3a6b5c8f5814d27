// Frames of the interleaved encoding (DESIGN.md §B2): the scheduler variable sel^k, which
// threads can move, which errors the next step can reach, and the transition V^k -> V^{k+1}.
//
// Every state variable gets ONE frame condition v^{k+1} = ite(g_1, val_1, ite(g_2, val_2, …
// v^k)) over its writers g = (sel^k = t ∧ pc_t^k = i [∧ the address hits the cell]); the
// writers of one variable are mutually exclusive, so their order does not matter. Writing the
// shared variables once (never inside one thread's TR) keeps unselected threads from
// contradicting the writer. SCH(V^k) = ⋁_t (sel^k = t ∧ enabled_t^k), plus whatever the
// scheduler reduction adds. With CheckOptions::deepening "geometric", SCH also allows idle^k (sel^k =
// number of threads: nothing changes) and idle^{k-1} → idle^k (DESIGN.md §B2): V^k then ranges
// over the states of every execution of AT MOST k steps.
//
// Instructions a thread cannot be at in frame k (its pc reachable set, a BFS over the code
// from pc 0 grown by one instruction per frame) are not encoded in that frame.
#include "encoder/engine.hpp"
#include "ir/cfg.hpp"

#include <algorithm>

namespace siren::encoder {

using solvers::Kind;
using ir::InstrKind;

namespace {
const ir::Type kI64 = ir::Type::integer(64, true);
const ir::Type kU64 = ir::Type::integer(64, false);

using Writers = std::vector<std::pair<Term, Term>>;

// The pcs a thread may be at next: the transition relation's rule, with every Goto (also an
// always-taken one) listing both targets, as its frame condition does.
void successors(const ir::ThreadCode& th, std::uint32_t i, std::vector<std::uint32_t>& out) {
  for (std::uint32_t v : ir::successors(th.code, i, {.taken_goto_falls_through = true})) out.push_back(v);
}
}  // namespace

void Engine::build_frame(unsigned k) {
  const State& s = states[k];
  const std::size_t n = tm.threads.size();
  Frame f;
  // pcs a thread may be at in frame k
  f.reach.resize(n);
  for (std::size_t t = 0; t < n; ++t) {
    const auto& th = tm.threads[t];
    std::vector<char> in_set(th.code.size() + 1, 0);
    std::vector<std::uint32_t> r;
    if (k == 0) {
      r.push_back(0);
    } else if (frames[k - 1].base_enabled[t] == terms.mk_false()) {
      r = frames[k - 1].reach[t];  // could not move in frame k-1 (e.g. not started yet)
    } else {
      r = frames[k - 1].reach[t];
      std::vector<std::uint32_t> succ;
      for (std::uint32_t i : r) {
        if (i >= th.code.size()) continue;
        if (tx) {
          const auto& to = tx_targets(static_cast<ir::ThreadId>(t), i);
          succ.insert(succ.end(), to.begin(), to.end());
        } else {
          successors(th, i, succ);
        }
      }
      r.insert(r.end(), succ.begin(), succ.end());
    }
    std::vector<std::uint32_t> uniq;
    for (std::uint32_t i : r)
      if (i <= th.code.size() && !in_set[i]) {
        in_set[i] = 1;
        uniq.push_back(i);
      }
    std::sort(uniq.begin(), uniq.end());
    f.reach[t] = std::move(uniq);
  }

  const std::string ks = std::to_string(k);
  f.sel = terms.mk_var(Sort::bv(sel_bits), "sel@" + ks);
  if (has_int_havoc) f.havoc_int = terms.mk_var(Sort::bv(64), "havoc@" + ks);
  if (has_ptr_havoc) {
    f.havoc_ptr = terms.mk_var(Sort::bv(ptr_bits), "havoc_ptr@" + ks);
    constrain_pointer_input(f.havoc_ptr);
  }
  f.idle = terms.mk_eq(f.sel, terms.mk_bv(sel_bits, n));
  frames.push_back(std::move(f));
  Frame& fr = frames.back();

  fr.selected.resize(n);
  fr.at.resize(n);
  fr.base_enabled.resize(n);
  fr.can_move.resize(n);
  fr.enabled.resize(n);
  if (tx) {
    fr.exits.resize(n);
    fr.tail.resize(n);
  }
  std::vector<Term> bad_p, bad_o;
  for (std::size_t t = 0; t < n; ++t) {
    const auto& th = tm.threads[t];
    const auto tid = static_cast<ir::ThreadId>(t);
    fr.selected[t] = terms.mk_eq(fr.sel, terms.mk_bv(sel_bits, t));
    Term atomic_ok = terms.mk_or(terms.mk_eq(s.atomic, terms.mk_bv(atomic_bits, 0)),
                                 terms.mk_eq(s.atomic, terms.mk_bv(atomic_bits, t + 1)));
    Term base = terms.mk_and(terms.mk_and(s.started[t], terms.mk_not(s.terminated)), atomic_ok);
    fr.base_enabled[t] = base;
    std::vector<Term> can, en;
    std::vector<FirstStep> firsts;  // transaction frames
    const std::size_t first_error = fr.errors.size();
    for (std::uint32_t i : fr.reach[t]) {
      if (base == terms.mk_false()) break;  // cannot move: nothing to encode
      if (i >= th.code.size()) continue;  // finished
      const ir::Instr& in = th.code[i];
      Term pc_is = terms.mk_eq(s.pc[t], terms.mk_bv(pc_bits[t], i));
      if (pc_is == terms.mk_false()) continue;
      fr.at[t][i] = terms.mk_and(fr.selected[t], pc_is);
      Term guard = terms.mk_true();  // blocks the step when false
      Term fail = terms.mk_false();  // the step reaches an error
      ir::AssertKind fail_kind = ir::AssertKind::Limit;
      ir::LimitKind fail_limit = ir::LimitKind::None;
      std::string fail_msg;
      auto sync_guard = [&](auto&& blocked_value) {
        Term g = terms.mk_true();
        for (const Target& tg : targets(encode(tid, in.a, k), candidates(in.a), s))
          g = terms.mk_and(g, terms.mk_not(terms.mk_and(tg.hit, blocked_value(sync_read(tg, s)))));
        return g;
      };
      switch (in.kind) {
        case InstrKind::Assume:
          guard = encode(tid, in.a, k);
          break;
        case InstrKind::Assert:
          fail = terms.mk_not(encode(tid, in.a, k));
          fail_kind = in.assert_kind;
          fail_limit = in.limit;
          fail_msg = in.message;
          break;
        case InstrKind::Lock:
        case InstrKind::WrLock:
          guard = sync_guard([&](Term v) { return terms.mk_not(terms.mk_eq(v, terms.mk_bv(64, 0))); });
          break;
        case InstrKind::RdLock:
          guard = sync_guard([&](Term v) { return terms.mk_bv_binary(Kind::BvSlt, v, terms.mk_bv(64, 0)); });
          break;
        case InstrKind::ThreadJoin: {
          Term handle = convert(in.a->type, kU64, encode(tid, in.a, k));
          std::vector<Term> done;
          for (std::size_t u = 0; u < n; ++u) {
            Term fin = terms.mk_eq(states[k].pc[u], terms.mk_bv(pc_bits[u], tm.threads[u].code.size()));
            done.push_back(terms.mk_and(terms.mk_eq(handle, terms.mk_bv(64, u)), fin));
          }
          guard = terms.mk_or(done);
          break;
        }
        case InstrKind::AtomicBegin:
          guard = terms.mk_eq(s.atomic, terms.mk_bv(atomic_bits, 0));
          break;
        case InstrKind::ThreadCreate: {
          const ir::Type ct = th.locals[in.lhs].type;
          Term counter = convert(ct, kU64, s.locals[t][in.lhs]);
          fail = terms.mk_bv_binary(Kind::BvUle, terms.mk_bv(64, in.threads.size()), counter);
          fail_msg = "thread limit: pthread_create executed more often than --threads allows";
          break;
        }
        case InstrKind::Malloc:
          fail = s.allocated[in.obj] ? s.allocated[in.obj] : terms.mk_false();
          fail_msg = "heap: call site executed more than once";
          fail_limit = ir::LimitKind::HeapSlots;
          break;
        case InstrKind::Free: {  // Assert[MemSafety](p is null or the start of a live heap object)
          Term p = encode(tid, in.a, k);
          std::vector<Term> ok{terms.mk_eq(p, terms.mk_bv(ptr_bits, 0))};
          for (ir::ObjectId o : candidates(in.a))
            if (tm.objects[o].kind == ir::ObjectKind::Heap)
              ok.push_back(terms.mk_and(terms.mk_eq(p, mk_ptr(obj_const(o), terms.mk_bv(32, 0))), s.live[o]));
          fail = terms.mk_not(terms.mk_or(ok));
          fail_kind = ir::AssertKind::MemSafety;
          fail_msg = "free: pointer is not the start of a live heap object";
          break;
        }
        default:
          break;
      }
      can.push_back(terms.mk_and(pc_is, guard));
      en.push_back(terms.mk_and(terms.mk_and(pc_is, guard), terms.mk_not(fail)));
      if (tx) firsts.push_back({i, terms.mk_and(base, en.back())});
      if (fail != terms.mk_false()) {
        Term err = terms.mk_and(terms.mk_and(base, pc_is), terms.mk_and(guard, fail));
        if (err == terms.mk_false()) continue;
        (fail_kind == ir::AssertKind::Property ? bad_p : bad_o).push_back(err);
        fr.errors.push_back({tid, i, fail_kind, fail_msg, fail_limit, err});
      }
    }
    if (tx) {
      // The thread can move when one of its transactions gets through to an exit; a step
      // (possibly failing) exists when it can move or one of the frame's errors is its own.
      encode_transactions(k, tid, firsts, bad_p, bad_o);
      std::vector<Term> out, any;
      for (const TxExit& x : fr.exits[t]) out.push_back(x.guard);
      fr.enabled[t] = terms.mk_or(out);
      any.push_back(fr.enabled[t]);
      for (std::size_t j = first_error; j < fr.errors.size(); ++j) any.push_back(fr.errors[j].term);
      fr.can_move[t] = terms.mk_or(any);
      continue;
    }
    fr.can_move[t] = terms.mk_and(base, terms.mk_or(can));
    fr.enabled[t] = terms.mk_and(base, terms.mk_or(en));
  }
  fr.bad_property = terms.mk_or(bad_p);
  fr.bad_other = terms.mk_or(bad_o);
  fr.any_can_move = terms.mk_or(fr.can_move);

  reduction::FrameView view;
  view.frame = k;
  view.sel = fr.sel;
  view.idle = fr.idle;
  view.pc = s.pc;
  view.enabled = fr.enabled;
  for (std::size_t t = 0; t < n; ++t)
    view.holds_atomic.push_back(terms.mk_eq(s.atomic, terms.mk_bv(atomic_bits, t + 1)));
  view.reach = fr.reach;
  view.selected = [this, k](ir::ThreadId t) { return frames[k].selected[t]; };
  view.executes = [this, k](ir::ThreadId t, std::uint32_t i) {
    auto it = frames[k].at[t].find(i);
    return it == frames[k].at[t].end() ? terms.mk_false() : it->second;
  };
  view.eval = [this, k](ir::ThreadId t, ir::ExprRef e) { return encode(t, e, k); };
  view.tx = tx;
  views.push_back(std::move(view));
}

void Engine::add_transition(unsigned k) {
  const Frame& f = frames[k];
  const State& s = states[k];
  const std::size_t n = tm.threads.size();

  // SCH(V^k): the selected thread can make a (non-failing) step, or the frame is idle; idle is
  // absorbing. Plus the reduction's conjuncts.
  std::vector<Term> sched;
  if (absorbing_idle) sched.push_back(f.idle);
  for (std::size_t t = 0; t < n; ++t) sched.push_back(terms.mk_and(f.selected[t], f.enabled[t]));
  dp.assert_formula(terms.mk_or(sched));
  if (absorbing_idle && k > 0) dp.assert_formula(terms.mk_implies(frames[k - 1].idle, f.idle));
  for (Term c : sch.add_frame(terms, views)) dp.assert_formula(c);

  // Writers of every state variable.
  std::vector<std::vector<Writers>> lw(n);
  for (std::size_t t = 0; t < n; ++t) lw[t].resize(tm.threads[t].locals.size());
  std::unordered_map<std::uint64_t, Writers> cw;  // (object << 32 | cell)
  std::vector<Writers> started_w(n), retval_w(n), pc_w(n);
  std::unordered_map<ir::ObjectId, Writers> live_w, alloc_w;
  Writers atomic_w, term_w;
  auto cell_write = [&](const Target& tg, Term guard, ir::Type from, Term value) {
    const ir::Cell& cell = tm.objects[tg.obj].cells[tg.cell];
    cw[(std::uint64_t{tg.obj} << 32) | tg.cell].push_back(
        {terms.mk_and(guard, tg.hit), convert(from, cell.type, value)});
  };

  for (std::size_t t = 0; t < n; ++t) {
    const auto& th = tm.threads[t];
    const auto tid = static_cast<ir::ThreadId>(t);
    const auto size = static_cast<std::uint32_t>(th.code.size());
    Term next_pc = s.pc[t];
    for (std::uint32_t i : f.reach[t]) {
      auto it = f.at[t].find(i);
      if (it == f.at[t].end()) continue;
      Term at = it->second;
      const ir::Instr& in = th.code[i];
      Term succ = terms.mk_bv(pc_bits[t], i + 1);
      // The thread's own local (lhs); with transaction frames its exits write the locals.
      if (!tx)
        if (auto w = own_write(tid, i, k)) lw[t][w->first].push_back({at, w->second});
      auto sync_targets = [&] { return targets(encode(tid, in.a, k), candidates(in.a), s); };
      auto cell_i64 = [&](const Target& tg) { return sync_read(tg, s); };
      switch (in.kind) {
        case InstrKind::Store: {
          if (tx) break;  // transaction frames: the exits write the transaction's memory
          Term v = encode(tid, in.b, k);
          for (const Target& tg : targets(encode(tid, in.a, k), candidates(in.a), s))
            cell_write(tg, at, in.b->type, v);
          break;
        }
        case InstrKind::Goto:
          succ = in.a ? terms.mk_ite(encode(tid, in.a, k), terms.mk_bv(pc_bits[t], in.target), succ)
                      : terms.mk_bv(pc_bits[t], in.target);
          break;
        case InstrKind::Lock:  // (transaction frames: the exits write it, a carried unlock may follow)
          if (tx) break;
          for (const Target& tg : sync_targets()) cell_write(tg, at, kI64, terms.mk_bv(64, t + 1));
          break;
        case InstrKind::TryLock: {
          Term free = trylock_free(tid, i, k);
          for (const Target& tg : sync_targets()) cell_write(tg, terms.mk_and(at, free), kI64, terms.mk_bv(64, t + 1));
          break;
        }
        case InstrKind::Unlock:
          if (tx) break;
          for (const Target& tg : sync_targets()) cell_write(tg, at, kI64, terms.mk_bv(64, 0));
          break;
        case InstrKind::RdLock:
          for (const Target& tg : sync_targets())
            cell_write(tg, at, kI64, terms.mk_bv_binary(Kind::BvAdd, cell_i64(tg), terms.mk_bv(64, 1)));
          break;
        case InstrKind::WrLock:
          for (const Target& tg : sync_targets()) cell_write(tg, at, kI64, terms.mk_bv(64, ~std::uint64_t{0}));
          break;
        case InstrKind::RwUnlock:
          for (const Target& tg : sync_targets()) {
            Term v = cell_i64(tg);
            cell_write(tg, at, kI64,
                       terms.mk_ite(terms.mk_bv_binary(Kind::BvSlt, v, terms.mk_bv(64, 0)), terms.mk_bv(64, 0),
                                    terms.mk_bv_binary(Kind::BvSub, v, terms.mk_bv(64, 1))));
          }
          break;
        case InstrKind::ThreadCreate: {
          const ir::Type ct = th.locals[in.lhs].type;
          Term counter = s.locals[t][in.lhs];
          Term counter64 = convert(ct, kU64, counter);
          Term arg = in.b ? encode(tid, in.b, k) : nullptr;
          std::vector<Target> handle_tgs;
          if (in.a) handle_tgs = targets(encode(tid, in.a, k), candidates(in.a), s);
          for (std::size_t j = 0; j < in.threads.size(); ++j) {
            const ir::ThreadId u = in.threads[j];
            Term gj = terms.mk_and(at, terms.mk_eq(counter64, terms.mk_bv(64, j)));
            started_w[u].push_back({gj, terms.mk_true()});
            const auto& uth = tm.threads[u];
            if (uth.param != ir::kNoLocal && arg)
              lw[u][uth.param].push_back({gj, convert(in.b->type, uth.locals[uth.param].type, arg)});
            for (const Target& tg : handle_tgs) cell_write(tg, gj, kI64, terms.mk_bv(64, u));
          }
          break;
        }
        case InstrKind::ThreadJoin: {
          if (!in.b) break;
          Term handle = convert(in.a->type, kU64, encode(tid, in.a, k));
          Term rv = terms.mk_bv(ptr_bits, 0);
          for (std::size_t u = 0; u < n; ++u)
            rv = terms.mk_ite(terms.mk_eq(handle, terms.mk_bv(64, u)), s.retval[u], rv);
          for (const Target& tg : targets(encode(tid, in.b, k), candidates(in.b), s))
            cell_write(tg, at, ir::Type::pointer(), rv);
          break;
        }
        case InstrKind::ThreadExit:
          if (in.a) retval_w[t].push_back({at, convert(in.a->type, ir::Type::pointer(), encode(tid, in.a, k))});
          succ = terms.mk_bv(pc_bits[t], size);
          break;
        case InstrKind::AtomicBegin:  // (transaction frames: the exits write `atomic`)
          if (!tx) atomic_w.push_back({at, terms.mk_bv(atomic_bits, t + 1)});
          break;
        case InstrKind::AtomicEnd:
          if (!tx) atomic_w.push_back({at, terms.mk_bv(atomic_bits, 0)});
          break;
        case InstrKind::Malloc:
          live_w[in.obj].push_back({at, terms.mk_true()});
          alloc_w[in.obj].push_back({at, terms.mk_true()});
          break;
        case InstrKind::Free: {
          Term p = encode(tid, in.a, k);
          for (ir::ObjectId o : candidates(in.a)) {
            if (tm.objects[o].kind != ir::ObjectKind::Heap) continue;
            Term hit = terms.mk_and(terms.mk_and(terms.mk_eq(ptr_obj(p), obj_const(o)),
                                                 terms.mk_eq(ptr_off(p), terms.mk_bv(32, 0))),
                                    s.live[o]);
            live_w[o].push_back({terms.mk_and(at, hit), terms.mk_false()});
          }
          break;
        }
        case InstrKind::Abort:
          term_w.push_back({at, terms.mk_true()});
          succ = terms.mk_bv(pc_bits[t], i);
          break;
        default:
          break;  // Skip, Assume, Assert, CondSignal, CondBroadcast: no effect
      }
      if (!tx) next_pc = terms.mk_ite(terms.mk_eq(s.pc[t], terms.mk_bv(pc_bits[t], i)), succ, next_pc);
    }
    if (!tx) {
      pc_w[t].push_back({f.selected[t], next_pc});
      continue;
    }
    for (const TxExit& x : f.exits[t]) {  // mutually exclusive: one path per transaction
      Term g = terms.mk_and(f.selected[t], x.guard);
      pc_w[t].push_back({g, terms.mk_bv(pc_bits[t], x.target)});
      for (const auto& [l, v] : x.locals) lw[t][l].push_back({g, v});
      for (const auto& [key, v] : x.cells) cw[key].push_back({g, v});
      if (x.atomic) atomic_w.push_back({g, x.atomic});
    }
  }

  // V^{k+1}: one frame condition per state variable.
  auto fold = [&](Term old, const Writers& w) {
    Term r = old;
    for (auto it = w.rbegin(); it != w.rend(); ++it) r = terms.mk_ite(it->first, it->second, r);
    return r;
  };
  State nx = s;
  for (std::size_t t = 0; t < n; ++t) {
    nx.pc[t] = fold(s.pc[t], pc_w[t]);
    if (!started_w[t].empty()) nx.started[t] = fold(s.started[t], started_w[t]);
    if (!retval_w[t].empty()) nx.retval[t] = fold(s.retval[t], retval_w[t]);
    for (std::size_t l = 0; l < lw[t].size(); ++l)
      if (!lw[t][l].empty())
        nx.locals[t][l] = fold(s.locals[t][l], lw[t][l]);
  }
  for (const auto& [key, w] : cw) {
    const auto o = static_cast<ir::ObjectId>(key >> 32);
    const auto c = static_cast<std::uint32_t>(key & 0xffffffffu);
    nx.cells[o][c] = fold(s.cells[o][c], w);
  }
  for (const auto& [o, w] : live_w) nx.live[o] = fold(s.live[o], w);
  for (const auto& [o, w] : alloc_w)
    nx.allocated[o] = fold(s.allocated[o], w);
  if (!atomic_w.empty()) nx.atomic = fold(s.atomic, atomic_w);
  if (!term_w.empty()) nx.terminated = fold(s.terminated, term_w);
  states.push_back(std::move(nx));
}

std::optional<std::pair<ir::LocalId, Term>> Engine::own_write(ir::ThreadId t, std::uint32_t i, unsigned k) {
  const auto& th = tm.threads[t];
  const ir::Instr& in = th.code[i];
  if (in.lhs == ir::kNoLocal) return std::nullopt;
  const ir::Type ty = th.locals[in.lhs].type;
  switch (in.kind) {
    case InstrKind::Assign:
      return std::pair{in.lhs, convert(in.a->type, ty, encode(t, in.a, k))};
    case InstrKind::Havoc: {
      const Frame& f = frames[k];
      if (ty.is_ptr()) return std::pair{in.lhs, f.havoc_ptr};
      if (ty.is_bool()) return std::pair{in.lhs, terms.mk_eq(terms.mk_extract(f.havoc_int, 0, 0), terms.mk_bv(1, 1))};
      return std::pair{in.lhs, terms.mk_extract(f.havoc_int, ty.width - 1, 0)};
    }
    case InstrKind::TryLock:
      return std::pair{in.lhs, convert(kI64, ty, terms.mk_ite(trylock_free(t, i, k), terms.mk_bv(64, 0),
                                                              terms.mk_bv(64, 16)))};
    case InstrKind::ThreadCreate: {
      Term counter64 = convert(ty, kU64, states[k].locals[t][in.lhs]);
      return std::pair{in.lhs, convert(kU64, ty, terms.mk_bv_binary(Kind::BvAdd, counter64, terms.mk_bv(64, 1)))};
    }
    case InstrKind::Malloc:
      return std::pair{in.lhs, convert(ir::Type::pointer(), ty, mk_ptr(obj_const(in.obj), terms.mk_bv(32, 0)))};
    default:
      return std::nullopt;
  }
}

Term Engine::trylock_free(ir::ThreadId t, std::uint32_t i, unsigned k) {
  const ir::Instr& in = tm.threads[t].code[i];
  Term free = terms.mk_true();
  for (const Target& tg : targets(encode(t, in.a, k), candidates(in.a), states[k]))
    free = terms.mk_and(free, terms.mk_not(terms.mk_and(
                                  tg.hit, terms.mk_not(terms.mk_eq(sync_read(tg, states[k]), terms.mk_bv(64, 0))))));
  return free;
}

}  // namespace siren::encoder
