#include "builder.hpp"
#include "ir/interpreter.hpp"
#include "ir/printer.hpp"
#include "ir/thread_model.hpp"
#include "ir/validator.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace siren::ir;
using namespace siren::ir::test;

namespace {

// A thread model whose main has locals a, b (i32), ua, ub (u32), sa, sb (i8), p, q (ptr) and
// objects arr[3] (global) and heap (2 cells), to evaluate expressions against.
struct Fixture {
  ThreadModel tm;
  ObjectId arr = 0, heap = 0;
  Fixture() {
    ProgBuilder b;
    b.object("arr", {I32, I32, I32});
    b.object("heap", {I32, PTR}, ObjectKind::Heap, CellKind::Data, true);
    auto m = b.fn("main", {}, I32);
    for (auto [n, t] : std::vector<std::pair<const char*, Type>>{
             {"a", I32}, {"b", I32}, {"ua", U32}, {"ub", U32}, {"sa", I8}, {"sb", I8}, {"p", PTR}, {"q", PTR}})
      m.local(n, t);
    m.ret(m.c(0));
    tm = build_thread_model(b.p, {});
    for (const auto& o : tm.objects) {
      if (o.name == "arr") arr = o.id;
    }
  }
  ExprManager& em() { return tm.exprs(); }
  ExprRef L(const char* name) {
    const auto& ls = tm.threads[0].locals;
    for (LocalId i = 0; i < ls.size(); ++i)
      if (ls[i].name == std::string("main::") + name + "#1") return em().mk_local(ls[i].type, i);
    FAIL("no local " << name);
    return nullptr;
  }
  LocalId id(const char* name) { return static_cast<LocalId>(L(name)->value); }
};

}  // namespace

TEST_CASE("interpreter: SMT-LIB division, remainder and shifts") {
  Fixture f;
  Interpreter in(f.tm);
  State s = in.initial_state();
  auto set = [&](const char* n, std::int64_t v) {
    const LocalId l = f.id(n);
    s.threads[0].locals[l] = {normalize(f.tm.threads[0].locals[l].type, static_cast<std::uint64_t>(v)), 0};
  };
  auto ev = [&](Op op, const char* x, const char* y) {
    const ExprRef e = f.em().mk_binary(op, f.L(x), f.L(y));
    return as_signed(e->type, in.eval(s, 0, e).bits);
  };
  auto evu = [&](Op op, const char* x, const char* y) {
    const ExprRef e = f.em().mk_binary(op, f.L(x), f.L(y));
    return in.eval(s, 0, e).bits;
  };
  set("a", 7); set("b", 0);
  CHECK(ev(Op::SDiv, "a", "b") == -1);
  CHECK(ev(Op::SRem, "a", "b") == 7);
  set("a", -7);
  CHECK(ev(Op::SDiv, "a", "b") == 1);
  CHECK(ev(Op::SRem, "a", "b") == -7);
  set("a", INT32_MIN); set("b", -1);
  CHECK(ev(Op::SDiv, "a", "b") == INT32_MIN);
  CHECK(ev(Op::SRem, "a", "b") == 0);
  set("a", -7); set("b", 2);
  CHECK(ev(Op::SDiv, "a", "b") == -3);  // truncating
  CHECK(ev(Op::SRem, "a", "b") == -1);
  set("ua", 7); set("ub", 0);
  CHECK(evu(Op::UDiv, "ua", "ub") == 0xffffffffULL);
  CHECK(evu(Op::URem, "ua", "ub") == 7);
  set("ua", 1); set("ub", 32);
  CHECK(evu(Op::Shl, "ua", "ub") == 0);
  CHECK(evu(Op::LShr, "ua", "ub") == 0);
  set("ub", 31);
  CHECK(evu(Op::Shl, "ua", "ub") == 0x80000000ULL);
  set("a", -8); set("b", 40);
  CHECK(ev(Op::AShr, "a", "b") == -1);
  set("a", 8);
  CHECK(ev(Op::AShr, "a", "b") == 0);
  set("b", -1);  // amount read as unsigned: huge
  CHECK(ev(Op::Shl, "a", "b") == 0);
  set("a", -8); set("b", 1);
  CHECK(ev(Op::AShr, "a", "b") == -4);
  CHECK(evu(Op::LShr, "a", "b") == 0x7ffffffcULL);
  // wrap-around
  set("a", INT32_MAX); set("b", 1);
  CHECK(ev(Op::Add, "a", "b") == INT32_MIN);
  set("sa", 127); set("sb", 1);
  CHECK(ev(Op::Add, "sa", "sb") == -128);
  CHECK(ev(Op::Slt, "sa", "sb") == 0);
  set("sa", -1);
  CHECK(ev(Op::Slt, "sa", "sb") == 1);
  CHECK(evu(Op::Ult, "sa", "sb") == 0);  // 0xff <u 0x01 is false
  // conversions
  CHECK(in.eval(s, 0, f.em().mk_convert(I32, f.L("sa"))).bits == normalize(I32, static_cast<std::uint64_t>(-1)));
  CHECK(in.eval(s, 0, f.em().mk_convert(U32, f.L("sa"))).bits == 0xffffffffULL);
  set("a", 0x1ff);
  CHECK(in.eval(s, 0, f.em().mk_convert(U8, f.L("a"))).bits == 0xff);
  CHECK(in.eval(s, 0, f.em().mk_convert(BOOL, f.L("a"))).bits == 1);
  CHECK(in.format_value({normalize(I32, static_cast<std::uint64_t>(-5)), 0}, I32) == "-5");
  CHECK(in.format_value({1, 0}, BOOL) == "1");
  CHECK(in.format_value({}, PTR) == "NULL");
  CHECK(in.format_value({2, f.arr}, PTR) == "&arr[2]");
}

TEST_CASE("interpreter: pointers, ValidPtr, Load/Store, malloc/free") {
  ProgBuilder b;
  ObjectId arr = b.object("arr", {I32, I32, I32});
  ObjectId heap = b.object("cell", {I32, I32}, ObjectKind::Heap, CellKind::Data, true);
  auto m = b.fn("main", {}, I32);
  LocalId p = m.local("p", PTR), v = m.local("v", I32), ok = m.local("ok", BOOL);
  auto& em = m.em();
  m.assign(p, em.mk_binary(Op::PtrAdd, m.addr(arr, 0), m.c(2)));               // 0: p = &arr[2]
  m.store(m.L(p), m.c(42));                                                     // 1: *p = 42
  m.assign(v, em.mk_load(I32, m.L(p)));                                         // 2: v = *p
  m.assign(ok, em.mk_unary(Op::ValidPtr, em.mk_binary(Op::PtrAdd, m.L(p), m.c(1))));  // 3: valid(p+1)
  m.assign(p, em.mk_binary(Op::PtrAdd, m.L(p), m.c(1)));                       // 4: p = p + 1
  m.store(m.L(p), m.c(9));                                                      // 5: no effect
  m.assign(v, em.mk_load(I32, m.L(p)));                                         // 6: v = 0
  m.malloc_(p, heap);                                                           // 7
  m.assign(v, em.mk_load(I32, em.mk_binary(Op::PtrAdd, m.L(p), m.c(1))));      // 8: nondet cell 1
  m.free_(m.L(p));                                                              // 9
  m.assign(ok, em.mk_unary(Op::ValidPtr, m.L(p)));                              // 10
  m.free_(m.L(p));                                                              // 11: double free
  m.ret(m.c(0));
  REQUIRE(validate(b.p).empty());
  ThreadModel tm = build_thread_model(b.p, {});
  Interpreter in(tm);
  const LocalId P = 0, V = 1, OK = 2;
  State s = in.initial_state();
  CHECK_FALSE(s.live[tm.threads[0].code[7].obj]);
  auto step = [&](std::vector<Value> nd = {}) { return in.step(s, {0, std::move(nd)}); };
  REQUIRE(step().outcome == StepOutcome::Ok);
  CHECK(s.threads[0].locals[P] == Value{2, arr});
  step();
  CHECK(s.memory[arr][2].bits == 42);
  step();
  CHECK(s.threads[0].locals[V].bits == 42);
  step();
  CHECK(s.threads[0].locals[OK].bits == 0);
  step();
  step();
  CHECK(s.memory[arr] == std::vector<Value>{{0, 0}, {0, 0}, {42, 0}});
  step();
  CHECK(s.threads[0].locals[V].bits == 0);
  REQUIRE(step({Value{5, 0}, Value{normalize(I32, static_cast<std::uint64_t>(-3)), 0}}).outcome == StepOutcome::Ok);
  const ObjectId h = tm.threads[0].code[7].obj;
  CHECK(tm.objects[h].kind == ObjectKind::Heap);
  CHECK(s.live[h]);
  CHECK(s.threads[0].locals[P] == Value{0, h});
  step();
  CHECK(as_signed(I32, s.threads[0].locals[V].bits) == -3);
  REQUIRE(step().outcome == StepOutcome::Ok);
  CHECK_FALSE(s.live[h]);
  step();
  CHECK(s.threads[0].locals[OK].bits == 0);
  StepResult r = step();
  CHECK(r.outcome == StepOutcome::Error);
  CHECK(r.error_kind == AssertKind::MemSafety);
}

TEST_CASE("interpreter: malloc executed twice fails the Limit assert, trylock, rwlocks") {
  ProgBuilder b;
  ObjectId heap = b.object("cell", {I32}, ObjectKind::Heap, CellKind::Data, false);
  ObjectId mtx = b.mutex("m");
  ObjectId rw = b.object("rw", {I32}, ObjectKind::Global, CellKind::RwLock);
  auto m = b.fn("main", {}, I32);
  LocalId p = m.local("p", PTR), r = m.local("r", I32);
  m.op1(InstrKind::TryLock, m.addr(mtx), nullptr, r);  // 0 -> 0
  m.op1(InstrKind::TryLock, m.addr(mtx), nullptr, r);  // 1 -> 16
  m.op1(InstrKind::RdLock, m.addr(rw));                 // 2
  m.op1(InstrKind::RdLock, m.addr(rw));                 // 3
  m.op1(InstrKind::RwUnlock, m.addr(rw));               // 4
  m.op1(InstrKind::RwUnlock, m.addr(rw));               // 5
  m.op1(InstrKind::WrLock, m.addr(rw));                 // 6
  auto top = m.malloc_(p, heap);                        // 7
  m.goto_(nullptr, top);                                // 8
  m.ret(m.c(0));
  ThreadModel tm = build_thread_model(b.p, {});
  // the heap prototype is not copied: global object ids are renumbered in the thread model
  for (const auto& o : tm.objects) {
    if (o.name == "m") mtx = o.id;
    if (o.name == "rw") rw = o.id;
  }
  CHECK(mtx == 1);
  CHECK(rw == 2);
  Interpreter in(tm);
  State s = in.initial_state();
  in.step(s, {0, {}});
  CHECK(s.threads[0].locals[r].bits == 0);
  CHECK(s.memory[mtx][0].bits == 1);
  in.step(s, {0, {}});
  CHECK(s.threads[0].locals[r].bits == 16);
  in.step(s, {0, {}});
  in.step(s, {0, {}});
  CHECK(s.memory[rw][0].bits == 2);
  in.step(s, {0, {}});
  in.step(s, {0, {}});
  CHECK(s.memory[rw][0].bits == 0);
  in.step(s, {0, {}});
  CHECK(as_signed(I32, s.memory[rw][0].bits) == -1);
  CHECK(in.step(s, {0, {}}).outcome == StepOutcome::Ok);
  CHECK(in.step(s, {0, {}}).outcome == StepOutcome::Ok);
  StepResult res = in.step(s, {0, {}});
  CHECK(res.outcome == StepOutcome::Error);
  CHECK(res.error_kind == AssertKind::Limit);
  CHECK(res.error_message == "heap: call site executed more than once");
}

TEST_CASE("thread model: a malloc site on a cycle with heap slots allocates a new object per execution, then fails the Limit") {
  ProgBuilder b;
  ObjectId heap = b.object("cell", {I32}, ObjectKind::Heap, CellKind::Data, false);
  auto m = b.fn("main", {}, I32);
  LocalId p = m.local("p", PTR);
  auto top = m.malloc_(p, heap);
  m.goto_(nullptr, top);
  m.ret(m.c(0));
  ThreadModel tm = build_thread_model(b.p, {.heap_slots = 3});
  CHECK(tm.limited);
  Interpreter in(tm);
  State s = in.initial_state();
  std::vector<ObjectId> got;
  for (int i = 0; i < 200 && got.size() < 4; ++i) {
    const auto& code = tm.threads[0].code;
    const Instr& next = code[s.threads[0].pc];
    const StepResult r = in.step(s, {0, {}});
    if (r.outcome == StepOutcome::Error) {
      CHECK(r.error_kind == AssertKind::Limit);
      CHECK(r.error_message == "heap: malloc site executed more than 3 times");
      break;
    }
    REQUIRE(r.outcome == StepOutcome::Ok);
    if (next.kind == InstrKind::Malloc) got.push_back(s.threads[0].locals[next.lhs].obj);
  }
  REQUIRE(got.size() == 3);  // three objects, then the Limit (not a fourth allocation)
  CHECK(got[0] != got[1]);
  CHECK(got[1] != got[2]);
  CHECK(got[0] != got[2]);
  for (ObjectId o : got) CHECK(tm.objects[o].kind == ObjectKind::Heap);
  (void)p;
}

TEST_CASE("expressions: hash-consing gives the same node for the same structure") {
  ExprManager em;
  ExprRef x = em.mk_local(I32, 0);
  ExprRef a = em.mk_binary(Op::Add, x, em.mk_int(I32, 1));
  ExprRef b = em.mk_binary(Op::Add, em.mk_local(I32, 0), em.mk_int(I32, 1));
  CHECK(a == b);
  CHECK(a != em.mk_binary(Op::Add, x, em.mk_int(I32, 2)));
  CHECK(em.mk_local(U32, 0) != x);
  CHECK(em.mk_load(I32, em.mk_obj_addr(3, 1)) == em.mk_load(I32, em.mk_obj_addr(3, 1)));
}

TEST_CASE("printer: instructions and program listing") {
  ProgBuilder b;
  ObjectId g = b.global("g", I32, 5);
  ObjectId arr = b.object("arr", {I32, I32});
  auto m = b.fn("main", {}, I32);
  LocalId i = m.local("i", I32);
  auto& em = m.em();
  m.assign(i, m.bin(Op::Add, m.load(g), m.c(1)));
  m.store(m.addr(arr, 1), m.L(i));
  m.goto_(em.mk_unary(Op::LNot, m.bin(Op::Slt, m.L(i), m.c(3))), 4);
  m.assert_(m.bin(Op::Ne, m.L(i), m.c(0)), "i != 0");
  m.ret(m.c(0));
  const Function& f = b.p.functions[m.id()];
  CHECK(format_instr(b.p, f, f.body[0]) == "0: i := g + 1");
  CHECK(format_instr(b.p, f, f.body[1]) == "1: arr[1] := i");
  CHECK(format_instr(b.p, f, f.body[2]) == "2: if !(i < 3) goto 4");
  CHECK(format_instr(b.p, f, f.body[3]) == "3: assert i != 0  // i != 0");
  CHECK(format_instr(b.p, f, f.body[4]) == "4: return 0");
  const std::string listing = print_program(b.p);
  CHECK(listing.find("@1 g : global") != std::string::npos);
  CHECK(listing.find("[0] g @0 : i32 = 5") != std::string::npos);
  CHECK(listing.find("function main() : i32 entry") != std::string::npos);
  CHECK(listing.find("0: i := g + 1    ; test.c:1:1") != std::string::npos);
  const std::string dot = print_dot(b.p);
  CHECK(dot.find("subgraph cluster_main") != std::string::npos);
  CHECK(dot.find("\"main_2\" -> \"main_4\"") != std::string::npos);
  CHECK(dot.find("\"main_2\" -> \"main_3\"") != std::string::npos);
  CHECK(dot.find("\"main_4\" -> ") == std::string::npos);
}

TEST_CASE("validator: reports malformed programs") {
  ProgBuilder b;
  ObjectId g = b.global("g");
  ObjectId mtx = b.mutex("m");
  auto m = b.fn("main", {}, I32);
  LocalId i = m.local("i", I32);
  LocalId p = m.local("p", PTR);
  auto& em = m.em();
  m.goto_(nullptr, 40);                                             // 0: target out of range
  m.assign(i, m.bin(Op::Add, m.load(g), m.load(g, 0)));             // 1: same node twice: ok
  m.store(m.addr(g), m.load(g));                                    // 2: load + store: 2 accesses
  m.lock(em.mk_load(PTR, m.addr(mtx)));                             // 3: lock operand with a load
  m.assign(i, m.L(p));                                              // 4: type mismatch
  m.assign(7, m.c(1));                                              // 5: lhs out of range
  m.goto_(nullptr, 0);                                              // 6: no return at the end
  auto errs = validate(b.p);
  auto has = [&](const std::string& s) {
    return std::any_of(errs.begin(), errs.end(), [&](const std::string& e) { return e.find(s) != std::string::npos; });
  };
  CHECK(has("main:0: goto target 40 out of range"));
  CHECK_FALSE(has("main:1:"));
  CHECK(has("main:2: store: 2 memory accesses"));
  CHECK(has("main:3: lock: operand must be load-free"));
  CHECK(has("main:4: assign: ptr to i : i32"));
  CHECK(has("main:5: lhs local out of range"));
  CHECK(has("main: body does not end with return"));
  ProgBuilder ok;
  auto mm = ok.fn("main", {}, I32);
  mm.ret(mm.c(0));
  CHECK(validate(ok.p).empty());
  ProgBuilder none;
  CHECK(validate(none.p) == std::vector<std::string>{"no entry function (main)"});
}
