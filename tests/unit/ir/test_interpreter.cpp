#include "builder.hpp"
#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <doctest/doctest.h>

using namespace siren::ir;
using namespace siren::ir::test;

namespace {

// int x; void* t(void*) { int tmp = x; x = tmp + 1; return 0; }
// main: create(&h[0], t); create(&h[1], t); join both; assert(x == 2)
Program counter_program() {
  ProgBuilder b;
  ObjectId x = b.global("x");
  ObjectId h = b.object("h", {U32, U32}, ObjectKind::Global, CellKind::ThreadHandle);
  auto t = b.thread_fn("t");
  LocalId tmp = t.local("tmp", I32);
  t.assign(tmp, t.load(x));
  t.store(t.addr(x), t.bin(Op::Add, t.L(tmp), t.c(1)));
  t.ret(t.em().mk_null());
  auto m = b.fn("main", {}, I32);
  LocalId a = m.local("a", U32), c = m.local("c", U32), r = m.local("r", I32);
  m.create(m.addr(h, 0), t.id(), m.em().mk_null());
  m.create(m.addr(h, 1), t.id(), m.em().mk_null());
  m.assign(a, m.load(h, 0, U32));
  m.join(m.L(a));
  m.assign(c, m.load(h, 1, U32));
  m.join(m.L(c));
  m.assign(r, m.load(x));
  m.assert_(m.bin(Op::Eq, m.L(r), m.c(2)), "x == 2");
  m.ret(m.c(0));
  return std::move(b.p);
}

std::vector<Step> sched(std::initializer_list<ThreadId> ts) {
  std::vector<Step> out;
  for (auto t : ts) out.push_back({t, {}});
  return out;
}

}  // namespace

TEST_CASE("thread model: two create sites, one slot each, code shape") {
  Program p = counter_program();
  ThreadModel tm = build_thread_model(p, {});
  REQUIRE(tm.threads.size() == 3);
  CHECK(tm.threads[0].name == "main");
  CHECK(tm.threads[1].name == "t#1");
  CHECK(tm.threads[2].name == "t#2");
  CHECK_FALSE(tm.limited);
  const auto& mc = tm.threads[0].code;
  REQUIRE(mc.size() == 11);
  CHECK(mc[0].kind == InstrKind::Assign);
  CHECK(mc[1].kind == InstrKind::Assign);
  CHECK(mc[2].kind == InstrKind::ThreadCreate);
  CHECK(mc[2].threads == std::vector<std::uint32_t>{1});
  CHECK(mc[3].threads == std::vector<std::uint32_t>{2});
  CHECK(mc.back().kind == InstrKind::Abort);
  const auto& tc = tm.threads[1].code;
  REQUIRE(tc.size() == 3);
  CHECK(tc[2].kind == InstrKind::ThreadExit);
  CHECK(tm.threads[1].param != kNoLocal);
  CHECK(tm.threads[1].locals[tm.threads[1].param].name == "t::arg#1");
}

TEST_CASE("interpreter: lost update under a specific schedule") {
  Program p = counter_program();
  ThreadModel tm = build_thread_model(p, {});
  // main creates both, t1 reads, t2 reads, t1 writes, t2 writes, both exit, main joins & asserts
  auto s = sched({0, 0, 0, 0, 1, 2, 1, 2, 1, 2, 0, 0, 0, 0, 0, 0});
  ReplayResult r = replay(tm, {}, s);
  CHECK(r.steps_done == 16);
  CHECK(r.last.outcome == StepOutcome::Error);
  CHECK(r.last.error_kind == AssertKind::Property);
  CHECK(r.last.error_message == "x == 2");
  CHECK(r.final_state.memory[1][0].bits == 1);
  // the serial schedule is fine
  auto ok = sched({0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0});
  ReplayResult r2 = replay(tm, {}, ok);
  CHECK(r2.steps_done == 17);
  CHECK(r2.last.outcome == StepOutcome::Ok);
  CHECK(r2.final_state.terminated);
  CHECK(r2.final_state.memory[1][0].bits == 2);
  // handles hold thread ids
  CHECK(r2.final_state.memory[2][0].bits == 1);
  CHECK(r2.final_state.memory[2][1].bits == 2);
}

TEST_CASE("interpreter: not started threads and join blocking") {
  Program p = counter_program();
  ThreadModel tm = build_thread_model(p, {});
  Interpreter in(tm);
  State s = in.initial_state();
  CHECK(in.enabled(s, 0));
  CHECK_FALSE(in.enabled(s, 1));
  CHECK(in.step(s, {1, {}}).outcome == StepOutcome::NotEnabled);
  for (int i = 0; i < 4; ++i) REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);
  CHECK(in.enabled(s, 1));
  CHECK(in.enabled(s, 2));
  REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);  // a := h[0]
  CHECK_FALSE(in.enabled(s, 0));                               // join t1 blocks
  State before = s;
  CHECK(in.step(s, {0, {}}).outcome == StepOutcome::NotEnabled);
  CHECK(s == before);
  for (int i = 0; i < 3; ++i) REQUIRE(in.step(s, {1, {}}).outcome == StepOutcome::Ok);
  CHECK(s.threads[1].finished);
  CHECK_FALSE(in.enabled(s, 1));
  CHECK(in.enabled(s, 0));
  ReplayResult r = replay(tm, {}, sched({1}));
  CHECK(r.steps_done == 0);
  CHECK(r.last.outcome == StepOutcome::NotEnabled);
}
