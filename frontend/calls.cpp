// Calls. A call of a library function maps to dedicated instructions (rv_call): errors,
// assertions and assumptions (reach_error, assert, __VERIFIER_assume), nondeterminism
// (__VERIFIER_nondet_*), atomic sections, the pthread API (threads, mutexes, condition
// variables, rwlocks, barriers, once, thread-specific data), malloc/calloc/free and output;
// string.h and sscanf are modelled in libc_model.cpp, atomic builtins in atomics.cpp. A
// defined function gets a Call; a call through a pointer dispatches over the functions it can
// reach; a function without a body returns an arbitrary value (after CBMC).
#include "frontend/translator.hpp"

#include <algorithm>

namespace siren::frontend {

// ---------------------------------------------------------------------------------------
// Calls: library functions map to instructions, defined functions to Call

ExprRef Translator::rv_call(const CallExpr* ce, bool want, QualType malloc_type) {
  const SourceLocation loc = ce->getExprLoc();
  const FunctionDecl* fd = ce->getDirectCallee();
  if (!fd) return rv_indirect_call(ce, want);
  const std::string name = fd->getNameAsString();
  const bool defined = fd->getDefinition() != nullptr;
  const unsigned nargs = ce->getNumArgs();
  auto arg = [&](unsigned i) -> const Expr* {
    if (i >= nargs) unsupported(loc, "too few arguments in call to '" + name + "'");
    return ce->getArg(i);
  };
  auto ptr_arg = [&](unsigned i) { return conv(Type::pointer(), rvalue(arg(i))); };
  auto side_effects_only = [&](unsigned from) {
    for (unsigned i = from; i < nargs; ++i)
      if (needs_instrs(ce->getArg(i))) rvalue(ce->getArg(i), false);
  };
  Type ret_t = Type::integer(32, true);
  const bool is_void = ce->getType()->isVoidType();
  if (!is_void && !ce->getType()->isStructureOrClassType()) {
    if (!ce->getType()->isRealFloatingType()) ret_t = scalar_type(ce->getType(), loc);
  }
  auto zero = [&]() -> ExprRef { return want && !is_void ? em().mk_const(ret_t, 0) : nullptr; };
  auto havoc_result = [&]() -> ExprRef {
    if (!want || is_void) return nullptr;
    LocalId t = new_tmp(ret_t);
    emit(InstrKind::Havoc, nullptr, nullptr, t);
    return em().mk_local(ret_t, t);
  };
  auto property_fail = [&](const std::string& msg, ExprRef cond) {
    ir::Instr in;
    in.kind = InstrKind::Assert;
    in.assert_kind = ir::AssertKind::Property;
    in.a = cond ? cond : em().mk_false();
    in.message = msg;
    emit(std::move(in));
  };
  auto string_arg = [&](unsigned i) -> std::string {
    if (i < nargs)
      if (const auto* sl = dyn_cast<StringLiteral>(strip(ce->getArg(i))))
        if (sl->getCharByteWidth() == 1) return sl->getString().str();
    return "?";
  };

  // --- errors and assertions
  if (name == "reach_error" || name == "__VERIFIER_error") {
    property_fail("reach_error() called", nullptr);
    return zero();
  }
  if (name == "__assert_fail" || name == "__assert_rtn" || name == "__assert" || name == "_assert") {
    unsigned i = name == "__assert_rtn" ? 3 : 0;
    property_fail("assert(" + string_arg(i) + ")", nullptr);
    return zero();
  }
  if (!defined && (name == "assert" || name == "__VERIFIER_assert")) {
    ExprRef c = to_bool(rvalue(arg(0)));
    property_fail("assert(" + source_text(arg(0)->getSourceRange()) + ")", c);
    return zero();
  }
  if (!defined && (name == "__VERIFIER_assume" || name == "assume_abort_if_not" || name == "assume")) {
    emit(InstrKind::Assume, to_bool(rvalue(arg(0))));
    return zero();
  }
  if (name == "abort" || name == "exit" || name == "_Exit" || name == "__builtin_abort" ||
      name == "__builtin_trap" || name == "__builtin_unreachable") {
    side_effects_only(0);
    emit(InstrKind::Abort);
    return zero();
  }
  if (name == "__builtin_expect") {
    ExprRef v = rvalue(arg(0));
    side_effects_only(1);
    return v;
  }
  // --- nondeterminism and atomicity
  if (starts_with(name, "__VERIFIER_nondet_")) {
    if (is_void) return nullptr;
    if (ce->getType()->isRealFloatingType()) unsupported(loc, "floating-point type");
    LocalId t = new_tmp(ret_t);
    ir::Instr h;
    h.kind = InstrKind::Havoc;
    h.lhs = t;
    h.message = name + "()";  // a __VERIFIER_nondet_* call (traces say its value), also in a macro
    emit(std::move(h));
    return em().mk_local(ret_t, t);
  }
  if (name == "__VERIFIER_atomic_begin") {
    explicit_atomic_begin_ = loc;
    emit(InstrKind::AtomicBegin);
    return zero();
  }
  if (name == "__VERIFIER_atomic_end") { emit(InstrKind::AtomicEnd); return zero(); }

  if (!defined && (starts_with(name, "__sync_") || starts_with(name, "__c11_atomic_") || starts_with(name, "__atomic_")))
    return rv_sync_call(name, ce, want);

  // --- pthreads
  if (starts_with(name, "pthread_") || name == "sched_yield") {
    auto sync1 = [&](InstrKind k) {
      ExprRef a = ptr_arg(0);
      check_ptr(a);
      emit(k, a);
      return zero();
    };
    if (name == "pthread_create") {
      ExprRef a = ptr_arg(0);
      if (!(a->is_const() && a->value == 0)) check_ptr(a);
      if (needs_instrs(arg(1))) rvalue(arg(1), false);
      const Expr* f = strip(arg(2));
      if (const auto* uo = dyn_cast<UnaryOperator>(f); uo && uo->getOpcode() == UO_AddrOf) f = strip(uo->getSubExpr());
      const FunctionDecl* start = nullptr;
      if (const auto* dr = dyn_cast<DeclRefExpr>(f)) start = dyn_cast<FunctionDecl>(dr->getDecl());
      if (start && !start->getDefinition())
        unsupported(arg(2)->getExprLoc(), "thread start routine '" + start->getNameAsString() + "' has no body");
      auto create = [&](ExprRef b, const FunctionDecl* routine) {
        ir::Instr in;
        in.kind = InstrKind::ThreadCreate;
        in.a = a;
        in.b = b;
        in.callee = function_id(routine);
        emit(std::move(in));
      };
      if (start) {
        create(ptr_arg(3), start);
        return zero();
      }
      // A start routine chosen at run time: one create per possible target (see
      // rv_indirect_call), a pointer to none of them is a MemSafety error.
      const ExprRef fp = tmp_of(ptr_arg(2));
      const ExprRef b = tmp_of(ptr_arg(3));
      dispatch(fp, pointer_targets({ctx_.VoidPtrTy}, ctx_.VoidPtrTy), [&](const FunctionDecl* def) { create(b, def); },
               "pthread_create with a start routine that is no one-parameter function of the program");
      return zero();
    }
    if (name == "pthread_join") {
      ExprRef a = conv(Type::integer(64, false), rvalue(arg(0)));
      ExprRef b = ptr_arg(1);
      if (!(b->is_const() && b->value == 0)) check_ptr(b);
      emit(InstrKind::ThreadJoin, a, b);
      return zero();
    }
    if (name == "pthread_exit") {
      emit(InstrKind::ThreadExit, ptr_arg(0));
      return zero();
    }
    if (name == "pthread_mutex_lock" || name == "pthread_spin_lock") return sync1(InstrKind::Lock);
    if (name == "pthread_mutex_unlock" || name == "pthread_spin_unlock") return sync1(InstrKind::Unlock);
    if (name == "pthread_mutex_trylock" || name == "pthread_spin_trylock") {
      ExprRef a = ptr_arg(0);
      check_ptr(a);
      LocalId t = new_tmp(Type::integer(32, true));
      emit(InstrKind::TryLock, a, nullptr, t);
      return want ? conv(ret_t, em().mk_local(Type::integer(32, true), t)) : nullptr;
    }
    if (name == "pthread_cond_wait" || name == "pthread_cond_timedwait") {
      ExprRef a = ptr_arg(0);
      check_ptr(a);
      ExprRef b = ptr_arg(1);
      check_ptr(b);
      side_effects_only(2);
      emit(InstrKind::CondWait, a, b);
      return name == "pthread_cond_wait" ? zero() : havoc_result();
    }
    if (name == "pthread_cond_signal") return sync1(InstrKind::CondSignal);
    if (name == "pthread_cond_broadcast") return sync1(InstrKind::CondBroadcast);
    if (name == "pthread_rwlock_tryrdlock" || name == "pthread_rwlock_trywrlock") {
      // One atomic step over the lock cell (RdLock/WrLock's encoding: readers count up, a
      // writer holds -1): busy when a writer holds it (rd) or anyone does (wr); else take it.
      // The result is 0 or EBUSY (16).
      ExprRef a = ptr_arg(0);
      const Type i32 = Type::integer(32, true);
      const bool rd = name == "pthread_rwlock_tryrdlock";
      const bool began = begin_atomic_step(loc);
      check_ptr(a);
      const LocalId cur = new_tmp(i32);
      emit(InstrKind::Assign, em().mk_load(i32, a), nullptr, cur);
      const ExprRef c = em().mk_local(i32, cur);
      const ExprRef busy = rd ? em().mk_binary(Op::Slt, c, em().mk_const(i32, 0))
                              : em().mk_binary(Op::Ne, c, em().mk_const(i32, 0));
      const int done = new_label();
      jump(done, busy);
      emit(InstrKind::Store, a, rd ? em().mk_binary(Op::Add, c, em().mk_const(i32, 1)) : em().mk_const(i32, -1));
      place(done);
      end_atomic_step(began);
      return want ? conv(ret_t, em().mk_ite(busy, em().mk_const(i32, 16), em().mk_const(i32, 0))) : nullptr;
    }
    if (name == "pthread_key_create" || name == "pthread_getspecific" || name == "pthread_setspecific" ||
        name == "pthread_key_delete")
      return rv_pthread_key(name, ce, want);
    if (name == "pthread_barrier_init" || name == "pthread_barrier_wait") {
      // The barrier's cell: count << 20 | generation << 16 | arrived. A waiter arrives in one
      // atomic step; the last one resets `arrived`, flips the generation and returns
      // PTHREAD_BARRIER_SERIAL_THREAD (-1); the others wait for the flip (0).
      const Type i32 = Type::integer(32, true);
      const ExprRef b = tmp_of(ptr_arg(0));
      auto k = [&](std::int64_t v) { return em().mk_const(i32, ir::normalize(i32, static_cast<std::uint64_t>(v))); };
      if (name == "pthread_barrier_init") {
        if (needs_instrs(arg(1))) rvalue(arg(1), false);
        const ExprRef n = tmp_of(conv(i32, rvalue(arg(2))));
        assert_limit(em().mk_binary(Op::LAnd, em().mk_binary(Op::Sle, k(1), n), em().mk_binary(Op::Slt, n, k(2048))),
                     "pthread_barrier_init with a count outside 1..2047");
        check_ptr(b);
        emit(InstrKind::Store, b, em().mk_binary(Op::Shl, n, k(20)));
        return want ? em().mk_const(ret_t, 0) : nullptr;
      }
      auto is_last = [&](ExprRef v) {
        const ExprRef arrived = em().mk_binary(Op::Add, em().mk_binary(Op::BitAnd, v, k(0xffff)), k(1));
        return em().mk_binary(Op::Eq, arrived, em().mk_binary(Op::LShr, v, k(20)));
      };
      const ExprRef vv = atomic_rmw(b, i32, loc, [&](ExprRef v) {
        const ExprRef next_gen = em().mk_binary(Op::BitXor, em().mk_binary(Op::BitAnd, v, k(~0xffffLL)), k(0x10000));
        return em().mk_ite(is_last(v), next_gen, em().mk_binary(Op::Add, v, k(1)));
      });
      const LocalId last = new_tmp(Type::boolean());
      emit(InstrKind::Assign, is_last(vv), nullptr, last);
      const ExprRef lv = em().mk_local(Type::boolean(), last);
      const int out = new_label();
      jump(out, lv);
      const ExprRef gen = em().mk_binary(Op::BitAnd, vv, k(0x10000));
      emit(InstrKind::Assume,
           em().mk_binary(Op::Ne, em().mk_binary(Op::BitAnd, em().mk_load(i32, b), k(0x10000)), gen));
      place(out);
      return want ? conv(ret_t, em().mk_ite(lv, k(-1), k(0))) : nullptr;
    }
    if (name == "pthread_once") {
      // The first caller (control 0 -> 1, one atomic step) runs the routine and then sets 2;
      // every other caller waits until it is 2 (an Assume over the control's cell).
      ExprRef oc = ptr_arg(0);
      const Expr* f = strip(arg(1));
      if (const auto* uo = dyn_cast<UnaryOperator>(f); uo && uo->getOpcode() == UO_AddrOf) f = strip(uo->getSubExpr());
      const auto* dr = dyn_cast<DeclRefExpr>(f);
      const auto* routine = dr ? dyn_cast<FunctionDecl>(dr->getDecl()) : nullptr;
      if (!routine || !routine->getDefinition() || routine->getNumParams() != 0)
        unsupported(arg(1)->getExprLoc(), "pthread_once with a routine that is not a function without parameters");
      const Type i32 = Type::integer(32, true);
      oc = tmp_of(oc);
      const bool began = begin_atomic_step(loc);
      check_ptr(oc);
      const LocalId was = new_tmp(i32);
      emit(InstrKind::Assign, em().mk_load(i32, oc), nullptr, was);
      const ExprRef first = em().mk_binary(Op::Eq, em().mk_local(i32, was), em().mk_const(i32, 0));
      const int not_first = new_label(), end = new_label();
      jump(not_first, em().mk_unary(Op::LNot, first));
      emit(InstrKind::Store, oc, em().mk_const(i32, 1));
      place(not_first);
      end_atomic_step(began);
      jump(end, em().mk_unary(Op::LNot, first));
      ir::Instr call;
      call.kind = InstrKind::Call;
      call.callee = function_id(routine);
      emit(std::move(call));
      emit(InstrKind::Store, oc, em().mk_const(i32, 2));
      const int out = new_label();
      jump(out);
      place(end);
      emit(InstrKind::Assume, em().mk_binary(Op::Eq, em().mk_load(i32, oc), em().mk_const(i32, 2)));
      place(out);
      return want ? em().mk_const(ret_t, 0) : nullptr;
    }
    if (name == "pthread_rwlock_rdlock") return sync1(InstrKind::RdLock);
    if (name == "pthread_rwlock_wrlock") return sync1(InstrKind::WrLock);
    if (name == "pthread_rwlock_unlock") return sync1(InstrKind::RwUnlock);
    if (name == "pthread_mutex_init" || name == "pthread_cond_init" || name == "pthread_rwlock_init" ||
        name == "pthread_spin_init") {
      ExprRef a = ptr_arg(0);
      check_ptr(a);
      side_effects_only(1);
      emit(InstrKind::Store, a, em().mk_const(Type::integer(32, true), 0));
      return zero();
    }
    if (name == "pthread_mutex_destroy" || name == "pthread_cond_destroy" || name == "pthread_spin_destroy" ||
        name == "pthread_barrier_destroy" || starts_with(name, "pthread_barrierattr_") ||
        name == "pthread_rwlock_destroy" || starts_with(name, "pthread_attr_") ||
        starts_with(name, "pthread_mutexattr_") || starts_with(name, "pthread_condattr_") ||
        starts_with(name, "pthread_rwlockattr_") || name == "pthread_yield" || name == "sched_yield") {
      side_effects_only(0);
      emit(InstrKind::Skip);
      return zero();
    }
    if (name == "pthread_self") unsupported(loc, "pthread_self() is not supported yet");
    unsupported(loc, "call to unsupported pthread function '" + name + "'");
  }

  // --- heap
  if (name == "malloc" || name == "calloc" || name == "__builtin_malloc" || name == "alloca" ||
      name == "__builtin_alloca") {
    const bool is_calloc = name == "calloc";
    if (malloc_type.isNull() || malloc_type->isVoidType())
      unsupported(loc, name + "() whose result is not converted to a typed pointer");
    if (malloc_type->isIncompleteType() || malloc_type->isFunctionType())
      unsupported(loc, name + "() of an incomplete type '" + malloc_type.getAsString() + "'");
    // The size: a fixed value (fixed_value: constants, never-modified variables) gives an
    // exact object; otherwise the object has kCapacity elements and a larger request is a
    // Limit error (cells past a smaller request are then addressable: an out-of-bounds access
    // there, undefined in C, is not reported).
    const Type size_t_ty = Type::integer(64, false);
    const std::uint64_t esize = std::max<std::uint64_t>(1, ctx_.getTypeSizeInChars(malloc_type).getQuantity());
    std::vector<ExprRef> sizes;
    bool fixed = true;
    for (unsigned i = 0; i < (is_calloc ? 2u : 1u); ++i) {
      ExprRef v = fixed_value(arg(i));
      if (!v) fixed = false;
      sizes.push_back(v ? conv(size_t_ty, v) : nullptr);
    }
    std::uint64_t count = kCapacity;
    if (fixed) {
      std::uint64_t bytes = 1;
      for (ExprRef v : sizes)
        if (__builtin_mul_overflow(bytes, v->value, &bytes)) unsupported(loc, name + "() size overflows");
      count = std::max<std::uint64_t>(1, bytes / esize + (bytes % esize != 0));
    } else {
      for (unsigned i = 0; i < sizes.size(); ++i)
        if (!sizes[i]) sizes[i] = tmp_of(conv(size_t_ty, rvalue(arg(i))));
      const ExprRef cap = em().mk_const(size_t_ty, kCapacity * esize);
      ExprRef ok = em().mk_binary(Op::Ule, sizes[0], cap);
      if (is_calloc) {  // both factors <= cap < 2^32: the product does not wrap
        ok = em().mk_binary(Op::LAnd, ok, em().mk_binary(Op::Ule, sizes[1], cap));
        ok = em().mk_binary(Op::LAnd, ok,
                            em().mk_binary(Op::Ule, em().mk_binary(Op::Mul, sizes[0], sizes[1]), cap));
      }
      assert_limit(ok, name + "() of more than " + std::to_string(kCapacity) +
                           " elements (the modelled capacity of a non-constant size)");
    }
    if (count > 100000 || count * cells_of(malloc_type, loc) > 100000)
      unsupported(loc, name + "() of more than 100000 cells");
    ir::Object o;
    o.kind = ir::ObjectKind::Heap;
    o.name = name + "@" + std::to_string(sm_.getExpansionLineNumber(ce->getBeginLoc()));
    o.loc = ir_loc(ce->getBeginLoc());
    std::vector<CellSpec> specs;
    for (std::uint64_t i = 0; i < count; ++i)
      flatten(malloc_type, count == 1 ? o.name : o.name + "[" + std::to_string(i) + "]", loc, specs);
    for (auto& s : specs) {
      ir::Cell c;
      c.name = s.name;
      c.type = s.type;
      c.kind = s.kind;
      c.init_nondet = !is_calloc;
      o.cells.push_back(std::move(c));
    }
    ir::Instr in;
    in.kind = InstrKind::Malloc;
    in.obj = prog_.add_object(std::move(o));
    in.lhs = new_tmp(Type::pointer());
    LocalId lhs = in.lhs;
    emit(std::move(in));
    return em().mk_local(Type::pointer(), lhs);
  }
  if (name == "free") {
    emit(InstrKind::Free, ptr_arg(0));
    return zero();
  }
  // --- string.h and sscanf (models below rv_call)
  if (!defined) {
    const std::string base = starts_with(name, "__builtin_") ? name.substr(10) : name;
    if (base == "strcpy" || base == "strncpy" || base == "strlen" || base == "strcmp" || base == "memset" ||
        base == "memcpy")
      return rv_string_call(base, ce, want);
    if (name == "sscanf" || name == "__isoc99_sscanf") return rv_sscanf(ce, want);
  }
  // --- output
  if (name == "printf" || name == "puts" || name == "putchar" || name == "fprintf" || name == "fflush" ||
      name == "fputs" || name == "sprintf" || name == "snprintf" || name == "perror" || name == "usleep" ||
      name == "sleep") {
    if (name == "sprintf" || name == "snprintf") unsupported(loc, "call to undefined function '" + name + "'");
    side_effects_only(0);
    return havoc_result();
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
// Thread-specific data: a key is an index below kPthreadKeys handed out by a counter (one
// atomic step), and each thread's values live in a thread-local object of that many pointer
// cells (null at first, as POSIX says). Destructors would run at thread exit: a key with one
// is unsupported rather than modelled without it.
ExprRef Translator::rv_pthread_key(const std::string& name, const CallExpr* ce, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  const Type u32 = Type::integer(32, false);
  auto hidden = [&](ObjectId& id, const char* oname, Type t, std::uint64_t n, bool tls) {
    if (id) return;
    ir::Object o;
    o.kind = ir::ObjectKind::Global;
    o.name = oname;
    o.loc = ir_loc(loc);
    o.thread_local_storage = tls;
    for (std::uint64_t i = 0; i < n; ++i) {
      ir::Cell c;
      c.name = n == 1 ? std::string(oname) : std::string(oname) + "[" + std::to_string(i) + "]";
      c.type = t;
      o.cells.push_back(std::move(c));
    }
    id = prog_.add_object(std::move(o));
  };
  hidden(pthread_keys_, "pthread keys", u32, 1, false);
  hidden(pthread_specific_, "pthread specific", Type::pointer(), kPthreadKeys, true);
  const unsigned nargs = ce->getNumArgs();
  if ((name == "pthread_key_create" || name == "pthread_setspecific") && nargs < 2)
    unsupported(loc, "too few arguments in call to '" + name + "'");
  if (nargs < 1) unsupported(loc, "too few arguments in call to '" + name + "'");
  auto result0 = [&]() -> ExprRef { return want ? em().mk_const(scalar_type(ce->getType(), loc), 0) : nullptr; };
  if (name == "pthread_key_create") {
    if (!ce->getArg(1)->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull))
      unsupported(ce->getArg(1)->getExprLoc(), "pthread_key_create with a destructor");
    const ExprRef kp = tmp_of(conv(Type::pointer(), rvalue(ce->getArg(0))));
    const ExprRef counter = em().mk_obj_addr(pthread_keys_, 0);
    const bool began = begin_atomic_step(loc);
    const LocalId k = new_tmp(u32);
    emit(InstrKind::Assign, em().mk_load(u32, counter), nullptr, k);
    const ExprRef kv = em().mk_local(u32, k);
    assert_limit(em().mk_binary(Op::Ult, kv, em().mk_const(u32, kPthreadKeys)),
                 "more than " + std::to_string(kPthreadKeys) + " pthread keys");
    emit(InstrKind::Store, counter, em().mk_binary(Op::Add, kv, em().mk_const(u32, 1)));
    end_atomic_step(began);
    check_ptr(kp);
    emit(InstrKind::Store, kp, kv);
    return result0();
  }
  if (name == "pthread_key_delete") {
    rvalue(ce->getArg(0), false);
    return result0();
  }
  const ExprRef key = conv(Type::integer(64, false), rvalue(ce->getArg(0)));
  const ExprRef slot = tmp_of(em().mk_binary(Op::PtrAdd, em().mk_obj_addr(pthread_specific_, 0), key));
  check_ptr(slot);  // a key that pthread_key_create did not hand out: out of the object
  if (name == "pthread_getspecific") {
    const LocalId v = new_tmp(Type::pointer());
    emit(InstrKind::Assign, em().mk_load(Type::pointer(), slot), nullptr, v);
    return want ? em().mk_local(Type::pointer(), v) : nullptr;
  }
  emit(InstrKind::Store, slot, conv(Type::pointer(), rvalue(ce->getArg(1))));
  return result0();
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
  if (fd->isVariadic()) unsupported(loc, "call to undefined variadic function '" + name + "'");
  const QualType rt = ce->getType();
  if (rt->isRecordType()) unsupported(loc, "undefined function '" + name + "' returning a struct");
  if (rt->isRealFloatingType()) unsupported(loc, "floating-point type '" + rt.getAsString() + "'");
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    const Expr* a = ce->getArg(i);
    if (a->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull)) continue;
    QualType pt = i < fd->getNumParams() ? fd->getParamDecl(i)->getType() : a->IgnoreParenImpCasts()->getType();
    pt = pt.getCanonicalType();
    if (pt->isArrayType() || (pt->isPointerType() && !pt->getPointeeType().isConstQualified()))
      unsupported(a->getExprLoc(), "call to undefined function '" + name +
                                       "' with a pointer it could write through (argument " +
                                       std::to_string(i + 1) + ")");
  }
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) rvalue(ce->getArg(i), false);  // reads stay accesses
  warn("undefined:" + name, loc,
       "function '" + name + "' has no body: each call returns an arbitrary value and changes nothing "
       "else (--no-undefined-nondet rejects it)");
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
