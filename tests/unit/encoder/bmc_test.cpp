// End-to-end tests of the interleaved BMC encoder: small C programs through the front end and
// the thread model, checked with check::check; verdicts, bounds and replayed traces.
#include "check/check.hpp"
#include "frontend/frontend.hpp"
#include "ir/thread_model.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace siren;
using check::Verdict;

namespace {

struct Run {
  check::CheckResult result;
  std::string path;
};

std::string temp_c(const std::string& src) {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("siren-enc-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / ("prog" + std::to_string(counter++) + ".c");
  std::ofstream(path) << src;
  return path.string();
}

check::CheckResult check_file(const std::string& path, unsigned bound = 80, unsigned threads = 8,
                              const std::string& granularity = check::CheckOptions{}.granularity) {
  check::CheckResult r;
  frontend::FrontendResult fr = frontend::translate_file(path);
  if (fr.status != frontend::FrontendStatus::Ok) {
    r.verdict = Verdict::Unknown;
    r.reason = fr.diagnostics.empty() ? "front end failed" : fr.diagnostics.front().str();
    if (fr.status == frontend::FrontendStatus::InputError) r.reason = "input error: " + r.reason;
    return r;
  }
  ir::ThreadModelOptions tmo;
  tmo.max_threads = threads;
  const ir::ThreadModel tm = ir::build_thread_model(*fr.program, tmo);
  check::CheckOptions co;
  co.engine = "bmc";
  co.reduction = "none";
  co.bound = bound;
  co.granularity = granularity;
  return check::check(tm, co);
}

check::CheckResult check_src(const std::string& src, unsigned bound = 80, unsigned threads = 8,
                             const std::string& granularity = check::CheckOptions{}.granularity) {
  return check_file(temp_c(src), bound, threads, granularity);
}

const char* kPrelude =
    "#include <pthread.h>\n"
    "extern void reach_error(void);\n"
    "extern int __VERIFIER_nondet_int(void);\n"
    "extern void __VERIFIER_assume(int);\n";

std::string prog(const std::string& body) { return std::string(kPrelude) + body; }

}  // namespace

TEST_CASE("lost update without a lock is UNSAFE, with a replayed trace") {
  auto r = check_src(prog(R"(
int x = 0;
void *t(void *a) { int tmp = x; x = tmp + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
})"));
  CHECK_MESSAGE(r.verdict == Verdict::Unsafe, r.reason);
  CHECK_FALSE(r.internal_error);
  REQUIRE(!r.trace.empty());
  CHECK(r.bound == r.trace.size());
  CHECK(r.trace.front().thread == "main");
  // Both threads appear in the trace.
  bool saw_other = false;
  for (const auto& row : r.trace) saw_other |= row.thread != "main";
  CHECK(saw_other);
}

TEST_CASE("the same update under a mutex is SAFE (complete)") {
  auto r = check_src(prog(R"(
int x = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *a) { pthread_mutex_lock(&m); int tmp = x; x = tmp + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
})"), 200);
  CHECK_MESSAGE(r.verdict == Verdict::Safe, r.reason);
}

TEST_CASE("an error at depth >= 10 needs the bound") {
  const std::string src = prog(R"(
int main(void) {
  int i = 0;
  while (i < 6) i = i + 1;
  if (i == 6) reach_error();
  return 0;
})");
  // Instruction frames: the bound counts the trace's steps.
  auto r = check_src(src, 100, 8, "instruction");
  REQUIRE_MESSAGE(r.verdict == Verdict::Unsafe, r.reason);
  const unsigned n = r.bound;
  CHECK(n >= 10);
  auto shallow = check_src(src, n - 1, 8, "instruction");
  CHECK_MESSAGE(shallow.verdict == Verdict::SafeUpToBound, shallow.reason);
  CHECK(shallow.bound == n - 1);
  auto exact = check_src(src, n, 8, "instruction");
  CHECK(exact.verdict == Verdict::Unsafe);
  // Transaction frames: the bound counts frames (each loop iteration is one), fewer than steps.
  auto t = check_src(src, 100, 8, "transaction");
  REQUIRE_MESSAGE(t.verdict == Verdict::Unsafe, t.reason);
  const unsigned m = t.stats.frames + 1;  // the error is in frame `frames`: a bound of frames + 1
  CHECK(m < n);
  auto t_shallow = check_src(src, m - 1, 8, "transaction");
  CHECK_MESSAGE(t_shallow.verdict == Verdict::SafeUpToBound, t_shallow.reason);
  auto t_exact = check_src(src, m, 8, "transaction");
  CHECK(t_exact.verdict == Verdict::Unsafe);
}

TEST_CASE("an error that needs three created threads, with --threads 3 a limit is UNKNOWN") {
  const std::string src = prog(R"(
int a, b, c;
void *ta(void *arg) { a = 1; return 0; }
void *tb(void *arg) { b = 1; return 0; }
void *tc(void *arg) { c = 1; return 0; }
int main(void) {
  pthread_t x, y, z;
  pthread_create(&x, 0, ta, 0);
  pthread_create(&y, 0, tb, 0);
  pthread_create(&z, 0, tc, 0);
  int ra = a, rb = b, rc = c;
  if (ra && rb && rc) reach_error();
  return 0;
})");
  auto r = check_src(src, 80, 4);
  CHECK_MESSAGE(r.verdict == Verdict::Unsafe, r.reason);
  auto limited = check_src(src, 80, 3);
  CHECK(limited.verdict == Verdict::Unknown);
  CHECK(limited.reason.find("thread") != std::string::npos);
  CHECK(limited.limit == ir::LimitKind::Threads);  // data, which check's thread growth reads
  CHECK(r.limit == ir::LimitKind::None);
}

TEST_CASE("a model limit an UNKNOWN names is data: capacity, heap objects, none") {
  // An access past the capacity of an object of a non-constant size (64 elements).
  auto cap = check_src(prog(R"(#include <stdlib.h>
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 100 && n <= 200);
  int *p = malloc(n * sizeof(int));
  p[80] = 1;
  return 0;
})"), 40, 2);
  CHECK(cap.verdict == Verdict::Unknown);
  CHECK(cap.limit == ir::LimitKind::Capacity);
  // A malloc site executed twice (one object per site without ThreadModelOptions::heap_slots).
  auto heap = check_src(prog(R"(#include <stdlib.h>
int main(void) {
  for (int i = 0; i < 2; i++) { int *p = malloc(sizeof(int)); *p = i; }
  return 0;
})"), 40, 2);
  CHECK(heap.verdict == Verdict::Unknown);
  CHECK(heap.limit == ir::LimitKind::HeapSlots);
  // A null dereference: a memory-safety UNKNOWN that no larger model lifts.
  auto null = check_src(prog(R"(int main(void) {
  int *p = 0;
  if (__VERIFIER_nondet_int()) *p = 1;
  return 0;
})"), 40, 2);
  CHECK(null.verdict == Verdict::Unknown);
  CHECK(null.reason.find("memory-safety") != std::string::npos);
  CHECK(null.limit == ir::LimitKind::None);
}

TEST_CASE("an error only through a pointer alias") {
  auto r = check_src(prog(R"(
int g = 0;
int h = 0;
void *t(void *arg) { int *p = (int *)arg; *p = 7; return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, &g);
  pthread_join(id, 0);
  if (g == 7) reach_error();
  return 0;
})"));
  CHECK_MESSAGE(r.verdict == Verdict::Unsafe, r.reason);
  auto safe = check_src(prog(R"(
int g = 0;
int h = 0;
void *t(void *arg) { int *p = (int *)arg; *p = 7; return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, &h);
  pthread_join(id, 0);
  if (g == 7) reach_error();
  return 0;
})"));
  CHECK_MESSAGE(safe.verdict == Verdict::Safe, safe.reason);
}

TEST_CASE("an error only through integer overflow") {
  auto r = check_src(prog(R"(
int main(void) {
  unsigned char c = 250;
  int x = 2147483647;
  c = c + 10;
  x = x + 1;
  if (c == 4 && x < 0) reach_error();
  return 0;
})"));
  CHECK_MESSAGE(r.verdict == Verdict::Unsafe, r.reason);
  auto safe = check_src(prog(R"(
int main(void) {
  unsigned char c = 250;
  c = c + 10;
  if (c > 250) reach_error();
  return 0;
})"));
  CHECK_MESSAGE(safe.verdict == Verdict::Safe, safe.reason);
}

TEST_CASE("while(1) is SAFE up to the bound, a finishing program is SAFE") {
  auto r = check_src(prog(R"(
int x;
int main(void) { while (1) { x = x + 1; } return 0; })"), 25);
  CHECK_MESSAGE(r.verdict == Verdict::SafeUpToBound, r.reason);
  CHECK(r.bound == 25);
  auto done = check_src(prog(R"(
int x;
int main(void) { x = 1; if (x != 1) reach_error(); return 0; })"), 25);
  CHECK_MESSAGE(done.verdict == Verdict::Safe, done.reason);
  CHECK(done.bound < 25);
}

TEST_CASE("assume prunes executions") {
  auto r = check_src(prog(R"(
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 5);
  if (x < 3) reach_error();
  return 0;
})"));
  CHECK_MESSAGE(r.verdict == Verdict::Safe, r.reason);
  auto u = check_src(prog(R"(
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 5);
  if (x == 1000) reach_error();
  return 0;
})"));
  CHECK_MESSAGE(u.verdict == Verdict::Unsafe, u.reason);
}

TEST_CASE("__VERIFIER_atomic_ functions run atomically") {
  const std::string body = R"(
int x = 0;
void __VERIFIER_atomic_inc(void) { int t = x; x = t + 1; }
void *t(void *a) { __VERIFIER_atomic_inc(); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
})";
  auto r = check_src(prog(body), 200);
  CHECK_MESSAGE(r.verdict == Verdict::Safe, r.reason);
}

TEST_CASE("join passes the return value") {
  auto r = check_src(prog(R"(
void *t(void *arg) { long v = (long)arg; pthread_exit((void *)(v + 1)); return 0; }
int main(void) {
  pthread_t id;
  void *ret;
  pthread_create(&id, 0, t, (void *)41);
  pthread_join(id, &ret);
  if ((long)ret != 42) reach_error();
  return 0;
})"));
  CHECK_MESSAGE(r.verdict == Verdict::Safe, r.reason);
  auto u = check_src(prog(R"(
void *t(void *arg) { long v = (long)arg; return (void *)(v + 1); }
int main(void) {
  pthread_t id;
  void *ret;
  pthread_create(&id, 0, t, (void *)41);
  pthread_join(id, &ret);
  if ((long)ret == 42) reach_error();
  return 0;
})"));
  CHECK_MESSAGE(u.verdict == Verdict::Unsafe, u.reason);
}

TEST_CASE("reach_error defined with an empty body is still the violation") {
  auto r = check_src(R"(
#include <pthread.h>
void reach_error() {}
int flag = 0;
void *t(void *arg) { flag = 1; return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_join(id, 0);
  if (flag) { ERROR: { reach_error(); } }
  return 0;
})");
  CHECK_MESSAGE(r.verdict == Verdict::Unsafe, r.reason);
}

TEST_CASE("heap objects: malloc, stores through the pointer, free") {
  auto r = check_src(R"(
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
struct msg { int ready; int data; };
struct msg *box;
void *producer(void *arg) { box->ready = 1; box->data = 42; return 0; }
int main(void) {
  pthread_t id;
  box = (struct msg *)malloc(sizeof(struct msg));
  box->ready = 0;
  box->data = 0;
  pthread_create(&id, 0, producer, 0);
  if (box->ready) { if (box->data != 42) reach_error(); }
  return 0;
})");
  CHECK_MESSAGE(r.verdict == Verdict::Unsafe, r.reason);
  auto safe = check_src(R"(
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
  int *p = (int *)malloc(2 * sizeof(int));
  p[0] = 1; p[1] = 2;
  if (p[0] + p[1] != 3) reach_error();
  free(p);
  return 0;
})");
  CHECK_MESSAGE(safe.verdict == Verdict::Safe, safe.reason);
}

TEST_CASE("unsupported C is UNKNOWN with file:line") {
  auto r = check_src(R"(
union U { int i; float f; };
int main(void) { union U u; u.i = 1; return u.f > 0; }
)");
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.reason.find(".c:") != std::string::npos);
  CHECK(r.reason.find("unsupported") != std::string::npos);
}

TEST_CASE("fig1.c from the shared examples is SAFE") {
  auto r = check_file(SIREN_SHARED_DIR "/examples/fig1.c", 200);
  CHECK_MESSAGE(r.verdict == Verdict::Safe, r.reason);
}

TEST_CASE("a timeout is UNKNOWN with the bound fully checked") {
  const std::string path = temp_c(prog(R"(
int x;
void *t(void *a) { while (1) x = x + 1; return 0; }
void *u(void *a) { while (1) x = x * 3 + 1; return 0; }
int main(void) { pthread_t i, j; pthread_create(&i, 0, t, 0); pthread_create(&j, 0, u, 0);
  while (1) { if (x == 12345) return 1; } })"));
  frontend::FrontendResult fr = frontend::translate_file(path);
  REQUIRE(fr.status == frontend::FrontendStatus::Ok);
  const ir::ThreadModel tm = ir::build_thread_model(*fr.program, {});
  check::CheckOptions co;
  co.engine = "bmc";
  co.reduction = "none";
  co.bound = 100000;
  co.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(700);
  const auto start = std::chrono::steady_clock::now();
  auto r = check::check(tm, co);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.reason.find("timeout") != std::string::npos);
  CHECK(r.time_limit);  // data, which siren-fuzz reads
  CHECK(secs < 1.7);
}
