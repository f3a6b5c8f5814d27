// A small helper to build ir::Programs in C++ for unit tests.
#pragma once

#include "ir/program.hpp"

#include <string>
#include <vector>

namespace siren::ir::test {

inline const Type I32 = Type::integer(32, true);
inline const Type U32 = Type::integer(32, false);
inline const Type I8 = Type::integer(8, true);
inline const Type U8 = Type::integer(8, false);
inline const Type BOOL = Type::boolean();
inline const Type PTR = Type::pointer();

class FnBuilder {
 public:
  FnBuilder(Program& p, FunctionId id) : p_(&p), id_(id) {}
  Function& fn() { return p_->functions[id_]; }
  FunctionId id() const { return id_; }
  ExprManager& em() { return p_->exprs(); }

  LocalId local(const std::string& name, Type t) {
    fn().locals.push_back({name, t});
    return static_cast<LocalId>(fn().locals.size() - 1);
  }
  ExprRef L(LocalId l) { return em().mk_local(fn().locals[l].type, l); }
  ExprRef c(std::int64_t v, Type t = I32) { return em().mk_int(t, v); }
  ExprRef bin(Op op, ExprRef a, ExprRef b) { return em().mk_binary(op, a, b); }
  ExprRef load(ObjectId o, std::int64_t off = 0, Type t = I32) { return em().mk_load(t, em().mk_obj_addr(o, off)); }
  ExprRef addr(ObjectId o, std::int64_t off = 0) { return em().mk_obj_addr(o, off); }

  std::uint32_t here() const { return static_cast<std::uint32_t>(p_->functions[id_].body.size()); }
  std::uint32_t emit(Instr in, unsigned line = 0) {
    if (line == 0) line = here() + 1;
    in.loc = {0, line, 1};
    fn().body.push_back(std::move(in));
    return here() - 1;
  }
  std::uint32_t assign(LocalId l, ExprRef a) { Instr in; in.kind = InstrKind::Assign; in.lhs = l; in.a = a; return emit(in); }
  std::uint32_t store(ExprRef p, ExprRef v) { Instr in; in.kind = InstrKind::Store; in.a = p; in.b = v; return emit(in); }
  std::uint32_t havoc(LocalId l) { Instr in; in.kind = InstrKind::Havoc; in.lhs = l; return emit(in); }
  std::uint32_t assume(ExprRef a) { Instr in; in.kind = InstrKind::Assume; in.a = a; return emit(in); }
  std::uint32_t assert_(ExprRef a, const std::string& msg = "assert", AssertKind k = AssertKind::Property) {
    Instr in; in.kind = InstrKind::Assert; in.a = a; in.message = msg; in.assert_kind = k; return emit(in);
  }
  std::uint32_t goto_(ExprRef cond, std::uint32_t target) {
    Instr in; in.kind = InstrKind::Goto; in.a = cond ? cond : em().mk_true(); in.target = target; return emit(in);
  }
  std::uint32_t skip() { Instr in; return emit(in); }
  std::uint32_t call(FunctionId f, std::vector<ExprRef> args, LocalId lhs = kNoLocal) {
    Instr in; in.kind = InstrKind::Call; in.callee = f; in.args = std::move(args); in.lhs = lhs; return emit(in);
  }
  std::uint32_t ret(ExprRef a = nullptr) { Instr in; in.kind = InstrKind::Return; in.a = a; return emit(in); }
  std::uint32_t abort_() { Instr in; in.kind = InstrKind::Abort; return emit(in); }
  std::uint32_t op1(InstrKind k, ExprRef a, ExprRef b = nullptr, LocalId lhs = kNoLocal) {
    Instr in; in.kind = k; in.a = a; in.b = b; in.lhs = lhs; return emit(in);
  }
  std::uint32_t lock(ExprRef m) { return op1(InstrKind::Lock, m); }
  std::uint32_t unlock(ExprRef m) { return op1(InstrKind::Unlock, m); }
  std::uint32_t create(ExprRef handle, FunctionId f, ExprRef arg) {
    Instr in; in.kind = InstrKind::ThreadCreate; in.a = handle; in.b = arg; in.callee = f; return emit(in);
  }
  std::uint32_t join(ExprRef h, ExprRef retp = nullptr) { return op1(InstrKind::ThreadJoin, h, retp); }
  std::uint32_t malloc_(LocalId l, ObjectId o) { Instr in; in.kind = InstrKind::Malloc; in.lhs = l; in.obj = o; return emit(in); }
  std::uint32_t free_(ExprRef p) { return op1(InstrKind::Free, p); }
  void set_target(std::uint32_t at, std::uint32_t target) { fn().body[at].target = target; }

 private:
  Program* p_;
  FunctionId id_;
};

class ProgBuilder {
 public:
  ProgBuilder() { p.files.push_back("test.c"); }
  Program p;

  ObjectId object(const std::string& name, std::vector<Type> cells, ObjectKind kind = ObjectKind::Global,
                  CellKind ck = CellKind::Data, bool nondet = false) {
    Object o;
    o.name = name;
    o.kind = kind;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      Cell c;
      c.name = cells.size() == 1 ? name : name + "[" + std::to_string(i) + "]";
      c.type = cells[i];
      c.kind = ck;
      c.init_nondet = nondet;
      o.cells.push_back(c);
    }
    return p.add_object(std::move(o));
  }
  ObjectId global(const std::string& name, Type t = I32, std::int64_t init = 0) {
    ObjectId o = object(name, {t});
    p.objects[o].cells[0].init = normalize(t, static_cast<std::uint64_t>(init));
    return o;
  }
  ObjectId mutex(const std::string& name) { return object(name, {I32}, ObjectKind::Global, CellKind::Mutex); }

  FnBuilder fn(const std::string& name, std::vector<LocalVar> params = {}, std::optional<Type> ret = std::nullopt) {
    Function f;
    f.name = name;
    f.locals = params;
    f.num_params = static_cast<std::uint32_t>(params.size());
    f.return_type = ret;
    f.has_body = true;
    f.is_atomic = name.rfind("__VERIFIER_atomic_", 0) == 0;
    FunctionId id = p.add_function(std::move(f));
    if (name == "main") p.entry = id;
    return FnBuilder(p, id);
  }
  /// Declares a thread start routine `void* name(void* arg)`.
  FnBuilder thread_fn(const std::string& name) { return fn(name, {{"arg", PTR}}, PTR); }
};

}  // namespace siren::ir::test
