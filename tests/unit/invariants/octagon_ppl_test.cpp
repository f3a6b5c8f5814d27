// Octagon domain against the Parma Polyhedra Library's Octagonal_Shape<mpz_class>.
//
// PPL implements integer octagons with the tight closure of Bagnara, Hill and Zaffanella, so on
// integer octagons both libraries must agree on emptiness, on the bound of every octagonal form
// (±x, ±x ± y), on inclusion, and on the results of join, meet, forget and the exact
// assignments x := ±y + c. Unlike the brute-force test, the variables here are not confined to
// a small box: bounds may be missing and constants range further. Built only when PPL is found
// (SIREN_HAVE_PPL, see tests/CMakeLists.txt).
#if defined(SIREN_HAVE_PPL)

#include <doctest/doctest.h>
#include <gmpxx.h>
#include <ppl.hh>

#include <random>

#include "invariants/octagon.hpp"

namespace ppl = Parma_Polyhedra_Library;
using siren::invariants::Bound;
using siren::invariants::kInfinity;
using siren::invariants::OctConstraint;
using siren::invariants::Octagon;
using Shape = ppl::Octagonal_Shape<mpz_class>;

namespace {

ppl::Constraint to_ppl(const OctConstraint& k) {
  ppl::Linear_Expression e = k.sx * ppl::Variable(k.x);
  if (k.sy != 0) e += k.sy * ppl::Variable(k.y);
  return e <= ppl::Coefficient(static_cast<long>(k.c));
}

/// PPL's Octagonal_Shape<mpz_class> is a rational octagon with integer constants: its closure
/// is strong but not tight (2x ≤ 1 stays, and maximize(x) rounds up). The integer octagon is
/// obtained with the public API by tightening every odd unary constraint ±2x + b ≥ 0 to b − 1
/// and re-closing until nothing changes (BHZ: one round already gives the tight closure).
void tighten(Shape& s) {
  for (bool changed = true; changed;) {
    changed = false;
    if (s.is_empty()) return;  // also forces PPL's strong closure before reading constraints
    const ppl::Constraint_System cs = s.constraints();
    std::vector<ppl::Constraint> cuts;
    for (const ppl::Constraint& c : cs) {
      ppl::dimension_type var = 0;
      int nonzero = 0;
      for (ppl::dimension_type i = 0; i < s.space_dimension(); ++i)
        if (c.coefficient(ppl::Variable(i)) != 0) {
          var = i;
          ++nonzero;
        }
      const ppl::Coefficient a = nonzero == 1 ? c.coefficient(ppl::Variable(var)) : 0;
      const ppl::Coefficient b = c.inhomogeneous_term();
      if ((a != 2 && a != -2) || mpz_odd_p(b.get_mpz_t()) == 0) continue;
      if (c.is_equality()) {  // ±2x = odd: no integer point
        s = Shape(s.space_dimension(), ppl::EMPTY);
        return;
      }
      cuts.push_back(a * ppl::Variable(var) + (b - 1) >= 0);
    }
    for (const auto& c : cuts) s.refine_with_constraint(c);
    changed = !cuts.empty();
  }
}

struct Pair {
  Octagon ours;
  Shape theirs;
  void add(const OctConstraint& k) {
    ours.add_constraint_lazy(k);
    theirs.refine_with_constraint(to_ppl(k));
  }
};

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(std::uint64_t seed) : rng(seed) {}
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  int sign() { return uniform(0, 1) ? 1 : -1; }

  OctConstraint constraint(int n) {
    OctConstraint k;
    k.x = uniform(0, n - 1);
    k.sx = sign();
    if (uniform(0, 3) == 0) {
      k.sy = 0;
    } else {
      k.sy = sign();
      k.y = (k.x + uniform(1, n - 1)) % n;
    }
    k.c = uniform(-20, 30);
    return k;
  }

  Pair pair(int n) {
    Pair p{Octagon::top(n), Shape(n, ppl::UNIVERSE)};
    const int k = uniform(1, 3 * n);
    for (int i = 0; i < k; ++i) p.add(constraint(n));
    tighten(p.theirs);
    return p;
  }
};

/// Every octagonal form's bound: ours from the closed DBM, PPL's from maximize (floored: on an
/// integer shape the supremum over the integer points is what counts).
void check_same(const Octagon& ours, Shape theirs) {
  tighten(theirs);
  const int n = ours.num_vars();
  REQUIRE(ours.is_bottom() == theirs.is_empty());
  if (ours.is_bottom()) return;
  for (int x = 0; x < n; ++x)
    for (int y = x; y < n; ++y)
      for (int sx : {1, -1})
        for (int sy : {1, -1, 0}) {
          if (y == x && sy != 0) continue;
          const OctConstraint form{x, sx, y, sy, 0};
          ppl::Linear_Expression e = sx * ppl::Variable(x);
          if (sy != 0) e += sy * ppl::Variable(y);
          ppl::Coefficient num, den;
          bool attained = false;
          const bool bounded = theirs.maximize(e, num, den, attained);
          // Our bound: the smallest c with  form ≤ c  implied (checked around PPL's answer).
          CAPTURE(form.str());
          if (!bounded) {
            CHECK_FALSE(ours.implies({x, sx, y, sy, 1000000}));
            continue;
          }
          mpz_class q;
          mpz_fdiv_q(q.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
          const long c = q.get_si();
          CHECK(ours.implies({x, sx, y, sy, c}));
          CHECK_FALSE(ours.implies({x, sx, y, sy, c - 1}));
        }
}

constexpr int kIterations = 1500;

}  // namespace

TEST_CASE("octagon vs PPL: closure, join, meet, inclusion") {
  Gen g(101);
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.uniform(2, 4);
    Pair a = g.pair(n), b = g.pair(n);
    check_same(a.ours, a.theirs);
    CHECK(a.ours.leq(b.ours) == b.theirs.contains(a.theirs));
    Shape j = a.theirs;
    j.upper_bound_assign(b.theirs);
    check_same(a.ours.join(b.ours), j);
    Shape m = a.theirs;
    m.intersection_assign(b.theirs);
    check_same(a.ours.meet(b.ours), m);
  }
}

TEST_CASE("octagon vs PPL: forget, assignments, guards") {
  Gen g(102);
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.uniform(2, 4);
    Pair a = g.pair(n);
    const int x = g.uniform(0, n - 1), y = g.uniform(0, n - 1), sign = g.sign();
    const int c = g.uniform(-10, 10);
    {
      Octagon o = a.ours;
      Shape s = a.theirs;
      o.forget(x);
      s.unconstrain(ppl::Variable(x));
      check_same(o, s);
    }
    {
      Octagon o = a.ours;
      Shape s = a.theirs;
      o.assign_var(x, y, sign, c);
      s.affine_image(ppl::Variable(x), sign * ppl::Variable(y) + c);
      check_same(o, s);
    }
    {
      Octagon o = a.ours;
      Shape s = a.theirs;
      o.assign_add_const(x, c);
      s.affine_image(ppl::Variable(x), ppl::Variable(x) + c);
      check_same(o, s);
    }
    {
      const OctConstraint k = g.constraint(n);
      Octagon o = a.ours;
      o.close();
      o.add_constraint(k);  // incremental closure
      Shape s = a.theirs;
      s.refine_with_constraint(to_ppl(k));
      check_same(o, s);
    }
  }
}

#endif  // SIREN_HAVE_PPL
