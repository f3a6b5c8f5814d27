// The proof for any number of threads (modular/thread_modular.hpp): proofs and refusals on
// small parameterized programs, each proof checked against the explicit-state search on the
// program's instances with 1..3 workers, and the deliberately unsound variant (no interference)
// caught by that check.
#include "tests/unit/encoder/count_helpers.hpp"
#include "check/check.hpp"
#include "modular/thread_modular.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace siren;

namespace {

const char* kHead = R"(#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void __VERIFIER_atomic_acquire(void);
void __VERIFIER_atomic_release(void);
int m = 0;
void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(m == 0); m = 1; }
void __VERIFIER_atomic_release(void) { __VERIFIER_assume(m == 1); m = 0; }
)";

// `body` defines worker `w`; main creates workers forever (instances < 0) or exactly `instances`.
std::string program(const std::string& body, int instances) {
  std::string main = "int main(void) {\n  pthread_t t;\n";
  if (instances < 0)
    main += "  while (1) pthread_create(&t, 0, w, 0);\n";
  else
    for (int i = 0; i < instances; ++i) main += "  pthread_create(&t, 0, w, 0);\n";
  return std::string(kHead) + body + main + "  return 0;\n}\n";
}

modular::ModularResult prove(const std::string& body, bool broken = false) {
  auto tm = test::model_of_text(program(body, -1), "modular");
  REQUIRE(tm.has_value());
  modular::ModularOptions o;
  o.test_no_interference = broken;
  return modular::prove_any_number_of_threads(*tm, o);
}

// Does some instance with 1..3 workers fail? (The explicit search is complete on them.)
bool some_instance_fails(const std::string& body) {
  for (int k = 1; k <= 3; ++k) {
    auto tm = test::model_of_text(program(body, k), "modular-instance");
    REQUIRE(tm.has_value());
    check::CheckOptions o;
    o.engine = "explicit";
    const check::CheckResult r = check::check(*tm, o);
    REQUIRE((r.verdict == check::Verdict::Unsafe || r.verdict == check::Verdict::Safe));
    if (r.verdict == check::Verdict::Unsafe) return true;
  }
  return false;
}

// The critical section keeps g at 1 until its own assertion: safe only under mutual exclusion.
const char* kLocked = R"(int g = 0;
void *w(void *arg) {
  __VERIFIER_atomic_acquire();
  g = 1;
  if (g != 1) reach_error();
  g = 0;
  __VERIFIER_atomic_release();
  return 0;
}
)";

const char* kUnlocked = R"(int g = 0;
void *w(void *arg) {
  g = 1;
  if (g != 1) reach_error();
  g = 0;
  return 0;
}
)";

}  // namespace

TEST_CASE("a critical section under an atomic-function lock is proven for any number of threads") {
  const modular::ModularResult r = prove(kLocked);
  CHECK_MESSAGE(r.proven, r.reason);
  CHECK(r.kinds == 2);
  CHECK(r.lock_cells >= 1);
  CHECK_FALSE(some_instance_fails(kLocked));
}

TEST_CASE("without the lock the abstraction reaches the assertion, and so do two real workers") {
  const modular::ModularResult r = prove(kUnlocked);
  CHECK_FALSE(r.proven);
  CHECK(r.reason.find("possible violation") != std::string::npos);
  CHECK(some_instance_fails(kUnlocked));
}

TEST_CASE("broken variant: without interference the unlocked program is 'proven', which its instances refute") {
  const modular::ModularResult r = prove(kUnlocked, /*broken=*/true);
  CHECK(r.proven);
  // The check every proof gets above (no instance fails) catches it.
  CHECK(some_instance_fails(kUnlocked));
}

TEST_CASE("a nondet index bounded by an assume is enumerated, an unbounded one is refused") {
  const std::string bounded = R"(int a[3];
int max = -1;
void *w(void *arg) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= i && i < 3);
  int e = a[i];
  __VERIFIER_atomic_acquire();
  if (e > max) max = e;
  __VERIFIER_atomic_release();
  if (e > max) reach_error();
  return 0;
}
)";
  const modular::ModularResult r = prove(bounded);
  CHECK_MESSAGE(r.proven, r.reason);
  const std::string unbounded = R"(int g;
void *w(void *arg) {
  int i = __VERIFIER_nondet_int();
  if (i > 5) g = 1;
  if (g > 1) reach_error();
  return 0;
}
)";
  const modular::ModularResult u = prove(unbounded);
  CHECK_FALSE(u.proven);
  CHECK(u.reason.find("nondet value without a small finite range") != std::string::npos);
}

TEST_CASE("a nondet value nothing depends on stands for all values") {
  const std::string body = R"(int data[4];
int n = 0;
void *w(void *arg) {
  int d = __VERIFIER_nondet_int();
  __VERIFIER_atomic_acquire();
  if (n < 4) { data[n] = d; n = n + 1; }
  __VERIFIER_atomic_release();
  if (n > 4) reach_error();
  return 0;
}
)";
  const modular::ModularResult r = prove(body);
  CHECK_MESSAGE(r.proven, r.reason);
}

TEST_CASE("joins, and a thread's own object in shared memory, are refused") {
  auto tm = test::model_of_text(std::string(kHead) + R"(int g;
void *w(void *arg) { g = 1; return 0; }
int main(void) {
  pthread_t t;
  while (1) { pthread_create(&t, 0, w, 0); pthread_join(t, 0); }
}
)", "modular-join");
  REQUIRE(tm.has_value());
  const modular::ModularResult j = modular::prove_any_number_of_threads(*tm);
  CHECK_FALSE(j.proven);
  CHECK(j.reason.find("pthread_join") != std::string::npos);

  const modular::ModularResult e = prove(R"(int *p;
void *w(void *arg) {
  int mine = 0;
  p = &mine;
  *p = 1;
  if (mine != 1) reach_error();
  return 0;
}
)");
  CHECK_FALSE(e.proven);
  CHECK(e.reason.find("own") != std::string::npos);
}

TEST_CASE("a cell that is changed by a thread that does not hold it is no lock: the fixpoint restarts") {
  // A second kind of worker clears m whatever its state: mutual exclusion is really lost.
  const std::string body = std::string(kLocked) + "void *thief(void *arg) { m = 0; return 0; }\n";
  auto tm = test::model_of_text(std::string(kHead) + body + R"(int main(void) {
  pthread_t t;
  while (1) { pthread_create(&t, 0, w, 0); pthread_create(&t, 0, thief, 0); }
}
)", "modular-thief");
  REQUIRE(tm.has_value());
  const modular::ModularResult r = modular::prove_any_number_of_threads(*tm);
  CHECK_FALSE(r.proven);
  CHECK(r.restarts >= 1);
  CHECK(r.kinds == 3);
}

TEST_CASE("siren check: SAFE for any number of threads, with the method, under --engine auto") {
  // siren check's model: the create site blocks at the thread limit (a thread bound).
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("siren-modular-check-" + std::to_string(getpid()) + ".c")).string();
  {
    std::ofstream out(path);
    out << program(kLocked, -1);
  }
  frontend::FrontendResult fr = frontend::translate_file(path);
  std::filesystem::remove(path);
  REQUIRE(fr.status == frontend::FrontendStatus::Ok);
  ir::ThreadModelOptions tmo;
  tmo.block_at_thread_limit = true;
  const std::optional<ir::ThreadModel> tm = ir::build_thread_model(*fr.program, tmo);
  REQUIRE(tm->thread_bound == 8);
  check::CheckOptions o;
  o.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  const check::CheckResult r = check::check_growing_threads(*tm, o, 8, 8, [](unsigned) { return std::nullopt; });
  CHECK(r.verdict == check::Verdict::Safe);
  CHECK(r.any_number_of_threads);
  CHECK(r.engine == "modular");
  CHECK(r.method == modular::kMethod);
}
