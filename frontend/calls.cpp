// Calls (rv_call). A call of a library function maps to dedicated instructions, modelled by
// concern: the verification conventions (errors, assertions, assumptions, __VERIFIER_nondet_*,
// atomic sections) in verifier_model.cpp, atomic builtins in atomics.cpp, the pthread API in
// pthread_model.cpp, the C library (heap, string.h, sscanf, output) in libc_model.cpp. A
// defined function gets a Call; a call through a pointer dispatches over the functions it can
// reach; a function without a body returns an arbitrary value (after CBMC).
#include "frontend/translator.hpp"

#include <algorithm>

namespace siren::frontend {

// ---------------------------------------------------------------------------------------
// Calls: library functions map to instructions, defined functions to Call

const Expr* Translator::CallSite::arg(unsigned i) const {
  if (i >= nargs) unsupported(loc, "too few arguments in call to '" + name + "'");
  return ce->getArg(i);
}

ExprRef Translator::CallSite::ptr_arg(unsigned i) const { return tr.conv(Type::pointer(), tr.rvalue(arg(i))); }

void Translator::CallSite::side_effects_only(unsigned from) const {
  for (unsigned i = from; i < nargs; ++i)
    if (tr.needs_instrs(ce->getArg(i))) tr.rvalue(ce->getArg(i), false);
}

ExprRef Translator::CallSite::zero() const { return want && !is_void ? tr.em().mk_const(ret_t, 0) : nullptr; }

ExprRef Translator::CallSite::havoc_result() const {
  if (!want || is_void) return nullptr;
  LocalId t = tr.new_tmp(ret_t);
  tr.emit(InstrKind::Havoc, nullptr, nullptr, t);
  return tr.em().mk_local(ret_t, t);
}

ExprRef Translator::rv_call(const CallExpr* ce, bool want, QualType malloc_type) {
  const SourceLocation loc = ce->getExprLoc();
  const FunctionDecl* fd = ce->getDirectCallee();
  if (!fd) return rv_indirect_call(ce, want);
  const std::string name = fd->getNameAsString();
  const bool defined = fd->getDefinition() != nullptr;
  const unsigned nargs = ce->getNumArgs();
  Type ret_t = Type::integer(32, true);
  const bool is_void = ce->getType()->isVoidType();
  if (!is_void && !ce->getType()->isStructureOrClassType()) {
    if (!ce->getType()->isRealFloatingType()) ret_t = scalar_type(ce->getType(), loc);
  }
  const CallSite site{*this, ce, loc, name, nargs, want, ret_t, is_void};
  // --- errors, assertions, assumptions, nondeterminism, atomic sections (verifier_model.cpp)
  if (const auto r = verifier_call(site, defined)) return *r;
  if (!defined && (starts_with(name, "__sync_") || starts_with(name, "__c11_atomic_") || starts_with(name, "__atomic_")))
    return rv_sync_call(name, ce, want);

  // --- pthreads
  if (starts_with(name, "pthread_") || name == "sched_yield") return pthread_call(site);

  // --- heap, string.h, sscanf, output (libc_model.cpp)
  if (const auto r = libc_call(site, defined, malloc_type)) return *r;

  // --- pure functions of the C library without a body: exact models (pure_libc.cpp)
  if (!defined)
    if (const auto r = pure_libc_call(site)) return *r;

  // --- functions without a body whose effect is not a value: control that does not return or
  // comes back later (a longjmp, a signal handler, an atexit handler, another process).
  // "Returns an arbitrary value and changes nothing else" would drop executions: unsupported.
  if (!defined) {
    static const char* const kControl[] = {"setjmp",  "_setjmp", "sigsetjmp", "__sigsetjmp", "longjmp",
                                           "_longjmp", "siglongjmp", "fork",  "vfork",       "execv",
                                           "execve",  "execvp",  "execl",     "execlp",      "execle",
                                           "signal",  "sigaction", "atexit",  "at_quick_exit", "raise",
                                           "kill",    "alarm",   "system",    "popen"};
    for (const char* c : kControl)
      if (name == c)
        unsupported(loc, "call to '" + name + "' (control flow or processes the C library changes; not modelled)");
  }

  // --- functions without a body
  if (!defined) return rv_undefined_call(ce, fd, want);

  // --- defined functions
  const FunctionDecl* def = fd->getDefinition();
  if (def->isVariadic()) unsupported(loc, "call to variadic function '" + name + "'");
  if (ce->getType()->isRecordType()) unsupported(loc, "function returning a struct");
  if (nargs < def->getNumParams()) unsupported(loc, "too few arguments in call to '" + name + "'");
  ir::Instr in;
  in.kind = InstrKind::Call;
  for (unsigned i = 0; i < nargs; ++i) {
    if (i >= def->getNumParams()) {
      rvalue(ce->getArg(i), false);
      continue;
    }
    QualType pt = def->getParamDecl(i)->getType();
    if (is_aggregate(pt)) unsupported(ce->getArg(i)->getExprLoc(), "struct passed by value");
    in.args.push_back(conv(scalar_type(pt, ce->getArg(i)->getExprLoc()), rvalue(ce->getArg(i))));
  }
  in.callee = function_id(fd);
  LocalId lhs = ir::kNoLocal;
  if (want && !is_void) {
    lhs = new_tmp(ret_t);
    in.lhs = lhs;
  }
  emit(std::move(in));
  return lhs == ir::kNoLocal ? nullptr : em().mk_local(ret_t, lhs);
}

// ---------------------------------------------------------------------------------------
// Function pointers: a function's address is (o, 0) for an object `o` without cells (one per
// function, named after it), so a dereference of it as data is a MemSafety error and `==`
// compares functions. A call through a pointer dispatches over every function whose address
// the program uses (UseScan::escaping) with a body and as many parameters as the call has
// arguments: `if (fp == &f1) f1(args); else if (fp == &f2) f2(args); ...`, and a pointer to
// none of them (null, a function without a body, garbage) fails a MemSafety assert — UNKNOWN,
// never a skipped call.

ObjectId Translator::function_object(const FunctionDecl* fd) {
  fd = fd->getCanonicalDecl();
  if (auto it = function_objects_.find(fd); it != function_objects_.end()) return it->second;
  ir::Object o;
  o.kind = ir::ObjectKind::Global;
  o.name = fd->getNameAsString();
  o.loc = ir_loc(fd->getLocation());
  const ObjectId id = prog_.add_object(std::move(o));
  function_objects_[fd] = id;
  return id;
}

// The address a function designator denotes: `f`, `*fp`, `**fp`, `(&f)`.
ExprRef Translator::function_designator(const Expr* e) {
  e = e->IgnoreParens();
  if (const auto* dr = dyn_cast<DeclRefExpr>(e))
    if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl())) return em().mk_obj_addr(function_object(fd), 0);
  if (const auto* uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_Deref) return rvalue(uo->getSubExpr());
  unsupported(e->getExprLoc(), std::string("function designator '") + e->getStmtClassName() + "'");
}

// The functions a pointer call with these argument types and this result type (null: unused)
// can reach: same number of parameters, each a pointer where the argument is one, and a result
// of the same kind (void, pointer, integer). A function that a call reaches only through a
// more exotic cast is left out, which makes that call a MemSafety error (UNKNOWN).
std::vector<const FunctionDecl*> Translator::pointer_targets(const std::vector<QualType>& arg_types, QualType ret) {
  auto kind = [](QualType t) {
    t = t.getCanonicalType();
    return t->isVoidType() ? 0 : (t->isPointerType() || t->isArrayType() || t->isFunctionType()) ? 1 : 2;
  };
  std::vector<const FunctionDecl*> out;
  for (const FunctionDecl* fd : scan().escaping) {
    const FunctionDecl* def = fd->getDefinition();
    if (!def || def->isVariadic() || def->isMain() || def->getNumParams() != arg_types.size()) continue;
    if (!ret.isNull() && kind(ret) != kind(def->getReturnType())) continue;
    bool ok = true;
    for (unsigned i = 0; i < arg_types.size(); ++i) ok = ok && kind(arg_types[i]) == kind(def->getParamDecl(i)->getType());
    if (ok) out.push_back(def);
  }
  std::sort(out.begin(), out.end(), [&](const FunctionDecl* x, const FunctionDecl* y) {
    return sm_.isBeforeInTranslationUnit(x->getLocation(), y->getLocation());
  });
  return out;
}

ExprRef Translator::rv_indirect_call(const CallExpr* ce, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  if (ce->getType()->isRecordType()) unsupported(loc, "function returning a struct");
  if (ce->getType()->isRealFloatingType()) unsupported(loc, "floating-point type '" + ce->getType().getAsString() + "'");
  const ExprRef fp = tmp_of(conv(Type::pointer(), rvalue(ce->getCallee())));
  // C evaluates the arguments once, before the call: into temporaries shared by every branch.
  std::vector<ExprRef> args;
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    if (is_aggregate(ce->getArg(i)->getType())) unsupported(ce->getArg(i)->getExprLoc(), "struct passed by value");
    args.push_back(tmp_of(rvalue(ce->getArg(i))));
  }
  const bool is_void = ce->getType()->isVoidType();
  const bool value = want && !is_void;
  const Type ret_t = is_void ? Type::integer(32, true) : scalar_type(ce->getType(), loc);
  const LocalId result = value ? new_tmp(ret_t) : ir::kNoLocal;
  std::vector<QualType> arg_types;
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) arg_types.push_back(ce->getArg(i)->getType());
  auto call = [&](const FunctionDecl* def) {
    ir::Instr in;
    in.kind = InstrKind::Call;
    for (unsigned i = 0; i < args.size(); ++i) {
      const QualType pt = def->getParamDecl(i)->getType();
      if (is_aggregate(pt)) unsupported(def->getParamDecl(i)->getLocation(), "struct passed by value");
      in.args.push_back(conv(scalar_type(pt, loc), args[i]));
    }
    in.callee = function_id(def);
    if (value) {
      const Type rt = scalar_type(def->getReturnType(), def->getLocation());
      in.lhs = new_tmp(rt);
      const LocalId r = in.lhs;
      emit(std::move(in));
      emit(InstrKind::Assign, conv(ret_t, em().mk_local(rt, r)), nullptr, result);
    } else {
      emit(std::move(in));
    }
  };
  dispatch(fp, pointer_targets(arg_types, value ? ce->getType() : QualType()), call,
           "call through a pointer to no function of the program with " + std::to_string(ce->getNumArgs()) +
               " parameters (null, invalid, or without a body)");
  return value ? em().mk_local(ret_t, result) : nullptr;
}

// `if (fp == &t1) one(t1); else if (fp == &t2) one(t2); ... else Assert[MemSafety](false)`.
void Translator::dispatch(ExprRef fp, const std::vector<const FunctionDecl*>& targets,
                          const std::function<void(const FunctionDecl*)>& one, const std::string& none) {
  const int end = new_label();
  for (const FunctionDecl* def : targets) {
    const int next = new_label();
    jump(next, em().mk_binary(Op::Ne, fp, em().mk_obj_addr(function_object(def), 0)));
    one(def);
    jump(end);
    place(next);
  }
  ir::Instr fail;
  fail.kind = InstrKind::Assert;
  fail.assert_kind = ir::AssertKind::MemSafety;
  fail.a = em().mk_false();
  fail.message = none;
  emit(std::move(fail));
  place(end);
}

// A function without a body (`nondet_int()`, `time(0)`): after CBMC, the call returns an
// arbitrary value of its return type and changes nothing else, and the file gets one warning
// per such function. A call that passes a pointer the function could write through (a
// non-const pointer parameter, or any pointer argument without a prototype) is unsupported
// instead: "changes nothing" would then drop writes a real definition makes (`time(&t)`).
ExprRef Translator::rv_undefined_call(const CallExpr* ce, const FunctionDecl* fd, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  const std::string name = fd->getNameAsString();
  if (!options_.undefined_nondet) unsupported(loc, "call to undefined function '" + name + "'");
  const bool readonly = options_.readonly_functions.count(name) > 0;
  if (fd->isVariadic() && !readonly) unsupported(loc, "call to undefined variadic function '" + name + "'");
  const QualType rt = ce->getType();
  if (rt->isRecordType()) unsupported(loc, "undefined function '" + name + "' returning a struct");
  if (rt->isRealFloatingType()) unsupported(loc, "floating-point type '" + rt.getAsString() + "'");
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    const Expr* a = ce->getArg(i);
    if (a->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull)) continue;
    QualType pt = i < fd->getNumParams() ? fd->getParamDecl(i)->getType() : a->IgnoreParenImpCasts()->getType();
    pt = pt.getCanonicalType();
    if (!readonly && (pt->isArrayType() || (pt->isPointerType() && !pt->getPointeeType().isConstQualified())))
      unsupported(a->getExprLoc(), "call to undefined function '" + name +
                                       "' with a pointer it could write through (argument " +
                                       std::to_string(i + 1) + ")");
  }
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) rvalue(ce->getArg(i), false);  // reads stay accesses
  warn("undefined:" + name, loc,
       "function '" + name + "' has no body: each call returns an arbitrary value and changes nothing "
       "else; a counterexample that uses its value is confirmed natively with the real library before it "
       "is printed" + std::string(readonly ? "; its reads through pointer arguments are not modelled (--assume-readonly)"
                                           : " (--no-undefined-nondet rejects it)"));
  if (rt->isVoidType() || !want) return nullptr;
  const Type t = scalar_type(rt, loc);
  ir::Instr h;
  h.kind = InstrKind::Havoc;
  h.lhs = new_tmp(t);
  h.message = name + "()";  // traces print the value, as for __VERIFIER_nondet_*
  const LocalId lhs = h.lhs;
  emit(std::move(h));
  return em().mk_local(t, lhs);
}

}  // namespace siren::frontend
