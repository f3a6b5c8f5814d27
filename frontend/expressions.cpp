// Expressions. An lvalue is a local variable or a load-free address (LV); an rvalue is a
// load-free ir expression: every memory read is first materialised into a temporary, one
// access per instruction, after a MemSafety check of its address (load, check_ptr), and an
// access of an _Atomic object is an atomic step of its own. Conditions are jumping code
// (cond_jump), so &&, || and ?: keep C's short-circuit order. Pointer arithmetic counts bytes
// (sizeof of the pointee, field offsets from Clang's record layout), so casts between pointer
// types, container_of and byte arithmetic need nothing of their own: a load or store finds
// its cell at its byte offset, or fails its MemSafety check (UNKNOWN), never a wrong cell.
#include "frontend/translator.hpp"

namespace siren::frontend {

// ---------------------------------------------------------------------------------------
// Conversions, loads and stores

ExprRef Translator::conv(Type to, ExprRef e) {
  if (to.is_bool() && e->op == Op::ZExt && e->kids[0]->type.is_bool()) return e->kids[0];
  if (to.is_ptr() && e->is_const() && e->type.is_int()) return em().mk_const(to, e->value);
  return em().mk_convert(to, e);
}

ExprRef Translator::scale(ExprRef idx, std::uint64_t n) {
  ExprRef i = conv(Type::integer(64, true), idx);
  if (n == 1) return i;
  return em().mk_binary(Op::Mul, i, int_const(static_cast<std::int64_t>(n)));
}

// A load or store of an _Atomic object is an atomic operation of its own (C11 6.2.6.1p9).
// A bit-field's value from the bits of its cell `bits` (an unsigned integer of the cell's
// width): its `bit_width` bits from bit `shift`, zero-extended, sign-extended for a signed
// field (Clang and GCC make a plain `int` bit-field signed), 0/1 for a _Bool one.
ExprRef Translator::bitfield_value(const LV& lv, ExprRef bits, unsigned shift) {
  const Type t = scalar_type(lv.type, SourceLocation());
  const Type ct = bits->type;
  const unsigned cw = ct.width, w = lv.bit_width;
  auto k = [&](Type ty, std::uint64_t v) { return em().mk_const(ty, ir::normalize(ty, v)); };
  if (t.is_int() && t.is_signed) {
    const Type st = Type::integer(cw, true);
    ExprRef v = conv(st, bits);
    if (cw - shift - w > 0) v = em().mk_binary(Op::Shl, v, k(st, cw - shift - w));
    if (cw - w > 0) v = em().mk_binary(Op::AShr, v, k(st, cw - w));
    return conv(t, v);
  }
  ExprRef v = bits;
  if (shift > 0) v = em().mk_binary(Op::LShr, v, k(ct, shift));
  if (w < cw) v = em().mk_binary(Op::BitAnd, v, k(ct, (w >= 64 ? 0 : (1ULL << w)) - 1));
  return conv(t, v);
}

ExprRef Translator::load(const LV& lv, SourceLocation loc) {
  if (lv.is_local) return em().mk_local(st_->fn->locals[lv.local].type, lv.local);
  if (lv.bit_width > 0) {
    const Type ct = Type::integer(8 * lv.cell_bytes, false);
    check_ptr(lv.addr, lv.cell_bytes);
    LocalId tmp = new_tmp(ct);
    emit(InstrKind::Assign, em().mk_load(ct, lv.addr), nullptr, tmp);
    return tmp_of(bitfield_value(lv, em().mk_local(ct, tmp), lv.bit_offset));
  }
  Type t = scalar_type(lv.type, loc);
  const bool began = lv.type->isAtomicType() && begin_atomic_step(loc);
  check_ptr(lv.addr, access_size(t));
  LocalId tmp = new_tmp(t);
  emit(InstrKind::Assign, em().mk_load(t, lv.addr), nullptr, tmp);
  end_atomic_step(began);
  return em().mk_local(t, tmp);
}

// A bit-field is written as C says (a read-modify-write of its memory location): load the
// cell, clear the field's bits, or in the new value's, store the cell. Two accesses, not one
// atomic step: a concurrent write to another field of the run can be lost (a data race in C).
ExprRef Translator::store(const LV& lv, ExprRef v, SourceLocation loc) {
  if (lv.is_local) {
    emit(InstrKind::Assign, conv(st_->fn->locals[lv.local].type, v), nullptr, lv.local);
    return em().mk_local(st_->fn->locals[lv.local].type, lv.local);
  }
  Type t = scalar_type(lv.type, loc);
  if (lv.bit_width > 0) {
    const Type ct = Type::integer(8 * lv.cell_bytes, false);
    const unsigned cw = ct.width;
    const std::uint64_t ones = lv.bit_width >= 64 ? ~0ULL : (1ULL << lv.bit_width) - 1;
    const std::uint64_t mask = ir::normalize(ct, lv.bit_offset >= 64 ? 0 : ones << lv.bit_offset);
    ExprRef bits = tmp_of(conv(ct, conv(t, v)));  // the new value, in the cell's width
    check_ptr(lv.addr, lv.cell_bytes);
    LocalId old = new_tmp(ct);
    emit(InstrKind::Assign, em().mk_load(ct, lv.addr), nullptr, old);
    ExprRef field = bits;
    if (lv.bit_offset > 0)
      field = em().mk_binary(Op::Shl, field, em().mk_const(ct, lv.bit_offset < cw ? lv.bit_offset : cw));
    field = em().mk_binary(Op::BitAnd, field, em().mk_const(ct, mask));
    ExprRef kept = em().mk_binary(Op::BitAnd, em().mk_local(ct, old), em().mk_const(ct, ir::normalize(ct, ~mask)));
    emit(InstrKind::Store, lv.addr, em().mk_binary(Op::BitOr, kept, field));
    return bitfield_value(lv, bits, 0);
  }
  const bool began = lv.type->isAtomicType() && begin_atomic_step(loc);
  check_ptr(lv.addr, access_size(t));
  ExprRef cv = conv(t, v);
  emit(InstrKind::Store, lv.addr, cv);
  end_atomic_step(began);
  return cv;
}

bool Translator::is_object_var(const VarDecl* vd) {
  if (vd->hasGlobalStorage()) return true;
  if (st_->locals.count(vd)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------
// Analysis helpers

bool Translator::needs_instrs(const Stmt* s) {
  if (!s) return false;
  if (const auto* e = dyn_cast<Expr>(s)) {
    if (e->HasSideEffects(ctx_)) return true;
  }
  if (isa<CallExpr>(s) || isa<ArraySubscriptExpr>(s) || isa<ConditionalOperator>(s) ||
      isa<BinaryConditionalOperator>(s)) return true;
  if (const auto* me = dyn_cast<MemberExpr>(s); me && me->isArrow()) return true;
  if (const auto* uo = dyn_cast<UnaryOperator>(s); uo && uo->getOpcode() == UO_Deref) return true;
  if (const auto* bo = dyn_cast<BinaryOperator>(s); bo && (bo->getOpcode() == BO_LAnd || bo->getOpcode() == BO_LOr))
    return needs_instrs(bo->getLHS()) || needs_instrs(bo->getRHS());
  if (const auto* dr = dyn_cast<DeclRefExpr>(s))
    if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) return is_object_var(vd);
  for (const Stmt* c : s->children())
    if (needs_instrs(c)) return true;
  return false;
}

// ---------------------------------------------------------------------------------------
// Lvalues

Translator::LV Translator::lvalue(const Expr* e) {
  e = e->IgnoreParens();
  LV lv;
  lv.type = e->getType();
  if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
    const auto* vd = dyn_cast<VarDecl>(dr->getDecl());
    if (!vd) unsupported(e->getExprLoc(), "reference to a non-variable as an lvalue");
    if (auto it = st_->locals.find(vd); it != st_->locals.end()) {
      lv.is_local = true;
      lv.local = it->second;
      return lv;
    }
    lv.addr = em().mk_obj_addr(object_of(vd), 0);
    return lv;
  }
  if (const auto* uo = dyn_cast<UnaryOperator>(e)) {
    if (uo->getOpcode() == UO_Deref) {
      lv.addr = tmp_of(conv(Type::pointer(), rvalue(uo->getSubExpr())));
      return lv;
    }
    if (uo->getOpcode() == UO_Extension) return lvalue(uo->getSubExpr());
  }
  if (const auto* as = dyn_cast<ArraySubscriptExpr>(e)) {
    ExprRef base = rvalue(as->getBase());
    ExprRef idx = rvalue(as->getIdx());
    if (!base->type.is_ptr()) unsupported(e->getExprLoc(), "subscript of a non-pointer");
    lv.addr = tmp_of(em().mk_binary(Op::PtrAdd, base, scale(idx, bytes_of(e->getType(), e->getExprLoc()))));
    return lv;
  }
  if (const auto* me = dyn_cast<MemberExpr>(e)) {
    const auto* fd = dyn_cast<FieldDecl>(me->getMemberDecl());
    if (!fd) unsupported(e->getExprLoc(), "member is not a field");
    ExprRef base;
    if (me->isArrow()) {
      base = conv(Type::pointer(), rvalue(me->getBase()));
    } else {
      LV b = lvalue(me->getBase());  // reports an unsupported variable at its declaration
      if (b.is_local) unsupported(e->getExprLoc(), "member of a non-memory struct");
      base = b.addr;
    }
    if (fd->isBitField()) {  // the run's cell (bit_runs); load and store mask and shift
      const BitPlace p = bit_place(fd, e->getExprLoc());
      lv.bit_width = p.width;
      lv.bit_offset = p.bit;
      lv.cell_bytes = p.size;
      lv.addr = tmp_of(em().mk_binary(Op::PtrAdd, base, int_const(static_cast<std::int64_t>(p.byte))));
      return lv;
    }
    lv.addr = tmp_of(em().mk_binary(Op::PtrAdd, base, int_const(static_cast<std::int64_t>(field_offset(fd, e->getExprLoc())))));
    return lv;
  }
  if (const auto* pe = dyn_cast<PredefinedExpr>(e)) {  // __func__
    if (!pe->getFunctionName()) unsupported(e->getExprLoc(), "predefined identifier without a value");
    e = pe->getFunctionName();
  }
  if (const auto* sl = dyn_cast<StringLiteral>(e)) {
    lv.addr = em().mk_obj_addr(literal_object(sl), 0);
    return lv;
  }
  if (isa<CompoundLiteralExpr>(e)) unsupported(e->getExprLoc(), "compound literal");
  unsupported(e->getExprLoc(), std::string("lvalue expression '") + e->getStmtClassName() + "'");
}

// ---------------------------------------------------------------------------------------
// Rvalues. Results are load-free; want=false discards the value (statement context).

ExprRef Translator::rvalue(const Expr* e, bool want) {
  ExprRef v = rvalue_impl(e, want);
  if (want && !v) unsupported(e->getExprLoc(), "use of a void value");
  return v;
}

ExprRef Translator::rvalue_impl(const Expr* e, bool want) {
  e = e->IgnoreParens();
  const SourceLocation loc = e->getExprLoc();
  // constant folding (sizeof, enum constants, literal arithmetic)
  if ((e->getType()->isIntegerType() && !e->isValueDependent() && !isa<DeclRefExpr>(e)) ||
      isa<UnaryExprOrTypeTraitExpr>(e)) {
    Expr::EvalResult r;
    if (!e->HasSideEffects(ctx_) && e->EvaluateAsInt(r, ctx_) && r.Val.isInt()) {
      Type t = scalar_type(e->getType(), loc);
      return em().mk_const(t, ir::normalize(t, r.Val.getInt().getZExtValue()));
    }
  }
  if (const auto* u = dyn_cast<UnaryExprOrTypeTraitExpr>(e);
      u && u->getKind() == UETT_SizeOf && u->isArgumentType() && u->getArgumentType()->isVariablyModifiedType()) {
    // sizeof of a variable-length array type: C evaluates its size expressions (reads included).
    const Type t = scalar_type(e->getType(), loc);
    std::function<ExprRef(QualType)> size = [&](QualType q) -> ExprRef {
      if (const auto* v = ctx_.getAsVariableArrayType(q))
        return em().mk_binary(Op::Mul, size(v->getElementType()), conv(t, rvalue(v->getSizeExpr())));
      if (const auto* c = ctx_.getAsConstantArrayType(q); c && c->getElementType()->isVariablyModifiedType())
        return em().mk_binary(Op::Mul, size(c->getElementType()), em().mk_const(t, c->getSize().getZExtValue()));
      if (q->isVariablyModifiedType())
        unsupported(loc, "sizeof of the variably modified type '" + q.getAsString() + "'");
      return em().mk_const(t, static_cast<std::uint64_t>(ctx_.getTypeSizeInChars(q).getQuantity()));
    };
    return size(u->getArgumentType());
  }
  if (const auto* ce = dyn_cast<ConstantExpr>(e)) return rvalue(ce->getSubExpr(), want);
  if (const auto* il = dyn_cast<IntegerLiteral>(e)) {
    Type t = scalar_type(e->getType(), loc);
    return em().mk_const(t, ir::normalize(t, il->getValue().getZExtValue()));
  }
  if (const auto* cl = dyn_cast<CharacterLiteral>(e)) {
    Type t = scalar_type(e->getType(), loc);
    return em().mk_const(t, ir::normalize(t, cl->getValue()));
  }
  if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
    if (const auto* ec = dyn_cast<EnumConstantDecl>(dr->getDecl())) {
      Type t = scalar_type(e->getType(), loc);
      return em().mk_const(t, ir::normalize(t, ec->getInitVal().getZExtValue()));
    }
    if (isa<FunctionDecl>(dr->getDecl())) return function_designator(e);
    LV lv = lvalue(e);
    if (is_aggregate(lv.type)) unsupported(loc, "aggregate used as a value");
    return load(lv, loc);
  }
  if (const auto* cast = dyn_cast<CastExpr>(e)) return rv_cast(cast, want);
  if (const auto* uo = dyn_cast<UnaryOperator>(e)) return rv_unary(uo, want);
  if (const auto* bo = dyn_cast<BinaryOperator>(e)) return rv_binary(bo, want);
  if (const auto* co = dyn_cast<ConditionalOperator>(e)) return rv_cond(co, want);
  if (const auto* call = dyn_cast<CallExpr>(e)) return rv_call(call, want);
  if (const auto* ae = dyn_cast<AtomicExpr>(e)) return rv_atomic(ae, want);
  if (isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e)) {
    LV lv = lvalue(e);
    if (is_aggregate(lv.type)) unsupported(loc, "aggregate used as a value");
    return load(lv, loc);
  }
  if (isa<ImplicitValueInitExpr>(e)) {
    Type t = scalar_type(e->getType(), loc);
    return em().mk_const(t, 0);
  }
  if (const auto* se = dyn_cast<StmtExpr>(e)) {
    const CompoundStmt* cs = se->getSubStmt();
    if (cs->body_empty()) return nullptr;
    for (auto it = cs->body_begin(); it + 1 != cs->body_end(); ++it) stmt(*it);
    const Stmt* last = cs->body_back();
    if (const auto* le = dyn_cast<Expr>(last)) return rvalue(le, want);
    stmt(last);
    return nullptr;
  }
  if (isa<StringLiteral>(e) || isa<PredefinedExpr>(e)) unsupported(loc, "string literal used as a value");
  if (isa<FloatingLiteral>(e)) unsupported(loc, "floating-point type 'double'");
  if (const auto* bco = dyn_cast<BinaryConditionalOperator>(e)) {
    // GNU `a ?: b`: a, evaluated once, if it is non-zero, else b.
    const bool value = want && !bco->getType()->isVoidType();
    const Type t = value ? scalar_type(bco->getType(), loc) : Type::integer(32, true);
    ExprRef common = tmp_of(rvalue(bco->getCommon()));
    const LocalId res = value ? new_tmp(t) : ir::kNoLocal;
    if (value) emit(InstrKind::Assign, conv(t, common), nullptr, res);
    const int end = new_label();
    jump(end, to_bool(common));
    ExprRef b = rvalue(bco->getFalseExpr(), value);
    if (value) emit(InstrKind::Assign, conv(t, b), nullptr, res);
    place(end);
    return value ? em().mk_local(t, res) : nullptr;
  }
  if (isa<CompoundLiteralExpr>(e)) unsupported(loc, "compound literal");
  if (isa<VAArgExpr>(e)) unsupported(loc, "va_arg");
  unsupported(loc, std::string("expression '") + e->getStmtClassName() + "'");
}

ExprRef Translator::rv_cast(const CastExpr* ce, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  const Expr* sub = ce->getSubExpr();
  switch (ce->getCastKind()) {
    case CK_LValueToRValue: {
      LV lv = lvalue(sub);
      if (is_aggregate(lv.type)) unsupported(loc, "struct or array copied by value");
      return load(lv, loc);
    }
    case CK_ArrayToPointerDecay: {
      LV lv = lvalue(sub);
      if (lv.is_local) unsupported(loc, "array in a register");
      return lv.addr;
    }
    case CK_FunctionToPointerDecay: return function_designator(sub);
    case CK_ToVoid: rvalue(sub, false); return nullptr;
    case CK_NullToPointer: return em().mk_null();
    case CK_NoOp:
    case CK_LValueToRValueBitCast:
      return rvalue(sub, want);
    case CK_AtomicToNonAtomic:  // the value of an _Atomic object (its load is atomic) and back
    case CK_NonAtomicToAtomic: {
      ExprRef v = rvalue(sub, want);
      return v ? conv(scalar_type(ce->getType(), loc), v) : v;
    }
    case CK_BitCast: {
      // pointer -> pointer: no-op; a cast of malloc's result tells the allocated type
      if (const auto* call = dyn_cast<CallExpr>(sub->IgnoreParenImpCasts()); call && ce->getType()->isPointerType())
        return rv_call(call, want, ce->getType()->getPointeeType());
      ExprRef v = rvalue(sub, want);
      return v ? conv(scalar_type(ce->getType(), loc), v) : v;
    }
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
    case CK_PointerToBoolean:
    case CK_IntegralToPointer:
    case CK_PointerToIntegral:
    case CK_BooleanToSignedIntegral: {
      ExprRef v = rvalue(sub);
      Type t = scalar_type(ce->getType(), loc);
      if (ce->getCastKind() == CK_BooleanToSignedIntegral)
        return em().mk_binary(Op::Sub, em().mk_const(t, 0), conv(t, v));
      return conv(t, v);
    }
    case CK_IntegralToFloating:
    case CK_FloatingToIntegral:
    case CK_FloatingCast:
    case CK_FloatingToBoolean:
      unsupported(loc, "floating-point type");
    default:
      unsupported(loc, std::string("cast '") + ce->getCastKindName() + "'");
  }
}

ExprRef Translator::rv_unary(const UnaryOperator* uo, bool want) {
  const SourceLocation loc = uo->getExprLoc();
  const Expr* sub = uo->getSubExpr();
  switch (uo->getOpcode()) {
    case UO_Plus:
    case UO_Extension: return rvalue(sub, want);
    case UO_Minus: return em().mk_unary(Op::Neg, rvalue(sub));
    case UO_Not: return em().mk_unary(Op::BitNot, rvalue(sub));
    case UO_LNot: {
      ExprRef b = em().mk_unary(Op::LNot, to_bool(rvalue(sub)));
      return conv(scalar_type(uo->getType(), loc), b);
    }
    case UO_Deref: {
      LV lv = lvalue(uo);
      if (is_aggregate(lv.type)) unsupported(loc, "aggregate used as a value");
      return load(lv, loc);
    }
    case UO_AddrOf: {
      const Expr* s = sub->IgnoreParens();
      if (s->getType()->isFunctionType()) return function_designator(s);
      LV lv = lvalue(sub);
      if (lv.is_local) unsupported(loc, "address of a register variable");
      return lv.addr;
    }
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      LV lv = lvalue(sub);
      // ++/-- of an _Atomic object is one atomic read-modify-write (C11 6.5.2.4p2)
      const bool began = !lv.is_local && lv.type->isAtomicType() && begin_atomic_step(loc);
      ExprRef old = load(lv, loc);
      const bool inc = uo->isIncrementOp();
      ExprRef nv;
      if (old->type.is_ptr()) {
        QualType pt = sub->getType();
        if (const auto* at = pt->getAs<AtomicType>()) pt = at->getValueType();
        std::int64_t n = static_cast<std::int64_t>(bytes_of(pt->getPointeeType(), loc));
        nv = em().mk_binary(Op::PtrAdd, old, int_const(inc ? n : -n));
      } else if (old->type.is_bool()) {
        nv = inc ? em().mk_true() : em().mk_unary(Op::LNot, old);
      } else {
        nv = em().mk_binary(inc ? Op::Add : Op::Sub, old, em().mk_const(old->type, 1));
      }
      if (lv.is_local && uo->isPostfix() && want) old = tmp_of_copy(old);
      ExprRef now = store(lv, nv, loc);
      end_atomic_step(began);
      if (!want) return nullptr;
      if (lv.bit_width > 0) return uo->isPrefix() ? now : old;  // the field's wrapped value
      return uo->isPrefix() ? (lv.is_local ? em().mk_local(old->type, lv.local) : nv) : old;
    }
    default:
      unsupported(loc, std::string("unary operator '") + UnaryOperator::getOpcodeStr(uo->getOpcode()).str() + "'");
  }
}

ExprRef Translator::arith(BinaryOperatorKind op, ExprRef l, ExprRef r, QualType lt, QualType rt,
                          QualType res, SourceLocation loc) {
  auto& m = em();
  if (op == BO_Add || op == BO_Sub) {
    if (l->type.is_ptr() && r->type.is_int()) {
      std::uint64_t n = bytes_of(lt->getPointeeType(), loc);
      ExprRef off = scale(r, n);
      if (op == BO_Sub) off = m.mk_unary(Op::Neg, off);
      return m.mk_binary(Op::PtrAdd, l, off);
    }
    if (op == BO_Add && l->type.is_int() && r->type.is_ptr())
      return m.mk_binary(Op::PtrAdd, r, scale(l, bytes_of(rt->getPointeeType(), loc)));
    if (op == BO_Sub && l->type.is_ptr() && r->type.is_ptr()) {
      Type t = scalar_type(res, loc);
      ExprRef d = m.mk_ptr_diff(t, l, r);
      std::uint64_t n = bytes_of(lt->getPointeeType(), loc);
      if (n > 1) d = m.mk_binary(Op::SDiv, d, m.mk_const(t, n));
      return d;
    }
  }
  const bool cmp = BinaryOperator::isComparisonOp(op);
  if (!cmp && (l->type.is_ptr() || r->type.is_ptr()))
    unsupported(loc, "arithmetic on pointers other than + and -");
  if (l->type != r->type) {
    if (l->type.is_ptr() || r->type.is_ptr()) {
      l = conv(Type::pointer(), l);
      r = conv(Type::pointer(), r);
    } else {
      r = conv(l->type, r);
    }
  }
  const bool sgn = l->type.is_int() && l->type.is_signed;
  if (l->type.is_bool() && !cmp) {
    Type i = Type::integer(32, true);
    l = conv(i, l);
    r = conv(i, r);
  }
  ExprRef v;
  switch (op) {
    case BO_Mul: v = m.mk_binary(Op::Mul, l, r); break;
    case BO_Div: v = m.mk_binary(sgn ? Op::SDiv : Op::UDiv, l, r); break;
    case BO_Rem: v = m.mk_binary(sgn ? Op::SRem : Op::URem, l, r); break;
    case BO_Add: v = m.mk_binary(Op::Add, l, r); break;
    case BO_Sub: v = m.mk_binary(Op::Sub, l, r); break;
    case BO_Shl: v = m.mk_binary(Op::Shl, l, r); break;
    case BO_Shr: v = m.mk_binary(sgn ? Op::AShr : Op::LShr, l, r); break;
    case BO_And: v = m.mk_binary(Op::BitAnd, l, r); break;
    case BO_Or: v = m.mk_binary(Op::BitOr, l, r); break;
    case BO_Xor: v = m.mk_binary(Op::BitXor, l, r); break;
    case BO_EQ: v = m.mk_binary(Op::Eq, l, r); break;
    case BO_NE: v = m.mk_binary(Op::Ne, l, r); break;
    case BO_LT: v = m.mk_binary(sgn ? Op::Slt : Op::Ult, l, r); break;
    case BO_LE: v = m.mk_binary(sgn ? Op::Sle : Op::Ule, l, r); break;
    case BO_GT: v = m.mk_binary(sgn ? Op::Slt : Op::Ult, r, l); break;
    case BO_GE: v = m.mk_binary(sgn ? Op::Sle : Op::Ule, r, l); break;
    default: unsupported(loc, "binary operator");
  }
  return conv(scalar_type(res, loc), v);
}

// The checked address of cell `c` of the struct at `base`.
ExprRef Translator::cell_ptr(ExprRef base, const CellSpec& c) {
  ExprRef p = tmp_of(em().mk_binary(Op::PtrAdd, base, int_const(static_cast<std::int64_t>(c.offset))));
  check_ptr(p, c.size);
  return p;
}

void Translator::copy_cells(ExprRef dst, ExprRef src, QualType t, SourceLocation loc) {
  std::vector<CellSpec> specs;
  flatten(t, "", loc, specs);
  for (const CellSpec& c : specs) {
    ExprRef s = cell_ptr(src, c);
    LocalId tmp = new_tmp(c.type);
    emit(InstrKind::Assign, em().mk_load(c.type, s), nullptr, tmp);
    emit(InstrKind::Store, cell_ptr(dst, c), em().mk_local(c.type, tmp));
  }
}

ExprRef Translator::rv_binary(const BinaryOperator* bo, bool want) {
  const SourceLocation loc = bo->getExprLoc();
  const BinaryOperatorKind op = bo->getOpcode();
  if (op == BO_Comma) {
    rvalue(bo->getLHS(), false);
    return rvalue(bo->getRHS(), want);
  }
  if (op == BO_LAnd || op == BO_LOr) {
    Type t = scalar_type(bo->getType(), loc);
    if (!needs_instrs(bo->getRHS())) {
      ExprRef a = to_bool(rvalue(bo->getLHS()));
      ExprRef b = to_bool(rvalue(bo->getRHS()));
      return conv(t, em().mk_binary(op == BO_LAnd ? Op::LAnd : Op::LOr, a, b));
    }
    int end = new_label();
    if (!want) {
      cond_jump(bo, false, end);
      place(end);
      return nullptr;
    }
    LocalId res = new_tmp(t);
    emit(InstrKind::Assign, em().mk_const(t, 0), nullptr, res);
    cond_jump(bo, false, end);
    emit(InstrKind::Assign, em().mk_const(t, 1), nullptr, res);
    place(end);
    return em().mk_local(t, res);
  }
  if (op == BO_Assign) {
    if (is_aggregate(bo->getLHS()->getType())) {
      LV d = lvalue(bo->getLHS());
      if (d.is_local) unsupported(loc, "struct copy");
      store_struct(bo->getRHS(), d.addr, bo->getLHS()->getType(), loc);
      if (want) unsupported(loc, "value of a struct assignment");
      return nullptr;
    }
    LV lv = lvalue(bo->getLHS());
    ExprRef v = rvalue(bo->getRHS());
    Type t = scalar_type(bo->getLHS()->getType(), loc);
    v = conv(t, v);
    ExprRef now = store(lv, v, loc);
    if (lv.is_local) return em().mk_local(t, lv.local);
    return lv.bit_width > 0 ? now : v;  // a bit-field: the value truncated to its width
  }
  if (const auto* ca = dyn_cast<CompoundAssignOperator>(bo)) {
    LV lv = lvalue(bo->getLHS());
    ExprRef r = rvalue(bo->getRHS());
    // on an _Atomic object: one atomic read-modify-write (C11 6.5.16.2p3)
    const bool began = !lv.is_local && lv.type->isAtomicType() && begin_atomic_step(loc);
    ExprRef old = load(lv, loc);
    Type ct = scalar_type(ca->getComputationLHSType(), loc);
    ExprRef l = conv(ct, old);
    BinaryOperatorKind base = BinaryOperator::getOpForCompoundAssignment(op);
    ExprRef nv = arith(base, l, r, ca->getComputationLHSType(), bo->getRHS()->getType(),
                       ca->getComputationResultType(), loc);
    Type t = scalar_type(bo->getLHS()->getType(), loc);
    nv = conv(t, nv);
    ExprRef now = store(lv, nv, loc);
    end_atomic_step(began);
    if (lv.is_local) return em().mk_local(t, lv.local);
    return lv.bit_width > 0 ? now : nv;
  }
  ExprRef l = rvalue(bo->getLHS());
  ExprRef r = rvalue(bo->getRHS());
  return arith(op, l, r, bo->getLHS()->getType(), bo->getRHS()->getType(), bo->getType(), loc);
}

ExprRef Translator::rv_cond(const ConditionalOperator* co, bool want) {
  const SourceLocation loc = co->getExprLoc();
  const bool is_void = co->getType()->isVoidType();
  if (!is_void && want && !needs_instrs(co->getTrueExpr()) && !needs_instrs(co->getFalseExpr())) {
    Type t = scalar_type(co->getType(), loc);
    ExprRef c = to_bool(rvalue(co->getCond()));
    ExprRef a = conv(t, rvalue(co->getTrueExpr()));
    ExprRef b = conv(t, rvalue(co->getFalseExpr()));
    return em().mk_ite(c, a, b);
  }
  int l_else = new_label(), l_end = new_label();
  LocalId res = ir::kNoLocal;
  Type t;
  if (!is_void && want) {
    t = scalar_type(co->getType(), loc);
    res = new_tmp(t);
  }
  cond_jump(co->getCond(), false, l_else);
  ExprRef a = rvalue(co->getTrueExpr(), res != ir::kNoLocal);
  if (res != ir::kNoLocal) emit(InstrKind::Assign, conv(t, a), nullptr, res);
  jump(l_end);
  place(l_else);
  ExprRef b = rvalue(co->getFalseExpr(), res != ir::kNoLocal);
  if (res != ir::kNoLocal) emit(InstrKind::Assign, conv(t, b), nullptr, res);
  place(l_end);
  return res == ir::kNoLocal ? nullptr : em().mk_local(t, res);
}

void Translator::cond_jump(const Expr* e, bool jump_if, int label) {
  e = e->IgnoreParens();
  if (const auto* bo = dyn_cast<BinaryOperator>(e)) {
    const bool is_and = bo->getOpcode() == BO_LAnd;
    if (is_and || bo->getOpcode() == BO_LOr) {
      if (is_and != jump_if) {  // (a && b) false-jump / (a || b) true-jump: both to label
        cond_jump(bo->getLHS(), jump_if, label);
        cond_jump(bo->getRHS(), jump_if, label);
      } else {
        int skip = new_label();
        cond_jump(bo->getLHS(), !jump_if, skip);
        cond_jump(bo->getRHS(), jump_if, label);
        place(skip);
      }
      return;
    }
  }
  if (const auto* uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_LNot) {
    cond_jump(uo->getSubExpr(), !jump_if, label);
    return;
  }
  if (const auto* ic = dyn_cast<ImplicitCastExpr>(e);
      ic && (ic->getCastKind() == CK_IntegralToBoolean || ic->getCastKind() == CK_PointerToBoolean ||
             ic->getCastKind() == CK_IntegralCast)) {
    const Expr* s = ic->getSubExpr()->IgnoreParens();
    if (isa<BinaryOperator>(s) || isa<UnaryOperator>(s)) {
      if (const auto* b = dyn_cast<BinaryOperator>(s); b && (b->getOpcode() == BO_LAnd || b->getOpcode() == BO_LOr)) {
        cond_jump(s, jump_if, label);
        return;
      }
      if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_LNot) {
        cond_jump(s, jump_if, label);
        return;
      }
    }
  }
  ExprRef c = to_bool(rvalue(e));
  if (!jump_if) {
    if (c->is_const()) c = em().mk_bool(c->value == 0);
    else if (c->op == Op::LNot) c = c->kids[0];
    else c = em().mk_unary(Op::LNot, c);
  }
  jump(label, c);
}

}  // namespace siren::frontend
