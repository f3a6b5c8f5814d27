// Fixed values: the value an integer expression has whenever it is evaluated, if it has one
// (fixed_value): constants, folded with the variables that nothing writes after their
// initialisation and the parameters that every call passes the same fixed value (fixed_var),
// found by one scan of the translation unit (UseScan). They make malloc/calloc sizes, VLA
// lengths and memset/memcpy sizes exact; other sizes get FrontendOptions::capacity elements.
#include "frontend/translator.hpp"

namespace siren::frontend {

// ---------------------------------------------------------------------------------------
// UseScan: which variables are written, which functions are called from where

UseScan::UseScan(const TranslationUnitDecl* tu) {
  for (const Decl* d : tu->decls()) {
    if (const auto* fd = dyn_cast<FunctionDecl>(d); fd && fd->hasBody(fd)) walk(fd->getBody());
    if (const auto* vd = dyn_cast<VarDecl>(d); vd && vd->getInit()) walk(vd->getInit());
  }
}

void UseScan::walk(const Stmt* s) {  // a DeclStmt's children are its initialisers
  if (!s) return;
  if (const auto* bo = dyn_cast<BinaryOperator>(s); bo && bo->isAssignmentOp()) mark(bo->getLHS());
  if (const auto* uo = dyn_cast<UnaryOperator>(s); uo && (uo->isIncrementDecrementOp() || uo->getOpcode() == UO_AddrOf))
    mark(uo->getSubExpr());
  const Expr* callee = nullptr;
  if (const auto* ce = dyn_cast<CallExpr>(s)) {
    if (const FunctionDecl* fd = ce->getDirectCallee()) {
      calls[fd->getCanonicalDecl()].push_back(ce);
      callee = ce->getCallee();
    }
  }
  if (const auto* dr = dyn_cast<DeclRefExpr>(s)) {
    if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl())) escaping.insert(fd->getCanonicalDecl());
    if (const auto* ec = dyn_cast<EnumConstantDecl>(dr->getDecl())) {
      const std::string n = ec->getName().str();
      if (n == "PTHREAD_MUTEX_RECURSIVE" || n == "PTHREAD_MUTEX_RECURSIVE_NP" || n == "PTHREAD_MUTEX_ERRORCHECK" ||
          n == "PTHREAD_MUTEX_ERRORCHECK_NP")
        names_mutex_kind = true;
    }
  }
  for (const Stmt* c : s->children()) {
    if (c && c == callee) continue;  // the direct callee's name: not a use of its address
    walk(c);
  }
}

void UseScan::mark(const Expr* e) {
  if (const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
    if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) modified.insert(vd->getCanonicalDecl());
}

// ---------------------------------------------------------------------------------------
// Fixed values

UseScan& Translator::scan() {
  if (!scan_) {
    scan_ = std::make_unique<UseScan>(ctx_.getTranslationUnitDecl());
  }
  return *scan_;
}

// The value of integer expression `e` if it is the same whenever `e` is evaluated: a constant
// expression, or integer operators and casts over constants and variables that hold a fixed
// value (fixed_var). A Const of e's type, or nullptr.
ExprRef Translator::fixed_value(const Expr* e, int depth) {
  e = e->IgnoreParens();
  if (depth > 16 || !e->getType()->isIntegerType() || e->HasSideEffects(ctx_)) return nullptr;
  const SourceLocation loc = e->getExprLoc();
  const Type t = scalar_type(e->getType(), loc);
  Expr::EvalResult r;
  if (e->EvaluateAsInt(r, ctx_) && r.Val.isInt())
    return em().mk_const(t, ir::normalize(t, r.Val.getInt().getZExtValue()));
  ExprRef v = nullptr;
  if (const auto* ce = dyn_cast<CastExpr>(e)) {
    const Expr* sub = ce->getSubExpr();
    switch (ce->getCastKind()) {
      case CK_LValueToRValue:
        if (const auto* dr = dyn_cast<DeclRefExpr>(sub->IgnoreParens()))
          if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) v = fixed_var(vd, depth + 1);
        break;
      case CK_NoOp:
      case CK_IntegralCast:
      case CK_IntegralToBoolean: v = fixed_value(sub, depth + 1); break;
      default: break;
    }
    if (v) v = conv(t, v);
  } else if (const auto* bo = dyn_cast<BinaryOperator>(e)) {
    if (bo->isAdditiveOp() || bo->isMultiplicativeOp() || bo->isShiftOp() || bo->isBitwiseOp() ||
        bo->isComparisonOp()) {
      ExprRef l = fixed_value(bo->getLHS(), depth + 1);
      ExprRef rr = l ? fixed_value(bo->getRHS(), depth + 1) : nullptr;
      if (rr)
        v = arith(bo->getOpcode(), l, rr, bo->getLHS()->getType(), bo->getRHS()->getType(), bo->getType(), loc);
    }
  } else if (const auto* uo = dyn_cast<UnaryOperator>(e)) {
    if (ExprRef s = fixed_value(uo->getSubExpr(), depth + 1)) {
      switch (uo->getOpcode()) {
        case UO_Plus: v = conv(t, s); break;
        case UO_Minus: v = em().mk_unary(Op::Neg, conv(t, s)); break;
        case UO_Not: v = em().mk_unary(Op::BitNot, conv(t, s)); break;
        case UO_LNot: v = conv(t, em().mk_unary(Op::LNot, to_bool(s))); break;
        default: break;
      }
    }
  } else if (const auto* co = dyn_cast<ConditionalOperator>(e)) {
    if (ExprRef c = fixed_value(co->getCond(), depth + 1))
      if (ExprRef x = fixed_value(c->value != 0 ? co->getTrueExpr() : co->getFalseExpr(), depth + 1)) v = conv(t, x);
  }
  return v && v->is_const() ? v : nullptr;
}

// A variable holds a fixed value if nothing writes it after its initialisation (UseScan: no
// assignment, ++/-- or address-of anywhere in the translation unit), it is not volatile, and
// it is a local or static/global variable with a fixed initialiser (a global without one is
// 0), or a parameter of a function that is only called directly (not main) and that every
// call passes the same fixed value.
ExprRef Translator::fixed_var(const VarDecl* vd, int depth) {
  vd = vd->getCanonicalDecl();
  const QualType qt = vd->getType();
  if (!qt->isIntegerType() || qt.isVolatileQualified() || scan().modified.count(vd)) return nullptr;
  const Type t = scalar_type(qt, vd->getLocation());
  if (const auto* pv = dyn_cast<ParmVarDecl>(vd)) {
    const auto* fd = dyn_cast<FunctionDecl>(pv->getDeclContext());
    if (!fd || fd->isMain() || scan().escaping.count(fd->getCanonicalDecl())) return nullptr;
    auto it = scan().calls.find(fd->getCanonicalDecl());
    if (it == scan().calls.end()) return nullptr;
    const unsigned idx = pv->getFunctionScopeIndex();
    ExprRef v = nullptr;
    for (const CallExpr* call : it->second) {
      if (idx >= call->getNumArgs()) return nullptr;
      ExprRef a = fixed_value(call->getArg(idx), depth + 1);
      if (!a) return nullptr;
      a = conv(t, a);
      if (v && v != a) return nullptr;
      v = a;
    }
    return v;
  }
  const Expr* init = nullptr;
  for (const VarDecl* r : vd->redecls())
    if (r->getInit()) init = r->getInit();
  if (vd->hasGlobalStorage() && !init)
    return vd->getDefinition() || vd->getActingDefinition() ? em().mk_const(t, 0) : nullptr;
  if (!init) return nullptr;
  ExprRef v = fixed_value(init, depth + 1);
  return v ? conv(t, v) : nullptr;
}

}  // namespace siren::frontend
