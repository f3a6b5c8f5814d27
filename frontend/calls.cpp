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
  if (ce->getType()->isRecordType())
    unsupported(loc, "value of a call of '" + name + "' returning a struct (only `x = f(...)` and initialisers)");
  return call_defined(ce, fd->getDefinition(), want, ret_t, is_void, nullptr);
}

// A call of a function with a body; `ret_slot`: where a struct result goes (its hidden first
// parameter, functions.cpp), null for a scalar or void one.
// A struct passed by value: the caller copies the argument into a temporary of its own frame
// (so its reads are at the call, as C evaluates arguments: a race names the call's line) and
// passes the temporary's address (a hidden pointer); the function copies it into the
// parameter's own object first (translate_function), reads no other thread can see.
ExprRef Translator::struct_argument(const Expr* a) {
  const QualType t = a->getType();
  ir::Object o;
  o.name = "argument@" + std::to_string(sm_.getExpansionLineNumber(a->getBeginLoc()));
  o.loc = ir_loc(a->getBeginLoc());
  o.kind = ir::ObjectKind::Local;
  std::vector<CellSpec> specs;
  flatten(t, o.name, a->getExprLoc(), specs);
  add_cells(o, specs, bytes_of(t, a->getExprLoc()), true);
  o.owner = st_->fn->id;
  const ObjectId id = prog_.add_object(std::move(o));
  st_->fn->frame_objects.push_back(id);
  const ExprRef addr = em().mk_obj_addr(id, 0);
  store_struct(a, addr, t, a->getExprLoc());
  return addr;
}

ExprRef Translator::call_defined(const CallExpr* ce, const FunctionDecl* def, bool want, Type ret_t, bool is_void,
                                 ExprRef ret_slot) {
  const SourceLocation loc = ce->getExprLoc();
  const std::string name = def->getNameAsString();
  const unsigned nargs = ce->getNumArgs();
  if (def->isVariadic()) unsupported(loc, "call to variadic function '" + name + "'");
  if (nargs < def->getNumParams()) unsupported(loc, "too few arguments in call to '" + name + "'");
  ir::Instr in;
  in.kind = InstrKind::Call;
  if (ret_slot) in.args.push_back(ret_slot);
  for (unsigned i = 0; i < nargs; ++i) {
    if (i >= def->getNumParams()) {
      rvalue(ce->getArg(i), false);
      continue;
    }
    QualType pt = def->getParamDecl(i)->getType();
    if (is_aggregate(pt)) {
      in.args.push_back(struct_argument(ce->getArg(i)));
      continue;
    }
    in.args.push_back(conv(scalar_type(pt, ce->getArg(i)->getExprLoc()), rvalue(ce->getArg(i))));
  }
  in.callee = function_id(def);
  LocalId lhs = ir::kNoLocal;
  if (want && !is_void && !ret_slot) {
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
  for (unsigned i = 0; i < ce->getNumArgs(); ++i)
    args.push_back(is_aggregate(ce->getArg(i)->getType()) ? struct_argument(ce->getArg(i)) : tmp_of(rvalue(ce->getArg(i))));
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
      if (is_aggregate(pt) != is_aggregate(arg_types[i]))
        unsupported(def->getParamDecl(i)->getLocation(), "a struct argument for a parameter that is not one");
      in.args.push_back(is_aggregate(pt) ? args[i] : conv(scalar_type(pt, loc), args[i]));
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
  // In a kernel environment, a pointer to no function of the driver is the kernel's (a
  // service table the kernel fills, as EFI's): a function without a body, whose value is
  // arbitrary (rv_undefined_call); elsewhere it is a memory-safety error.
  std::function<void()> kernel_fn;
  if (kernel_environment())
    kernel_fn = [&]() {
      if (!value) return;
      ir::Instr h;
      h.kind = InstrKind::Havoc;
      h.lhs = result;
      h.message = "(a kernel function through a pointer)()";  // confirmed natively, as a call's value
      emit(std::move(h));
    };
  dispatch(fp, pointer_targets(arg_types, value ? ce->getType() : QualType()), call,
           "call through a pointer to no function of the program with " + std::to_string(ce->getNumArgs()) +
               " parameters (null, invalid, or without a body)",
           kernel_fn);
  return value ? em().mk_local(ret_t, result) : nullptr;
}

// `if (fp == &t1) one(t1); else if (fp == &t2) one(t2); ... else Assert[MemSafety](false)`.
void Translator::dispatch(ExprRef fp, const std::vector<const FunctionDecl*>& targets,
                          const std::function<void(const FunctionDecl*)>& one, const std::string& none,
                          const std::function<void()>& none_fn) {
  const int end = new_label();
  for (const FunctionDecl* def : targets) {
    const int next = new_label();
    jump(next, em().mk_binary(Op::Ne, fp, em().mk_obj_addr(function_object(def), 0)));
    one(def);
    jump(end);
    place(next);
  }
  if (none_fn) {
    none_fn();
    place(end);
    return;
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
//
// In a kernel environment (a program that includes siren's kernel model, kernel/README.md,
// docs/drivers.md "Kernel functions without a body") such a function is the kernel's:
// variadic ones are allowed, and what it may write through a pointer argument follows
// kernel_through().
ExprRef Translator::rv_undefined_call(const CallExpr* ce, const FunctionDecl* fd, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  const std::string name = fd->getNameAsString();
  if (!options_.undefined_nondet) unsupported(loc, "call to undefined function '" + name + "'");
  const bool readonly = options_.readonly_functions.count(name) > 0;
  const bool kernel = !readonly && kernel_environment();
  if (fd->isVariadic() && !readonly && !kernel)
    unsupported(loc, "call to undefined variadic function '" + name + "'");
  const QualType rt = ce->getType();
  if (rt->isRecordType() && want) unsupported(loc, "undefined function '" + name + "' returning a struct");
  if (rt->isRealFloatingType()) unsupported(loc, "floating-point type '" + rt.getAsString() + "'");
  std::vector<bool> writable(ce->getNumArgs(), false);
  for (unsigned i = 0; i < ce->getNumArgs() && !readonly; ++i) {
    const Expr* a = ce->getArg(i);
    if (a->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull)) continue;
    // The kernel's variadic functions print (printk, dev_err, sprintf's arguments); its
    // sscanf is modelled (libc_model.cpp). A string literal is never written.
    if (kernel && (i >= fd->getNumParams() || isa<StringLiteral>(a->IgnoreParenImpCasts()))) continue;
    QualType pt = i < fd->getNumParams() ? fd->getParamDecl(i)->getType() : a->IgnoreParenImpCasts()->getType();
    pt = pt.getCanonicalType();
    if (!kernel_environment() && pt->isFunctionPointerType()) continue;  // a callback: it may be called (below)
    writable[i] = pt->isArrayType() || (pt->isPointerType() && !pt->getPointeeType().isConstQualified());
    if (writable[i] && !kernel)
      unsupported(a->getExprLoc(), "call to undefined function '" + name +
                                       "' with a pointer it could write through (argument " +
                                       std::to_string(i + 1) + ")");
  }
  // kernel: the pointer arguments of its prototype it may read or write through
  std::vector<std::pair<unsigned, ExprRef>> through;
  // outside a kernel environment (where a driver registers its entry points with the kernel's
  // functions, docs/drivers.md), and unless --assume-readonly names it: function pointers it may call
  std::vector<std::pair<unsigned, ExprRef>> callbacks;
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    const Expr* a = ce->getArg(i);
    if (!readonly && !kernel_environment() && a->getType().getCanonicalType()->isFunctionPointerType() &&
        !a->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull))
      callbacks.emplace_back(i, tmp_of(conv(Type::pointer(), rvalue(a))));
    else if (kernel && i < fd->getNumParams() && a->getType()->isPointerType() &&
        !a->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull) && !isa<StringLiteral>(a->IgnoreParenImpCasts()))
      through.emplace_back(i, tmp_of(conv(Type::pointer(), rvalue(a))));
    else if (is_aggregate(a->getType())) {  // a struct by value: the function reads its every cell
      LV l = lvalue(a->IgnoreParenImpCasts());
      if (l.is_local) unsupported(a->getExprLoc(), "struct passed by value");
      std::vector<CellSpec> specs;
      flatten(a->getType(), "", a->getExprLoc(), specs);
      for (const CellSpec& c : specs) emit(InstrKind::Assign, em().mk_load(c.type, cell_ptr(l.addr, c)), nullptr, new_tmp(c.type));
    } else
      rvalue(a, false);  // reads stay accesses
  }
  if (!options_.test_kernel_functions_touch_nothing)
    for (const auto& [i, p] : through) kernel_through(ce, name, i, p, writable[i]);
  for (const auto& [i, p] : callbacks) call_back(ce, name, i, p);
  if (!callbacks.empty()) {  // it may call them again, later, from another thread: not modelled
    warn("callback:" + name, loc,
         "function '" + name + "' has no body and is given a function pointer: a call may call it once, with "
         "arbitrary arguments, or not; calls after that (again, later, or from another thread) are not modelled, "
         "so an execution that reaches the end of the call ends there (a modelling limit: UNKNOWN unless a "
         "violation or a race comes first)");
    assert_limit(em().mk_false(), "'" + name + "' may call its function-pointer argument again, later or from "
                                  "another thread (not modelled)");
  }
  if (kernel) {
    warn("kernel:" + name, loc,
         "kernel function '" + name + "' has no body in the kernel model: each call returns an arbitrary value "
         "and writes arbitrary values to the plain data its pointer arguments point to (docs/drivers.md)");
  } else if (const auto pt = object_result_type(fd, rt)) {
    warn("undefined:" + name, loc,
         "function '" + name + "' has no body: each call returns a pointer to a '" + pt->getAsString() +
             "' that is a global variable of the program (or a member or element of one) or an object outside "
             "the program, maybe one an earlier call returned (never NULL, never the program's heap, locals or "
             "static variables), and changes nothing else (docs/semantics.md; --no-undefined-nondet rejects it)");
  } else {
    warn("undefined:" + name, loc,
         "function '" + name + "' has no body: each call returns an arbitrary value and changes nothing "
         "else; a counterexample that uses its value is confirmed natively with the real library before it "
         "is printed" + std::string(readonly ? "; its reads through pointer arguments are not modelled (--assume-readonly)"
                                             : " (--no-undefined-nondet rejects it)"));
  }
  if (rt->isVoidType()) return nullptr;
  if (const auto pt = object_result_type(fd, rt)) {
    const ExprRef p = rv_object_choice(ce, name, *pt);  // the site's object exists, used or not
    return want ? p : nullptr;
  }
  if (!want) return nullptr;
  const Type t = scalar_type(rt, loc);
  ir::Instr h;
  h.kind = InstrKind::Havoc;
  h.lhs = new_tmp(t);
  h.message = name + "()";  // traces print the value, as for __VERIFIER_nondet_*
  const LocalId lhs = h.lhs;
  emit(std::move(h));
  return em().mk_local(t, lhs);
}

// A function without a body given a function pointer `fp` (argument i: `foo(bar)`) may call it:
// an arbitrary choice (a Havoc traced as an input, message "name() calls back") calls it once
// or not at all, with arbitrary values for its parameters (numbers, or pointers whose use is a
// memory-safety error: UNKNOWN), dispatched as a call through a pointer (rv_indirect_call).
void Translator::call_back(const CallExpr* ce, const std::string& name, unsigned i, ExprRef fp) {
  const SourceLocation loc = ce->getArg(i)->getExprLoc();
  const auto* ft = ce->getArg(i)->getType().getCanonicalType()->getPointeeType()->getAs<FunctionProtoType>();
  if (!ft) unsupported(loc, "function pointer without a prototype given to '" + name + "'");
  std::vector<QualType> params(ft->getParamTypes().begin(), ft->getParamTypes().end());
  for (const QualType& q : params)
    if (is_aggregate(q) || q->isRealFloatingType())
      unsupported(loc, "function pointer given to '" + name + "' whose function has a parameter that is not a "
                       "number or a pointer");
  const Type b = Type::integer(8, false);
  ir::Instr h;
  h.kind = InstrKind::Havoc;
  h.lhs = new_tmp(b);
  h.message = name + "() calls back";
  const ExprRef calls = em().mk_local(b, h.lhs);
  emit(std::move(h));
  const int skip = new_label();
  jump(skip, em().mk_binary(Op::Eq, calls, em().mk_const(b, 0)));
  auto call = [&](const FunctionDecl* def) {
    ir::Instr in;
    in.kind = InstrKind::Call;
    for (unsigned k = 0; k < params.size(); ++k) {
      const Type t = scalar_type(def->getParamDecl(k)->getType(), loc);
      const LocalId v = new_tmp(t);
      emit(InstrKind::Havoc, nullptr, nullptr, v);
      in.args.push_back(em().mk_local(t, v));
    }
    in.callee = function_id(def);
    if (def->getReturnType()->isRecordType()) unsupported(loc, "callback returning a struct given to '" + name + "'");
    emit(std::move(in));  // its result, if any, unused
  };
  dispatch(fp, pointer_targets(params, QualType()), call,
           "'" + name + "' calls back a pointer to no function of the program (invalid, or without a body)");
  place(skip);
}

// A struct value stored to `dst` (`dst = e`, `T dst = e`, `return e` of a struct). A call of a
// function with a body writes its result to dst (its hidden first parameter) at its return; a
// call of one without (under --undefined-nondet, or the kernel's) is the call as a statement
// (rv_undefined_call: its arguments, the kernel's writes through them), then an arbitrary value
// in every cell of dst, as for a scalar result. Any other value is copied from its lvalue.
void Translator::store_struct(const Expr* src, ExprRef dst, QualType t, SourceLocation loc) {
  const auto* ce = dyn_cast<CallExpr>(src->IgnoreParenImpCasts());
  const FunctionDecl* fd = ce ? ce->getDirectCallee() : nullptr;
  if (fd && fd->getDefinition()) {
    call_defined(ce, fd->getDefinition(), false, Type::integer(32, true), true, tmp_of(dst));
    return;
  }
  if (fd && options_.undefined_nondet) {
    rvalue(ce, false);
    std::vector<CellSpec> specs;
    flatten(t, "", loc, specs);
    for (const CellSpec& c : specs) {
      ir::Instr h;
      h.kind = InstrKind::Havoc;
      h.lhs = new_tmp(c.type);
      h.message = fd->getNameAsString() + "()";
      const LocalId v = h.lhs;
      emit(std::move(h));
      emit(InstrKind::Store, cell_ptr(dst, c), em().mk_local(c.type, v));
    }
    return;
  }
  LV s = lvalue(src->IgnoreParenImpCasts());
  if (s.is_local) unsupported(loc, "struct copy");
  copy_cells(dst, s.addr, t, loc);
}

// A program that includes siren's kernel model (kernel/include/siren_kernel.h declares the
// marker): its functions without a body are the kernel's (rv_undefined_call).
bool Translator::kernel_environment() {
  if (!kernel_environment_) {
    const auto found = ctx_.getTranslationUnitDecl()->lookup(&ctx_.Idents.get("__siren_kernel_environment"));
    kernel_environment_ = !found.empty() && isa<VarDecl>(found.front());
  }
  return *kernel_environment_;
}

namespace {

// Numbers only: integers, enums, _Bool, and arrays and structs of them (no pointer, lock,
// union or float anywhere): arbitrary bytes are a value of such a type.
bool plain_data(ASTContext& ctx, QualType t) {
  t = t.getCanonicalType();
  if (t->isPointerType() || t->isRealFloatingType()) return false;
  if (t->isIntegralOrEnumerationType()) return true;
  if (const auto* at = ctx.getAsConstantArrayType(t)) return plain_data(ctx, at->getElementType());
  if (const auto* rt = t->getAs<RecordType>()) {
    const RecordDecl* rd = rt->getDecl()->getDefinition();
    if (!rd || rd->isUnion()) return false;
    for (const FieldDecl* f : rd->fields())
      if (!plain_data(ctx, f->getType())) return false;
    return true;
  }
  return false;
}

}  // namespace

// What a kernel function without a body may do through its pointer argument `i` (value p).
// - Where the argument designates a variable of the program (`&x`, `&s.f`, an array): it reads
//   every data cell there (loads, so that races on them are seen), `write` or not. Through a
//   pointer it reads nothing: a user-space address or an error code may be all it holds.
// - Where the extent is known (`&x`, an array, a pointer to one struct), `write` (a non-const
//   pointer parameter) and the data is plain (plain_data): it stores arbitrary values in every
//   cell, as a real definition could;
// - data that holds pointers or locks, or opaque data (void, an incomplete type), is not
//   written: Whoop's assumption, that the kernel does not change the driver's own structures
//   behind its back (docs/drivers.md states it).
// A writable pointer to numbers of unknown extent (`u8 *buf`, `int *vals`) is a Limit error
// when reached (UNKNOWN, naming the call): how much it writes cannot be known. What it reads
// there is not modelled (a string's extent is its terminator).
void Translator::kernel_through(const CallExpr* ce, const std::string& name, unsigned i, ExprRef p, bool write) {
  const SourceLocation loc = ce->getArg(i)->getExprLoc();
  const Expr* a = ce->getArg(i)->IgnoreParenImpCasts();
  // A variable, or a member or element of one, reached without going through a pointer.
  std::function<bool(const Expr*)> variable = [&](const Expr* e) {
    e = e->IgnoreParenImpCasts();
    if (isa<DeclRefExpr>(e)) return true;
    if (const auto* m = dyn_cast<MemberExpr>(e)) return !m->isArrow() && variable(m->getBase());
    if (const auto* s = dyn_cast<ArraySubscriptExpr>(e))
      return s->getBase()->IgnoreParenImpCasts()->getType()->isArrayType() && variable(s->getBase());
    return false;
  };
  QualType t;
  bool exact = false;   // the extent is known
  bool object = false;  // ... and it is (part of) a variable of the program
  if (a->getType()->isArrayType()) {
    t = a->getType();
    exact = true;
    object = variable(a);
  } else if (const auto* u = dyn_cast<UnaryOperator>(a); u && u->getOpcode() == UO_AddrOf) {
    t = u->getSubExpr()->getType();
    exact = true;
    object = variable(u->getSubExpr());
  } else if (a->getType()->isPointerType()) {
    t = a->getType()->getPointeeType();
  }
  if (t.isNull()) return;
  t = t.getCanonicalType();
  if (t->isVoidType() || t->isIncompleteType() || t->isFunctionType()) return;
  const bool plain = plain_data(ctx_, t);
  const std::string what = "kernel function '" + name + "' without a body in the model may write through argument " +
                           std::to_string(i + 1);
  if (!exact && !t->isRecordType()) {
    if (write && plain)
      assert_limit(em().mk_false(), "unsupported: " + what + " (a pointer to '" + t.getAsString() +
                                        "' of unknown extent)");
    return;
  }
  if (holds_union(t)) return;  // a union's cells: not flattened here (the front end may not model it)
  std::vector<CellSpec> cells;
  flatten(t, "", loc, cells);
  if (cells.size() > 256) {
    if (write && plain) assert_limit(em().mk_false(), "unsupported: " + what + " (" + std::to_string(cells.size()) + " cells)");
    return;
  }
  auto cell_addr = [&](const CellSpec& c) {
    ExprRef addr = c.offset == 0 ? p : em().mk_binary(Op::PtrAdd, p, int_const(static_cast<std::int64_t>(c.offset)));
    check_ptr(addr, access_size(c.type));
    return addr;
  };
  // The accesses are the model's, not the program's: a race through one is not printed
  // (race.cpp, ir::kKernelModelAccess).
  const std::string mark = std::string(ir::kKernelModelAccess) + name;
  for (const CellSpec& c : cells) {
    if (c.kind != CellKind::Data || !object) continue;
    const LocalId l = new_tmp(c.type);
    st_->fn->body[emit(InstrKind::Assign, em().mk_load(c.type, cell_addr(c)), nullptr, l)].message = mark;
  }
  if (!write || !plain) return;
  for (const CellSpec& c : cells) {
    if (c.type.is_ptr() || c.kind != CellKind::Data) return;  // plain_data said numbers: be safe
  }
  for (const CellSpec& c : cells) {
    ir::Instr h;
    h.kind = InstrKind::Havoc;
    h.lhs = new_tmp(c.type);
    h.message = name + "() writes";
    const LocalId v = h.lhs;
    emit(std::move(h));
    st_->fn->body[emit(InstrKind::Store, cell_addr(c), em().mk_local(c.type, v))].message = mark;
  }
}

}  // namespace siren::frontend
