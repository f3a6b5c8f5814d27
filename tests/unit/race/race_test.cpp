// Data-race queries (race/race.hpp) and triage helpers (race/triage.hpp) on small C
// programs: a racy counter, a lock-protected one, create/join-ordered accesses, disjoint array
// cells, an atomic section, an atomic access against a plain one, a read/read pair; every race found was replayed. Each runs without
// a reduction, under MPOR and under SIR.
#include "race/race.hpp"
#include "race/triage.hpp"
#include "frontend/frontend.hpp"
#include "ir/thread_model.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>

using namespace siren;
using check::Verdict;

namespace {

std::optional<ir::ThreadModel> model(const std::string& src) {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path() / ("siren-race-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / ("race" + std::to_string(counter++) + ".c");
  std::ofstream(path) << src;
  frontend::FrontendResult fr = frontend::translate_file(path.string());
  if (fr.status != frontend::FrontendStatus::Ok) return std::nullopt;
  return ir::build_thread_model(*fr.program, {});
}

race::RaceAnswer race_of(const std::string& src, const std::string& reduction) {
  auto tm = model(src);
  REQUIRE(tm);
  check::CheckOptions co;
  co.bound = 80;
  // "explicit": the explicit-state search alone (race::search_race); else the BMC's race
  // queries under that reduction.
  co.reduction = reduction == std::string("explicit") ? "none" : reduction;
  co.engine = reduction == std::string("explicit") ? "explicit" : "bmc";
  return race::check_race(*tm, co);
}

// Every race test runs under each reduction (a reduction must keep every racy state reachable)
// and with the explicit-state search (its partial-order reduction must too).
const char* const kReductions[] = {"none", "mpor", "sir", "explicit"};

const char* kHeader = "#include <pthread.h>\n";

}  // namespace

TEST_CASE("race: unprotected counter races, and the race is replayed") {
  for (const char* red : kReductions) {
    CAPTURE(red);
    auto r = race_of(std::string(kHeader) +
                  "int c;\nvoid *w(void *a) { c++; return 0; }\n"
                  "int main() { pthread_t t; pthread_create(&t, 0, w, 0); c++; pthread_join(t, 0); return 0; }\n", red);
    CHECK(r.verdict == Verdict::Unsafe);
    CHECK(!r.internal_error);
    CHECK(r.first.variable == "c");
    CHECK(r.first.thread != r.second.thread);
    CHECK((r.first.write || r.second.write));
  }
}

TEST_CASE("race: a lock-protected counter is race-free (proven)") {
  for (const char* red : kReductions) {
    CAPTURE(red);
    auto r = race_of(std::string(kHeader) +
                  "int c; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
                  "void *w(void *a) { pthread_mutex_lock(&m); c++; pthread_mutex_unlock(&m); return 0; }\n"
                  "int main() { pthread_t t; pthread_create(&t, 0, w, 0);\n"
                  "  pthread_mutex_lock(&m); c++; pthread_mutex_unlock(&m); pthread_join(t, 0); return c; }\n", red);
    CHECK(r.verdict == Verdict::Safe);
  }
}

TEST_CASE("race: accesses ordered by create and join do not race") {
  for (const char* red : kReductions) {
    CAPTURE(red);
    auto r = race_of(std::string(kHeader) +
                  "int c;\nvoid *w(void *a) { c = 1; return 0; }\n"
                  "int main() { pthread_t t; c = 5; pthread_create(&t, 0, w, 0); pthread_join(t, 0); c = 2; return c; }\n", red);
    CHECK(r.verdict == Verdict::Safe);
  }
}

TEST_CASE("race: disjoint array cells do not race, the same cell does") {
  for (const char* red : kReductions) {
    CAPTURE(red);
    auto safe = race_of(std::string(kHeader) +
                     "int a[4];\nvoid *w(void *x) { a[1] = 1; return 0; }\n"
                     "int main() { pthread_t t; pthread_create(&t, 0, w, 0); a[2] = 2; pthread_join(t, 0); return 0; }\n", red);
    CHECK(safe.verdict == Verdict::Safe);
    auto racy = race_of(std::string(kHeader) +
                     "int a[4];\nvoid *w(void *x) { int i = 1; a[i] = 1; return 0; }\n"
                     "int main() { pthread_t t; pthread_create(&t, 0, w, 0); int j = 1; a[j] = 2; pthread_join(t, 0); return 0; }\n", red);
    CHECK(racy.verdict == Verdict::Unsafe);
    CHECK(racy.first.variable == "a[1]");
  }
}

TEST_CASE("race: accesses inside atomic sections do not race, reads never race with reads") {
  for (const char* red : kReductions) {
    CAPTURE(red);
    auto r = race_of(std::string(kHeader) +
                  "void __VERIFIER_atomic_inc(void);\nint c;\n"
                  "void __VERIFIER_atomic_inc(void) { c++; }\n"
                  "void *w(void *a) { __VERIFIER_atomic_inc(); return 0; }\n"
                  "int main() { pthread_t t; pthread_create(&t, 0, w, 0); __VERIFIER_atomic_inc(); pthread_join(t, 0); return 0; }\n", red);
    CHECK(r.verdict == Verdict::Safe);
    auto rr = race_of(std::string(kHeader) +
                   "int c = 3, d;\nvoid *w(void *a) { d = c; return 0; }\n"
                   "int main() { pthread_t t; int x; pthread_create(&t, 0, w, 0); x = c; pthread_join(t, 0); return x; }\n", red);
    CHECK(rr.verdict == Verdict::Safe);
  }
}

TEST_CASE("race: an atomic access and a plain one race, the racy state is inside the atomic section") {
  // Issue 17: a thread at an atomic block stands at all of the block's accesses.
  for (const char* red : kReductions) {
    CAPTURE(red);
    auto r = race_of(std::string(kHeader) +
                  "int m;\nvoid __VERIFIER_atomic_set(int v) { int u = v + 1; m = u; }\n"
                  "void *w(void *a) { __VERIFIER_atomic_set(1); return 0; }\n"
                  "int main() { pthread_t t; pthread_create(&t, 0, w, 0); int s = m; pthread_join(t, 0); return s; }\n", red);
    CHECK(r.verdict == Verdict::Unsafe);
    CHECK(!r.internal_error);
    CHECK(r.first.variable == "m");
    CHECK(r.second.variable == "m");
    CHECK(r.first.write != r.second.write);
  }
}

TEST_CASE("triage: warning ids are order-insensitive and compare files by basename") {
  race::SrcLoc a{"dir/x.c", 3, 1}, b{"x.c", 7, 0};
  CHECK(race::warning_id(a, b) == race::warning_id(b, race::SrcLoc{"x.c", 3, 1}));
  CHECK(race::warning_id(a, b) != race::warning_id(a, race::SrcLoc{"x.c", 8, 0}));
}

TEST_CASE("triage: lockset candidates see locks and accesses through pointers (points-to)") {
  // Two workers update dev->x under dev->m, both given &d: no candidate pair. Without the
  // lock: the pair of updates (a write in each thread) is a candidate.
  const std::string locked = R"(
#include <pthread.h>
struct dev { pthread_mutex_t m; int x; } d;
int other;
void *worker(void *arg) {
  struct dev *p = arg;
  pthread_mutex_lock(&p->m);
  p->x = p->x + 1;
  pthread_mutex_unlock(&p->m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, &d);
  pthread_create(&b, 0, worker, &d);
  other = 1;
  return 0;
}
)";
  auto tm = model(locked);
  REQUIRE(tm);
  CHECK(race::lockset_candidates(*tm).empty());
  std::string unlocked = locked;
  for (const char* call : {"  pthread_mutex_lock(&p->m);\n", "  pthread_mutex_unlock(&p->m);\n"})
    unlocked.erase(unlocked.find(call), std::string(call).size());
  auto tu = model(unlocked);
  REQUIRE(tu);
  const auto ws = race::lockset_candidates(*tu);
  REQUIRE(!ws.empty());
  for (const auto& w : ws) CHECK(w.first.line == 7);  // p->x = p->x + 1, in both workers
}
