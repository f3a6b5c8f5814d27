// The native oracle (native/): compile real C with clang-16, run it under seeded and given
// schedules. Each case asserts an outcome that a broken runtime would change; some run a
// deliberately broken runtime (SIREN_RT_TEST_BROKEN=1: it never preempts; =2: dfs hashes shared
// memory only) and show that the same assertions catch it.
#include "native/native.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace siren::native;

namespace {

struct Prog {
  std::string dir;
  Binary bin;
  Prog(const std::string& name, const std::string& text) {
    dir = (fs::temp_directory_path() / ("siren-native-test-" + std::to_string(::getpid()) + "-" + name)).string();
    fs::create_directories(dir);
    std::ofstream(dir + "/" + name + ".c") << text;
    bin = compile(dir + "/" + name + ".c", {}, dir);
  }
  ~Prog() { fs::remove_all(dir); }
};

const char* kLostUpdate = R"(#include <pthread.h>
#include <assert.h>
int x;
void *inc(void *a) { x++; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
)";

const char* kLocked = R"(#include <pthread.h>
#include <assert.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *inc(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
)";

// The violation needs t2 to run between t1's two writes: a bug of depth 2.
const char* kDepth2 = R"(#include <pthread.h>
extern void reach_error(void);
int flag, data;
void *t1(void *a) { flag = 1; data = 1; flag = 0; return 0; }
void *t2(void *a) { if (flag == 1 && data == 1) reach_error(); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  return 0;
}
)";

const char* kAtomicVsPlain = R"(#include <pthread.h>
int m;
void __VERIFIER_atomic_set(int v) { m = v; }
void *t1(void *arg) { __VERIFIER_atomic_set(1); return 0; }
int main(void) { pthread_t id; pthread_create(&id, 0, t1, 0); int s = m; return s; }
)";

const char* kAtomicBoth = R"(#include <pthread.h>
int m;
void __VERIFIER_atomic_set(int v) { m = v; }
int __VERIFIER_atomic_get(void) { return m; }
void *t1(void *arg) { __VERIFIER_atomic_set(1); return 0; }
int main(void) { pthread_t id; pthread_create(&id, 0, t1, 0); int s = __VERIFIER_atomic_get(); return s; }
)";

const char* kNondet = R"(#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) { int v = __VERIFIER_nondet_int(); if (v == 123456) reach_error(); return 0; }
)";

// siren's trace of kLostUpdate's violation: inc#1 reads, inc#2 reads, both write.
std::vector<TraceStep> lost_update_trace() {
  return {{"main", 7, "inc#1", {}}, {"main", 8, "inc#2", {}}, {"inc#1", 4, "", {}},
          {"inc#2", 4, "", {}},      {"inc#1", 4, "", {}},      {"inc#2", 4, "", {}},
          {"main", 9, "", {}},       {"main", 10, "", {}},      {"main", 11, "", {}}};
}

Options opts(unsigned runs, bool races = false) {
  Options o;
  o.runs = runs;
  o.seed = 1;
  o.races = races;
  o.run_ms = 3000;
  o.timeout_s = 120;
  return o;
}

}  // namespace

TEST_CASE("native: a lost update is found, and the locked version never fails") {
  Prog p("lost", kLostUpdate);
  REQUIRE_MESSAGE(p.bin.ok, p.bin.error);
  const Summary s = run(p.bin, opts(500));
  REQUIRE(s.ok);
  REQUIRE(s.failure);
  CHECK(s.failure->outcome == Outcome::Violation);
  CHECK(s.failure->message.find("x == 2") != std::string::npos);
  CHECK(p.bin.where(s.failure->pc).second == 11);  // the assert's line
  // The failing run's events: both threads read x before either writes it.
  int reads = 0, writes_before_second_read = 0;
  for (const Event& e : s.failure->events) {
    if (e.kind == 'R' && p.bin.where(e.pc).second == 4) ++reads;
    if (e.kind == 'W' && p.bin.where(e.pc).second == 4 && reads < 2) ++writes_before_second_read;
  }
  CHECK(reads == 2);
  CHECK(writes_before_second_read == 0);

  Prog q("locked", kLocked);
  REQUIRE(q.bin.ok);
  Options o = opts(1000);
  o.stop_at_first = false;
  const Summary t = run(q.bin, o);
  REQUIRE(t.ok);
  CHECK(t.runs == 1000);
  CHECK(t.count(Outcome::Ok) == 1000);
  CHECK_FALSE(t.failure);
}

TEST_CASE("native: PCT finds a depth-2 bug, and every strategy is reproducible by its seed") {
  Prog p("depth2", kDepth2);
  REQUIRE(p.bin.ok);
  Options o = opts(3000);
  o.strategy = "pct";
  o.pct_depth = 2;
  const Summary s = run(p.bin, o);
  REQUIRE(s.ok);
  REQUIRE(s.failure);
  // The same seed (and PCT's k) again: the same failing run.
  o.seed = s.failure->seed;
  o.pct_k = s.failure->pct_k;
  o.runs = 1;
  const Summary again = run(p.bin, o);
  REQUIRE(again.failure);
  CHECK(again.failure->events.size() == s.failure->events.size());
}

TEST_CASE("native: races are conflicting pending accesses, not both atomic") {
  Prog p("race", kAtomicVsPlain);
  REQUIRE(p.bin.ok);
  CHECK_FALSE(p.bin.atomic_fns.empty());
  const Summary s = run(p.bin, opts(200, true));
  REQUIRE(s.failure);
  CHECK(s.failure->outcome == Outcome::Race);

  Prog q("atomic", kAtomicBoth);
  REQUIRE(q.bin.ok);
  Options o = opts(500, true);
  o.stop_at_first = false;
  const Summary t = run(q.bin, o);
  REQUIRE(t.ok);
  CHECK(t.runs == 500);
  CHECK(t.count(Outcome::Race) == 0);
}

TEST_CASE("native: replay follows a trace's schedule and its nondet values") {
  Prog p("lost", kLostUpdate);
  REQUIRE(p.bin.ok);
  const Summary s = replay(p.bin, schedule_of(lost_update_trace()), false);
  REQUIRE(s.ok);
  REQUIRE(s.failure);
  CHECK(s.failure->outcome == Outcome::Violation);
  CHECK(s.failure->strategy == "replay");
  // The serial schedule does not fail.
  std::vector<TraceStep> good = {{"main", 7, "inc#1", {}}, {"inc#1", 4, "", {}}, {"inc#1", 4, "", {}},
                                 {"main", 8, "inc#2", {}}, {"inc#2", 4, "", {}}, {"inc#2", 4, "", {}},
                                 {"main", 9, "", {}},      {"main", 10, "", {}}, {"main", 11, "", {}}};
  const Summary t = replay(p.bin, schedule_of(good), false);
  REQUIRE(t.ok);
  CHECK_FALSE(t.failure);
  CHECK(t.count(Outcome::Ok) == 1);

  Prog n("nondet", kNondet);
  REQUIRE(n.bin.ok);
  const Summary hit = replay(n.bin, schedule_of({{"main", 4, "", 123456}}), false);
  REQUIRE(hit.failure);
  const Summary miss = replay(n.bin, schedule_of({{"main", 4, "", 7}}), false);
  CHECK_FALSE(miss.failure);
}

// fib_bench's pattern (../shared/benchmarks/svcomp/pthread/fib_bench_longer-2.c, smaller): the
// violation needs the two workers' atomic sections to alternate strictly, eight preemptions,
// while main, which created them, waits. PCT's depth cannot give that; demote can.
const char* kAlternate = R"(#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int i = 1, j = 1;
void *t1(void *a) { for (int k = 0; k < 4; k++) { __VERIFIER_atomic_begin(); i += j; __VERIFIER_atomic_end(); } return 0; }
void *t2(void *a) { for (int k = 0; k < 4; k++) { __VERIFIER_atomic_begin(); j += i; __VERIFIER_atomic_end(); } return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  __VERIFIER_atomic_begin();
  int big = i >= 34 || j >= 34;
  __VERIFIER_atomic_end();
  if (big) reach_error();
  return 0;
}
)";

TEST_CASE("native: demote finds a bug that needs strict alternation; PCT does not") {
  Prog p("alternate", kAlternate);
  REQUIRE(p.bin.ok);
  Options o = opts(2000);
  o.strategy = "demote";
  const Summary d = run(p.bin, o);
  REQUIRE(d.ok);
  REQUIRE(d.failure);
  CHECK(d.failure->strategy == "demote");
  o.strategy = "pct";
  o.pct_depth = 3;
  o.runs = 500;
  const Summary c = run(p.bin, o);
  REQUIRE(c.ok);
  CHECK_FALSE(c.failure);
  CHECK(c.runs == 500);
}

// The violation needs the two workers' eight atomic sections each to alternate strictly (16
// switches of `last`): random and PCT schedules almost never give that, a search of the
// schedules does. The state space is small (the workers' loop counters, last, switches).
const char* kSwitches = R"(#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int last, switches;
void *t(void *a) {
  for (int k = 0; k < 8; k++) {
    __VERIFIER_atomic_begin();
    if (last != (int)(long)a) switches++;
    last = (int)(long)a;
    __VERIFIER_atomic_end();
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, (void *)1);
  pthread_create(&b, 0, t, (void *)2);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (switches == 16) reach_error();
  return 0;
}
)";

TEST_CASE("native: dfs finds a bug that needs strict alternation where 200 random or PCT runs do not and its schedule repeats it") {
  Prog p("switches", kSwitches);
  REQUIRE(p.bin.ok);
  for (const char* strategy : {"random", "pct"}) {
    Options o = opts(200);
    o.strategy = strategy;
    const Summary r = run(p.bin, o);
    REQUIRE(r.ok);
    CHECK_MESSAGE(!r.failure, strategy);
    CHECK(r.runs == 200);
  }
  Options o = opts(100'000);
  o.strategy = "dfs";
  const Summary d = run(p.bin, o);
  REQUIRE(d.ok);
  REQUIRE(d.failure);
  CHECK(d.failure->strategy == "dfs");
  CHECK(d.failure->message.find("reach_error") != std::string::npos);
  CHECK(d.count(Outcome::Visited) > 0);  // the search pruned states it had seen
  CHECK(d.states > 16);
  REQUIRE_FALSE(d.failure->schedule.empty());
  // The failing run's schedule, followed once, fails the same way.
  o.schedule = d.failure->schedule;
  const Summary again = run(p.bin, o);
  REQUIRE(again.failure);
  CHECK(again.runs == 1);
  CHECK(again.failure->events.size() == d.failure->events.size());
}

TEST_CASE("native: dfs explores every state of a correct program and says so") {
  Prog p("locked", kLocked);
  REQUIRE(p.bin.ok);
  Options o = opts(100'000);
  o.strategy = "dfs";
  const Summary s = run(p.bin, o);
  REQUIRE(s.ok);
  CHECK_FALSE(s.failure);
  CHECK(s.exhausted);
  CHECK_FALSE(s.table_full);
  // Two workers, each lock / read / write / unlock, around main's creates and joins: tens of
  // states (72 when this was written), not thousands (a state hash that never matches would
  // never finish), not a handful (one that merges different states).
  CHECK(s.states >= 30);
  CHECK(s.states <= 300);
  CHECK(s.count(Outcome::Ok) > 0);
  CHECK(s.count(Outcome::Visited) > 0);
  CHECK(s.runs < 1000);
}

TEST_CASE("native: the deliberately broken dfs (hashes shared memory only) misses the bug") {
  // SIREN_RT_TEST_BROKEN=2: a state is its shared memory only, so states that differ only in
  // where the threads are (their pending events, their stacks) are taken for one and pruned.
  ::setenv("SIREN_RT_TEST_BROKEN", "2", 1);
  Prog p("switches", kSwitches);
  REQUIRE(p.bin.ok);
  Options o = opts(100'000);
  o.strategy = "dfs";
  const Summary s = run(p.bin, o);
  ::unsetenv("SIREN_RT_TEST_BROKEN");
  REQUIRE(s.ok);
  CHECK_FALSE(s.failure);  // the first dfs test case catches this
  CHECK(s.exhausted);      // and it even claims to have seen every state
  CHECK(s.states < 16);
}

TEST_CASE("native: a failing run reports the nondet values its threads got") {
  Prog p("nondet3", R"(extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) { int v = __VERIFIER_nondet_int(); if (v == -3) reach_error(); return 0; }
)");
  REQUIRE(p.bin.ok);
  const Summary s = run(p.bin, opts(2000));
  REQUIRE(s.failure);
  int values = 0;
  for (const Event& e : s.failure->events) {
    if (e.kind != 'N') continue;
    CHECK(static_cast<std::int64_t>(e.addr) == -3);
    ++values;
  }
  CHECK(values == 1);
}

TEST_CASE("native: a program clang rejects is an error with its diagnostic") {
  Prog p("bad", "int main(void) { return x; }\n");
  CHECK_FALSE(p.bin.ok);
  CHECK(p.bin.error.find("clang could not compile") != std::string::npos);
  CHECK(p.bin.error.find("x") != std::string::npos);
}

TEST_CASE("native: the deliberately broken runtime (never preempts) is caught by the same checks") {
  ::setenv("SIREN_RT_TEST_BROKEN", "1", 1);
  Prog p("lost", kLostUpdate);
  REQUIRE(p.bin.ok);
  Options o = opts(500);
  o.stop_at_first = false;
  const Summary s = run(p.bin, o);
  const Summary r = replay(p.bin, schedule_of(lost_update_trace()), false);
  ::unsetenv("SIREN_RT_TEST_BROKEN");
  REQUIRE(s.ok);
  CHECK_FALSE(s.failure);  // the lost update is never found: the first test case catches this
  CHECK_FALSE(r.failure);  // nor replayed: the replay test case catches this
}
