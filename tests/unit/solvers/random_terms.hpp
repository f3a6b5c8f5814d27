// A random term-DAG generator over every term kind, shared by the random differential tests
// (test_random_terms.cpp: bit-blasting vs evaluate; backends_test.cpp: every backend vs the
// others). Widths come from the caller's list; bit-vector operands are reused terms of the
// same width, fresh variables or constants (small ones near the width, to hit shifts by >= width
// and division by 0 / -1).
#pragma once

#include "solvers/decision_procedure.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace siren::solvers::testing {

struct RandomTerms {
  TermManager& tm;
  std::mt19937_64& rng;
  std::vector<std::uint32_t> widths;  // the widths to draw from (each at most 64)
  std::vector<Term> bools, bvs, vars;

  std::uint32_t width() { return widths[rng() % widths.size()]; }

  Term bv(std::uint32_t w) {
    for (int tries = 0; tries < 10 && !bvs.empty(); ++tries) {
      Term t = bvs[rng() % bvs.size()];
      if (t->sort.width == w) return t;
    }
    if (rng() % 4 == 0) return tm.mk_bv(w, rng() % 3 == 0 ? rng() : rng() % (w + 3));
    Term v = tm.mk_var(Sort::bv(w), "v");
    vars.push_back(v);
    bvs.push_back(v);
    return v;
  }

  Term boolean() {
    if (bools.empty() || rng() % 7 == 0) {
      Term v = tm.mk_var(Sort::boolean(), "b");
      vars.push_back(v);
      bools.push_back(v);
      return v;
    }
    return bools[rng() % bools.size()];
  }

  /// Adds one random term (over earlier ones) to `bools` or `bvs`.
  void step() {
    const std::uint32_t w = width();
    Term t = nullptr;
    switch (rng() % 12) {
      case 0: {
        static const Kind ks[] = {Kind::BvUlt, Kind::BvUle, Kind::BvSlt, Kind::BvSle};
        t = tm.mk_bv_binary(ks[rng() % 4], bv(w), bv(w));
        break;
      }
      case 1: t = tm.mk_eq(bv(w), bv(w)); break;
      case 2: {
        Term a = boolean(), b = boolean();
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
      case 3: t = tm.mk_ite(boolean(), bv(w), bv(w)); break;
      case 4: t = tm.mk_ite(boolean(), boolean(), boolean()); break;
      case 5: {
        const std::uint32_t hi = rng() % w, lo = rng() % (hi + 1);
        t = tm.mk_extract(bv(w), hi, lo);
        break;
      }
      case 6: {
        Term a = bv(w), b = bv(width());
        if (a->sort.width + b->sort.width <= 64) t = tm.mk_concat(a, b);
        break;
      }
      case 7: t = tm.mk_resize(bv(w), width(), rng() % 2); break;
      case 8: t = tm.mk_bv_unary(rng() % 2 ? Kind::BvNeg : Kind::BvNot, bv(w)); break;
      default: {
        static const Kind ks[] = {Kind::BvAnd, Kind::BvOr, Kind::BvXor, Kind::BvAdd,
                                  Kind::BvSub, Kind::BvMul, Kind::BvUdiv, Kind::BvUrem,
                                  Kind::BvSdiv, Kind::BvSrem, Kind::BvShl, Kind::BvLshr,
                                  Kind::BvAshr};
        Term b = rng() % 4 == 0 ? tm.mk_bv(w, rng() % (w + 2)) : bv(w);
        t = tm.mk_bv_binary(ks[rng() % 13], bv(w), b);
        break;
      }
    }
    if (t) (t->sort.is_bool() ? bools : bvs).push_back(t);
  }
};

}  // namespace siren::solvers::testing
