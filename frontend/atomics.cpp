// Atomic operations: C11 <stdatomic.h> (Clang's __c11_atomic_* AtomicExprs), the GCC
// __atomic_* and __sync_* builtins, and the loads, stores and read-modify-writes of _Atomic
// objects. Each is one atomic step, AtomicBegin .. AtomicEnd around its accesses of the
// atomic object (semantics.md, "Atomic operations"); every memory order is modelled as
// seq_cst. check_atomic_nesting reports programs where such a step could start inside an
// atomic section already running.
#include "frontend/translator.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace siren::frontend {

// ---------------------------------------------------------------------------------------
// Atomic steps

// A C11/GCC atomic operation is one step for every other thread: AtomicBegin, its accesses
// of the atomic object, AtomicEnd (semantics.md, "Atomic operations"). Its other operands
// are evaluated before, and C11's write to *expected after, as plain accesses. The body of a
// __VERIFIER_atomic_* function is a section already (the thread model wraps every call of
// it), so there the accesses are emitted without a pair of their own.
bool Translator::begin_atomic_step(SourceLocation loc) {
  if (in_atomic_step_) return false;
  if (st_->fn->is_atomic) {
    // A start routine's body is not wrapped: its operations would not be atomic.
    if (scan().escaping.count(st_->decl->getCanonicalDecl()))
      unsupported(loc, "atomic operation in '" + st_->fn->name + "', an atomic function used as a thread start routine");
    return false;
  }
  atomic_steps_.emplace(st_->fn->id, loc);
  emit(InstrKind::AtomicBegin);
  in_atomic_step_ = true;
  return true;
}

void Translator::end_atomic_step(bool began) {
  if (!began) return;
  emit(InstrKind::AtomicEnd);
  in_atomic_step_ = false;
}

// old := *p as one atomic step; `update(old)`, when given, is stored back in the same step.
ExprRef Translator::atomic_rmw(ExprRef p, Type t, SourceLocation loc,
                               const std::function<ExprRef(ExprRef)>& update) {
  const bool began = begin_atomic_step(loc);
  check_ptr(p, access_size(t));
  const LocalId old = new_tmp(t);
  emit(InstrKind::Assign, em().mk_load(t, p), nullptr, old);
  const ExprRef o = em().mk_local(t, old);
  if (update) {
    check_ptr(p, access_size(t));
    emit(InstrKind::Store, p, conv(t, update(o)));
  }
  end_atomic_step(began);
  return o;
}

void Translator::atomic_store(ExprRef p, Type t, ExprRef v, SourceLocation loc) {
  const bool began = begin_atomic_step(loc);
  check_ptr(p, access_size(t));
  emit(InstrKind::Store, p, conv(t, v));
  end_atomic_step(began);
}

// Compare-and-swap as one atomic step: ok := *p == expected, and then *p := desired. A weak
// one may also fail although the values are equal (C11 7.17.7.4p4): `ok` is false then
// whenever a Havoc'd bool says so, which keeps every behaviour of a real weak CAS.
// Returns {old value, ok}.
std::pair<ExprRef, ExprRef> Translator::atomic_cas(ExprRef p, Type t, ExprRef expected,
                                                   ExprRef desired, bool weak, SourceLocation loc) {
  ExprRef spurious = nullptr;
  if (weak) {
    ir::Instr h;
    h.kind = InstrKind::Havoc;
    h.lhs = new_local("spurious_failure", Type::boolean());  // named so that traces say why
    spurious = em().mk_local(Type::boolean(), h.lhs);
    emit(std::move(h));
  }
  expected = tmp_of(conv(t, expected));
  desired = tmp_of(conv(t, desired));
  const bool began = begin_atomic_step(loc);
  check_ptr(p, access_size(t));
  const LocalId old = new_tmp(t);
  emit(InstrKind::Assign, em().mk_load(t, p), nullptr, old);
  ExprRef eq = em().mk_binary(Op::Eq, em().mk_local(t, old), expected);
  if (spurious) eq = em().mk_binary(Op::LAnd, eq, em().mk_unary(Op::LNot, spurious));
  const LocalId ok = new_tmp(Type::boolean());
  emit(InstrKind::Assign, eq, nullptr, ok);
  const ExprRef okv = em().mk_local(Type::boolean(), ok);
  const int done = new_label();
  jump(done, em().mk_unary(Op::LNot, okv));
  check_ptr(p, access_size(t));
  emit(InstrKind::Store, p, desired);
  place(done);
  end_atomic_step(began);
  return {em().mk_local(t, old), okv};
}

// Every memory order is modelled as seq_cst; the first weaker one gets the file's warning.
void Translator::memory_order(const Expr* order) {
  if (needs_instrs(order)) rvalue(order, false);
  if (warned_.count("memory order")) return;
  static const char* const kNames[] = {"relaxed", "consume", "acquire", "release", "acq_rel"};
  Expr::EvalResult r;
  std::string name = source_text(order->getSourceRange());
  if (!order->HasSideEffects(ctx_) && order->EvaluateAsInt(r, ctx_)) {
    const llvm::APSInt& v = r.Val.getInt();
    if (v == 5) return;  // __ATOMIC_SEQ_CST
    if (v >= 0 && v < 5) name = kNames[v.getExtValue()];
  }
  warn("memory order", order->getExprLoc(), "memory order '" + name + "' modelled as sequentially consistent");
}

// ---------------------------------------------------------------------------------------
// C11 <stdatomic.h> (Clang's __c11_atomic_* AtomicExprs), GCC __atomic_* and __sync_*
// builtins: each operation is one atomic step (begin_atomic_step); memory orders other than
// seq_cst are modelled as seq_cst with one warning per file (memory_order).

Type Translator::atomic_value_type(QualType t, SourceLocation loc) {
  if (const auto* at = t->getAs<AtomicType>()) t = at->getValueType();
  if (t->isRealFloatingType() || t->isComplexType())
    unsupported(loc, "atomic operation on floating-point type '" + t.getAsString() + "'");
  if (t->isRecordType() || t->isArrayType())
    unsupported(loc, "atomic operation on struct or array type '" + t.getAsString() + "'");
  return scalar_type(t, loc);
}

namespace {
// The value stored by an atomic fetch-and-<op> / <op>-and-fetch; null for an unknown op.
ExprRef fetch_update(ir::ExprManager& m, const std::string& op, ExprRef old, ExprRef v) {
  const bool sgn = old->type.is_signed;
  if (op == "add") return m.mk_binary(Op::Add, old, v);
  if (op == "sub") return m.mk_binary(Op::Sub, old, v);
  if (op == "and") return m.mk_binary(Op::BitAnd, old, v);
  if (op == "or") return m.mk_binary(Op::BitOr, old, v);
  if (op == "xor") return m.mk_binary(Op::BitXor, old, v);
  if (op == "nand") return m.mk_unary(Op::BitNot, m.mk_binary(Op::BitAnd, old, v));  // GCC >= 4.4
  if (op == "max") return m.mk_ite(m.mk_binary(sgn ? Op::Slt : Op::Ult, old, v), v, old);
  if (op == "min") return m.mk_ite(m.mk_binary(sgn ? Op::Slt : Op::Ult, v, old), v, old);
  return nullptr;
}

// "fetch_add" / "fetch_and_add" -> {"add", false}; "add_fetch" / "add_and_fetch" -> {"add",
// true} (returns the new value); an op fetch_update does not know -> {"", false}.
std::pair<std::string, bool> fetch_op(const std::string& s) {
  std::pair<std::string, bool> r{"", false};
  if (s.rfind("fetch_and_", 0) == 0) r = {s.substr(10), false};
  else if (s.rfind("fetch_", 0) == 0) r = {s.substr(6), false};
  else
    for (const char* suffix : {"_and_fetch", "_fetch"}) {
      const std::size_t n = std::strlen(suffix);
      if (s.size() > n && s.compare(s.size() - n, n, suffix) == 0) {
        r = {s.substr(0, s.size() - n), true};
        break;
      }
    }
  static const std::set<std::string> known = {"add", "sub", "and", "or", "xor", "nand", "max", "min"};
  return known.count(r.first) ? r : std::pair<std::string, bool>{"", false};
}

std::string atomic_builtin_name(AtomicExpr::AtomicOp op) {
  switch (op) {
#define BUILTIN(ID, TYPE, ATTRS)
#define ATOMIC_BUILTIN(ID, TYPE, ATTRS) \
  case AtomicExpr::AO##ID:              \
    return #ID;
#include "clang/Basic/Builtins.def"
    default: return "?";
  }
}
}  // namespace

ExprRef Translator::rv_atomic(const AtomicExpr* ae, bool want) {
  const SourceLocation loc = ae->getExprLoc();
  const AtomicExpr::AtomicOp op = ae->getOp();
  if (AtomicExpr::getScopeModel(op)) unsupported(loc, "OpenCL/HIP atomic builtin");
  const Type t = atomic_value_type(ae->getValueType(), loc);
  const ExprRef p = tmp_of(conv(Type::pointer(), rvalue(ae->getPtr())));
  auto value = [&](const Expr* e) { return tmp_of(conv(t, rvalue(e))); };
  auto pointer = [&](const Expr* e) { return tmp_of(conv(Type::pointer(), rvalue(e))); };
  auto load_from = [&](ExprRef q) {  // the generic GNU forms pass values by address
    check_ptr(q, access_size(t));
    const LocalId v = new_tmp(t);
    emit(InstrKind::Assign, em().mk_load(t, q), nullptr, v);
    return em().mk_local(t, v);
  };
  auto store_to = [&](ExprRef q, ExprRef v) {
    check_ptr(q, access_size(t));
    emit(InstrKind::Store, q, v);
  };
  if (op == AtomicExpr::AO__c11_atomic_init) {  // initialisation is not atomic (C11 7.17.2.2p2)
    store_to(p, value(ae->getVal1()));
    return nullptr;
  }
  memory_order(ae->getOrder());
  ExprRef result = nullptr;
  switch (op) {
    case AtomicExpr::AO__c11_atomic_load:
    case AtomicExpr::AO__atomic_load_n:
      result = atomic_rmw(p, t, loc);
      break;
    case AtomicExpr::AO__atomic_load: {
      const ExprRef ret = pointer(ae->getVal1());
      store_to(ret, atomic_rmw(p, t, loc));
      break;
    }
    case AtomicExpr::AO__c11_atomic_store:
    case AtomicExpr::AO__atomic_store_n:
      atomic_store(p, t, value(ae->getVal1()), loc);
      break;
    case AtomicExpr::AO__atomic_store:
      atomic_store(p, t, load_from(pointer(ae->getVal1())), loc);
      break;
    case AtomicExpr::AO__c11_atomic_exchange:
    case AtomicExpr::AO__atomic_exchange_n: {
      const ExprRef v = value(ae->getVal1());
      result = atomic_rmw(p, t, loc, [&](ExprRef) { return v; });
      break;
    }
    case AtomicExpr::AO__atomic_exchange: {
      const ExprRef v = load_from(pointer(ae->getVal1()));
      const ExprRef ret = pointer(ae->getVal2());
      store_to(ret, atomic_rmw(p, t, loc, [&](ExprRef) { return v; }));
      break;
    }
    case AtomicExpr::AO__c11_atomic_compare_exchange_strong:
    case AtomicExpr::AO__c11_atomic_compare_exchange_weak:
    case AtomicExpr::AO__atomic_compare_exchange:
    case AtomicExpr::AO__atomic_compare_exchange_n: {
      const ExprRef expected_ptr = pointer(ae->getVal1());
      const ExprRef desired = op == AtomicExpr::AO__atomic_compare_exchange ? load_from(pointer(ae->getVal2()))
                                                                            : value(ae->getVal2());
      bool weak = op == AtomicExpr::AO__c11_atomic_compare_exchange_weak;
      if (op == AtomicExpr::AO__atomic_compare_exchange || op == AtomicExpr::AO__atomic_compare_exchange_n) {
        // GCC's `weak` argument: unless it is the constant 0 the CAS may fail spuriously
        const Expr* w = ae->getWeak();
        Expr::EvalResult r;
        const bool strong = !w->HasSideEffects(ctx_) && w->EvaluateAsInt(r, ctx_) && r.Val.getInt() == 0;
        weak = !strong;
        if (needs_instrs(w)) rvalue(w, false);
      }
      memory_order(ae->getOrderFail());
      const auto [old, ok] = atomic_cas(p, t, load_from(expected_ptr), desired, weak, loc);
      // on failure *expected gets the value seen (C11 7.17.7.4p2), a plain write
      const int done = new_label();
      jump(done, ok);
      store_to(expected_ptr, old);
      place(done);
      result = ok;
      break;
    }
    default: {
      // __c11_atomic_fetch_<op>, __atomic_fetch_<op>, __atomic_<op>_fetch
      std::string name = atomic_builtin_name(op);
      for (const char* prefix : {"__c11_atomic_", "__atomic_"})
        if (starts_with(name, prefix)) name = name.substr(std::strlen(prefix));
      const auto [kind, returns_new] = fetch_op(name);
      if (kind.empty()) unsupported(loc, "atomic builtin '" + atomic_builtin_name(op) + "'");
      if (!t.is_int()) unsupported(loc, "atomic fetch-and-" + kind + " on a " + (t.is_ptr() ? "pointer" : "_Bool"));
      const ExprRef v = value(ae->getVal1());
      const ExprRef old = atomic_rmw(p, t, loc, [&](ExprRef o) { return fetch_update(em(), kind, o, v); });
      result = returns_new ? fetch_update(em(), kind, old, v) : old;
    }
  }
  if (!want || !result || ae->getType()->isVoidType()) return nullptr;
  return conv(scalar_type(ae->getType(), loc), result);
}

ExprRef Translator::rv_sync_call(const std::string& name, const CallExpr* ce, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  const unsigned nargs = ce->getNumArgs();
  auto arg = [&](unsigned i) -> const Expr* {
    if (i >= nargs) unsupported(loc, "too few arguments in call to '" + name + "'");
    return ce->getArg(i);
  };
  auto result = [&](ExprRef v) -> ExprRef {
    if (!want || ce->getType()->isVoidType()) return nullptr;
    return conv(scalar_type(ce->getType(), loc), v);
  };
  // fences order nothing more under sequential consistency
  if (name == "__sync_synchronize") return nullptr;
  if (name == "__c11_atomic_thread_fence" || name == "__c11_atomic_signal_fence" ||
      name == "__atomic_thread_fence" || name == "__atomic_signal_fence") {
    memory_order(arg(0));
    return nullptr;
  }
  const ExprRef p = tmp_of(conv(Type::pointer(), rvalue(arg(0))));
  if (name == "__atomic_test_and_set" || name == "__atomic_clear") {
    // on a byte (bool or char): test_and_set stores 1 and says whether it was set
    QualType pt = strip(arg(0))->getType()->getPointeeType();
    if (pt.isNull() || !pt->isIntegerType() || ctx_.getTypeSize(pt) != 8)
      unsupported(loc, name + " on an object that is not a bool or char");
    const Type t = scalar_type(pt, loc);
    memory_order(arg(1));
    if (name == "__atomic_clear") {
      atomic_store(p, t, em().mk_const(t, 0), loc);
      return nullptr;
    }
    const ExprRef old = atomic_rmw(p, t, loc, [&](ExprRef) { return em().mk_const(t, 1); });
    return result(to_bool(old));
  }
  if (!starts_with(name, "__sync_")) unsupported(loc, "atomic builtin '" + name + "'");
  // Clang names the overload by size: __sync_fetch_and_add_4 (the value type is its pointee)
  std::string base = name.substr(7);
  if (const std::size_t u = base.find_last_of('_'); u != std::string::npos &&
      std::all_of(base.begin() + u + 1, base.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    base.resize(u);
  const FunctionDecl* fd = ce->getDirectCallee();
  QualType vt = fd->getNumParams() > 0 ? fd->getParamDecl(0)->getType()->getPointeeType() : QualType();
  if (vt.isNull()) unsupported(loc, "atomic builtin '" + name + "' without a typed pointer");
  const Type t = atomic_value_type(vt, loc);
  auto value = [&](unsigned i) { return tmp_of(conv(t, rvalue(arg(i)))); };
  if (base == "lock_release") {
    atomic_store(p, t, em().mk_const(t, 0), loc);
    return nullptr;
  }
  if (base == "lock_test_and_set" || base == "swap") {
    const ExprRef v = value(1);
    return result(atomic_rmw(p, t, loc, [&](ExprRef) { return v; }));
  }
  if (base == "val_compare_and_swap" || base == "bool_compare_and_swap") {
    const ExprRef expected = value(1);
    const ExprRef desired = value(2);
    const auto [old, ok] = atomic_cas(p, t, expected, desired, false, loc);
    return result(base == "bool_compare_and_swap" ? ok : old);
  }
  const auto [kind, returns_new] = fetch_op(base);
  if (kind.empty()) unsupported(loc, "atomic builtin '" + name + "'");
  if (!t.is_int()) unsupported(loc, "atomic fetch-and-" + kind + " on a " + (t.is_ptr() ? "pointer" : "_Bool"));
  const ExprRef v = value(1);
  const ExprRef old = atomic_rmw(p, t, loc, [&](ExprRef o) { return fetch_update(em(), kind, o, v); });
  return result(returns_new ? fetch_update(em(), kind, old, v) : old);
}

// An operation's AtomicBegin inside a section that is already running would block its thread
// for good (semantics.md: AtomicBegin waits for `atomic == 0`) and lose behaviours. That can
// happen in a function called from a __VERIFIER_atomic_* function (its own body has no pairs,
// begin_atomic_step) and between __VERIFIER_atomic_begin() and _end(): such programs are
// reported.
void Translator::check_atomic_nesting() {
  if (atomic_steps_.empty()) return;
  if (explicit_atomic_begin_) {
    diags_.push_back(diag_at(atomic_steps_.begin()->second,
                             "unsupported: atomic operation in a program that calls __VERIFIER_atomic_begin()"));
    return;
  }
  std::vector<bool> inside(prog_.functions.size(), false);  // called from an atomic function
  std::vector<std::size_t> work;
  for (std::size_t f = 0; f < prog_.functions.size(); ++f)
    if (prog_.functions[f].is_atomic) work.push_back(f);
  while (!work.empty()) {
    const std::size_t f = work.back();
    work.pop_back();
    for (const ir::Instr& in : prog_.functions[f].body)
      if (in.kind == InstrKind::Call && in.callee < inside.size() && !inside[in.callee]) {
        inside[in.callee] = true;
        work.push_back(in.callee);
      }
  }
  for (const auto& [f, loc] : atomic_steps_)
    if (inside[f])
      diags_.push_back(diag_at(loc, "unsupported: atomic operation in a function called from a __VERIFIER_atomic_* function"));
}

}  // namespace siren::frontend
