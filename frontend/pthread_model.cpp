// The pthread API as IR instructions (DESIGN.md §B1, docs/semantics.md "Synchronisation"):
// threads (create, join, exit), mutexes and spin locks, condition variables, rwlocks (also
// try-locks), barriers, pthread_once and thread-specific data (keys); attribute and
// destroy calls are no-ops, and anything else is a precise `unsupported:` diagnostic.
#include "frontend/translator.hpp"

namespace siren::frontend {

namespace {

// The object type each family of synchronisation functions works on.
constexpr std::pair<const char*, const char*> kSyncTypes[] = {
    {"pthread_mutex_", "pthread_mutex_t"}, {"pthread_rwlock_", "pthread_rwlock_t"},
    {"pthread_spin_", "pthread_spinlock_t"}, {"pthread_cond_", "pthread_cond_t"},
    {"pthread_barrier_", "pthread_barrier_t"}};

}  // namespace

/// A synchronisation function given a pointer to another pthread type (glibc's layouts
/// differ, so this is undefined behaviour: `pthread_rwlock_wrlock(&a_mutex)` in one of
/// Goblint's tests) is unsupported: its effect is not the one siren would model.
void Translator::check_sync_object_types(const CallSite& site) {
  auto type_of = [&](unsigned i) -> std::string {
    if (i >= site.nargs) return "";
    const QualType t = site.ce->getArg(i)->IgnoreParenImpCasts()->getType();
    return t->isPointerType() ? t->getPointeeType().getUnqualifiedType().getAsString() : "";
  };
  auto check = [&](unsigned i, const std::string& want) {
    const std::string got = type_of(i);
    for (const auto& [prefix, type] : kSyncTypes)
      if (got == type && got != want)
        unsupported(site.ce->getArg(i)->getExprLoc(),
                    site.name + " on a " + got + " (a " + want + " function given another pthread object)");
  };
  for (const auto& [prefix, type] : kSyncTypes)  // (attribute functions have no `_` after the type)
    if (starts_with(site.name, prefix)) check(0, type);
  if (site.name == "pthread_cond_wait" || site.name == "pthread_cond_timedwait") check(1, "pthread_mutex_t");
}

ExprRef Translator::pthread_call(const CallSite& site) {
  const CallExpr* ce = site.ce;
  const SourceLocation loc = site.loc;
  const std::string& name = site.name;
  const bool want = site.want;
  const Type ret_t = site.ret_t;
  check_sync_object_types(site);
  auto sync1 = [&](InstrKind k) {
    ExprRef a = site.ptr_arg(0);
    check_ptr(a);
    emit(k, a);
    return site.zero();
  };
  if (name == "pthread_create") {
    ExprRef a = site.ptr_arg(0);
    if (!(a->is_const() && a->value == 0)) check_ptr(a);
    if (needs_instrs(site.arg(1))) rvalue(site.arg(1), false);
    const Expr* f = strip(site.arg(2));
    if (const auto* uo = dyn_cast<UnaryOperator>(f); uo && uo->getOpcode() == UO_AddrOf) f = strip(uo->getSubExpr());
    const FunctionDecl* start = nullptr;
    if (const auto* dr = dyn_cast<DeclRefExpr>(f)) start = dyn_cast<FunctionDecl>(dr->getDecl());
    if (start && !start->getDefinition())
      unsupported(site.arg(2)->getExprLoc(), "thread start routine '" + start->getNameAsString() + "' has no body");
    auto create = [&](ExprRef b, const FunctionDecl* routine) {
      ir::Instr in;
      in.kind = InstrKind::ThreadCreate;
      in.a = a;
      in.b = b;
      in.callee = function_id(routine);
      emit(std::move(in));
    };
    if (start) {
      create(site.ptr_arg(3), start);
      return site.zero();
    }
    // A start routine chosen at run time: one create per possible target (see
    // rv_indirect_call), a pointer to none of them is a MemSafety error.
    const ExprRef fp = tmp_of(site.ptr_arg(2));
    const ExprRef b = tmp_of(site.ptr_arg(3));
    dispatch(fp, pointer_targets({ctx_.VoidPtrTy}, ctx_.VoidPtrTy), [&](const FunctionDecl* def) { create(b, def); },
             "pthread_create with a start routine that is no one-parameter function of the program");
    return site.zero();
  }
  if (name == "pthread_join") {
    ExprRef a = conv(Type::integer(64, false), rvalue(site.arg(0)));
    ExprRef b = site.ptr_arg(1);
    if (!(b->is_const() && b->value == 0)) check_ptr(b, prog_.pointer_bytes);  // a void * is stored
    emit(InstrKind::ThreadJoin, a, b);
    return site.zero();
  }
  if (name == "pthread_exit") {
    emit(InstrKind::ThreadExit, site.ptr_arg(0));
    return site.zero();
  }
  if ((name == "pthread_mutex_lock" || name == "pthread_mutex_unlock" || name == "pthread_mutex_trylock") &&
      uses_mutex_kinds())
    return mutex_by_kind(site);
  if (name == "pthread_mutex_lock" || name == "pthread_spin_lock") return sync1(InstrKind::Lock);
  if (name == "pthread_mutex_unlock" || name == "pthread_spin_unlock") return sync1(InstrKind::Unlock);
  if (name == "pthread_mutex_trylock" || name == "pthread_spin_trylock") {
    ExprRef a = site.ptr_arg(0);
    check_ptr(a);
    LocalId t = new_tmp(Type::integer(32, true));
    emit(InstrKind::TryLock, a, nullptr, t);
    return want ? conv(ret_t, em().mk_local(Type::integer(32, true), t)) : nullptr;
  }
  if (name == "pthread_cond_wait" || name == "pthread_cond_timedwait") {
    ExprRef a = site.ptr_arg(0);
    check_ptr(a);
    ExprRef b = tmp_of(site.ptr_arg(1));
    check_ptr(b);
    site.side_effects_only(2);
    if (uses_mutex_kinds()) {  // a recursive mutex held twice stays held in glibc's wait: not modelled
      const Type i32 = Type::integer(32, true);
      assert_limit(em().mk_binary(Op::Eq, em().mk_binary(Op::LShr, em().mk_load(i32, b), em().mk_const(i32, kMutexKindShift)),
                                  em().mk_const(i32, 0)),
                   "unsupported: " + name + " with a recursive or error-checking mutex");
    }
    emit(InstrKind::CondWait, a, b);
    return name == "pthread_cond_wait" ? site.zero() : site.havoc_result();
  }
  if (name == "pthread_cond_signal") return sync1(InstrKind::CondSignal);
  if (name == "pthread_cond_broadcast") return sync1(InstrKind::CondBroadcast);
  if (name == "pthread_rwlock_tryrdlock" || name == "pthread_rwlock_trywrlock") {
    // One atomic step over the lock cell (RdLock/WrLock's encoding: readers count up, a
    // writer holds -1): busy when a writer holds it (rd) or anyone does (wr); else take it.
    // The result is 0 or EBUSY (16).
    ExprRef a = site.ptr_arg(0);
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
    const ExprRef b = tmp_of(site.ptr_arg(0));
    auto k = [&](std::int64_t v) { return em().mk_const(i32, ir::normalize(i32, static_cast<std::uint64_t>(v))); };
    if (name == "pthread_barrier_init") {
      if (needs_instrs(site.arg(1))) rvalue(site.arg(1), false);
      const ExprRef n = tmp_of(conv(i32, rvalue(site.arg(2))));
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
    ExprRef oc = site.ptr_arg(0);
    const Expr* f = strip(site.arg(1));
    if (const auto* uo = dyn_cast<UnaryOperator>(f); uo && uo->getOpcode() == UO_AddrOf) f = strip(uo->getSubExpr());
    const auto* dr = dyn_cast<DeclRefExpr>(f);
    const auto* routine = dr ? dyn_cast<FunctionDecl>(dr->getDecl()) : nullptr;
    if (routine && (!routine->getDefinition() || routine->getNumParams() != 0))
      unsupported(site.arg(1)->getExprLoc(), "pthread_once with a routine that is not a function without parameters");
    // A routine given through a pointer: evaluated before the call, then dispatched over the
    // program's functions without parameters whose address is taken (as a call through it).
    const ExprRef fp = routine ? nullptr : tmp_of(conv(Type::pointer(), rvalue(site.arg(1))));
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
    auto call = [&](const FunctionDecl* def) {
      ir::Instr in;
      in.kind = InstrKind::Call;
      in.callee = function_id(def);
      emit(std::move(in));
    };
    if (routine) call(routine);
    else dispatch(fp, pointer_targets({}, QualType()), call,
                  "pthread_once routine through a pointer to no function of the program without parameters "
                  "(null, invalid, or without a body)");
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
  if (name == "pthread_mutex_init" && uses_mutex_kinds() && site.nargs > 1 &&
      !site.arg(1)->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull)) {
    // The attribute's cell holds the type pthread_mutexattr_settype stored (0..3); adaptive (3)
    // is a normal mutex. The kind goes into the mutex cell, which is free.
    const Type i32 = Type::integer(32, true);
    const ExprRef m = tmp_of(site.ptr_arg(0));
    const ExprRef attr = tmp_of(site.ptr_arg(1));
    check_ptr(attr, access_size(i32));
    const ExprRef k = tmp_of(em().mk_load(i32, attr));
    auto is = [&](std::int64_t v) { return em().mk_binary(Op::Eq, k, em().mk_const(i32, static_cast<std::uint64_t>(v))); };
    const ExprRef kind = em().mk_ite(is(1), em().mk_const(i32, 1), em().mk_ite(is(2), em().mk_const(i32, 2), em().mk_const(i32, 0)));
    check_ptr(m);
    emit(InstrKind::Store, m, em().mk_binary(Op::Shl, kind, em().mk_const(i32, kMutexKindShift)));
    return site.zero();
  }
  if (name == "pthread_mutex_init" || name == "pthread_cond_init" || name == "pthread_rwlock_init" ||
      name == "pthread_spin_init") {
    ExprRef a = site.ptr_arg(0);
    check_ptr(a);
    site.side_effects_only(1);
    emit(InstrKind::Store, a, em().mk_const(Type::integer(32, true), 0));
    return site.zero();
  }
  if (starts_with(name, "pthread_attr_") || starts_with(name, "pthread_mutexattr_") ||
      starts_with(name, "pthread_condattr_") || starts_with(name, "pthread_rwlockattr_") ||
      starts_with(name, "pthread_barrierattr_"))
    return pthread_attr_call(site);
  if (name == "pthread_mutex_destroy" || name == "pthread_cond_destroy" || name == "pthread_spin_destroy" ||
      name == "pthread_barrier_destroy" || name == "pthread_rwlock_destroy" || name == "pthread_yield" ||
      name == "sched_yield") {
    site.side_effects_only(0);
    emit(InstrKind::Skip);
    return site.zero();
  }
  if (name == "pthread_self") {
    // A created thread's pthread_t is its thread id, the value pthread_create stored
    // (ThreadCreate); main's is all ones, which no created thread's is (docs/semantics.md).
    const Type u64 = Type::integer(64, false);
    const ExprRef id = tmp_of(em().mk_binary(Op::Sub, thread_self(), em().mk_const(Type::integer(32, true), 1)));
    const ExprRef h = em().mk_ite(em().mk_binary(Op::Eq, id, em().mk_const(id->type, 0)),
                                  em().mk_const(u64, ~std::uint64_t{0}), conv(u64, id));
    return want ? conv(ret_t, h) : nullptr;
  }
  if (name == "pthread_equal") {
    const ExprRef a = tmp_of(conv(Type::integer(64, false), rvalue(site.arg(0))));
    const ExprRef b = tmp_of(conv(Type::integer(64, false), rvalue(site.arg(1))));
    return want ? conv(ret_t, em().mk_binary(Op::Eq, a, b)) : nullptr;
  }
  if (name == "pthread_detach") {
    // Detaching changes no state siren models: a detached thread runs on until it ends, or
    // until main returns (which ends the process); joining it afterwards is undefined
    // (docs/semantics.md), and a join here still waits for it.
    site.side_effects_only(0);
    emit(InstrKind::Skip);
    return site.zero();
  }
  unsupported(loc, "call to unsupported pthread function '" + name + "'");
}

// ---------------------------------------------------------------------------------------
// Attributes (docs/semantics.md "Attributes"): one rule, no silent defaults. A setter whose
// value changes what siren models is modelled (the mutex type) or unsupported unless it asks
// for the default; a setter that changes nothing siren models (process-shared: one process;
// stack size; scheduling, which siren leaves arbitrary anyway; a condition's clock, since a
// timed wait may time out at any point) is a no-op; a getter siren cannot answer exactly is
// unsupported.
ExprRef Translator::pthread_attr_call(const CallSite& site) {
  const std::string& name = site.name;
  const Type i32 = Type::integer(32, true);
  auto noop = [&] {
    site.side_effects_only(0);
    emit(InstrKind::Skip);
    return site.zero();
  };
  // A setter whose value must be `dflt` (a fixed value) for siren's model to be exact.
  auto only_default = [&](std::int64_t dflt, const std::string& what) {
    const ExprRef v = site.nargs > 1 ? fixed_value(site.arg(1)) : nullptr;
    if (!v || ir::as_signed(v->type, v->value) != dflt)
      unsupported(site.loc, name + " with " + what + " other than the default (not modelled)");
    return noop();
  };
  if (name == "pthread_mutexattr_init") {
    if (!uses_mutex_kinds()) return noop();
    const ExprRef a = site.ptr_arg(0);
    check_ptr(a, access_size(i32));
    emit(InstrKind::Store, a, em().mk_const(i32, 0));
    return site.zero();
  }
  if (name == "pthread_mutexattr_settype") {
    // Valid types 0..3 (glibc: NORMAL = DEFAULT 0, RECURSIVE 1, ERRORCHECK 2, ADAPTIVE_NP 3) are
    // stored as given, another one is EINVAL (22) and stores nothing.
    const ExprRef a = tmp_of(site.ptr_arg(0));
    const ExprRef k = tmp_of(conv(i32, rvalue(site.arg(1))));
    const ExprRef valid = tmp_of(em().mk_binary(Op::Ule, conv(Type::integer(32, false), k), em().mk_const(Type::integer(32, false), 3)));
    const int skip = new_label();
    jump(skip, em().mk_unary(Op::LNot, valid));
    check_ptr(a, access_size(i32));
    emit(InstrKind::Store, a, k);
    place(skip);
    return site.want && !site.is_void ? conv(site.ret_t, em().mk_ite(valid, em().mk_const(i32, 0), em().mk_const(i32, 22))) : nullptr;
  }
  if (name == "pthread_mutexattr_gettype") {
    const ExprRef a = tmp_of(site.ptr_arg(0));
    const ExprRef out = tmp_of(site.ptr_arg(1));
    ExprRef k = em().mk_const(i32, 0);  // no settype anywhere: every attribute is the default
    if (uses_mutex_kinds()) {
      check_ptr(a, access_size(i32));
      k = tmp_of(em().mk_load(i32, a));
    }
    check_ptr(out, access_size(i32));
    emit(InstrKind::Store, out, k);
    return site.zero();
  }
  if (name == "pthread_mutexattr_setprotocol") return only_default(0, "a protocol (priority inheritance or ceiling)");
  if (name == "pthread_mutexattr_setrobust" || name == "pthread_mutexattr_setrobust_np")
    return only_default(0, "robustness (owner death)");
  if (name == "pthread_rwlockattr_setkind_np") return only_default(0, "a kind (writer preference)");
  if (name == "pthread_mutexattr_destroy" || name == "pthread_mutexattr_setpshared" ||
      name == "pthread_mutexattr_setprioceiling" || name == "pthread_condattr_init" ||
      name == "pthread_condattr_destroy" || name == "pthread_condattr_setpshared" ||
      name == "pthread_condattr_setclock" || name == "pthread_rwlockattr_init" ||
      name == "pthread_rwlockattr_destroy" || name == "pthread_rwlockattr_setpshared" ||
      name == "pthread_barrierattr_init" || name == "pthread_barrierattr_destroy" ||
      name == "pthread_barrierattr_setpshared" || name == "pthread_attr_init" || name == "pthread_attr_destroy" ||
      name == "pthread_attr_setstacksize" || name == "pthread_attr_setstack" || name == "pthread_attr_setguardsize" ||
      name == "pthread_attr_setschedpolicy" || name == "pthread_attr_setschedparam" ||
      name == "pthread_attr_setinheritsched" || name == "pthread_attr_setscope" ||
      name == "pthread_attr_setdetachstate")  // detached: as pthread_detach
    return noop();
  unsupported(site.loc, "call to " + name + " (its value or effect is not modelled)");
}

// ---------------------------------------------------------------------------------------
// Mutex kinds (docs/semantics.md "Mutex kinds"). In a program that can make a recursive or
// error-checking mutex, every pthread_mutex_lock/trylock/unlock reads the mutex cell's kind in
// one atomic step: a default mutex (kind 0) then takes the Lock/TryLock/Unlock instruction as
// in any other program; the other kinds are kept in the cell as kind << 28 | count << 13 |
// owner, with the thread's own id from the thread-local "pthread self" cell. A lock that
// must wait for another owner blocks at an Assume inside the atomic step: that execution ends
// there, and the one in which the thread takes the lock after the release exists as well.

bool Translator::uses_mutex_kinds() {
  if (!uses_mutex_kinds_) {
    auto settype = [](const FunctionDecl* fd) { return fd->getName() == "pthread_mutexattr_settype"; };
    bool uses = scan().names_mutex_kind;
    for (const auto& [fd, calls] : scan().calls) uses = uses || settype(fd);
    for (const FunctionDecl* fd : scan().escaping) uses = uses || settype(fd);
    uses_mutex_kinds_ = uses && !options_.test_ignore_mutex_kinds;
  }
  return *uses_mutex_kinds_;
}

ExprRef Translator::thread_self() {
  const Type i32 = Type::integer(32, true);
  if (!pthread_self_) {
    ir::Object o;
    o.kind = ir::ObjectKind::Global;
    o.name = "pthread self";
    o.thread_local_storage = true;
    o.thread_self = true;
    ir::Cell c;
    c.name = "pthread self";
    c.type = i32;
    c.size = 4;
    o.cells.push_back(std::move(c));
    o.size = 4;
    pthread_self_ = prog_.add_object(std::move(o));
  }
  return em().mk_load(i32, em().mk_obj_addr(pthread_self_, 0));
}

std::uint64_t Translator::mutex_initializer_kind(const Expr* init) {
  std::uint64_t kind = 0;
  std::function<void(const Expr*, const std::string&)> walk = [&](const Expr* e, const std::string& field) {
    e = e->IgnoreParenImpCasts();
    if (isa<ImplicitValueInitExpr>(e)) return;
    if (const auto* il = dyn_cast<InitListExpr>(e)) {
      const RecordDecl* rd = il->getType()->getAsRecordDecl();
      if (rd && rd->isUnion()) {
        if (il->getNumInits() > 0)
          walk(il->getInit(0), il->getInitializedFieldInUnion() ? il->getInitializedFieldInUnion()->getNameAsString() : "");
        return;
      }
      std::vector<std::string> names;
      if (rd)
        for (const FieldDecl* f : rd->fields()) names.push_back(f->getNameAsString());
      for (unsigned i = 0; i < il->getNumInits(); ++i) walk(il->getInit(i), i < names.size() ? names[i] : "");
      return;
    }
    Expr::EvalResult r;
    if (!e->EvaluateAsInt(r, ctx_) || !r.Val.isInt())
      unsupported(e->getExprLoc(), "synchronisation object initialiser that is not constant");
    const std::uint64_t v = r.Val.getInt().getZExtValue();
    if (v == 0) return;
    if (field != "__kind" || v > 3)
      unsupported(e->getExprLoc(), "synchronisation object initialiser with member '" + field + "' = " +
                                       std::to_string(v) + " (not modelled)");
    kind = v == 3 ? 0 : v;  // PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP: a normal mutex
  };
  walk(init, "");
  return kind;
}

ExprRef Translator::mutex_by_kind(const CallSite& site) {
  const Type i32 = Type::integer(32, true);
  auto k = [&](std::uint64_t v) { return em().mk_const(i32, v); };
  auto bin = [&](Op op, ExprRef a, ExprRef b) { return em().mk_binary(op, a, b); };
  const std::string& name = site.name;
  const ExprRef self = tmp_of(thread_self());
  const ExprRef m = tmp_of(site.ptr_arg(0));
  check_ptr(m);
  const LocalId r = new_tmp(i32);
  const int by_default = new_label(), done = new_label(), end = new_label();
  const bool began = begin_atomic_step(site.loc);
  const ExprRef v = tmp_of(em().mk_load(i32, m));
  const ExprRef kind = tmp_of(bin(Op::LShr, v, k(kMutexKindShift)));
  jump(by_default, bin(Op::Eq, kind, k(0)));
  const ExprRef owner = tmp_of(bin(Op::BitAnd, v, k(kMutexOwnerMask)));
  const ExprRef count = bin(Op::BitAnd, bin(Op::LShr, v, k(kMutexCountShift)), k(kMutexCountMax));
  const ExprRef mine = bin(Op::Eq, owner, self);
  const ExprRef is_free = bin(Op::Eq, owner, k(0));
  const ExprRef recursive = bin(Op::Eq, kind, k(1));
  const ExprRef taken = bin(Op::BitOr, bin(Op::Shl, kind, k(kMutexKindShift)),
                            bin(Op::BitOr, k(1ULL << kMutexCountShift), self));  // held once by self
  const ExprRef again = bin(Op::Add, v, k(1ULL << kMutexCountShift));          // one hold more
  auto count_limit = [&] {
    assert_limit(em().mk_binary(Op::LOr, em().mk_unary(Op::LNot, mine), bin(Op::Ne, count, k(kMutexCountMax))),
                 "a recursive mutex held " + std::to_string(kMutexCountMax) + " times");
  };
  if (name == "pthread_mutex_lock") {
    // free: take it; held by self: recursive counts one more, error-checking returns EDEADLK
    // (35); held by another thread: wait.
    emit(InstrKind::Assume, em().mk_binary(Op::LOr, is_free, mine));
    emit(InstrKind::Assign, k(0), nullptr, r);
    const int own = new_label();
    jump(own, mine);
    emit(InstrKind::Store, m, taken);
    jump(done);
    place(own);
    const int deadlk = new_label();
    jump(deadlk, em().mk_unary(Op::LNot, recursive));
    count_limit();
    emit(InstrKind::Store, m, again);
    jump(done);
    place(deadlk);
    emit(InstrKind::Assign, k(35), nullptr, r);
  } else if (name == "pthread_mutex_trylock") {
    // free: take it; held by self and recursive: one more; else EBUSY (16), error-checking too.
    emit(InstrKind::Assign, k(16), nullptr, r);
    jump(done, em().mk_unary(Op::LNot, em().mk_binary(Op::LOr, is_free, em().mk_binary(Op::LAnd, mine, recursive))));
    count_limit();
    emit(InstrKind::Assign, k(0), nullptr, r);
    emit(InstrKind::Store, m, em().mk_ite(is_free, taken, again));
  } else {
    // held by self: one hold less (free at the last); else EPERM (1) and no change.
    emit(InstrKind::Assign, k(1), nullptr, r);
    jump(done, em().mk_unary(Op::LNot, mine));
    emit(InstrKind::Assign, k(0), nullptr, r);
    emit(InstrKind::Store, m,
         em().mk_ite(bin(Op::Ult, k(1), count), bin(Op::Sub, v, k(1ULL << kMutexCountShift)),
                     bin(Op::Shl, kind, k(kMutexKindShift))));
  }
  place(done);
  if (began) emit(InstrKind::AtomicEnd);
  jump(end);
  place(by_default);
  end_atomic_step(began);
  if (name == "pthread_mutex_lock") {
    emit(InstrKind::Lock, m);
    emit(InstrKind::Assign, k(0), nullptr, r);
  } else if (name == "pthread_mutex_unlock") {
    emit(InstrKind::Unlock, m);
    emit(InstrKind::Assign, k(0), nullptr, r);
  } else {
    emit(InstrKind::TryLock, m, nullptr, r);
  }
  place(end);
  return site.want && !site.is_void ? conv(site.ret_t, em().mk_local(i32, r)) : nullptr;
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
    check_ptr(kp, access_size(u32));
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

}  // namespace siren::frontend
