// Transaction frames (ir/transactions.hpp; DESIGN.md Part C, "Step granularity"): frame k runs
// one whole transaction of the selected thread. Its first instruction is encoded as in an
// instruction frame (transition.cpp: guards, errors, and every write but the thread's own
// locals, memory cells, `atomic` and pc); the rest of the transaction consists of local steps
// (the thread's locals only), protected steps (memory reads and stores no other thread can
// touch meanwhile), carried unlocks (ir::carried_unlocks: a lock or an unlock writes its
// mutex through the transaction's state) and, in a merged atomic region, memory reads,
// stores and the AtomicEnd.
// They are symbolically executed here, once per frame and thread, over the DAG of the
// thread's non-boundary instructions: every instruction gets a path guard (the
// disjunction of its incoming edges) and the state on entry (the locals, cells and `atomic`
// that differ from V^k, an ITE over the incoming edges where they differ). An edge into a
// boundary (or the thread's end) is an exit; the exits write pc^{k+1}, the thread's locals,
// the cells the transaction stored to (its first instruction's stores too) and `atomic`.
// An edge into a cut point the transaction may run on through (ir::Transactions::passable)
// leads into the next *pass*, a copy of the same DAG, up to Transactions::unwind() passes;
// from the last pass it is an exit. A trace takes the path's instructions in pass order.
//
// Guards do not mention sel^k: they say what the transaction would do if its thread were
// selected, which is what the errors of the frame need (bad^k: "the next transaction of some
// thread fails an assertion"). A transaction whose path meets a false Assume or a failing
// Assert stops there: an exit to that pc, which is no boundary; the thread never moves again
// (its next transaction would start with that blocked step), but its first instruction, which
// other threads may see, happened.
#include "encoder/engine.hpp"
#include "ir/cfg.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

namespace siren::encoder {

using solvers::Kind;
using ir::InstrKind;

namespace {
std::vector<std::uint32_t> next_pcs(const std::vector<ir::Instr>& code, std::uint32_t pc) {
  if (code[pc].kind == InstrKind::Abort) return {pc};  // the program ended: the thread stays
  return ir::successors(code, pc);
}

void set_local(LocalOverlay& ov, ir::LocalId l, Term v) {
  auto it = std::lower_bound(ov.begin(), ov.end(), l, [](const auto& p, ir::LocalId x) { return p.first < x; });
  if (it != ov.end() && it->first == l) it->second = v;
  else ov.insert(it, {l, v});
}

void set_cell(CellOverlay& ov, std::uint64_t key, Term v) {
  auto it = std::lower_bound(ov.begin(), ov.end(), key, [](const auto& p, std::uint64_t x) { return p.first < x; });
  if (it != ov.end() && it->first == key) it->second = v;
  else ov.insert(it, {key, v});
}

// The state inside a transaction: what differs from V^k.
struct TxState {
  LocalOverlay locals;
  CellOverlay cells;
  Term atomic = nullptr;  // null: as in V^k
};

struct Incoming {
  Term guard;
  TxState st;
};
}  // namespace

const std::vector<std::uint32_t>& Engine::tx_targets(ir::ThreadId t, std::uint32_t b) {
  if (tx_targets_.empty()) tx_targets_.resize(tm.threads.size());
  auto [it, fresh] = tx_targets_[t].try_emplace(b);
  if (!fresh) return it->second;
  const auto& code = tm.threads[t].code;
  std::vector<char> seen(code.size() + 1, 0);
  std::vector<std::uint32_t> stack{b}, out;
  seen[b] = 1;
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    // A blocking local step after the first instruction is where the transaction may stop.
    if (v != b && (code[v].kind == InstrKind::Assume || code[v].kind == InstrKind::Assert))
      out.push_back(v);
    for (std::uint32_t w : next_pcs(code, v)) {
      // (a cut point the transaction may run on through is also where it may end)
      const bool boundary = tx->boundary(t, w);
      if (boundary) out.push_back(w);
      if (seen[w]) continue;
      seen[w] = 1;
      if (!boundary || tx->passable(t, w)) stack.push_back(w);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  it->second = std::move(out);
  return it->second;
}

void Engine::encode_transactions(unsigned k, ir::ThreadId t, const std::vector<FirstStep>& firsts,
                                 std::vector<Term>& bad_property, std::vector<Term>& bad_other) {
  const auto& th = tm.threads[t];
  const auto size = static_cast<std::uint32_t>(th.code.size());
  Frame& fr = frames[k];
  if (tx_order_.empty()) {
    // Non-boundaries and passable cut points in an order every edge into a non-boundary
    // respects (reverse post-order of a depth-first search; these edges form a DAG). An edge
    // into a cut point leads to the next pass (`level`), which runs after this one.
    tx_order_.resize(tm.threads.size());
    for (ir::ThreadId u = 0; u < tm.threads.size(); ++u) {
      const auto& code = tm.threads[u].code;
      std::vector<char> seen(code.size(), 0);
      std::vector<std::uint32_t> post;
      for (std::uint32_t root = 0; root < code.size(); ++root) {
        if (seen[root] || (tx->boundary(u, root) && !tx->passable(u, root))) continue;
        std::vector<std::pair<std::uint32_t, std::size_t>> stack{{root, 0}};
        seen[root] = 1;
        while (!stack.empty()) {
          const std::uint32_t v = stack.back().first;
          const auto succ = next_pcs(code, v);
          if (stack.back().second == succ.size()) {
            post.push_back(v);
            stack.pop_back();
            continue;
          }
          const std::uint32_t w = succ[stack.back().second++];
          if (w >= code.size() || tx->boundary(u, w) || seen[w]) continue;
          seen[w] = 1;
          stack.push_back({w, 0});
        }
      }
      std::reverse(post.begin(), post.end());
      tx_order_[u] = std::move(post);
    }
  }

  // Non-boundary pc (or passable cut point) of pass `level` -> the edges into it. Pass p has
  // run on through p cut points; it may run on through another while p < unwind.
  std::map<std::pair<unsigned, std::uint32_t>, std::vector<Incoming>> in;
  unsigned level = 0;
  auto edge = [&](std::uint32_t to, Term guard, const TxState& st) {
    if (guard == terms.mk_false()) return;
    if (to < size && tx->boundary(t, to) && tx->passable(t, to) && level < tx->unwind())
      in[{level + 1, to}].push_back({guard, st});
    else if (to >= size || tx->boundary(t, to))
      fr.exits[t].push_back({guard, to, st.locals, st.cells, st.atomic});
    else
      in[{level, to}].push_back({guard, st});
  };
  // A Store over the state `st` (weak update of every cell the address may designate).
  auto store = [&](const ir::Instr& ins, TxState& st, auto&& enc) {
    Term p = enc(ins.a), v = enc(ins.b);
    for (const Target& tg : targets(p, candidates(ins.a), states[k])) {
      const ir::Cell& cell = tm.objects[tg.obj].cells[tg.cell];
      Term old = cell_value(states[k], &st.cells, tg.obj, tg.cell);
      set_cell(st.cells, (std::uint64_t{tg.obj} << 32) | tg.cell,
               terms.mk_ite(tg.hit, convert(ins.b->type, cell.type, v), old));
    }
  };
  // A Lock or an Unlock over `st`: the mutex cells the address may designate get the owner
  // (t + 1) or 0. The first instruction's lock goes through the transaction's state, as its
  // stores do, so that an unlock the transaction carries (ir::carried_unlocks) overrides it.
  auto set_owner = [&](const ir::Instr& ins, TxState& st, Term p, std::uint64_t owner) {
    for (const Target& tg : targets(p, candidates(ins.a), states[k])) {
      const ir::Cell& cell = tm.objects[tg.obj].cells[tg.cell];
      Term old = cell_value(states[k], &st.cells, tg.obj, tg.cell);
      set_cell(st.cells, (std::uint64_t{tg.obj} << 32) | tg.cell,
               terms.mk_ite(tg.hit, convert(ir::Type::integer(64, true), cell.type, terms.mk_bv(64, owner)), old));
    }
  };
  // A transaction that stops at a blocking local step (a false Assume, a failing Assert) still
  // did its first instruction, which other threads may see (a create, a store): the thread
  // stays at the blocking step (not a boundary), where it can never move again.
  auto stuck = [&](std::uint32_t at, Term guard, const TxState& st) {
    if (guard != terms.mk_false()) fr.exits[t].push_back({guard, at, st.locals, st.cells, st.atomic});
  };
  // A Goto's edges (the other instructions have one successor each).
  auto branch = [&](const ir::Instr& ins, std::uint32_t pc, Term guard, const TxState& st, Term cond) {
    if (ir::always_taken(ins)) return edge(ins.target, guard, st);
    edge(ins.target, terms.mk_and(guard, cond), st);
    edge(pc + 1, terms.mk_and(guard, terms.mk_not(cond)), st);
  };

  // First instructions: as in an instruction frame, over V^k (transition.cpp writes what
  // they do to everything but the thread's locals, memory cells and `atomic`, which the
  // exits write).
  for (const FirstStep& f : firsts) {
    const ir::Instr& ins = th.code[f.pc];
    TxState st;
    if (auto w = own_write(t, f.pc, k)) st.locals.push_back(*w);
    if (ins.kind == InstrKind::Store) store(ins, st, [&](ir::ExprRef e) { return encode(t, e, k); });
    if (ins.kind == InstrKind::Lock) set_owner(ins, st, encode(t, ins.a, k), t + 1);
    if (ins.kind == InstrKind::Unlock) set_owner(ins, st, encode(t, ins.a, k), 0);
    if (ins.kind == InstrKind::AtomicBegin) st.atomic = terms.mk_bv(atomic_bits, t + 1);
    if (ins.kind == InstrKind::AtomicEnd) st.atomic = terms.mk_bv(atomic_bits, 0);
    if (ins.kind == InstrKind::Goto) {
      branch(ins, f.pc, f.ok, st, ins.a ? encode(t, ins.a, k) : terms.mk_true());
    } else {
      for (std::uint32_t to : next_pcs(th.code, f.pc)) edge(to, f.ok, st);
    }
  }

  // The rest: local steps, protected steps and a merged atomic region's loads, stores and
  // AtomicEnd, in an order that respects the edges, pass after pass.
  for (; !in.empty(); ++level) {
    for (std::uint32_t pc : tx_order_[t]) {
      auto it = in.find({level, pc});
      if (it == in.end()) continue;
      std::vector<Incoming> inc = std::move(it->second);
      in.erase(it);
      // Path guard and state on entry.
      std::vector<Term> gs;
      for (const Incoming& e : inc) gs.push_back(e.guard);
      Term guard = terms.mk_or(gs);
      TxState st;
      if (inc.size() == 1) {
        st = std::move(inc[0].st);
      } else {
        // One ITE over the incoming edges per value that differs (guards are exclusive).
        auto merge = [&](auto member, auto base) {
          using Overlay = std::remove_reference_t<decltype(inc[0].st.*member)>;
          using Key = typename Overlay::value_type::first_type;
          std::vector<Key> keys;
          for (const Incoming& e : inc)
            for (const auto& p : e.st.*member) keys.push_back(p.first);
          std::sort(keys.begin(), keys.end());
          keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
          Overlay out;
          for (Key key : keys) {
            auto value_in = [&](const Incoming& e) {
              const Overlay& ov = e.st.*member;
              auto f = std::lower_bound(ov.begin(), ov.end(), key, [](const auto& p, Key x) { return p.first < x; });
              return f != ov.end() && f->first == key ? f->second : base(key);
            };
            Term v = value_in(inc.back());
            for (std::size_t j = inc.size() - 1; j-- > 0;) v = terms.mk_ite(inc[j].guard, value_in(inc[j]), v);
            out.push_back({key, v});
          }
          return out;
        };
        st.locals = merge(&TxState::locals, [&](ir::LocalId l) { return states[k].locals[t][l]; });
        st.cells = merge(&TxState::cells, [&](std::uint64_t key) {
          return states[k].cells[static_cast<ir::ObjectId>(key >> 32)][static_cast<std::uint32_t>(key & 0xffffffffu)];
        });
        if (std::any_of(inc.begin(), inc.end(), [](const Incoming& e) { return e.st.atomic != nullptr; })) {
          auto atomic_in = [&](const Incoming& e) { return e.st.atomic ? e.st.atomic : states[k].atomic; };
          Term v = atomic_in(inc.back());
          for (std::size_t j = inc.size() - 1; j-- > 0;) v = terms.mk_ite(inc[j].guard, atomic_in(inc[j]), v);
          st.atomic = v;
        }
      }
      LocalOverlay& locals = st.locals;
      const ir::Instr& ins = th.code[pc];
      std::unordered_map<ir::ExprRef, Term> cache;
      auto enc = [&](ir::ExprRef e) { return encode_in(t, e, k, locals, cache, &st.cells); };
      TxNode node{pc, guard, nullptr};
      Term next = guard;
      switch (ins.kind) {
        case InstrKind::Assign:
          set_local(locals, ins.lhs, convert(ins.a->type, th.locals[ins.lhs].type, enc(ins.a)));
          break;
        case InstrKind::Havoc: {
          const ir::Type ty = th.locals[ins.lhs].type;
          std::string name = "havoc@" + std::to_string(k) + "." + std::to_string(t) + "." + std::to_string(pc);
          if (level > 0) name += "." + std::to_string(level);
          node.havoc = terms.mk_var(sort_of(ty), name);
          if (ty.is_ptr()) constrain_pointer_input(node.havoc);
          set_local(locals, ins.lhs, node.havoc);
          break;
        }
        case InstrKind::Assume: {
          Term ok = enc(ins.a);
          next = terms.mk_and(guard, ok);
          stuck(pc, terms.mk_and(guard, terms.mk_not(ok)), st);
          break;
        }
        case InstrKind::Assert: {
          Term ok = enc(ins.a);
          Term err = terms.mk_and(guard, terms.mk_not(ok));
          if (err != terms.mk_false()) {
            (ins.assert_kind == ir::AssertKind::Property ? bad_property : bad_other).push_back(err);
            fr.errors.push_back({t, pc, ins.assert_kind, ins.message, ins.limit, err});
          }
          next = terms.mk_and(guard, ok);
          stuck(pc, err, st);
          break;
        }
        case InstrKind::Store:  // protected steps, merged atomic regions
          store(ins, st, enc);
          cache.clear();
          break;
        case InstrKind::AtomicEnd:
          st.atomic = terms.mk_bv(atomic_bits, 0);
          break;
        case InstrKind::Unlock:  // a carried unlock
          set_owner(ins, st, enc(ins.a), 0);
          cache.clear();
          break;
        case InstrKind::Goto:
        case InstrKind::Skip:
          break;
        default:
          throw std::logic_error("transaction frames: instruction " + std::to_string(pc) + " of thread " +
                                 th.name + " is not a local step but no boundary");
      }
      fr.tail[t].push_back(node);
      if (ins.kind == InstrKind::Goto) branch(ins, pc, next, st, ins.a ? enc(ins.a) : terms.mk_true());
      else
        for (std::uint32_t to : next_pcs(th.code, pc)) edge(to, next, st);
    }
  }
}

}  // namespace siren::encoder
