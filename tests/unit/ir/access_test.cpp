// Static access summaries (ir/access.hpp) and their concrete evaluation.
#include "builder.hpp"
#include "ir/access.hpp"
#include "explicit/explorer.hpp"

#include <doctest/doctest.h>

using namespace siren::ir;
using namespace siren::explicit_state;
using namespace siren::ir::test;

namespace {

std::uint32_t find(const ThreadModel& tm, ThreadId t, InstrKind k, std::uint32_t from = 0) {
  const auto& code = tm.threads[t].code;
  for (std::uint32_t i = from; i < code.size(); ++i)
    if (code[i].kind == k) return i;
  FAIL("instruction not found");
  return 0;
}

int count(const std::vector<Access>& v, LocKind k, bool write) {
  int n = 0;
  for (const Access& a : v) n += a.kind == k && a.write == write;
  return n;
}

}  // namespace

TEST_CASE("access: static summaries per instruction kind") {
  // main: create(&h, t); lock(m); r = x + y; unlock(m); join(h); return
  // t:    atomic_begin; *p = 1 (p a local pointer to x); atomic_end; return
  ProgBuilder b;
  ObjectId x = b.global("x"), y = b.global("y"), h = b.global("h", U32), m = b.mutex("m");
  auto t = b.thread_fn("t");
  LocalId p = t.local("p", PTR);
  t.assign(p, t.addr(x));
  t.op1(InstrKind::AtomicBegin, nullptr);
  t.store(t.L(p), t.c(1));
  t.op1(InstrKind::AtomicEnd, nullptr);
  t.ret(t.em().mk_null());
  auto mn = b.fn("main", {}, I32);
  LocalId r = mn.local("r", I32);
  mn.create(mn.addr(h), t.id(), mn.em().mk_null());
  mn.lock(mn.addr(m));
  mn.assign(r, mn.bin(Op::Add, mn.load(x), mn.load(y)));
  mn.unlock(mn.addr(m));
  mn.join(mn.load(h, 0, U32));
  mn.ret(mn.c(0));
  ThreadModel tm = build_thread_model(b.p, {});
  REQUIRE(tm.threads.size() == 2);

  // every step reads started[self], terminated and atomic
  for (ThreadId th = 0; th < 2; ++th)
    for (std::uint32_t pc = 0; pc < tm.threads[th].code.size(); ++pc) {
      auto acc = accesses(tm, th, pc);
      REQUIRE(acc.size() >= 3);
      CHECK((acc[0].kind == LocKind::Started && !acc[0].write && acc[0].thread == th));
      CHECK((acc[1].kind == LocKind::Terminated && !acc[1].write));
      CHECK((acc[2].kind == LocKind::Atomic && !acc[2].write));
    }

  const std::uint32_t create = find(tm, 0, InstrKind::ThreadCreate);
  auto ca = accesses(tm, 0, create);
  CHECK(count(ca, LocKind::Started, true) == 1);
  CHECK(count(ca, LocKind::Cell, true) == 1);  // the handle
  for (const Access& a : ca)
    if (a.kind == LocKind::Started && a.write) {
      CHECK(a.thread == 1);
      CHECK(a.counter != kNoLocal);
      CHECK(a.slot == 0);
    }

  const std::uint32_t lock = find(tm, 0, InstrKind::Lock);
  auto la = memory_accesses(tm, 0, lock);
  REQUIRE(la.size() == 2);
  CHECK((!la[0].write && la[1].write && la[0].static_cell() && la[0].addr->obj == m));

  const std::uint32_t assign = find(tm, 0, InstrKind::Assign, lock);
  auto aa = memory_accesses(tm, 0, assign);
  REQUIRE(aa.size() == 2);
  CHECK((!aa[0].write && !aa[1].write));
  CHECK(count(accesses(tm, 0, assign), LocKind::Alloc, false) == 2);

  const std::uint32_t join = find(tm, 0, InstrKind::ThreadJoin);
  auto ja = accesses(tm, 0, join);
  CHECK(count(ja, LocKind::Finished, false) == 1);
  CHECK(count(ja, LocKind::Cell, false) == 1);  // the handle load

  const std::uint32_t ab = find(tm, 1, InstrKind::AtomicBegin);
  CHECK(count(accesses(tm, 1, ab), LocKind::Atomic, true) == 1);
  const std::uint32_t st = find(tm, 1, InstrKind::Store);
  auto sa = memory_accesses(tm, 1, st);
  REQUIRE(sa.size() == 1);
  CHECK(sa[0].write);
  CHECK_FALSE(sa[0].static_cell());  // through the local p
  const std::uint32_t ex = find(tm, 1, InstrKind::ThreadExit);
  CHECK(count(accesses(tm, 1, ex), LocKind::Finished, true) == 1);

  // concrete evaluation: run main to the create, then the store of t through p
  Interpreter in(tm);
  State s = in.initial_state();
  while (s.threads[0].pc != create) REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);
  auto locs = access_locations(tm, in, s, 0);
  bool started1 = false;
  for (const Location& l : locs) started1 |= l.kind == LocKind::Started && l.write && l.index == 1;
  CHECK(started1);
  REQUIRE(in.step(s, {0, {}}).outcome == StepOutcome::Ok);
  while (s.threads[1].pc != st) REQUIRE(in.step(s, {1, {}}).outcome == StepOutcome::Ok);
  auto sl = access_locations(tm, in, s, 1);
  bool wx = false;
  for (const Location& l : sl) wx |= l.kind == LocKind::Cell && l.write && l.index == (std::uint64_t{x} << 32);
  CHECK(wx);
  // the store of t conflicts with main's read of x, not with the lock
  std::vector<Location> rx{{LocKind::Cell, std::uint64_t{x} << 32, false}};
  std::vector<Location> rm{{LocKind::Cell, std::uint64_t{m} << 32, true}};
  CHECK(conflict(sl, rx));
  CHECK_FALSE(conflict(sl, rm));
}
