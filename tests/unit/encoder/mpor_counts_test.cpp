// MPOR is sound and optimal (issue 6): on programs without nondet, the number of complete
// schedules `siren check --count-schedules` admits equals the explorer's numbers —
// `--reduction none`: its schedules; `--reduction mpor`: its Mazurkiewicz classes (never fewer:
// a lost behaviour; never more: a redundant one). Pinned counts for small programs, then random
// programs from the fuzzer's generator (tools/fuzz/generator.hpp).
#include "check/check.hpp"
#include "tests/unit/encoder/count_helpers.hpp"
#include "frontend/frontend.hpp"
#include "explicit/explorer.hpp"
#include "ir/thread_model.hpp"
#include "ir/validator.hpp"
#include "tools/fuzz/generator.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>

// The generator is a plain source file of tools/fuzz (no main): compiled into this test.
#include "tools/fuzz/generator.cpp"

using namespace siren;

namespace {

using test::count_schedules;
using test::model_of_file;
std::optional<ir::ThreadModel> model_of_text(const std::string& text) { return test::model_of_text(text, "mpor"); }

struct Counts {
  std::uint64_t schedules = 0, classes = 0, none = 0, mpor = 0;
};

Counts all_counts(const ir::ThreadModel& tm, unsigned bound) {
  explicit_state::ExploreOptions eo;
  eo.bound = bound;
  const explicit_state::ExploreResult ex = explicit_state::explore(tm, eo);
  REQUIRE(ex.schedules);
  REQUIRE(ex.mazurkiewicz_classes);
  Counts c;
  c.schedules = *ex.schedules;
  c.classes = *ex.mazurkiewicz_classes;
  auto n = count_schedules(tm, "none", bound);
  auto m = count_schedules(tm, "mpor", bound);
  REQUIRE(n);
  REQUIRE(m);
  c.none = *n;
  c.mpor = *m;
  return c;
}

// forward
void random_programs(std::uint64_t first);

}  // namespace

// Pinned counts (GenMC style): explorer schedules / classes beside none / mpor.
TEST_CASE("mpor: pinned counts") {
  struct Case {
    const char* name;
    std::string text;  // C program, or "@path" of a shared example
    unsigned bound;
    Counts expected;
  };
  const std::string shared = SIREN_SHARED_DIR;
  const Case cases[] = {
      // DESIGN §B3 worked example: T1: x=1; y=y+1  T2: y=2; z=1 (2 classes at the paper's
      // granularity; ours adds create/return steps and splits y=y+1 into a read and a write).
      {"B3 worked example",
       "#include <pthread.h>\nint x, y, z;\n"
       "void *t1(void *a) { x = 1; y = y + 1; return 0; }\n"
       "void *t2(void *a) { y = 2; z = 1; return 0; }\n"
       "int main() { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }\n",
       60, {246, 35, 246, 35}},
      // The seed's Fig. 1: each __VERIFIER_atomic_add is one transition; MPOR admits the
      // paper's 14 (its local steps are independent of everything).
      {"fig1", "@" + shared + "/examples/fig1.c", 60, {447, 14, 447, 14}},
      // two threads, independent: one class per position of main's return
      {"independent writers",
       "#include <pthread.h>\nint a, b;\n"
       "void *t(void *p) { a = 1; return 0; }\n"
       "int main() { pthread_t h; pthread_create(&h, 0, t, 0); b = 1; pthread_join(h, 0); return a - 1; }\n",
       60, {6, 1, 6, 1}},
      // a mutex-protected counter
      {"mutex counter",
       "#include <pthread.h>\nint c; pthread_mutex_t m;\n"
       "void *t(void *p) { pthread_mutex_lock(&m); c = c + 1; pthread_mutex_unlock(&m); return 0; }\n"
       "int main() { pthread_t h1, h2; pthread_create(&h1, 0, t, 0); pthread_create(&h2, 0, t, 0);\n"
       "  pthread_join(h1, 0); pthread_join(h2, 0); return 0; }\n",
       60, {1962, 2, 1962, 2}},
      // pointers and an atomic section: the address of the store is decided at run time; the
      // block {p = &g1; g0 = 2} is one transition
      {"pointer + atomic",
       "#include <pthread.h>\nextern void __VERIFIER_atomic_begin(void); extern void __VERIFIER_atomic_end(void);\n"
       "int g0, g1; int *p = &g0;\n"
       "void *t(void *q) { __VERIFIER_atomic_begin(); p = &g1; g0 = 2; __VERIFIER_atomic_end(); return 0; }\n"
       "int main() { pthread_t h; pthread_create(&h, 0, t, 0); *p = 1; int r = g1; return 0; }\n",
       60, {21, 7, 21, 7}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    auto tm = c.text[0] == '@' ? model_of_file(c.text.substr(1)) : model_of_text(c.text);
    REQUIRE(tm);
    const Counts got = all_counts(*tm, c.bound);
    std::printf("pinned %-22s explorer schedules %6llu classes %5llu | none %6llu mpor %5llu\n", c.name,
                (unsigned long long)got.schedules, (unsigned long long)got.classes, (unsigned long long)got.none,
                (unsigned long long)got.mpor);
    CHECK(got.none == got.schedules);
    CHECK(got.mpor == got.classes);
    if (c.expected.schedules) {
      CHECK(got.schedules == c.expected.schedules);
      CHECK(got.classes == c.expected.classes);
      CHECK(got.none == c.expected.none);
      CHECK(got.mpor == c.expected.mpor);
    }
  }
}

namespace {
// Random programs without nondet (at most 3000 explorer schedules each, bound 24), in three
// parts of 100 counted programs: seeds from `first` on. SIREN_MPOR_PROGRAMS overrides 100.
void random_programs(std::uint64_t first) {
  const unsigned want = std::getenv("SIREN_MPOR_PROGRAMS") ? std::atoi(std::getenv("SIREN_MPOR_PROGRAMS")) : 100;
  const unsigned bound = 24;
  unsigned counted = 0, skipped = 0, agree_none = 0, agree_mpor = 0;
  std::uint64_t sum_sched = 0, sum_classes = 0;
  for (std::uint64_t seed = first; counted < want && seed < first + 20 * want; ++seed) {
    fuzz::Program p = fuzz::generate(seed);
    if (p.nondet) {
      ++skipped;
      continue;
    }
    auto tm = model_of_text(p.to_c());
    REQUIRE(tm);
    explicit_state::ExploreOptions eo;
    eo.bound = bound;
    eo.max_paths = 3000;
    const explicit_state::ExploreResult ex = explicit_state::explore(*tm, eo);
    if (!ex.schedules || !ex.mazurkiewicz_classes || *ex.schedules > 3000) {
      ++skipped;
      continue;
    }
    CAPTURE(seed);
    auto n = count_schedules(*tm, "none", bound);
    auto m = count_schedules(*tm, "mpor", bound);
    REQUIRE(n);
    REQUIRE(m);
    ++counted;
    sum_sched += *ex.schedules;
    sum_classes += *ex.mazurkiewicz_classes;
    CHECK(*n == *ex.schedules);
    CHECK(*m == *ex.mazurkiewicz_classes);
    agree_none += *n == *ex.schedules;
    agree_mpor += *m == *ex.mazurkiewicz_classes;
  }
  std::printf("random from seed %llu: %u programs counted (%u skipped), none==schedules %u, mpor==classes %u; "
              "total schedules %llu, classes %llu\n",
              (unsigned long long)first, counted, skipped, agree_none, agree_mpor, (unsigned long long)sum_sched,
              (unsigned long long)sum_classes);
  CHECK(counted >= want);
}

}  // namespace

TEST_CASE("mpor: optimal and sound on random programs without nondet, part 1") { random_programs(1); }
TEST_CASE("mpor: optimal and sound on random programs without nondet, part 2") { random_programs(10001); }
TEST_CASE("mpor: optimal and sound on random programs without nondet, part 3") { random_programs(20001); }
