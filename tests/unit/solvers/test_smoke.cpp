// Smoke tests of the term-level seam: the encoder's typical calls, end to end.
#include "solvers/decision_procedure.hpp"

#include <doctest/doctest.h>

using namespace siren::solvers;

TEST_CASE("bitblaster: x + y = 10, x < y, read model") {
  TermManager tm;
  auto s = make_cadical_bitblaster(tm);
  Term x = tm.mk_var(Sort::bv(8), "x"), y = tm.mk_var(Sort::bv(8), "y");
  s->assert_formula(tm.mk_eq(tm.mk_bv_binary(Kind::BvAdd, x, y), tm.mk_bv(8, 10)));
  s->assert_formula(tm.mk_bv_binary(Kind::BvUlt, x, y));
  REQUIRE(s->solve({}) == SolveResult::Sat);
  const auto xv = s->value(x), yv = s->value(y);
  CHECK(((xv + yv) & 0xff) == 10);
  CHECK(xv < yv);
  CHECK(s->value(tm.mk_bv_binary(Kind::BvMul, x, y)) == ((xv * yv) & 0xff));
  Term b = tm.mk_var(Sort::boolean(), "b");
  Term fix = tm.mk_eq(x, tm.mk_bv(8, 2));
  CHECK(s->solve(std::vector<Term>{fix}) == SolveResult::Sat);
  CHECK(s->value(x) == 2);
  CHECK(s->value(b) <= 1);
  CHECK(s->value(y) == 8);
  Term bad = tm.mk_eq(y, tm.mk_bv(8, 0));
  CHECK(s->solve(std::vector<Term>{fix, bad}) == SolveResult::Unsat);
  CHECK(s->stats().solve_calls == 3);
}
