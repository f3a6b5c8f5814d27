#include "builder.hpp"
#include "ir/interpreter.hpp"
#include "ir/printer.hpp"
#include "ir/thread_model.hpp"
#include "ir/validator.hpp"

#include <doctest/doctest.h>

using namespace siren::ir;
using namespace siren::ir::test;

namespace {
std::vector<Step> repeat(ThreadId t, int n) { return std::vector<Step>(static_cast<std::size_t>(n), Step{t, {}}); }
}  // namespace

TEST_CASE("thread model: create in a loop gets several slots and a Limit assert") {
  ProgBuilder b;
  auto t = b.thread_fn("worker");
  t.ret(t.em().mk_null());
  auto m = b.fn("main", {}, I32);
  LocalId i = m.local("i", I32);
  m.assign(i, m.c(0));                                              // 0
  auto head = m.goto_(m.em().mk_unary(Op::LNot, m.bin(Op::Slt, m.L(i), m.c(3))), 0);  // 1
  m.create(m.em().mk_null(), t.id(), m.em().mk_null());            // 2
  m.assign(i, m.bin(Op::Add, m.L(i), m.c(1)));                     // 3
  m.goto_(nullptr, head);                                           // 4
  auto end = m.ret(m.c(0));                                         // 5
  m.set_target(head, end);
  REQUIRE(validate(b.p).empty());
  ThreadModel tm = build_thread_model(b.p, {.max_threads = 3, .max_recursion = 4});
  REQUIRE(tm.threads.size() == 3);
  CHECK(tm.limited);
  const auto& code = tm.threads[0].code;
  REQUIRE(code.size() == 8);
  CHECK(code[3].kind == InstrKind::Assert);
  CHECK(code[3].assert_kind == AssertKind::Limit);
  CHECK(code[4].kind == InstrKind::ThreadCreate);
  CHECK(code[4].threads == std::vector<std::uint32_t>{1, 2});
  CHECK(code[6].kind == InstrKind::Goto);
  CHECK(code[6].target == 2);  // back to the loop head, not to the counter initialisation
  CHECK(code[2].target == 7);
  // main alone: two creates succeed, the third hits the Limit assert (step 14)
  ReplayResult r = replay(tm, {}, repeat(0, 20));
  CHECK(r.last.outcome == StepOutcome::Error);
  CHECK(r.last.error_kind == AssertKind::Limit);
  CHECK(r.steps_done == 14);
  CHECK(r.final_state.threads[1].started);
  CHECK(r.final_state.threads[2].started);
  // budget 5: the loop (3 iterations) never runs out, but the assert stays
  ThreadModel tm5 = build_thread_model(b.p, {.max_threads = 5, .max_recursion = 4});
  CHECK(tm5.threads.size() == 5);
  ReplayResult r5 = replay(tm5, {}, repeat(0, 30));
  CHECK(r5.last.outcome == StepOutcome::NotEnabled);  // main aborted after its return
  CHECK(r5.final_state.terminated);
  CHECK_FALSE(r5.final_state.threads[4].started);
}

TEST_CASE("thread model: inlining, parameters, return values, recursion bound") {
  ProgBuilder b;
  // int f(int n) { if (n <= 0) return 0; int r = f(n - 1); return r + 2; }
  auto f = b.fn("f", {{"n", I32}}, I32);
  LocalId r = f.local("r", I32);
  auto g = f.goto_(f.em().mk_unary(Op::LNot, f.bin(Op::Sle, f.L(0), f.c(0))), 0);
  f.ret(f.c(0));
  auto rec = f.call(f.id(), {f.bin(Op::Sub, f.L(0), f.c(1))}, r);
  f.set_target(g, rec);
  f.ret(f.bin(Op::Add, f.L(r), f.c(2)));
  auto m = b.fn("main", {}, I32);
  LocalId v = m.local("v", I32);
  LocalId arg = m.local("arg", I32);
  m.havoc(arg);
  m.call(f.id(), {m.L(arg)}, v);
  m.assert_(m.bin(Op::Ne, m.L(v), m.c(4)), "v != 4");
  m.ret(m.c(0));
  REQUIRE(validate(b.p).empty());
  ThreadModel tm = build_thread_model(b.p, {.max_threads = 2, .max_recursion = 2});
  CHECK(tm.limited);
  const auto& th = tm.threads[0];
  int limits = 0;
  for (const auto& in : th.code) {
    CHECK(in.kind != InstrKind::Call);
    CHECK(in.kind != InstrKind::Return);
    CHECK(in.kind != InstrKind::Skip);
    if (in.kind == InstrKind::Assert && in.assert_kind == AssertKind::Limit) ++limits;
  }
  CHECK(limits == 1);
  bool has3 = false, has4 = false;
  for (const auto& lv : th.locals) {
    has3 |= lv.name == "f::n#3";
    has4 |= lv.name == "f::n#4";
  }
  CHECK(has3);
  CHECK_FALSE(has4);
  // f(2) = 4: the assertion fails; f(1) = 2 passes; f(5) hits the recursion bound
  auto run = [&](std::int64_t n) {
    return replay(tm, {}, {Step{0, {Value{static_cast<std::uint64_t>(n), 0}}}, Step{0, {}}, Step{0, {}},
                          Step{0, {}}, Step{0, {}}, Step{0, {}}, Step{0, {}}, Step{0, {}}, Step{0, {}},
                          Step{0, {}}, Step{0, {}}, Step{0, {}}, Step{0, {}}, Step{0, {}}, Step{0, {}},
                          Step{0, {}}, Step{0, {}}, Step{0, {}}, Step{0, {}}, Step{0, {}}});
  };
  auto r2 = run(2);
  CHECK(r2.last.outcome == StepOutcome::Error);
  CHECK(r2.last.error_kind == AssertKind::Property);
  auto r1 = run(1);
  CHECK(r1.last.outcome == StepOutcome::NotEnabled);
  CHECK(r1.final_state.terminated);
  auto r5 = run(5);
  CHECK(r5.last.outcome == StepOutcome::Error);
  CHECK(r5.last.error_kind == AssertKind::Limit);
}

TEST_CASE("thread model: atomic functions, nested atomic calls, cond_wait lowering, skips") {
  ProgBuilder b;
  ObjectId x = b.global("x");
  ObjectId mtx = b.mutex("m");
  ObjectId cv = b.object("cv", {I32}, ObjectKind::Global, CellKind::Cond);
  auto inc = b.fn("__VERIFIER_atomic_inc");
  LocalId tmp = inc.local("tmp", I32);
  inc.assign(tmp, inc.load(x));
  inc.store(inc.addr(x), inc.bin(Op::Add, inc.L(tmp), inc.c(1)));
  inc.ret();
  auto outer = b.fn("__VERIFIER_atomic_outer");
  outer.call(inc.id(), {});
  outer.ret();
  auto m = b.fn("main", {}, I32);
  m.skip();
  m.call(outer.id(), {});
  m.call(inc.id(), {});
  auto w = m.op1(InstrKind::CondWait, m.addr(cv), m.addr(mtx));
  auto g = m.goto_(nullptr, 0);
  auto sk = m.skip();
  m.ret(m.c(0));
  m.set_target(g, sk);
  (void)w;
  REQUIRE(validate(b.p).empty());
  ThreadModel tm = build_thread_model(b.p, {});
  std::vector<InstrKind> kinds;
  for (const auto& in : tm.threads[0].code) kinds.push_back(in.kind);
  using K = InstrKind;
  std::vector<InstrKind> expect{K::AtomicBegin, K::Assign, K::Store, K::AtomicEnd,  // outer(inc)
                                K::AtomicBegin, K::Assign, K::Store, K::AtomicEnd,  // inc
                                K::Unlock, K::Lock, K::Goto, K::Abort};
  CHECK(kinds == expect);
  CHECK(tm.threads[0].code[10].target == 11);
  CHECK_FALSE(tm.limited);
  const std::string listing = print_thread_model(tm);
  CHECK(listing.find("thread 0 main:") != std::string::npos);
  CHECK(listing.find("0: atomic_begin") != std::string::npos);
  CHECK(listing.find("1: __VERIFIER_atomic_inc::tmp#1 := x") != std::string::npos);
  CHECK(listing.find("2: x := __VERIFIER_atomic_inc::tmp#1 + 1") != std::string::npos);
  CHECK(listing.find("8: unlock(&m)") != std::string::npos);
}

TEST_CASE("interpreter: atomic sections and locks block other threads") {
  ProgBuilder b;
  ObjectId x = b.global("x");
  ObjectId mtx = b.mutex("m");
  auto inc = b.fn("__VERIFIER_atomic_inc");
  LocalId tmp = inc.local("tmp", I32);
  inc.assign(tmp, inc.load(x));
  inc.store(inc.addr(x), inc.bin(Op::Add, inc.L(tmp), inc.c(1)));
  inc.ret();
  auto t = b.thread_fn("t");
  t.call(inc.id(), {});
  t.lock(t.addr(mtx));
  t.unlock(t.addr(mtx));
  t.ret(t.em().mk_null());
  auto m = b.fn("main", {}, I32);
  m.create(m.em().mk_null(), t.id(), m.em().mk_null());
  m.call(inc.id(), {});
  m.lock(m.addr(mtx));
  m.lock(m.addr(mtx));  // relocking blocks forever
  m.ret(m.c(0));
  ThreadModel tm = build_thread_model(b.p, {});
  Interpreter in(tm);
  State s = in.initial_state();
  REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);  // counter init
  REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);  // create
  REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);  // atomic_begin
  CHECK(s.atomic == 1);
  CHECK_FALSE(in.enabled(s, 1));
  REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);
  REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);
  REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);  // atomic_end
  CHECK(s.atomic == 0);
  CHECK(in.enabled(s, 1));
  REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);  // lock m
  CHECK(s.memory[mtx][0].bits == 1);
  CHECK_FALSE(in.enabled(s, 0));                            // relock: blocked
  for (int i = 0; i < 4; ++i) REQUIRE(in.step(s, {1, {}}).outcome == StepOutcome::Ok);
  CHECK(s.memory[x][0].bits == 2);
  CHECK_FALSE(in.enabled(s, 1));                            // t blocks on m held by main
  CHECK(in.step(s, {1, {}}).outcome == StepOutcome::NotEnabled);
}
