// ir::Expr -> solver terms over the state V^k of one thread (docs/semantics.md, "Values and
// types", "Memory", "Conversions", "Operators").
//
// Bool is the Bool sort, iN/uN an N-bit vector, a pointer a bit-vector of obj_bits + 32 bits:
// the object id in the high bits, the byte offset as a 32-bit two's-complement number in the
// low bits (after CBMC's object/offset pointer encoding). A load is an ITE over the cells of
// the objects the address may designate ("candidates"), default 0; ValidPtr is a disjunction
// over the same candidates. Offsets count bytes: a cell is hit at its first byte
// (ir::Cell::offset), as in the interpreter.
#include "encoder/engine.hpp"

#include <algorithm>
#include <cassert>
#include <set>

namespace siren::encoder {

using solvers::Kind;

Term Engine::obj_const(ir::ObjectId o) { return terms.mk_bv(obj_bits, o); }

Term Engine::mk_ptr(Term obj, Term off) { return terms.mk_concat(obj, off); }

Term Engine::ptr_obj(Term p) {
  if (p->kind == Kind::Concat) return p->kids[0];
  if (p->kind == Kind::Const) return terms.mk_bv(obj_bits, p->value >> 32);
  return terms.mk_extract(p, ptr_bits - 1, 32);
}

Term Engine::ptr_off(Term p) {
  if (p->kind == Kind::Concat) return p->kids[1];
  if (p->kind == Kind::Const) return terms.mk_bv(32, p->value & 0xffffffffu);
  return terms.mk_extract(p, 31, 0);
}

// ptr -> int: obj * 2^24 + off (offset sign-extended), truncated to the width.
Term Engine::ptr_to_int(Term p, unsigned width) {
  Term obj = terms.mk_zext(terms.mk_concat(ptr_obj(p), terms.mk_bv(24, 0)), 64);
  Term v = terms.mk_bv_binary(Kind::BvAdd, obj, terms.mk_sext(ptr_off(p), 64));
  return terms.mk_resize(v, width, false);
}

Term Engine::convert(ir::Type from, ir::Type to, Term v) {
  if (from == to) return v;
  if (to.is_bool()) {
    if (from.is_int()) return terms.mk_not(terms.mk_eq(v, terms.mk_bv(from.width, 0)));
    return terms.mk_not(terms.mk_eq(v, terms.mk_bv(ptr_bits, 0)));
  }
  if (to.is_ptr()) {
    Term off = from.is_bool() ? terms.mk_ite(v, terms.mk_bv(32, 1), terms.mk_bv(32, 0))
                              : terms.mk_resize(v, 32, from.is_signed);
    return mk_ptr(obj_const(0), off);
  }
  // to is Int
  if (from.is_bool()) return terms.mk_ite(v, terms.mk_bv(to.width, 1), terms.mk_bv(to.width, 0));
  if (from.is_ptr()) return ptr_to_int(v, to.width);
  return terms.mk_resize(v, to.width, from.is_signed);
}

const std::vector<ir::ObjectId>& Engine::candidates(ir::ExprRef p) {
  auto it = cand_cache_.find(p);
  if (it != cand_cache_.end()) return it->second;
  std::vector<ir::ObjectId> out;
  switch (p->op) {
    case ir::Op::Const:
    case ir::Op::IntToPtr:
      break;  // the null object: no cells
    case ir::Op::ObjAddr:
      if (p->obj != 0) out.push_back(p->obj);
      break;
    case ir::Op::PtrAdd:
      out = candidates(p->kids[0]);
      break;
    case ir::Op::Ite: {
      out = candidates(p->kids[1]);
      const auto& b = candidates(p->kids[2]);
      out.insert(out.end(), b.begin(), b.end());
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      break;
    }
    default:
      out = pointees;  // Local, Load: any object whose address escapes into a value
      break;
  }
  return cand_cache_.emplace(p, std::move(out)).first->second;
}

std::vector<Engine::Target> Engine::targets(Term p, const std::vector<ir::ObjectId>& cands,
                                            const State& s) {
  std::vector<Target> out;
  Term obj = ptr_obj(p), off = ptr_off(p);
  for (ir::ObjectId o : cands) {
    Term same_obj = terms.mk_eq(obj, obj_const(o));
    if (same_obj == terms.mk_false()) continue;
    Term live = s.live[o];
    if (live == terms.mk_false()) continue;
    const ir::Object& object = tm.objects[o];
    if (off->kind == Kind::Const) {
      const auto byte = static_cast<std::int32_t>(static_cast<std::uint32_t>(off->value));
      if (const auto c = object.cell_at(byte)) out.push_back({o, *c, terms.mk_and(same_obj, live)});
      continue;
    }
    Term base = terms.mk_and(same_obj, live);
    for (std::uint32_t c = 0; c < object.cells.size(); ++c)
      out.push_back({o, c, terms.mk_and(base, terms.mk_eq(off, terms.mk_bv(32, object.cells[c].offset)))});
  }
  return out;
}

Term Engine::sync_read(const Target& tg, const State& s) {
  const ir::Cell& cell = tm.objects[tg.obj].cells[tg.cell];
  Term v = s.cells[tg.obj][tg.cell];
  if (cell.type.is_int()) return terms.mk_resize(v, 64, true);
  if (cell.type.is_bool()) return terms.mk_ite(v, terms.mk_bv(64, 1), terms.mk_bv(64, 0));
  return terms.mk_sext(ptr_off(v), 64);
}

Term Engine::cell_value(const State& s, const CellOverlay* cells, ir::ObjectId o, std::uint32_t c) {
  if (cells) {
    const std::uint64_t key = (std::uint64_t{o} << 32) | c;
    auto it = std::lower_bound(cells->begin(), cells->end(), key, [](const auto& p, std::uint64_t x) { return p.first < x; });
    if (it != cells->end() && it->first == key) return it->second;
  }
  return s.cells[o][c];
}

Term Engine::load(ir::Type type, Term p, const std::vector<ir::ObjectId>& cands, const State& s,
                  const CellOverlay* cells) {
  Term result = zero(type);
  for (const Target& tg : targets(p, cands, s)) {
    const ir::Cell& cell = tm.objects[tg.obj].cells[tg.cell];
    result = terms.mk_ite(tg.hit, convert(cell.type, type, cell_value(s, cells, tg.obj, tg.cell)), result);
  }
  return result;
}

// The offsets of the cells that fit, as one formula: a disjunction of equalities for a few
// cells, else a range with a period (an array of scalars or structs: offset - first in range
// and (offset - first) mod P among the starts of the first period), else the disjunction.
const Engine::CellStarts& Engine::cell_starts(ir::ObjectId o, std::uint32_t bytes) {
  auto [it, fresh] = cell_starts_.try_emplace({o, bytes});
  CellStarts& cs = it->second;
  if (!fresh) return cs;
  std::vector<std::uint64_t> starts;
  for (const ir::Cell& c : tm.objects[o].cells)
    if (c.fits(bytes)) starts.push_back(c.offset);
  constexpr std::size_t kFew = 16;
  if (starts.size() > kFew) {
    const std::uint64_t first = starts.front(), last = starts.back();
    const std::set<std::uint64_t> set(starts.begin(), starts.end());
    for (std::size_t j = 1; j < starts.size() && j <= kFew; ++j) {
      const std::uint64_t period = starts[j] - first;
      bool periodic = true;
      for (std::uint64_t x : starts)
        if ((x + period <= last && !set.count(x + period)) || (x >= first + period && !set.count(x - period))) {
          periodic = false;
          break;
        }
      if (!periodic) continue;
      cs.first = first;
      cs.last = last;
      cs.period = period;
      for (std::size_t i = 0; i < j; ++i) cs.phase.push_back(starts[i] - first);
      return cs;
    }
  }
  cs.starts = std::move(starts);
  return cs;
}

Term Engine::cell_start(ir::ObjectId o, Term off, std::uint32_t bytes) {
  const CellStarts& cs = cell_starts(o, bytes);
  auto any_of = [&](const std::vector<std::uint64_t>& offs, Term x) {
    std::vector<Term> eqs;
    for (std::uint64_t v : offs) eqs.push_back(terms.mk_eq(x, terms.mk_bv(32, v)));
    return terms.mk_or(eqs);
  };
  if (cs.period == 0) return cs.starts.empty() ? terms.mk_false() : any_of(cs.starts, off);
  Term rel = terms.mk_bv_binary(Kind::BvSub, off, terms.mk_bv(32, cs.first));
  Term in_range = terms.mk_bv_binary(Kind::BvUle, rel, terms.mk_bv(32, cs.last - cs.first));
  Term mod = (cs.period & (cs.period - 1)) == 0
                 ? terms.mk_bv_binary(Kind::BvAnd, rel, terms.mk_bv(32, cs.period - 1))
                 : terms.mk_bv_binary(Kind::BvUrem, rel, terms.mk_bv(32, cs.period));
  return terms.mk_and(in_range, any_of(cs.phase, mod));
}

Term Engine::encode(ir::ThreadId t, ir::ExprRef e, unsigned k) {
  if (cache_k_ != k) {
    for (auto& c : enc_cache_) c.clear();
    cache_k_ = k;
  }
  static const LocalOverlay kNone;
  return encode_in(t, e, k, kNone, enc_cache_[t]);
}

Term Engine::encode_in(ir::ThreadId t, ir::ExprRef e, unsigned k, const LocalOverlay& locals,
                       std::unordered_map<ir::ExprRef, Term>& cache, const CellOverlay* cells) {
  if (auto it = cache.find(e); it != cache.end()) return it->second;
  const State& s = states[k];
  auto kid = [&](std::size_t i) { return encode_in(t, e->kids[i], k, locals, cache, cells); };
  auto bin = [&](Kind kind) { return terms.mk_bv_binary(kind, kid(0), kid(1)); };
  Term r = nullptr;
  switch (e->op) {
    case ir::Op::Const:
      if (e->type.is_bool()) r = terms.mk_bool(e->value != 0);
      else if (e->type.is_ptr()) r = mk_ptr(obj_const(0), terms.mk_bv(32, e->value));
      else r = terms.mk_bv(e->type.width, e->value);
      break;
    case ir::Op::Local: {
      const auto id = static_cast<ir::LocalId>(e->value);
      auto it = std::lower_bound(locals.begin(), locals.end(), id,
                                 [](const auto& p, ir::LocalId l) { return p.first < l; });
      r = it != locals.end() && it->first == id ? it->second : s.locals[t][id];
      break;
    }
    case ir::Op::ObjAddr:
      r = mk_ptr(obj_const(e->obj), terms.mk_bv(32, e->value));
      break;
    case ir::Op::Neg: r = terms.mk_bv_unary(Kind::BvNeg, kid(0)); break;
    case ir::Op::BitNot: r = terms.mk_bv_unary(Kind::BvNot, kid(0)); break;
    case ir::Op::LNot: r = terms.mk_not(kid(0)); break;
    case ir::Op::ZExt:
    case ir::Op::SExt:
    case ir::Op::Trunc: {
      const ir::Type from = e->kids[0]->type;
      if (from.is_bool())  // ZExt: 0/1, SExt: 0/-1
        r = terms.mk_ite(kid(0), terms.mk_bv(e->type.width, e->op == ir::Op::SExt ? ~std::uint64_t{0} : 1),
                         terms.mk_bv(e->type.width, 0));
      else
        r = terms.mk_resize(kid(0), e->type.width, e->op == ir::Op::SExt);
      break;
    }
    case ir::Op::IntToBool:
      r = convert(e->kids[0]->type, ir::Type::boolean(), kid(0));
      break;
    case ir::Op::PtrToInt:
      r = ptr_to_int(kid(0), e->type.width);
      break;
    case ir::Op::IntToPtr:
      r = convert(e->kids[0]->type, ir::Type::pointer(), kid(0));
      break;
    case ir::Op::ValidPtr: {
      Term p = kid(0);
      Term obj = ptr_obj(p), off = ptr_off(p);
      std::vector<Term> options;
      for (ir::ObjectId o : candidates(e->kids[0])) {
        if (tm.objects[o].cells.empty()) continue;
        Term at_cell = cell_start(o, off, static_cast<std::uint32_t>(e->value));
        options.push_back(terms.mk_and(terms.mk_and(terms.mk_eq(obj, obj_const(o)), at_cell), s.live[o]));
      }
      r = terms.mk_or(options);
      break;
    }
    case ir::Op::Load:
      r = load(e->type, kid(0), candidates(e->kids[0]), s, cells);
      break;
    case ir::Op::Add: r = bin(Kind::BvAdd); break;
    case ir::Op::Sub: r = bin(Kind::BvSub); break;
    case ir::Op::Mul: r = bin(Kind::BvMul); break;
    case ir::Op::UDiv: r = bin(Kind::BvUdiv); break;
    case ir::Op::SDiv: r = bin(Kind::BvSdiv); break;
    case ir::Op::URem: r = bin(Kind::BvUrem); break;
    case ir::Op::SRem: r = bin(Kind::BvSrem); break;
    case ir::Op::Shl: r = bin(Kind::BvShl); break;
    case ir::Op::LShr: r = bin(Kind::BvLshr); break;
    case ir::Op::AShr: r = bin(Kind::BvAshr); break;
    case ir::Op::BitAnd: r = bin(Kind::BvAnd); break;
    case ir::Op::BitOr: r = bin(Kind::BvOr); break;
    case ir::Op::BitXor: r = bin(Kind::BvXor); break;
    case ir::Op::Eq: r = terms.mk_eq(kid(0), kid(1)); break;
    case ir::Op::Ne: r = terms.mk_not(terms.mk_eq(kid(0), kid(1))); break;
    case ir::Op::Ult:
    case ir::Op::Ule:
    case ir::Op::Slt:
    case ir::Op::Sle: {
      const bool strict = e->op == ir::Op::Ult || e->op == ir::Op::Slt;
      const ir::Type ty = e->kids[0]->type;
      Term a = kid(0), b = kid(1);
      if (ty.is_ptr()) {  // lexicographic on (obj, off), offset signed
        Term ao = ptr_obj(a), bo = ptr_obj(b);
        Term off_cmp = terms.mk_bv_binary(strict ? Kind::BvSlt : Kind::BvSle, ptr_off(a), ptr_off(b));
        r = terms.mk_or(terms.mk_bv_binary(Kind::BvUlt, ao, bo),
                        terms.mk_and(terms.mk_eq(ao, bo), off_cmp));
      } else if (ty.is_bool()) {  // false < true
        r = strict ? terms.mk_and(terms.mk_not(a), b) : terms.mk_implies(a, b);
      } else {
        const bool sgn = e->op == ir::Op::Slt || e->op == ir::Op::Sle;
        Kind kind = sgn ? (strict ? Kind::BvSlt : Kind::BvSle) : (strict ? Kind::BvUlt : Kind::BvUle);
        r = terms.mk_bv_binary(kind, a, b);
      }
      break;
    }
    case ir::Op::LAnd: r = terms.mk_and(kid(0), kid(1)); break;
    case ir::Op::LOr: r = terms.mk_or(kid(0), kid(1)); break;
    case ir::Op::PtrAdd: {
      Term p = kid(0);
      const ir::Type it = e->kids[1]->type;
      Term i = it.is_bool() ? convert(it, ir::Type::integer(32, true), kid(1))
                            : terms.mk_resize(kid(1), 32, it.is_signed);
      r = mk_ptr(ptr_obj(p), terms.mk_bv_binary(Kind::BvAdd, ptr_off(p), i));
      break;
    }
    case ir::Op::PtrDiff: {
      Term d = terms.mk_bv_binary(Kind::BvSub, terms.mk_sext(ptr_off(kid(0)), 64),
                                  terms.mk_sext(ptr_off(kid(1)), 64));
      r = terms.mk_resize(d, e->type.width, false);
      break;
    }
    case ir::Op::Ite:
      r = terms.mk_ite(kid(0), kid(1), kid(2));
      break;
  }
  assert(r && "unhandled ir::Op in the encoder");
  cache.emplace(e, r);
  return r;
}

}  // namespace siren::encoder
