// The SAT instantiation of the circuits, through the term-level seam: z_op = op(x, y) is
// asserted once per width, x and y are fixed by assumptions, and every z_op read back must
// match the C-like reference. Plus incremental use, model read-back of terms never blasted,
// and the terminate callback on hard instances.
#include "solvers/decision_procedure.hpp"
#include "solvers/sat_backend.hpp"

#include "reference.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <random>

using namespace siren::solvers;
using namespace siren::solvers::testing;

namespace {

struct OpBench {
  TermManager tm;
  std::unique_ptr<DecisionProcedure> dp = make_cadical_bitblaster(tm);
  std::uint32_t w;
  Term x, y;
  std::vector<Term> z;  // one result variable per binary kind

  explicit OpBench(std::uint32_t width) : w(width) {
    x = tm.mk_var(Sort::bv(w), "x");
    y = tm.mk_var(Sort::bv(w), "y");
    for (Kind k : binary_kinds()) {
      Term zk = tm.mk_var(is_comparison(k) ? Sort::boolean() : Sort::bv(w), "z");
      dp->assert_formula(tm.mk_eq(zk, tm.mk_bv_binary(k, x, y)));
      z.push_back(zk);
    }
  }

  void check(std::uint64_t a, std::uint64_t b) {
    const Term as[] = {tm.mk_eq(x, tm.mk_bv(w, a)), tm.mk_eq(y, tm.mk_bv(w, b))};
    REQUIRE(dp->solve(as) == SolveResult::Sat);
    const auto& ks = binary_kinds();
    for (std::size_t i = 0; i < ks.size(); ++i) {
      INFO("kind " << static_cast<int>(ks[i]) << " w=" << w << " a=" << a << " b=" << b);
      CHECK(dp->value(z[i]) == reference(ks[i], a, b, w));
    }
  }
};

std::vector<std::pair<std::uint64_t, std::uint64_t>> edge_cases(std::uint32_t w) {
  const std::uint64_t m = mask(w), int_min = (m >> 1) + 1, int_max = m >> 1;
  return {{5, 0},       {0, 0},       {m, 0},        {int_min, 0},       // division by zero
          {int_min, m}, {int_min, 1}, {m, m},        {int_min, int_min}, // INT_MIN / -1
          {1, w},       {m, w},       {int_min, w},  {int_min, w - 1},   // shifts at/over width
          {1, w + 1},   {m, m},       {int_min, 63}, {int_max, 1},       //
          {int_max, 1}, {int_max, int_max}, {int_min, int_max},          // signed overflow
          {7, 3},       {m - 6, 3},   {7, m - 2},    {m - 6, m - 2}};    // sign combinations
}

}  // namespace

TEST_CASE("bitblaster: every op on SAT literals, exhaustive for widths 1-3") {
  for (std::uint32_t w = 1; w <= 3; ++w) {
    OpBench bench(w);
    for (std::uint64_t a = 0; a <= mask(w); ++a)
      for (std::uint64_t b = 0; b <= mask(w); ++b) bench.check(a, b);
  }
}

TEST_CASE("bitblaster: every op on SAT literals, edge cases and random for widths 8, 32, 64") {
  std::mt19937_64 rng(7);
  for (std::uint32_t w : {8u, 32u, 64u}) {
    OpBench bench(w);
    for (auto [a, b] : edge_cases(w)) bench.check(a & mask(w), b & mask(w));
    const int n = w == 64 ? 150 : 300;
    for (int i = 0; i < n; ++i) bench.check(interesting(rng, w), interesting(rng, w));
  }
}

TEST_CASE("bitblaster: inverse problems are solved (division, multiplication)") {
  TermManager tm;
  auto dp = make_cadical_bitblaster(tm);
  Term x = tm.mk_var(Sort::bv(16), "x"), y = tm.mk_var(Sort::bv(16), "y");
  // x * y = 391 with 1 < x <= y < 391  ->  17 * 23
  dp->assert_formula(tm.mk_eq(tm.mk_bv_binary(Kind::BvMul, tm.mk_zext(x, 32), tm.mk_zext(y, 32)),
                              tm.mk_bv(32, 391)));
  dp->assert_formula(tm.mk_bv_binary(Kind::BvUlt, tm.mk_bv(16, 1), x));
  dp->assert_formula(tm.mk_bv_binary(Kind::BvUle, x, y));
  REQUIRE(dp->solve({}) == SolveResult::Sat);
  CHECK(dp->value(x) == 17);
  CHECK(dp->value(y) == 23);
  // Signed: x sdiv -3 = 5 and x srem -3 = -2  ->  x = -17 (C semantics)
  Term q = tm.mk_bv_binary(Kind::BvSdiv, x, tm.mk_bv(16, 0xfffd));
  Term r = tm.mk_bv_binary(Kind::BvSrem, x, tm.mk_bv(16, 0xfffd));
  Term both = tm.mk_and(tm.mk_eq(q, tm.mk_bv(16, 5)), tm.mk_eq(r, tm.mk_bv(16, 0xfffe)));
  auto dp2 = make_cadical_bitblaster(tm);
  dp2->assert_formula(both);
  REQUIRE(dp2->solve({}) == SolveResult::Sat);
  CHECK(dp2->value(x) == (static_cast<std::uint64_t>(-17) & 0xffff));
}

TEST_CASE("bitblaster: incremental solving, assumptions, read-back of terms never blasted") {
  TermManager tm;
  auto dp = make_cadical_bitblaster(tm);
  Term x = tm.mk_var(Sort::bv(8), "x"), y = tm.mk_var(Sort::bv(8), "y");
  Term p = tm.mk_var(Sort::boolean(), "p");
  dp->assert_formula(tm.mk_implies(p, tm.mk_eq(x, tm.mk_bv(8, 42))));
  REQUIRE(dp->solve(std::vector<Term>{p}) == SolveResult::Sat);
  CHECK(dp->value(x) == 42);
  CHECK(dp->value(p) == 1);
  // A term never blasted is evaluated from the model; new variables read consistently.
  CHECK(dp->value(tm.mk_bv_binary(Kind::BvAdd, x, tm.mk_bv(8, 1))) == 43);
  Term fresh = tm.mk_var(Sort::bv(8), "fresh");
  const auto fv = dp->value(fresh);
  CHECK(dp->value(tm.mk_bv_binary(Kind::BvSub, fresh, fresh)) == 0);
  CHECK(dp->value(tm.mk_bv_binary(Kind::BvXor, fresh, x)) == (fv ^ 42));
  // Adding a constraint after Sat keeps the old model readable until the next solve.
  dp->assert_formula(tm.mk_bv_binary(Kind::BvUlt, x, y));
  CHECK(dp->value(x) == 42);
  // Different assumptions on the same formula.
  Term not_p = tm.mk_not(p);
  Term x7 = tm.mk_eq(x, tm.mk_bv(8, 7));
  REQUIRE(dp->solve(std::vector<Term>{not_p, x7}) == SolveResult::Sat);
  CHECK(dp->value(x) == 7);
  CHECK(dp->value(p) == 0);
  CHECK(dp->value(y) > 7);
  CHECK(dp->solve(std::vector<Term>{p, x7}) == SolveResult::Unsat);
  // Assumptions do not persist.
  CHECK(dp->solve({}) == SolveResult::Sat);
  dp->assert_formula(tm.mk_eq(y, tm.mk_bv(8, 0)));  // x < 0 is impossible
  CHECK(dp->solve({}) == SolveResult::Unsat);
  CHECK(dp->solve(std::vector<Term>{p}) == SolveResult::Unsat);
  const auto st = dp->stats();
  CHECK(st.solve_calls == 6);
  CHECK(st.vars > 0);
  CHECK(st.clauses > 0);
}

TEST_CASE("bitblaster: constant formulas and trivial assumptions") {
  TermManager tm;
  auto dp = make_cadical_bitblaster(tm);
  dp->assert_formula(tm.mk_true());
  CHECK(dp->solve({}) == SolveResult::Sat);
  CHECK(dp->value(tm.mk_bv(8, 9)) == 9);
  const Term f[] = {tm.mk_false()};
  CHECK(dp->solve(f) == SolveResult::Unsat);
  CHECK(dp->solve({}) == SolveResult::Sat);
  dp->assert_formula(tm.mk_false());
  CHECK(dp->solve({}) == SolveResult::Unsat);
}

TEST_CASE("sat backend: incremental clauses, assumptions and failed literals") {
  auto sat = make_cadical_backend();
  const int a = sat->new_var(), b = sat->new_var(), c = sat->new_var();
  const int ab[] = {a, b}, nab[] = {-a, b};
  sat->add_clause(ab);
  sat->add_clause(nab);
  REQUIRE(sat->solve() == 10);
  CHECK(sat->value(b));
  CHECK(sat->value(-b) == false);
  sat->assume(-b);
  sat->assume(c);
  REQUIRE(sat->solve() == 20);
  CHECK(sat->failed(-b));
  CHECK_FALSE(sat->failed(c));
  const int nc[] = {-c};
  sat->add_clause(nc);
  REQUIRE(sat->solve() == 10);
  CHECK_FALSE(sat->value(c));
  sat->assume(c);
  CHECK(sat->solve() == 20);
  CHECK(sat->num_vars() == 3);
  CHECK(sat->num_clauses() == 3);
}

namespace {
// Pigeonhole: n+1 pigeons into n holes — exponential for resolution (Haken 1985).
void add_pigeonhole(SatBackend& sat, int holes) {
  const int pigeons = holes + 1;
  std::vector<std::vector<int>> v(pigeons, std::vector<int>(holes));
  for (auto& row : v)
    for (int& x : row) x = sat.new_var();
  for (auto& row : v) sat.add_clause(row);
  for (int h = 0; h < holes; ++h)
    for (int p = 0; p < pigeons; ++p)
      for (int q = p + 1; q < pigeons; ++q) {
        const int cl[] = {-v[p][h], -v[q][h]};
        sat.add_clause(cl);
      }
}

std::function<bool()> deadline(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  return [end] { return std::chrono::steady_clock::now() >= end; };
}
}  // namespace

TEST_CASE("sat backend: terminate callback stops pigeonhole 10 quickly") {
  auto sat = make_cadical_backend();
  add_pigeonhole(*sat, 10);
  sat->set_terminate(deadline(0.3));
  const auto start = std::chrono::steady_clock::now();
  CHECK(sat->solve() == 0);
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 2.0);
}

TEST_CASE("bitblaster: terminate callback turns a hard factoring instance into Unknown") {
  TermManager tm;
  auto dp = make_cadical_bitblaster(tm);
  // 757951 * 776561 (primes of 20 bits with mixed bit patterns, so no lucky phase finds
  // them): factoring a 40-bit semiprime.
  const std::uint64_t n = 757951ULL * 776561ULL;
  Term x = tm.mk_var(Sort::bv(20), "x"), y = tm.mk_var(Sort::bv(20), "y");
  Term prod = tm.mk_bv_binary(Kind::BvMul, tm.mk_zext(x, 40), tm.mk_zext(y, 40));
  dp->assert_formula(tm.mk_eq(prod, tm.mk_bv(40, n)));
  dp->assert_formula(tm.mk_bv_binary(Kind::BvUlt, tm.mk_bv(20, 1), x));
  dp->assert_formula(tm.mk_bv_binary(Kind::BvUlt, tm.mk_bv(20, 1), y));
  dp->set_terminate(deadline(0.3));
  const auto start = std::chrono::steady_clock::now();
  const SolveResult r = dp->solve({});
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r == SolveResult::Unknown);
  CHECK(took < 2.0);
  CHECK(dp->stats().solve_seconds >= 0.25);
  // With the callback removed the solver is usable again (a trivial query).
  dp->set_terminate(nullptr);
  const Term easy[] = {tm.mk_eq(x, tm.mk_bv(20, 757951))};
  CHECK(dp->solve(easy) == SolveResult::Sat);
  CHECK(dp->value(y) == 776561);
}
