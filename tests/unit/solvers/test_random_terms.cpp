// Random-term differential testing (in the spirit of CaDiCaL's mobical and Bitwuzla's
// self-checks): random DAGs over every term kind are bit-blasted, their variables fixed by
// assumptions, and every term's model value must equal `evaluate` on the same variable values.
#include "solvers/decision_procedure.hpp"
#include "random_terms.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace siren::solvers;

TEST_CASE("random terms: bit-blasted model values agree with evaluate") {
  std::mt19937_64 rng(12345);
  int checked = 0;
  for (int round = 0; round < 40; ++round) {
    TermManager tm;
    auto dp = make_cadical_bitblaster(tm);
    testing::RandomTerms gen{tm, rng, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
    for (int i = 0; i < 150; ++i) gen.step();
    std::vector<Term> all = gen.bools;
    all.insert(all.end(), gen.bvs.begin(), gen.bvs.end());
    // Blast every term before solving: z = t with a fresh z.
    for (Term t : all) dp->assert_formula(tm.mk_eq(tm.mk_var(t->sort, "z"), t));
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<std::uint64_t> vals(tm.size(), 0);
      std::vector<Term> fix;
      for (Term v : gen.vars) {
        const std::uint64_t x = rng() & (v->sort.is_bool() ? 1 : (v->sort.width == 64 ? ~0ULL : (1ULL << v->sort.width) - 1));
        vals[v->id] = x;
        fix.push_back(v->sort.is_bool() ? (x ? v : tm.mk_not(v)) : tm.mk_eq(v, tm.mk_bv(v->sort.width, x)));
      }
      REQUIRE(dp->solve(fix) == SolveResult::Sat);
      vals.resize(tm.size(), 0);
      for (Term t : all) {
        INFO(to_string(t));
        CHECK(dp->value(t) == evaluate(t, &vals));
        ++checked;
      }
    }
  }
  CHECK(checked > 20000);
}
