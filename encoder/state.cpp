// State variables of the interleaved encoding (DESIGN.md §B2) and the initial state I(V^0).
//
// Per thread: pc (bit-vector, code.size() = finished), started, locals, retval; per memory
// cell its value; per heap object live/allocated; global atomic owner and terminated. Frame 0
// uses constants where docs/semantics.md fixes the value (globals' initialisers, locals = 0,
// pcs = 0, only main started) and fresh input variables for init_nondet cells. Later frames
// are defined from their frame conditions (transition.cpp).
#include "encoder/engine.hpp"

#include <cassert>
#include <cstdlib>
#include <set>
#include <unordered_set>

namespace siren::encoder {

unsigned bits_for(std::uint64_t max_value) {
  unsigned b = 1;
  while (b < 64 && (max_value >> b) != 0) ++b;
  return b;
}

Engine::Engine(const ir::ThreadModel& tm_, solvers::TermManager& terms_,
               solvers::DecisionProcedure& dp_, reduction::SchedulerConstraints& sch_)
    : tm(tm_), terms(terms_), dp(dp_), sch(sch_) {
  obj_bits = bits_for(tm.objects.empty() ? 0 : tm.objects.size() - 1);
  ptr_bits = obj_bits + 32;
  const std::size_t n = tm.threads.size();
  sel_bits = bits_for(n);  // 0..n-1 threads, n = idle
  atomic_bits = bits_for(n);
  for (const auto& th : tm.threads) {
    pc_bits.push_back(bits_for(th.code.size()));
    for (const auto& in : th.code) {
      if (in.kind != ir::InstrKind::Havoc) continue;
      if (th.locals[in.lhs].type.is_ptr())
        has_ptr_havoc = true;
      else
        has_int_havoc = true;
    }
  }
  enc_cache_.resize(n);
  compute_pointees();
}

Sort Engine::sort_of(ir::Type t) const {
  if (t.is_bool()) return Sort::boolean();
  if (t.is_ptr()) return Sort::bv(ptr_bits);
  return Sort::bv(t.width);
}

Term Engine::zero(ir::Type t) {
  if (t.is_bool()) return terms.mk_false();
  return terms.mk_bv(sort_of(t).width, 0);
}

void Engine::constrain_pointer_input(Term p) {
  std::vector<Term> options{terms.mk_eq(ptr_obj(p), obj_const(0))};
  for (ir::ObjectId o : pointees) options.push_back(terms.mk_eq(ptr_obj(p), obj_const(o)));
  dp.assert_formula(terms.mk_or(options));
}

// Objects whose address can be held in a value: those whose ObjAddr flows into a local, a
// cell, a thread parameter or a return value (a value position), objects that pointer cells
// are initialised with, and every heap object. An ObjAddr used only as an access address, a
// comparison operand or the base of such an address (a[i]) never escapes into a value, so a
// pointer read from a local or a cell cannot designate it.
void Engine::compute_pointees() {
  std::set<ir::ObjectId> at;
  std::unordered_set<std::uint64_t> seen;  // (node id, value context)
  auto mark = [&](auto&& self, ir::ExprRef e, bool value_ctx) -> void {
    if (!seen.insert((std::uint64_t{e->id} << 1) | (value_ctx ? 1 : 0)).second) return;
    switch (e->op) {
      case ir::Op::ObjAddr:
        if (value_ctx) at.insert(e->obj);
        return;
      case ir::Op::PtrAdd:
        self(self, e->kids[0], value_ctx);
        self(self, e->kids[1], false);
        return;
      case ir::Op::Ite:
        self(self, e->kids[0], false);
        self(self, e->kids[1], value_ctx);
        self(self, e->kids[2], value_ctx);
        return;
      default:
        for (ir::ExprRef k : e->kids) self(self, k, false);
        return;
    }
  };
  for (const auto& th : tm.threads) {
    for (const auto& in : th.code) {
      bool a_value = false, b_value = false;
      switch (in.kind) {
        case ir::InstrKind::Assign: a_value = true; break;
        case ir::InstrKind::Store: b_value = true; break;
        case ir::InstrKind::ThreadCreate: b_value = true; break;
        case ir::InstrKind::ThreadExit: a_value = true; break;
        case ir::InstrKind::Return: a_value = true; break;
        default: break;
      }
      if (in.a) mark(mark, in.a, a_value);
      if (in.b) mark(mark, in.b, b_value);
      for (ir::ExprRef x : in.args) mark(mark, x, true);
    }
  }
  for (const auto& o : tm.objects) {
    if (o.kind == ir::ObjectKind::Heap) at.insert(o.id);
    for (const auto& c : o.cells)
      if (c.init_obj != 0) at.insert(c.init_obj);
  }
  at.erase(0);
  pointees.assign(at.begin(), at.end());
}

void Engine::make_initial_state() {
  State s;
  const std::size_t n = tm.threads.size();
  for (std::size_t t = 0; t < n; ++t) {
    const auto& th = tm.threads[t];
    s.pc.push_back(terms.mk_bv(pc_bits[t], 0));
    s.started.push_back(terms.mk_bool(t == 0));
    s.retval.push_back(terms.mk_bv(ptr_bits, 0));
    std::vector<Term> locals;
    for (const auto& l : th.locals) locals.push_back(zero(l.type));
    s.locals.push_back(std::move(locals));
  }
  nondet_init.assign(tm.objects.size(), {});
  for (const auto& o : tm.objects) {
    std::vector<Term> cells;
    for (std::size_t c = 0; c < o.cells.size(); ++c) {
      const ir::Cell& cell = o.cells[c];
      if (cell.init_nondet) {
        Term v = terms.mk_var(sort_of(cell.type), o.name + "." + cell.name + "@init");
        if (cell.type.is_ptr()) constrain_pointer_input(v);
        nondet_init[o.id].push_back(v);
        cells.push_back(v);
        continue;
      }
      nondet_init[o.id].push_back(nullptr);
      if (cell.type.is_bool()) {
        cells.push_back(terms.mk_bool(cell.init != 0));
      } else if (cell.type.is_ptr()) {
        cells.push_back(mk_ptr(obj_const(cell.init_obj), terms.mk_bv(32, cell.init)));
      } else {
        cells.push_back(terms.mk_bv(cell.type.width, cell.init));
      }
    }
    s.cells.push_back(std::move(cells));
    const bool heap = o.kind == ir::ObjectKind::Heap;
    s.live.push_back(terms.mk_bool(!heap));
    s.allocated.push_back(heap ? terms.mk_false() : nullptr);
  }
  s.atomic = terms.mk_bv(atomic_bits, 0);
  s.terminated = terms.mk_false();
  states.clear();
  frames.clear();
  views.clear();
  states.push_back(std::move(s));
}

}  // namespace siren::encoder
