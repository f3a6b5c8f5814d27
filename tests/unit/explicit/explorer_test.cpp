#include "../ir/builder.hpp"
#include "explicit/explorer.hpp"
#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <set>

using namespace siren::ir;
using namespace siren::explicit_state;
using namespace siren::ir::test;

namespace {

// counter: two threads `tmp = x; x = tmp + 1` (optionally under a mutex), main joins, asserts x == 2
Program counter(bool locked) {
  ProgBuilder b;
  ObjectId x = b.global("x");
  ObjectId m = b.mutex("m");
  ObjectId h = b.object("h", {U32, U32}, ObjectKind::Global, CellKind::ThreadHandle);
  auto t = b.thread_fn("t");
  LocalId tmp = t.local("tmp", I32);
  if (locked) t.lock(t.addr(m));
  t.assign(tmp, t.load(x));
  t.store(t.addr(x), t.bin(Op::Add, t.L(tmp), t.c(1)));
  if (locked) t.unlock(t.addr(m));
  t.ret(t.em().mk_null());
  auto mn = b.fn("main", {}, I32);
  LocalId a = mn.local("a", U32), c = mn.local("c", U32), r = mn.local("r", I32);
  mn.create(mn.addr(h, 0), t.id(), mn.em().mk_null());
  mn.create(mn.addr(h, 1), t.id(), mn.em().mk_null());
  mn.assign(a, mn.load(h, 0, U32));
  mn.join(mn.L(a));
  mn.assign(c, mn.load(h, 1, U32));
  mn.join(mn.L(c));
  mn.assign(r, mn.load(x));
  mn.assert_(mn.bin(Op::Eq, mn.L(r), mn.c(2)), "x == 2");
  mn.ret(mn.c(0));
  return std::move(b.p);
}

// Independent oracle: every complete schedule by brute-force replay from scratch.
std::uint64_t brute_force_schedules(const ThreadModel& tm, std::size_t max_len) {
  std::uint64_t n = 0;
  std::function<void(std::vector<Step>&)> rec = [&](std::vector<Step>& sched) {
    bool moved = false;
    if (sched.size() < max_len) {
      for (ThreadId t = 0; t < tm.threads.size(); ++t) {
        sched.push_back({t, {}});
        ReplayResult r = replay(tm, {}, sched);
        if (r.steps_done == sched.size()) {
          moved = true;
          if (r.last.outcome == StepOutcome::Error) ++n;
          else rec(sched);
        }
        sched.pop_back();
      }
    }
    if (!moved) ++n;
  };
  std::vector<Step> s;
  rec(s);
  return n;
}

}  // namespace

TEST_CASE("explorer: lost update is found and the trace replays") {
  Program p = counter(false);
  ThreadModel tm = build_thread_model(p, {});
  ExploreResult r = explore(tm, {});
  CHECK(r.verdict == ExploreVerdict::Unsafe);
  REQUIRE(r.error_kind);
  CHECK(*r.error_kind == AssertKind::Property);
  CHECK(r.error_message == "x == 2");
  CHECK(r.error_trace.size() == 16);  // BFS: a shortest violating schedule
  ReplayResult rr = replay(tm, r.error_initial_nondet, r.error_trace);
  CHECK(rr.steps_done == r.error_trace.size());
  CHECK(rr.last.outcome == StepOutcome::Error);
  CHECK_FALSE(r.has_nondet);
  REQUIRE(r.schedules);
  CHECK(*r.schedules == brute_force_schedules(tm, 100));
  REQUIRE(r.mazurkiewicz_classes);
  CHECK(*r.mazurkiewicz_classes < *r.schedules);
  CHECK(r.states > 20);
  // every control state has one entry per thread
  for (const auto& cs : r.control_states) CHECK(cs.pcs.size() == 3);
  const std::string first = format_control_state(tm, *r.control_states.begin());
  CHECK(first.find("main:test.c:") == 0);
}

TEST_CASE("explorer: the locked counter is safe") {
  Program p = counter(true);
  ThreadModel tm = build_thread_model(p, {});
  ExploreResult r = explore(tm, {});
  CHECK(r.verdict == ExploreVerdict::Safe);
  CHECK_FALSE(r.error_kind);
  REQUIRE(r.schedules);
  CHECK(*r.schedules == brute_force_schedules(tm, 100));
  // with a bound: safe up to bound
  ExploreOptions o;
  o.bound = 6;
  ExploreResult rb = explore(tm, o);
  CHECK(rb.verdict == ExploreVerdict::SafeUpToBound);
  CHECK(rb.max_depth == 6);
  REQUIRE(rb.schedules);
  CHECK(*rb.schedules == brute_force_schedules(tm, 6));
}

TEST_CASE("explorer: hand-counted schedules and Mazurkiewicz classes") {
  // main: create(t); x = 1; return   t: x = 2; return
  ProgBuilder b;
  ObjectId x = b.global("x");
  auto t = b.thread_fn("t");
  t.store(t.addr(x), t.c(2));
  t.ret(t.em().mk_null());
  auto m = b.fn("main", {}, I32);
  m.create(m.em().mk_null(), t.id(), m.em().mk_null());
  m.store(m.addr(x), m.c(1));
  m.ret(m.c(0));
  ThreadModel tm = build_thread_model(b.p, {});
  ExploreResult r = explore(tm, {});
  CHECK(r.verdict == ExploreVerdict::Safe);
  REQUIRE(r.schedules);
  CHECK(*r.schedules == 6);
  REQUIRE(r.mazurkiewicz_classes);
  CHECK(*r.mazurkiewicz_classes == 5);  // t0 m2 t1 m3 ~ t0 t1 m2 m3
  // states: init, after counter init, after create (x=0), then (main pc, t pc, x):
  // (3,0,1) (T,0,1) (2,1,2) (2,F,2) (3,1,{1,2}) (3,F,{1,2}) (T,1,{1,2}) (T,F,{1,2})
  CHECK(r.states == 15);
  CHECK(r.control_states.size() == 11);
}

TEST_CASE("explorer: spin loops terminate by state hashing, cycles disable schedule counting") {
  // t: flag = 1.  main: create(t); while (flag == 0) {} ; assert(flag == 1)
  ProgBuilder b;
  ObjectId flag = b.global("flag");
  auto t = b.thread_fn("t");
  t.store(t.addr(flag), t.c(1));
  t.ret(t.em().mk_null());
  auto m = b.fn("main", {}, I32);
  LocalId f = m.local("f", I32);
  m.create(m.em().mk_null(), t.id(), m.em().mk_null());
  auto head = m.assign(f, m.load(flag));
  m.goto_(m.bin(Op::Eq, m.L(f), m.c(0)), head);
  m.assert_(m.bin(Op::Eq, m.L(f), m.c(1)), "flag == 1");
  m.ret(m.c(0));
  ThreadModel tm = build_thread_model(b.p, {});
  ExploreResult r = explore(tm, {});
  CHECK(r.verdict == ExploreVerdict::Safe);
  CHECK_FALSE(r.schedules);
  CHECK(r.counting_note.find("cycle") != std::string::npos);
  ExploreOptions o;
  o.bound = 8;
  ExploreResult rb = explore(tm, o);
  // every reachable state is already found within 8 steps: a definite SAFE
  CHECK(rb.verdict == ExploreVerdict::Safe);
  CHECK_FALSE(rb.bound_hit);
  CHECK(rb.states == r.states);
  REQUIRE(rb.schedules);
  CHECK(*rb.schedules == brute_force_schedules(tm, 8));
  o.bound = 3;
  ExploreResult r3 = explore(tm, o);
  CHECK(r3.verdict == ExploreVerdict::SafeUpToBound);
  CHECK(r3.bound_hit);
}

TEST_CASE("explorer: nondet domain") {
  // main: v = nondet(); assert(v != 2)   /  assert(v != 7)
  for (int bad : {2, 7}) {
    ProgBuilder b;
    auto m = b.fn("main", {}, I32);
    LocalId v = m.local("v", I32);
    m.havoc(v);
    m.assert_(m.bin(Op::Ne, m.L(v), m.c(bad)), "v != bad");
    m.ret(m.c(0));
    ThreadModel tm = build_thread_model(b.p, {});
    ExploreResult r = explore(tm, {});
    CHECK(r.has_nondet);
    CHECK(r.nondet_restricted);
    if (bad == 2) {
      CHECK(r.verdict == ExploreVerdict::Unsafe);
      REQUIRE(r.error_trace.size() == 2);
      CHECK(r.error_trace[0].nondet.at(0).bits == 2);
    } else {
      CHECK(r.verdict == ExploreVerdict::Unknown);
    }
    CHECK_FALSE(r.schedules);
  }
  // a bool nondet is fully covered by the domain: SAFE is definite
  ProgBuilder b;
  auto m = b.fn("main", {}, I32);
  LocalId v = m.local("v", BOOL);
  m.havoc(v);
  m.assert_(m.bin(Op::LOr, m.L(v), m.em().mk_unary(Op::LNot, m.L(v))), "v || !v");
  m.ret(m.c(0));
  ThreadModel tm = build_thread_model(b.p, {});
  ExploreResult r = explore(tm, {});
  CHECK(r.verdict == ExploreVerdict::Safe);
  CHECK(r.states == 7);  // init; v=0/1 before the assert, after it, and terminated
}

TEST_CASE("explorer: beyond max_paths, schedules are counted over the state graph") {
  const ThreadModel tm = build_thread_model(counter(false), ThreadModelOptions{});
  ExploreOptions o;
  const ExploreResult full = explore(tm, o);
  REQUIRE(full.schedules);
  o.max_paths = 3;  // enumeration gives up; the memoised count must agree
  const ExploreResult r = explore(tm, o);
  REQUIRE(r.schedules);
  CHECK(*r.schedules == *full.schedules);
  CHECK_FALSE(r.mazurkiewicz_classes);
  ExploreOptions ob;
  ob.bound = 6;
  ob.max_paths = 2;
  const ExploreResult rb = explore(tm, ob);
  REQUIRE(rb.schedules);
  CHECK(*rb.schedules == brute_force_schedules(tm, 6));
}
