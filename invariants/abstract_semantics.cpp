// Abstract semantics of the transaction graph (DESIGN.md §B5 step 2, over the octagons of §B6,
// Miné 2006): a state is one octagon per cluster (clusters.cpp). An expression evaluates to a
// linear form over the variables when it is linear, and always to an interval; a guard meets the
// state with linear constraints, and `decide` tells whether a condition holds in every state or
// in none (the guard or its negation is ⊥); an assignment is an octagon linear assignment when the
// value is linear in its own cluster, else an interval assignment; a store through a pointer
// forgets every cell it may reach. `exec` is the transfer function of one instruction: mutexes
// and create counters are data, so a Lock is the guard m = 0 and an assignment.
#include "invariants/abstract_semantics.hpp"
#include "invariants/builder.hpp"

#include <algorithm>
#include <memory>
#include <set>

namespace siren::invariants::detail {

// ---- abstract values ---------------------------------------------------------------------
Itv Builder::var_itv(const TgState& s, int v) const {
  const Octagon& o = s.packs[vars_[v].pack];
  const int i = vars_[v].index;
  Interval iv;
  if (o.is_closed()) {
    if (o.is_bottom()) return Itv::of(1, 0);
    const Bound up = o.entry(2 * i + 1, 2 * i), down = o.entry(2 * i, 2 * i + 1);
    if (up != kInfinity) iv.hi = up / 2;
    if (down != kInfinity) iv.lo = -(down / 2);
  } else {
    iv = o.interval(i);
  }
  Itv r;
  if (iv.lo) r.lo_inf = false, r.lo = *iv.lo;
  if (iv.hi) r.hi_inf = false, r.hi = *iv.hi;
  return r;
}

Itv Builder::lin_itv(const TgState& s, const Lin& l) const {
  Itv r = Itv::point(l.c);
  for (const auto& [v, k] : l.terms) r = add(r, scale(var_itv(s, v), k));
  return r;
}

AVal Builder::unknown(Type t) const { return {false, {}, type_range(t)}; }

AVal Builder::make(const TgState& s, Lin l, Type t) const {
  Itv i = lin_itv(s, l);
  if (!fits(i, t)) return unknown(t);
  return {true, std::move(l), i};
}

AVal Builder::from_itv(Itv i, Type t) const {
  if (!fits(i, t)) return unknown(t);
  if (i.singleton()) return {true, Lin::constant(i.lo), i};
  return {false, {}, i};
}

AVal Builder::eval(const TgState& s, ThreadId t, ExprRef e) {
  const Type ty = e->type;
  switch (e->op) {
    case Op::Const:
      if (ty.is_ptr()) return unknown(ty);
      return {true, Lin::constant(value_of(ty, e->value)), Itv::point(value_of(ty, e->value))};
    case Op::Local: {
      const int v = local_of(t, static_cast<ir::LocalId>(e->value));
      if (v < 0) return unknown(ty);
      return {true, Lin::var(v), var_itv(s, v)};
    }
    case Op::Load: {
      const ExprRef p = e->kids[0];
      if (p->op != Op::ObjAddr) {
        // through a pointer: any value one of the cells it may designate holds
        const auto vs = target_vars(t, p);
        if (!vs || vs->empty()) return unknown(ty);
        std::optional<Itv> r;
        for (int v : *vs) {
          if (!(vars_[v].type == ty)) return unknown(ty);
          r = r ? hull(*r, var_itv(s, v)) : var_itv(s, v);
        }
        return from_itv(*r, ty);
      }
      const int v = const_cell(p);
      if (v < 0 || !(vars_[v].type == ty)) return unknown(ty);
      return {true, Lin::var(v), var_itv(s, v)};
    }
    case Op::Add: case Op::Sub: {
      if (!ty.is_int()) return unknown(ty);
      AVal a = eval(s, t, e->kids[0]), b = eval(s, t, e->kids[1]);
      const W k = e->op == Op::Add ? 1 : -1;
      if (a.lin_ok && b.lin_ok) return make(s, lin_add(a.lin, b.lin, k), ty);
      return from_itv(add(a.itv, scale(b.itv, k)), ty);
    }
    case Op::Neg: {
      if (!ty.is_int()) return unknown(ty);
      AVal a = eval(s, t, e->kids[0]);
      if (a.lin_ok) return make(s, lin_scale(a.lin, -1), ty);
      return from_itv(scale(a.itv, -1), ty);
    }
    case Op::Mul: {
      if (!ty.is_int()) return unknown(ty);
      AVal a = eval(s, t, e->kids[0]), b = eval(s, t, e->kids[1]);
      if (a.lin_ok && b.lin_ok && b.lin.terms.empty() && !big(b.lin.c)) return make(s, lin_scale(a.lin, b.lin.c), ty);
      if (a.lin_ok && b.lin_ok && a.lin.terms.empty() && !big(a.lin.c)) return make(s, lin_scale(b.lin, a.lin.c), ty);
      return from_itv(mul(a.itv, b.itv), ty);
    }
    case Op::ZExt: case Op::SExt: case Op::Trunc: {
      const ExprRef k = e->kids[0];
      if (!ty.is_int()) return unknown(ty);
      AVal a = eval(s, t, k);
      // value unchanged when it fits the target type (a bool source is 0/1)
      if (fits(a.itv, ty)) {
        if (e->op == Op::SExt && k->type.is_int() && !k->type.is_signed) {
          // unsigned source read as signed first: unchanged only below 2^(w-1)
          if (a.itv.hi >= (W{1} << (k->type.width - 1))) return unknown(ty);
        }
        if (e->op == Op::ZExt && k->type.is_int() && k->type.is_signed && a.itv.lo < 0) return unknown(ty);
        return a;
      }
      if (e->op == Op::ZExt && k->type.is_int() && k->type.is_signed && !a.itv.hi_inf && a.itv.hi < 0 &&
          !a.itv.lo_inf) {
        const W m = W{1} << k->type.width;
        if (a.lin_ok) return make(s, lin_add(a.lin, Lin::constant(m)), ty);
        return from_itv(add(a.itv, Itv::point(m)), ty);
      }
      return unknown(ty);
    }
    case Op::URem: case Op::SRem: case Op::UDiv: case Op::SDiv: {
      if (!ty.is_int()) return unknown(ty);
      AVal a = eval(s, t, e->kids[0]), b = eval(s, t, e->kids[1]);
      if (!b.itv.singleton() || b.itv.lo <= 0 || a.itv.lo_inf || a.itv.hi_inf) return unknown(ty);
      const W d = b.itv.lo;
      if (e->op == Op::URem || e->op == Op::SRem) {
        if (a.itv.lo >= 0) {
          if (a.itv.hi < d) return a;
          return from_itv(Itv::of(0, d - 1), ty);
        }
        if (e->op == Op::SRem) return from_itv(Itv::of(a.itv.hi < 0 ? -(d - 1) : -(d - 1), a.itv.hi < 0 ? 0 : d - 1), ty);
        return unknown(ty);
      }
      // division by a positive constant: truncation toward zero is monotone
      return from_itv(Itv::of(a.itv.lo / d, a.itv.hi / d), ty);
    }
    case Op::BitAnd: {
      if (!ty.is_int()) return unknown(ty);
      AVal a = eval(s, t, e->kids[0]), b = eval(s, t, e->kids[1]);
      if (!a.itv.lo_inf && a.itv.lo >= 0 && !a.itv.hi_inf) {
        if (!b.itv.lo_inf && b.itv.lo >= 0 && !b.itv.hi_inf) return from_itv(Itv::of(0, std::min(a.itv.hi, b.itv.hi)), ty);
        return from_itv(Itv::of(0, a.itv.hi), ty);
      }
      if (!b.itv.lo_inf && b.itv.lo >= 0 && !b.itv.hi_inf) return from_itv(Itv::of(0, b.itv.hi), ty);
      return unknown(ty);
    }
    case Op::LShr: case Op::AShr: {
      if (!ty.is_int()) return unknown(ty);
      AVal a = eval(s, t, e->kids[0]);
      if (!a.itv.lo_inf && a.itv.lo >= 0 && !a.itv.hi_inf) return from_itv(Itv::of(0, a.itv.hi), ty);
      return unknown(ty);
    }
    case Op::Ite: {
      AVal a = eval(s, t, e->kids[1]), b = eval(s, t, e->kids[2]);
      const int d = decide(s, t, e->kids[0]);
      if (d == 1) return a;
      if (d == 0) return b;
      return from_itv(hull(a.itv, b.itv), ty);
    }
    case Op::Eq: case Op::Ne: case Op::Ult: case Op::Ule: case Op::Slt: case Op::Sle:
    case Op::LNot: case Op::LAnd: case Op::LOr: case Op::IntToBool: {
      const int d = decide(s, t, e);
      if (d == 1) return {true, Lin::constant(1), Itv::point(1)};
      if (d == 0) return {true, Lin::constant(0), Itv::point(0)};
      return {false, {}, Itv::of(0, 1)};
    }
    default:
      return unknown(ty);
  }
}

/// Bottom test without closing: the states of this analysis are closed or widened iterates of
/// non-empty states (never empty), so an empty pack is always a closed one.
bool Builder::qbot(const TgState& s) {
  for (const auto& p : s.packs)
    if (p.is_closed() && p.is_bottom()) return true;
  return false;
}

/// 1: the condition holds in every state of `s`, 0: in none, -1: unknown.
int Builder::decide(const TgState& s, ThreadId t, ExprRef c) {
  // Nested decisions (a comparison inside an Ite inside a guard ...) multiply: beyond a small
  // depth the answer is "unknown", which is always sound.
  if (decide_depth_ >= 2) return -1;
  struct Depth {
    unsigned& d;
    explicit Depth(unsigned& x) : d(x) { ++d; }
    ~Depth() { --d; }
  } depth(decide_depth_);
  TgState p = s;
  guard(p, t, c, true);
  if (qbot(p)) return 0;
  TgState n = s;
  guard(n, t, c, false);
  if (qbot(n)) return 1;
  return -1;
}

void Builder::set_bottom(TgState& s) const {
  for (auto& p : s.packs) p = Octagon::bottom(p.num_vars());
}

/// s := s ∧ (l ≤ 0)
void Builder::apply_le(TgState& s, const Lin& l) const {
  if (l.terms.empty()) {
    if (l.c > 0) set_bottom(s);
    return;
  }
  std::set<int> packs;
  for (const auto& [v, k] : l.terms) packs.insert(vars_[v].pack);
  for (int p : packs) {
    std::vector<std::int64_t> coeffs(clusters_[p].vars.size(), 0);
    Itv rest = Itv::point(l.c);
    bool ok = true;
    for (const auto& [v, k] : l.terms) {
      if (vars_[v].pack == p) {
        if (big(k)) ok = false;
        else coeffs[vars_[v].index] = static_cast<std::int64_t>(k);
      } else {
        rest = add(rest, scale(var_itv(s, v), k));
      }
    }
    if (!ok || rest.lo_inf || big(rest.lo)) continue;
    s.packs[p].guard_linear(coeffs, static_cast<std::int64_t>(rest.lo));
    if (s.packs[p].is_bottom()) {
      set_bottom(s);
      return;
    }
  }
}

void Builder::apply_ne(TgState& s, const Lin& d) const {  // d ≠ 0
  if (d.terms.empty()) {
    if (d.c == 0) set_bottom(s);
    return;
  }
  if (d.terms.size() == 1 && (d.terms[0].second == 1 || d.terms[0].second == -1)) {
    const int v = d.terms[0].first;
    const W c = d.terms[0].second == 1 ? -d.c : d.c;
    if (big(c)) return;
    s.packs[vars_[v].pack].guard_not_equal(vars_[v].index, static_cast<std::int64_t>(c));
    if (s.packs[vars_[v].pack].is_bottom()) set_bottom(s);
  }
}

/// The operand as a linear form for a constraint in which it appears with sign `sign` on the
/// ≤ 0 side: unknown operands are replaced by their worst-case bound (nullopt: none).
std::optional<Lin> Builder::bound_form(const AVal& a, int sign) const {
  if (a.lin_ok) return a.lin;
  if (sign > 0) {
    if (a.itv.lo_inf) return std::nullopt;
    return Lin::constant(a.itv.lo);
  }
  if (a.itv.hi_inf) return std::nullopt;
  return Lin::constant(a.itv.hi);
}

/// s := s ∧ (a − b + k ≤ 0)
void Builder::apply_cmp_le(TgState& s, const AVal& a, const AVal& b, W k) const {
  auto la = bound_form(a, +1), lb = bound_form(b, -1);
  if (!la || !lb) return;
  Lin l = lin_add(*la, *lb, -1);
  l.c += k;
  apply_le(s, l);
}

void Builder::guard(TgState& s, ThreadId t, ExprRef c, bool pos) {
  if (qbot(s)) return;
  switch (c->op) {
    case Op::Const:
      if ((c->value != 0) != pos) set_bottom(s);
      return;
    case Op::LNot:
      return guard(s, t, c->kids[0], !pos);
    case Op::LAnd: case Op::LOr: {
      const bool conj = (c->op == Op::LAnd) == pos;
      if (conj) {
        guard(s, t, c->kids[0], pos);
        guard(s, t, c->kids[1], pos);
        return;
      }
      TgState a = s, b = s;
      guard(a, t, c->kids[0], pos);
      guard(b, t, c->kids[1], pos);
      s = join(a, b);
      return;
    }
    case Op::IntToBool: {
      AVal a = eval(s, t, c->kids[0]);
      const AVal z{true, Lin::constant(0), Itv::point(0)};
      return cmp(s, pos ? Op::Ne : Op::Eq, a, z);
    }
    case Op::Eq: case Op::Ne: case Op::Ult: case Op::Ule: case Op::Slt: case Op::Sle: {
      const Type ot = c->kids[0]->type;
      if (ot.is_ptr()) return;
      AVal a = eval(s, t, c->kids[0]), b = eval(s, t, c->kids[1]);
      Op op = c->op;
      if ((op == Op::Slt || op == Op::Sle) && ot.is_int() && !ot.is_signed) {
        const W half = W{1} << (ot.width - 1);
        if (a.itv.hi_inf || b.itv.hi_inf || a.itv.hi >= half || b.itv.hi >= half) return;
      }
      if ((op == Op::Ult || op == Op::Ule) && ot.is_int() && ot.is_signed) {
        if (a.itv.lo_inf || b.itv.lo_inf || a.itv.lo < 0 || b.itv.lo < 0) return;
      }
      if (!pos) {
        switch (op) {
          case Op::Eq: op = Op::Ne; break;
          case Op::Ne: op = Op::Eq; break;
          case Op::Ult: case Op::Slt: std::swap(a, b); op = Op::Sle; break;  // ¬(a<b) ⇔ b ≤ a
          case Op::Ule: case Op::Sle: std::swap(a, b); op = Op::Slt; break;  // ¬(a≤b) ⇔ b < a
          default: break;
        }
      }
      return cmp(s, op, a, b);
    }
    default: {
      if (!c->type.is_bool()) return;
      AVal a = eval(s, t, c);
      const AVal v{true, Lin::constant(pos ? 1 : 0), Itv::point(pos ? 1 : 0)};
      return cmp(s, Op::Eq, a, v);
    }
  }
}

void Builder::cmp(TgState& s, Op op, const AVal& a, const AVal& b) const {
  switch (op) {
    case Op::Ult: case Op::Slt: return apply_cmp_le(s, a, b, 1);
    case Op::Ule: case Op::Sle: return apply_cmp_le(s, a, b, 0);
    case Op::Eq:
      apply_cmp_le(s, a, b, 0);
      apply_cmp_le(s, b, a, 0);
      return;
    case Op::Ne:
      if (a.lin_ok && b.lin_ok) return apply_ne(s, lin_add(a.lin, b.lin, -1));
      if (a.itv.singleton() && b.itv.singleton() && a.itv.lo == b.itv.lo) set_bottom(s);
      return;
    default: return;
  }
}

TgState Builder::join(const TgState& a, const TgState& b) const {
  if (qbot(a)) return b;
  if (qbot(b)) return a;
  TgState r;
  r.packs.reserve(a.packs.size());
  for (std::size_t i = 0; i < a.packs.size(); ++i) r.packs.push_back(a.packs[i].join(b.packs[i]));
  return r;
}

bool Builder::leq(const TgState& a, const TgState& b) const {
  if (qbot(a)) return true;
  if (qbot(b)) return false;
  for (std::size_t i = 0; i < a.packs.size(); ++i)
    if (!a.packs[i].leq(b.packs[i])) return false;
  return true;
}

/// raw ∇ (closed ⊔ next) where `closed` is the closure of the raw iterate; never closed
TgState Builder::widen(const TgState& raw, const TgState& closed, const TgState& next) const {
  if (qbot(closed)) return next;
  if (qbot(next)) return raw;
  TgState r;
  for (std::size_t i = 0; i < raw.packs.size(); ++i)
    r.packs.push_back(raw.packs[i].widen(closed.packs[i].join(next.packs[i]), thresholds_));
  return r;
}

void Builder::close(TgState& s) const {
  for (auto& p : s.packs) p.close();
}

void Builder::assign_var(TgState& s, int v, const AVal& val, Type from) const {
  if (v < 0 || qbot(s)) return;
  const Type to = vars_[v].type;
  AVal x = val;
  if (!(from == to) || !fits(x.itv, to)) {
    if (!fits(x.itv, to)) x = unknown(to);
  }
  Octagon& o = s.packs[vars_[v].pack];
  bool linear = x.lin_ok && !big(x.lin.c);
  if (linear)
    for (const auto& [w, k] : x.lin.terms)
      if (vars_[w].pack != vars_[v].pack || big(k)) linear = false;
  if (linear) {
    std::vector<std::int64_t> coeffs(clusters_[vars_[v].pack].vars.size(), 0);
    for (const auto& [w, k] : x.lin.terms) coeffs[vars_[w].index] = static_cast<std::int64_t>(k);
    o.assign_linear(vars_[v].index, coeffs, static_cast<std::int64_t>(x.lin.c));
    // assign_linear is exact for the mathematical value, which fits the type (checked above)
    return;
  }
  Itv i = x.lin_ok ? lin_itv(s, x.lin) : x.itv;
  if (!fits(i, to)) i = type_range(to);
  o.assign_interval(vars_[v].index, opt_lo(i), opt_hi(i));
}

void Builder::havoc_var(TgState& s, int v) const {
  if (v < 0 || qbot(s)) return;
  const Itv r = type_range(vars_[v].type);
  s.packs[vars_[v].pack].assign_interval(vars_[v].index, opt_lo(r), opt_hi(r));
}

const ir::PointsTo& Builder::points_to() const {
  if (!pts_) pts_ = ir::PointsTo::analyse(tm_);
  return *pts_;
}

std::optional<std::vector<int>> Builder::target_vars(ThreadId t, ExprRef p) const {
  const auto cells = points_to().cells_of(t, p);
  if (!cells) return std::nullopt;
  std::vector<int> out;
  for (const auto& [o, c] : *cells) {
    auto it = cell_var_.find(key(o, c));
    if (it == cell_var_.end()) return std::nullopt;
    out.push_back(it->second);
  }
  return out;
}

/// A store through a pointer that is not a constant cell address: every tracked cell it may
/// designate (its points-to set; every cell of an escaped object when that may be anything) is
/// forgotten (weak update).
void Builder::forget_targets(TgState& s, ThreadId t, ExprRef p) const {
  ExprRef base = p;
  while (base && base->op == Op::PtrAdd) base = base->kids[0];
  if (base && base->op == Op::ObjAddr) {
    for (const auto& [k, v] : cell_var_)
      if ((k >> 32) == base->obj) havoc_var(s, v);
    return;
  }
  if (base && base->is_const()) return;  // null / integer pointer: writes nothing valid
  if (const auto cells = points_to().cells_of(t, p)) {
    for (const auto& [o, c] : *cells)
      if (auto it = cell_var_.find(key(o, c)); it != cell_var_.end()) havoc_var(s, it->second);
    return;
  }
  for (const auto& [k, v] : cell_var_)
    if (facts_.escaped(static_cast<ir::ObjectId>(k >> 32))) havoc_var(s, v);
}

void Builder::store(TgState& s, ThreadId t, ExprRef p, const AVal& val, Type from) const {
  if (!p || (p->is_const())) return;
  if (p->op == Op::ObjAddr) {
    const int v = const_cell(p);
    if (v >= 0) assign_var(s, v, val, from);
    return;
  }
  forget_targets(s, t, p);
}

// ---- transactions --------------------------------------------------------------------
void Builder::record_slice(std::uint32_t pc, bool branch) {
  if (slices_) slices_->push_back({pc, branch});
}

/// Executes instruction `pc` of thread `t` on `s` (closed, not bottom).
void Builder::exec(const std::vector<std::int32_t>& locs, const std::vector<std::uint32_t>& started, ThreadId t,
                   std::uint32_t pc, const TgState& s, std::vector<Succ>& out) {
  const auto& th = tm_.threads[t];
  const Instr& in = th.code[pc];
  const std::int32_t next = static_cast<std::int32_t>(pc + 1);
  auto cont = [&](TgState st, std::int32_t n = -100) {
    if (qbot(st)) return;
    out.push_back({n == -100 ? next : n, std::move(st)});
  };
  auto guarded = [&](ExprRef c, bool pos, std::int32_t n) {
    TgState st = s;
    guard(st, t, c, pos);
    if (qbot(st)) {
      if (!c->is_const()) record_slice(pc, pos);
      return;
    }
    out.push_back({n, std::move(st)});
  };
  auto mutex = [&](ExprRef a) { return const_cell(a); };
  switch (in.kind) {
    case InstrKind::Assign: {
      TgState st = s;
      const int v = local_of(t, in.lhs);
      if (v >= 0) assign_var(st, v, eval(st, t, in.a), in.a->type);
      return cont(std::move(st));
    }
    case InstrKind::Havoc: {
      TgState st = s;
      havoc_var(st, local_of(t, in.lhs));
      return cont(std::move(st));
    }
    case InstrKind::Store: {
      TgState st = s;
      store(st, t, in.a, eval(st, t, in.b), in.b->type);
      return cont(std::move(st));
    }
    case InstrKind::Assume: case InstrKind::Assert:
      return guarded(in.a, true, next);
    case InstrKind::Goto: {
      if (in.a->is_const()) {
        if (in.a->value != 0) return cont(s, static_cast<std::int32_t>(in.target));
        return cont(s);
      }
      guarded(in.a, true, static_cast<std::int32_t>(in.target));
      guarded(in.a, false, next);
      return;
    }
    case InstrKind::Abort:
      return cont(s, kTerm);
    case InstrKind::ThreadExit:
      return cont(s, kLocFinished);
    case InstrKind::Lock: case InstrKind::WrLock: {
      const int m = mutex(in.a);
      if (m < 0) {
        TgState st = s;
        forget_targets(st, t, in.a);
        return cont(std::move(st));
      }
      TgState st = s;
      cmp(st, Op::Eq, {true, Lin::var(m), var_itv(st, m)}, {true, Lin::constant(0), Itv::point(0)});
      if (qbot(st)) {
        record_slice(pc, true);
        return;
      }
      const W val = in.kind == InstrKind::Lock ? W{t} + 1 : W{-1};
      assign_var(st, m, {true, Lin::constant(val), Itv::point(val)}, vars_[m].type);
      return cont(std::move(st));
    }
    case InstrKind::TryLock: {
      const int m = mutex(in.a);
      const int l = local_of(t, in.lhs);
      const Type lt = l >= 0 ? vars_[l].type : Type::integer(32, true);
      if (m < 0) {
        TgState st = s;
        forget_targets(st, t, in.a);
        assign_var(st, l, {false, {}, Itv::of(0, 16)}, lt);
        return cont(std::move(st));
      }
      TgState a = s, b = s;
      const AVal mv{true, Lin::var(m), var_itv(s, m)}, zero{true, Lin::constant(0), Itv::point(0)};
      cmp(a, Op::Eq, mv, zero);
      assign_var(a, m, {true, Lin::constant(W{t} + 1), Itv::point(W{t} + 1)}, vars_[m].type);
      assign_var(a, l, zero, lt);
      cmp(b, Op::Ne, mv, zero);
      assign_var(b, l, {true, Lin::constant(16), Itv::point(16)}, lt);
      cont(std::move(a));
      cont(std::move(b));
      return;
    }
    case InstrKind::Unlock: {
      TgState st = s;
      const int m = mutex(in.a);
      if (m < 0) forget_targets(st, t, in.a);
      else assign_var(st, m, {true, Lin::constant(0), Itv::point(0)}, vars_[m].type);
      return cont(std::move(st));
    }
    case InstrKind::RdLock: {
      TgState st = s;
      const int m = mutex(in.a);
      if (m < 0) {
        forget_targets(st, t, in.a);
        return cont(std::move(st));
      }
      const AVal mv{true, Lin::var(m), var_itv(s, m)}, zero{true, Lin::constant(0), Itv::point(0)};
      cmp(st, Op::Sle, zero, mv);
      if (qbot(st)) {
        record_slice(pc, true);
        return;
      }
      assign_var(st, m, make(st, lin_add(Lin::var(m), Lin::constant(1)), vars_[m].type), vars_[m].type);
      return cont(std::move(st));
    }
    case InstrKind::RwUnlock: {
      const int m = mutex(in.a);
      if (m < 0) {
        TgState st = s;
        forget_targets(st, t, in.a);
        return cont(std::move(st));
      }
      TgState a = s, b = s;
      const AVal mv{true, Lin::var(m), var_itv(s, m)}, zero{true, Lin::constant(0), Itv::point(0)};
      cmp(a, Op::Slt, mv, zero);
      assign_var(a, m, zero, vars_[m].type);
      cmp(b, Op::Sle, zero, mv);
      if (!qbot(b))
        assign_var(b, m, make(b, lin_add(Lin::var(m), Lin::constant(-1)), vars_[m].type), vars_[m].type);
      cont(std::move(a));
      cont(std::move(b));
      return;
    }
    case InstrKind::ThreadCreate: {
      const int ctr = local_of(t, in.lhs);
      Itv ci = ctr >= 0 ? var_itv(s, ctr) : Itv::of(0, static_cast<W>(in.threads.size()) - 1);
      W lo = ci.lo_inf ? 0 : std::max<W>(0, ci.lo);
      W hi = ci.hi_inf ? static_cast<W>(in.threads.size()) - 1 : std::min<W>(ci.hi, static_cast<W>(in.threads.size()) - 1);
      for (W k = lo; k <= hi; ++k) {
        const std::uint32_t slot = in.threads[static_cast<std::size_t>(k)];
        if (slot >= tm_.threads.size() || locs[slot] != kLocNotStarted ||
            std::find(started.begin(), started.end(), slot) != started.end())
          continue;
        TgState st = s;
        if (ctr >= 0) {
          cmp(st, Op::Eq, {true, Lin::var(ctr), var_itv(st, ctr)}, {true, Lin::constant(k), Itv::point(k)});
          if (qbot(st)) continue;
        }
        store(st, t, in.a, {true, Lin::constant(slot), Itv::point(slot)}, Type::integer(64, false));
        const auto& nt = tm_.threads[slot];
        if (nt.param != ir::kNoLocal && in.b) {
          const int pv = local_of(slot, nt.param);
          if (pv >= 0) assign_var(st, pv, eval(st, t, in.b), in.b->type);
        }
        if (ctr >= 0)
          assign_var(st, ctr, make(st, lin_add(Lin::var(ctr), Lin::constant(1)), vars_[ctr].type), vars_[ctr].type);
        if (qbot(st)) continue;
        out.push_back({next, std::move(st), static_cast<std::int32_t>(slot)});
      }
      return;
    }
    case InstrKind::ThreadJoin: {
      AVal a = eval(s, t, in.a);
      W lo = a.itv.lo_inf ? 0 : std::max<W>(0, a.itv.lo);
      W hi = a.itv.hi_inf ? static_cast<W>(tm_.threads.size()) - 1
                          : std::min<W>(a.itv.hi, static_cast<W>(tm_.threads.size()) - 1);
      W first = -1, last = -1;
      for (W k = lo; k <= hi; ++k)
        if (locs[static_cast<std::size_t>(k)] == kLocFinished) {
          if (first < 0) first = k;
          last = k;
        }
      if (first < 0) return;  // blocked at this node
      TgState st = s;
      if (in.a->type.is_int() && (in.a->type.width < 64 || !in.a->type.is_signed)) {
        const AVal f{true, Lin::constant(first), Itv::point(first)}, l{true, Lin::constant(last), Itv::point(last)};
        cmp(st, Op::Ule, f, a);
        cmp(st, Op::Ule, a, l);
        if (qbot(st)) return;
      }
      if (in.b && !in.b->is_const()) {
        if (in.b->op == Op::ObjAddr) havoc_var(st, const_cell(in.b));
        else forget_targets(st, t, in.b);
      }
      return cont(std::move(st));
    }
    case InstrKind::Malloc: {
      TgState st = s;
      havoc_var(st, local_of(t, in.lhs));
      return cont(std::move(st));
    }
    default:
      return cont(s);
  }
}

}  // namespace siren::invariants::detail

namespace siren::invariants {

// ---- the guard semantics for other modules (abstract_semantics.hpp) -------------------------
struct GuardDecider::Impl {
  TgOptions options;
  TransactionGraph unused;  // what a Builder builds: nothing here
  detail::Builder builder;
  Impl(const ir::ThreadModel& tm, const TransactionGraph& g) : builder(tm, options, unused) { builder.adopt_vars(g); }
};

GuardDecider::GuardDecider(const ir::ThreadModel& tm, const TransactionGraph& g)
    : impl_(std::make_unique<Impl>(tm, g)) {}
GuardDecider::~GuardDecider() = default;

int GuardDecider::decide(const TgState& s, ir::ThreadId t, ir::ExprRef c) { return impl_->builder.decide(s, t, c); }

}  // namespace siren::invariants
