// Random-term differential testing (in the spirit of CaDiCaL's mobical and Bitwuzla's
// self-checks): random DAGs over every term kind are bit-blasted, their variables fixed by
// assumptions, and every term's model value must equal `evaluate` on the same variable values.
#include "solvers/decision_procedure.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace siren::solvers;

namespace {

struct Generator {
  TermManager& tm;
  std::mt19937_64& rng;
  std::vector<Term> bools, bvs, vars;

  std::uint32_t width() { return 1 + rng() % 12; }
  Term pick_bv(std::uint32_t w) {
    for (int tries = 0; tries < 8 && !bvs.empty(); ++tries) {
      Term t = bvs[rng() % bvs.size()];
      if (t->sort.width == w) return t;
    }
    if (rng() % 3 == 0) return tm.mk_bv(w, rng());
    Term v = tm.mk_var(Sort::bv(w), "v");
    vars.push_back(v);
    bvs.push_back(v);
    return v;
  }
  Term pick_bool() {
    if (bools.empty() || rng() % 8 == 0) {
      Term v = tm.mk_var(Sort::boolean(), "b");
      vars.push_back(v);
      bools.push_back(v);
      return v;
    }
    return bools[rng() % bools.size()];
  }
  void step() {
    const std::uint32_t w = width();
    Term t;
    switch (rng() % 12) {
      case 0: {
        static const Kind ks[] = {Kind::BvUlt, Kind::BvUle, Kind::BvSlt, Kind::BvSle};
        t = tm.mk_bv_binary(ks[rng() % 4], pick_bv(w), pick_bv(w));
        break;
      }
      case 1: t = tm.mk_eq(pick_bv(w), pick_bv(w)); break;
      case 2: {
        Term a = pick_bool(), b = pick_bool();
        switch (rng() % 6) {
          case 0: t = tm.mk_and(a, b); break;
          case 1: t = tm.mk_or(a, b); break;
          case 2: t = tm.mk_xor(a, b); break;
          case 3: t = tm.mk_iff(a, b); break;
          case 4: t = tm.mk_implies(a, b); break;
          default: t = tm.mk_not(a); break;
        }
        break;
      }
      case 3: t = tm.mk_ite(pick_bool(), pick_bv(w), pick_bv(w)); break;
      case 4: t = tm.mk_ite(pick_bool(), pick_bool(), pick_bool()); break;
      case 5: {
        Term a = pick_bv(w);
        const std::uint32_t hi = rng() % w, lo = rng() % (hi + 1);
        t = tm.mk_extract(a, hi, lo);
        break;
      }
      case 6: t = tm.mk_concat(pick_bv(w), pick_bv(width())); break;
      case 7: t = tm.mk_resize(pick_bv(w), width(), rng() % 2); break;
      case 8: t = tm.mk_bv_unary(rng() % 2 ? Kind::BvNeg : Kind::BvNot, pick_bv(w)); break;
      default: {
        static const Kind ks[] = {Kind::BvAnd, Kind::BvOr, Kind::BvXor, Kind::BvAdd,
                                  Kind::BvSub, Kind::BvMul, Kind::BvUdiv, Kind::BvUrem,
                                  Kind::BvSdiv, Kind::BvSrem, Kind::BvShl, Kind::BvLshr,
                                  Kind::BvAshr};
        Term b = rng() % 4 == 0 ? tm.mk_bv(w, rng() % (w + 2)) : pick_bv(w);
        t = tm.mk_bv_binary(ks[rng() % 13], pick_bv(w), b);
        break;
      }
    }
    (t->sort.is_bool() ? bools : bvs).push_back(t);
  }
};

}  // namespace

TEST_CASE("random terms: bit-blasted model values agree with evaluate") {
  std::mt19937_64 rng(12345);
  int checked = 0;
  for (int round = 0; round < 40; ++round) {
    TermManager tm;
    auto dp = make_cadical_bitblaster(tm);
    Generator gen{tm, rng};
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
