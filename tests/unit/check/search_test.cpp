// The explicit-state engine (explicit/search.hpp) and `check --engine explicit|auto`: verdicts on
// small programs with known answers, agreement with the explorer (the oracle), the effect of
// the invisible-step reduction, lazy initial nondet cells and budgets.
#include "tests/unit/encoder/count_helpers.hpp"
#include "check/check.hpp"
#include "explicit/explorer.hpp"
#include "explicit/search.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace siren;

namespace {

ir::ThreadModel model(const std::string& text) {
  auto tm = test::model_of_text(text, "search");
  REQUIRE(tm.has_value());
  return std::move(*tm);
}

// A lost update: two threads each add 1 through a local copy, in a loop of `n` rounds
// (local-only loop counters: the ample sets apply).
std::string counter(int n, bool locked) {
  return std::string(R"(#include <pthread.h>
extern void reach_error(void);
int x;
pthread_mutex_t m;
void *t(void *arg) {
  for (int i = 0; i < N; i++) {
    LOCK
    int tmp = x;
    x = tmp + 1;
    UNLOCK
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2 * N) reach_error();
  return 0;
}
)")
      .insert(0, "#define N " + std::to_string(n) + "\n" +
                     (locked ? "#define LOCK pthread_mutex_lock(&m);\n#define UNLOCK pthread_mutex_unlock(&m);\n"
                             : "#define LOCK\n#define UNLOCK\n"));
}

}  // namespace

TEST_CASE("search: the lost update is found, its trace replays, the locked version is SAFE") {
  for (int n : {1, 3}) {
    const ir::ThreadModel bad = model(counter(n, false));
    const explicit_state::SearchResult r = explicit_state::search(bad, {});
    CHECK(r.verdict == explicit_state::SearchVerdict::Unsafe);
    REQUIRE(!r.error_trace.empty());
    const ir::ReplayResult rep = ir::replay(bad, r.error_initial_nondet, r.error_trace);
    CHECK(rep.steps_done == r.error_trace.size());
    CHECK(rep.last.outcome == ir::StepOutcome::Error);
    CHECK(rep.last.error_kind == ir::AssertKind::Property);

    const ir::ThreadModel good = model(counter(n, true));
    const explicit_state::SearchResult s = explicit_state::search(good, {});
    CHECK(s.verdict == explicit_state::SearchVerdict::Safe);
    CHECK(s.exhausted);
    // The reduction never changes the verdict, and it stores fewer states.
    explicit_state::SearchOptions no_por;
    no_por.por = false;
    const explicit_state::SearchResult full = explicit_state::search(good, no_por);
    CHECK(full.verdict == explicit_state::SearchVerdict::Safe);
    CHECK(s.states < full.states);
    CHECK(s.reduced > 0);
    // The explorer (oracle) stores exactly the full graph's states.
    explicit_state::ExploreOptions eo;
    eo.count_schedules = false;
    const explicit_state::ExploreResult ex = explicit_state::explore(good, eo);
    CHECK(ex.verdict == explicit_state::ExploreVerdict::Safe);
    CHECK(ex.states == full.states);
  }
}

TEST_CASE("search: SAFE for a program with infinite executions (finite state space)") {
  const ir::ThreadModel tm = model(R"(#include <pthread.h>
extern void reach_error(void);
int flag;
void *t(void *arg) { while (1) { flag = 1; flag = 0; } return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  while (1) { int f = flag; if (f > 1) reach_error(); }
  return 0;
}
)");
  const explicit_state::SearchResult r = explicit_state::search(tm, {});
  CHECK(r.verdict == explicit_state::SearchVerdict::Safe);
  // BMC alone can only say SAFE up to the bound here; auto answers SAFE through the search.
  check::CheckOptions co;
  co.engine = "bmc";
  co.bound = 20;
  CHECK(check::check(tm, co).verdict == check::Verdict::SafeUpToBound);
  co.engine = "auto";
  const check::CheckResult a = check::check(tm, co);
  CHECK(a.verdict == check::Verdict::Safe);
  CHECK(a.engine == "explicit");
}

TEST_CASE("search: nondet values") {
  // A bug that needs x == 1: found with the small domain (the error is real).
  const ir::ThreadModel bug = model(R"(extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) { int x = __VERIFIER_nondet_int(); if (x == 1) reach_error(); return 0; }
)");
  CHECK(explicit_state::search(bug, {}).verdict == explicit_state::SearchVerdict::Unsafe);
  // A bug that needs x == 1000: outside the domain, so no SAFE claim either.
  const ir::ThreadModel far = model(R"(extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) { int x = __VERIFIER_nondet_int(); if (x == 1000) reach_error(); return 0; }
)");
  const explicit_state::SearchResult f = explicit_state::search(far, {});
  CHECK(f.verdict == explicit_state::SearchVerdict::Unknown);
  CHECK(f.nondet_restricted);
  CHECK(f.exhausted);
  // auto then hands over to BMC, which finds it.
  check::CheckOptions co;
  co.engine = "auto";
  co.bound = 10;
  const check::CheckResult a = check::check(far, co);
  CHECK(a.verdict == check::Verdict::Unsafe);
  CHECK(a.engine == "bmc");
  // A bool nondet has a full domain: SAFE is exact.
  const ir::ThreadModel b = model(R"(extern _Bool __VERIFIER_nondet_bool(void);
extern void reach_error(void);
int main(void) { _Bool c = __VERIFIER_nondet_bool(); int x = c ? 2 : 3; if (x == 4) reach_error(); return 0; }
)");
  CHECK(explicit_state::search(b, {}).verdict == explicit_state::SearchVerdict::Safe);
}

TEST_CASE("search: uninitialised cells are enumerated only when read before written") {
  // `int v[2];` in main has indeterminate cells; written before read: exact, SAFE.
  const ir::ThreadModel written = model(R"(extern void reach_error(void);
int main(void) { int v[2]; int *p = v; p[0] = 1; p[1] = 2; if (p[0] + p[1] != 3) reach_error(); return 0; }
)");
  const explicit_state::SearchResult w = explicit_state::search(written, {});
  CHECK(w.verdict == explicit_state::SearchVerdict::Safe);
  CHECK(!w.nondet_restricted);
  // Read before written: the values are enumerated (restricted domain), the bug found.
  const ir::ThreadModel read = model(R"(extern void reach_error(void);
int main(void) { int v[2]; int *p = v; if (p[0] == -1) reach_error(); return 0; }
)");
  const explicit_state::SearchResult r = explicit_state::search(read, {});
  CHECK(r.verdict == explicit_state::SearchVerdict::Unsafe);
  const ir::ReplayResult rep = ir::replay(read, r.error_initial_nondet, r.error_trace);
  CHECK(rep.last.outcome == ir::StepOutcome::Error);
}

TEST_CASE("search: a reachable modelling limit is UNKNOWN, a property error after it still UNSAFE") {
  const ir::ThreadModel tm = model(R"(#include <pthread.h>
void *t(void *arg) { return 0; }
int main(void) { pthread_t h; while (1) pthread_create(&h, 0, t, 0); return 0; }
)");
  explicit_state::SearchOptions so;
  const explicit_state::SearchResult r = explicit_state::search(tm, so);
  CHECK(r.verdict == explicit_state::SearchVerdict::Unknown);
  REQUIRE(r.other_error.has_value());
  CHECK(r.other_error->text.find("modelling limit") != std::string::npos);
  CHECK(r.other_error->limit == ir::LimitKind::Threads);  // the data check's thread growth reads
}

TEST_CASE("search: budgets give UNKNOWN, never SAFE") {
  const ir::ThreadModel tm = model(counter(6, true));
  explicit_state::SearchOptions so;
  so.deadline = std::chrono::steady_clock::now();
  const explicit_state::SearchResult r = explicit_state::search(tm, so);
  CHECK(r.verdict == explicit_state::SearchVerdict::Unknown);
  CHECK(r.reason == "timeout");
  CHECK(r.time_limit);
  CHECK(!r.exhausted);
}

TEST_CASE("search: invisible steps") {
  const ir::ThreadModel tm = model(counter(2, false));
  std::size_t invisible = 0, visible = 0;
  for (ir::ThreadId t = 0; t < tm.threads.size(); ++t)
    for (std::uint32_t pc = 0; pc < tm.threads[t].code.size(); ++pc) {
      const ir::Instr& in = tm.threads[t].code[pc];
      const bool inv = explicit_state::invisible_step(tm, t, pc);
      (inv ? invisible : visible)++;
      if (in.kind == ir::InstrKind::Store || in.kind == ir::InstrKind::ThreadCreate ||
          in.kind == ir::InstrKind::ThreadJoin || in.kind == ir::InstrKind::Assert)
        CHECK_FALSE(inv);
    }
  CHECK(invisible > 0);
  CHECK(visible > 0);
}

TEST_CASE("search: indeterminate heap cells are chosen at their first read, the trace replays") {
  const ir::ThreadModel tm = model(R"(#include <stdlib.h>
extern void reach_error(void);
int main(void) {
  int *a = malloc(4 * sizeof(int));
  a[0] = 0;
  int i = a[1];                     // indeterminate
  if (i >= 0 && i < 4 && a[i] == -2) reach_error();   // a[i]: a second choice, at an address chosen first
  return 0;
}
)");
  const explicit_state::SearchResult r = explicit_state::search(tm, {});
  REQUIRE(r.verdict == explicit_state::SearchVerdict::Unsafe);
  const ir::ReplayResult rep = ir::replay(tm, r.error_initial_nondet, r.error_trace);
  CHECK(rep.steps_done == r.error_trace.size());
  CHECK(rep.last.outcome == ir::StepOutcome::Error);
  CHECK(rep.last.error_kind == ir::AssertKind::Property);
  // Written before read everywhere: no choice, SAFE.
  const ir::ThreadModel ok = model(R"(#include <stdlib.h>
extern void reach_error(void);
int main(void) {
  int *a = malloc(3 * sizeof(int));
  for (int k = 0; k < 3; k++) a[k] = k;
  int s = a[0] + a[1] + a[2];
  if (s != 3) reach_error();
  return 0;
}
)");
  const explicit_state::SearchResult s = explicit_state::search(ok, {});
  CHECK(s.verdict == explicit_state::SearchVerdict::Safe);
}
