// Dead-havoc elimination in the thread model (docs/semantics.md, "Decisions made by the
// thread model"): a Havoc whose value no path can read is dropped, every other one is kept.
#include "builder.hpp"
#include "explicit/explorer.hpp"
#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"
#include "ir/validator.hpp"

#include <doctest/doctest.h>

using namespace siren::ir;
using namespace siren::explicit_state;
using namespace siren::ir::test;

namespace {

std::size_t count_kind(const ThreadCode& tc, InstrKind k) {
  std::size_t n = 0;
  for (const Instr& in : tc.code) n += in.kind == k;
  return n;
}

std::vector<Step> repeat(ThreadId t, int n) { return std::vector<Step>(static_cast<std::size_t>(n), Step{t, {}}); }

}  // namespace

TEST_CASE("dead havoc: removed, goto targets still reach the same instructions") {
  ProgBuilder b;
  auto m = b.fn("main", {}, I32);
  LocalId x = m.local("x", I32), y = m.local("y", I32), z = m.local("z", I32), w = m.local("w", I32);
  m.havoc(x);                                                            // 0 dead: overwritten at 2
  m.havoc(y);                                                            // 1 live: read at 3
  m.assign(x, m.c(1));                                                   // 2
  auto g1 = m.goto_(m.bin(Op::Slt, m.L(y), m.c(0)), 0);                 // 3 -> 6
  auto hz = m.havoc(z);                                                  // 4 dead: z never read
  m.assign(x, m.bin(Op::Add, m.L(x), m.c(1)));                          // 5
  auto hw = m.havoc(w);                                                  // 6 dead: written at 7 first
  m.assign(w, m.L(x));                                                   // 7
  m.assert_(m.bin(Op::Slt, m.c(0), m.L(w)), "w > 0");                   // 8
  m.goto_(m.bin(Op::Slt, m.L(x), m.c(3)), hz);                          // 9 -> 4 (backward)
  m.ret(m.c(0));                                                         // 10
  m.set_target(g1, hw);
  REQUIRE(validate(b.p).empty());
  ThreadModel tm = build_thread_model(b.p, {.max_threads = 1, .max_recursion = 4});
  const ThreadCode& th = tm.threads[0];
  REQUIRE(th.code.size() == 8);
  CHECK(count_kind(th, InstrKind::Havoc) == 1);
  CHECK(th.code[0].kind == InstrKind::Havoc);
  CHECK(th.code[0].lhs == y);
  CHECK(th.code[1].kind == InstrKind::Assign);   // x := 1
  CHECK(th.code[2].kind == InstrKind::Goto);
  CHECK(th.code[2].target == 4);                 // was `havoc w`, now `w := x` (the next kept one)
  CHECK(th.code[4].kind == InstrKind::Assign);
  CHECK(th.code[4].lhs == w);
  CHECK(th.code[3].kind == InstrKind::Assign);   // x := x + 1
  CHECK(th.code[3].lhs == x);
  CHECK(th.code[5].kind == InstrKind::Assert);
  CHECK(th.code[6].kind == InstrKind::Goto);
  CHECK(th.code[6].target == 3);                 // was `havoc z`, now `x := x + 1`
  CHECK(th.code[7].kind == InstrKind::Abort);

  // y = 5: x = 1, 2 (w = 2), loop back, 3 (w = 3), exit: 12 steps, then main has aborted.
  std::vector<Step> s = repeat(0, 13);
  s[0].nondet = {Value{5, 0}};
  ReplayResult r = replay(tm, {}, s);
  CHECK(r.steps_done == 12);
  CHECK(r.last.outcome == StepOutcome::NotEnabled);
  CHECK(r.final_state.terminated);
  // y = -1: the goto skips `x := x + 1`, so w = 1, then the loop runs x = 2, 3: 15 steps.
  s = repeat(0, 16);
  s[0].nondet = {Value{static_cast<std::uint64_t>(-1), 0}};
  ReplayResult r2 = replay(tm, {}, s);
  CHECK(r2.steps_done == 15);
  CHECK(r2.final_state.terminated);
  CHECK(r2.last.outcome == StepOutcome::NotEnabled);

  // A program whose only Havoc is dead consumes no nondet value: SAFE instead of UNKNOWN.
  ProgBuilder b2;
  auto m2 = b2.fn("main", {}, I32);
  LocalId l = m2.local("l", I32);
  m2.havoc(l);
  m2.assign(l, m2.c(7));
  m2.assert_(m2.bin(Op::Eq, m2.L(l), m2.c(7)), "l == 7");
  m2.ret(m2.c(0));
  REQUIRE(validate(b2.p).empty());
  ThreadModel tm2 = build_thread_model(b2.p, {.max_threads = 1, .max_recursion = 4});
  CHECK(count_kind(tm2.threads[0], InstrKind::Havoc) == 0);
  ExploreResult er = explore(tm2, {});
  CHECK(er.verdict == ExploreVerdict::Safe);
  CHECK_FALSE(er.has_nondet);
}

TEST_CASE("dead havoc: a value read on one path only is kept") {
  ProgBuilder b;
  ObjectId g = b.global("g");
  auto m = b.fn("main", {}, I32);
  LocalId x = m.local("x", I32);
  m.havoc(x);                                                  // 0 live: read at 4 when g != 0
  auto br = m.goto_(m.bin(Op::Ne, m.load(g), m.c(0)), 0);     // 1 -> 4
  m.assign(x, m.c(0));                                         // 2 overwritten on this path
  auto out = m.goto_(nullptr, 0);                              // 3 -> 5
  auto rd = m.assert_(m.bin(Op::Ne, m.L(x), m.c(7)), "x != 7"); // 4
  auto end = m.ret(m.c(0));                                    // 5
  m.set_target(br, rd);
  m.set_target(out, end);
  REQUIRE(validate(b.p).empty());
  ThreadModel tm = build_thread_model(b.p, {.max_threads = 1, .max_recursion = 4});
  const ThreadCode& th = tm.threads[0];
  REQUIRE(th.code.size() == 6);
  CHECK(th.code[0].kind == InstrKind::Havoc);
  CHECK(th.code[0].lhs == x);
  CHECK(th.code[1].target == 4);
  CHECK(th.code[3].target == 5);

  // The same when the read is an operand of a synchronisation instruction (ThreadExit here)
  // in a thread other than main, and the Havoc is the thread's first instruction.
  ProgBuilder b2;
  auto t = b2.thread_fn("t");
  LocalId p = t.local("p", PTR);
  t.havoc(p);
  t.ret(t.L(p));
  auto m2 = b2.fn("main", {}, I32);
  m2.create(m2.em().mk_null(), t.id(), m2.em().mk_null());
  m2.ret(m2.c(0));
  REQUIRE(validate(b2.p).empty());
  ThreadModel tm2 = build_thread_model(b2.p, {.max_threads = 2, .max_recursion = 4});
  REQUIRE(tm2.threads.size() == 2);
  CHECK(count_kind(tm2.threads[1], InstrKind::Havoc) == 1);
  CHECK(tm2.threads[1].code[0].kind == InstrKind::Havoc);
}

TEST_CASE("dead havoc: a havoc in a loop read in the next iteration is kept") {
  ProgBuilder b;
  auto m = b.fn("main", {}, I32);
  LocalId i = m.local("i", I32), x = m.local("x", I32), y = m.local("y", I32);
  m.assign(i, m.c(0));                                                     // 0
  auto head = m.goto_(m.em().mk_unary(Op::LNot, m.bin(Op::Slt, m.L(i), m.c(3))), 0);  // 1 -> 9
  auto first = m.goto_(m.bin(Op::Eq, m.L(i), m.c(0)), 0);                 // 2 -> 4
  m.assert_(m.bin(Op::Ne, m.L(x), m.c(5)), "x != 5");                     // 3 reads the previous x
  auto hx = m.havoc(x);                                                    // 4 live (next iteration)
  m.havoc(y);                                                              // 5 dead: written at 6
  m.assign(y, m.L(i));                                                     // 6
  m.assign(i, m.bin(Op::Add, m.L(y), m.c(1)));                            // 7
  m.goto_(nullptr, head);                                                  // 8 -> 1
  auto end = m.ret(m.c(0));                                                // 9
  m.set_target(head, end);
  m.set_target(first, hx);
  REQUIRE(validate(b.p).empty());
  ThreadModel tm = build_thread_model(b.p, {.max_threads = 1, .max_recursion = 4});
  const ThreadCode& th = tm.threads[0];
  REQUIRE(th.code.size() == 9);
  CHECK(count_kind(th, InstrKind::Havoc) == 1);
  CHECK(th.code[4].kind == InstrKind::Havoc);
  CHECK(th.code[4].lhs == x);
  CHECK(th.code[5].kind == InstrKind::Assign);
  CHECK(th.code[5].lhs == y);
  CHECK(th.code[1].target == 8);
  CHECK(th.code[2].target == 4);
  CHECK(th.code[7].target == 1);
  CHECK(th.code[8].kind == InstrKind::Abort);

  // x = 5 from one iteration fails the assert in the next.
  ExploreOptions o;
  o.nondet_min = 0;
  o.nondet_max = 5;
  ExploreResult er = explore(tm, o);
  CHECK(er.verdict == ExploreVerdict::Unsafe);
}
