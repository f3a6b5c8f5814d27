// The native oracle (native/): compile real C with clang-16, run it under seeded and given
// schedules. Each case asserts an outcome that a broken runtime would change; some run a
// deliberately broken runtime (SIREN_RT_TEST_BROKEN=1: it never preempts; =2: dfs hashes shared
// memory only) and show that the same assertions catch it.
#include "native/native.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
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

// A dfs search of b to the end (or its first violation), with or without snapshots.
Summary dfs(const Binary& b, bool snapshots = true) {
  Options o = opts(100'000);
  o.strategy = "dfs";
  o.snapshots = snapshots;
  return run(b, o);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
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

TEST_CASE("native: demote finds a bug that needs strict alternation, PCT does not") {
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
  // Two workers, each lock / read / write / unlock, around main's creates and joins. A state is
  // counted where two threads can move (the lock makes most points choiceless, and a thread's
  // start is taken at once): 9 when this was written; not hundreds (a state hash that never
  // matches), not one (the hash of shared memory only, SIREN_RT_TEST_BROKEN=2, gives 1).
  CHECK(s.states >= 6);
  CHECK(s.states <= 100);
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

// main reads its own local x twice; the thread it created writes x through a pointer. dfs takes
// accesses to a thread's own stack as private (no scheduling point) until some run shows another
// thread touching that stack: then it starts again with that stack shared and finds the bug.
const char* kSharedStack = R"(#include <pthread.h>
extern void reach_error(void);
void *w(void *p) { *(int *)p = 1; return 0; }
int main(void) {
  int x = 0;
  pthread_t t;
  pthread_create(&t, 0, w, &x);
  int a = x;
  int b = x;
  if (a != b) reach_error();
  pthread_join(t, 0);
  return 0;
}
)";

TEST_CASE("native: dfs takes a stack as private until another thread touches it, then starts again") {
  Prog p("sharedstack", kSharedStack);
  REQUIRE(p.bin.ok);
  for (const bool snapshots : {true, false}) {
    CAPTURE(snapshots);
    const Summary s = dfs(p.bin, snapshots);
    REQUIRE(s.ok);
    REQUIRE(s.failure);
    CHECK(s.count(Outcome::Restart) == 1);
    CHECK(s.snapshots == snapshots);
    // The failing run's schedule carries the shared stack (thread 0's) and repeats the failure.
    CHECK(s.failure->schedule.rfind("s1:", 0) == 0);
    Options o = opts(100'000);
    o.strategy = "dfs";
    o.snapshots = snapshots;
    o.schedule = s.failure->schedule;
    const Summary again = run(p.bin, o);
    REQUIRE(again.failure);
    CHECK(again.runs == 1);
  }
}

TEST_CASE("native: dfs takes a stack as shared after another thread's atomic read-modify-write on it") {
  // As kSharedStack, but the thread adds through the pointer with a GCC atomic: the access that
  // shows the stack shared is a read-modify-write (a scheduling point of its own).
  std::string text = kSharedStack;
  const std::string plain = "*(int *)p = 1;";
  text.replace(text.find(plain), plain.size(), "__atomic_fetch_add((int *)p, 1, __ATOMIC_SEQ_CST);");
  Prog p("sharedstack_rmw", text);
  REQUIRE(p.bin.ok);
  Options o = opts(100'000);
  o.strategy = "dfs";
  const Summary s = run(p.bin, o);
  REQUIRE(s.ok);
  REQUIRE(s.failure);
  CHECK(s.count(Outcome::Restart) == 1);
}

TEST_CASE("native: the deliberately broken dfs (every stack private, no restart) misses the bug") {
  ::setenv("SIREN_RT_TEST_BROKEN", "3", 1);
  Prog p("sharedstack", kSharedStack);
  REQUIRE(p.bin.ok);
  Options o = opts(100'000);
  o.strategy = "dfs";
  const Summary s = run(p.bin, o);
  ::unsetenv("SIREN_RT_TEST_BROKEN");
  REQUIRE(s.ok);
  CHECK_FALSE(s.failure);  // the case above catches this
  CHECK(s.exhausted);
  CHECK(s.count(Outcome::Restart) == 0);
}

// Snapshots run the threads as contexts of one kernel thread: thread identity must still be per
// thread. pthread keys and pthread_self are the runtime's then; thread-local variables make the
// search re-execute instead (each would see the other's `mine` otherwise).
const char* kIdentity = R"(#include <pthread.h>
extern void reach_error(void);
pthread_key_t key;
__thread int mine;
pthread_t self[2];
int shared;
void *w(void *a) {
  self[(long)a - 1] = pthread_self();
  pthread_setspecific(key, a);
  mine++;
  shared++;
  if (pthread_getspecific(key) != a || mine != 1) reach_error();
  return 0;
}
int main(void) {
  pthread_key_create(&key, 0);
  pthread_t t[2];
  pthread_create(&t[0], 0, w, (void *)1);
  pthread_create(&t[1], 0, w, (void *)2);
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  if (!pthread_equal(self[0], t[0]) || !pthread_equal(self[1], t[1]) || pthread_equal(self[0], self[1])) reach_error();
  return 0;
}
)";

TEST_CASE("native: dfs keeps pthread keys, pthread_self and thread-local variables per thread") {
  Prog p("identity", kIdentity);
  REQUIRE(p.bin.ok);
  for (const bool snapshots : {true, false}) {
    CAPTURE(snapshots);
    const Summary s = dfs(p.bin, snapshots);
    REQUIRE(s.ok);
    CHECK_FALSE(s.failure);
    CHECK(s.exhausted);
    CHECK(s.states > 5);
    CHECK_FALSE(s.snapshots);  // thread-local variables: re-executed
  }
  // Without the thread-local variable, snapshots are taken (keys and pthread_self as above).
  std::string text = kIdentity;
  for (const char* cut : {"__thread int mine;\n", "  mine++;\n", " || mine != 1"}) text.erase(text.find(cut), std::strlen(cut));
  Prog q("identity2", text);
  REQUIRE(q.bin.ok);
  Options o = opts(100'000);
  o.strategy = "dfs";
  const Summary s = run(q.bin, o);
  REQUIRE(s.ok);
  CHECK_FALSE(s.failure);
  CHECK(s.exhausted);
  CHECK(s.snapshots);
  // A pthread function the runtime does not wrap (it would get the runtime's handle of a
  // thread): no snapshots either.
  Prog d("detach", R"(#include <pthread.h>
int x;
void *w(void *a) { x = 1; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_detach(t); x = 2; return 0; }
)");
  REQUIRE(d.bin.ok);
  CHECK(d.bin.no_snapshots == "pthread_detach");
  const Summary ds = run(d.bin, o);
  REQUIRE(ds.ok);
  CHECK(ds.exhausted);
  CHECK_FALSE(ds.snapshots);
}

TEST_CASE("native: dfs sleep sets prune transitions, not states, and a broken independence relation misses the bug") {
  Prog p("switches", kSwitches);
  REQUIRE(p.bin.ok);
  // Two threads whose atomic sections both read and write `last`: no two transitions commute,
  // so the sleep sets (snapshots) may prune nothing that matters and the search finds the bug
  // (the first dfs case). SIREN_RT_TEST_BROKEN=4 takes every two transitions as commuting: a
  // thread put to sleep never wakes, the strict alternation is never tried.
  ::setenv("SIREN_RT_TEST_BROKEN", "4", 1);
  Options o = opts(100'000);
  o.strategy = "dfs";
  const Summary broken = run(p.bin, o);
  ::unsetenv("SIREN_RT_TEST_BROKEN");
  REQUIRE(broken.ok);
  CHECK(broken.snapshots);
  CHECK_FALSE(broken.failure);
  // Independent threads: the grid of their positions is still visited (4 writes each: at least
  // 16 states where both can move; the counts of the two searches differ a little, as their
  // stacks differ in slots not written yet), with fewer runs.
  Prog q("indep", R"(#include <pthread.h>
int x, y;
void *tx(void *a) { for (int k = 0; k < 4; k++) x = k; return 0; }
void *ty(void *a) { for (int k = 0; k < 4; k++) y = k; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, tx, 0);
  pthread_create(&b, 0, ty, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
)");
  REQUIRE(q.bin.ok);
  const Summary with = run(q.bin, o);
  o.snapshots = false;
  const Summary without = run(q.bin, o);
  REQUIRE(with.ok);
  REQUIRE(without.ok);
  CHECK(with.snapshots);
  CHECK_FALSE(without.snapshots);
  CHECK(with.exhausted);
  CHECK(without.exhausted);
  CHECK(with.states >= 16);
  CHECK(without.states >= 16);
  CHECK(with.runs < without.runs);
}

TEST_CASE("native: dfs hashes the state the runtime keeps in the program's memory (a barrier's count)") {
  // tests/regression/barrier_read_too_early: the worker reads main's slot before the barrier.
  // The runtime writes the barrier's count itself, uninstrumented: when the state hash left it
  // out, states before and after an arrival were one, and the snapshot search pruned the run
  // that fails.
  Prog p("barrier", read_text(std::string(SIREN_SOURCE_DIR) + "/tests/regression/barrier_read_too_early/main.c"));
  REQUIRE(p.bin.ok);
  for (const bool snapshots : {true, false}) {
    CAPTURE(snapshots);
    const Summary s = dfs(p.bin, snapshots);
    REQUIRE(s.ok);
    REQUIRE(s.failure);
    CHECK(s.failure->message.find("early == 1") != std::string::npos);
  }
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
