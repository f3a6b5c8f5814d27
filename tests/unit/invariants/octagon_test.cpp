// Octagon domain against a brute-force oracle.
//
// Every random octagon here includes box constraints −4 ≤ x_i ≤ 4 on its 2–3 variables, so its
// concretisation is the finite set of integer points of the box that satisfy the DBM. The
// oracle enumerates those points and checks each operation against the point sets: closure
// keeps the set and is tight (every finite closed bound is attained), inclusion, join (= the
// best octagon of the union), meet, forget and the assignments (exact images), guards, and the
// two branch checks of DESIGN.md §B6. Seeds are fixed, so every failure is reproducible; the
// seed and iteration are printed on failure.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "invariants/octagon.hpp"

using siren::invariants::Bound;
using siren::invariants::Interval;
using siren::invariants::kInfinity;
using siren::invariants::OctConstraint;
using siren::invariants::Octagon;

namespace {

using Point = std::vector<std::int64_t>;
using PointSet = std::set<Point>;

constexpr int kBox = 4;  // every random octagon lies in [−4, 4]^n

std::vector<Point> box_points(int n, int lo, int hi) {
  std::vector<Point> out;
  Point p(n, lo);
  while (true) {
    out.push_back(p);
    int i = 0;
    while (i < n && p[i] == hi) p[i++] = lo;
    if (i == n) break;
    ++p[i];
  }
  return out;
}

PointSet points(const Octagon& o, int lo = -kBox, int hi = kBox) {
  PointSet s;
  for (const auto& p : box_points(o.num_vars(), lo, hi))
    if (o.contains(p)) s.insert(p);
  return s;
}

/// The value of signed variable v_a at a point (v_{2i} = x_i, v_{2i+1} = −x_i).
std::int64_t sv(const Point& p, int a) { return (a & 1) ? -p[a / 2] : p[a / 2]; }

/// Brute-force bound of v_b − v_a over a non-empty point set (the best octagon's entry).
std::int64_t best_entry(const PointSet& s, int a, int b) {
  std::int64_t best = INT64_MIN;
  for (const auto& p : s) best = std::max(best, sv(p, b) - sv(p, a));
  return best;
}

bool subset(const PointSet& a, const PointSet& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(std::uint64_t seed) : rng(seed) {}

  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  int sign() { return uniform(0, 1) ? 1 : -1; }

  OctConstraint constraint(int n, int cmin = -6, int cmax = 8) {
    OctConstraint k;
    k.x = uniform(0, n - 1);
    k.sx = sign();
    const int form = uniform(0, 9);
    if (form < 3) {  // unary
      k.sy = 0;
      k.c = uniform(cmin / 2 - 1, cmax / 2);
    } else {
      k.sy = sign();
      k.y = form == 9 ? k.x : (k.x + uniform(1, n - 1)) % n;  // rarely the same variable
      k.c = uniform(cmin, cmax);
    }
    return k;
  }

  /// A random octagon inside the box, built lazily (not closed).
  Octagon octagon(int n, int max_constraints = 6) {
    Octagon o = Octagon::top(n);
    for (int i = 0; i < n; ++i) {
      o.add_constraint_lazy(OctConstraint::upper(i, uniform(kBox - 2, kBox)));
      o.add_constraint_lazy(OctConstraint::lower(i, -uniform(kBox - 2, kBox)));
    }
    const int k = uniform(0, max_constraints);
    for (int i = 0; i < k; ++i) o.add_constraint_lazy(constraint(n));
    return o;
  }

  int vars() { return uniform(2, 3); }
};

Point with(Point p, int x, std::int64_t v) {
  p[x] = v;
  return p;
}

/// Check a closed octagon is exactly the best octagon of the (finite) point set.
void check_tight(const Octagon& c, const PointSet& s) {
  REQUIRE(c.is_closed());
  CHECK(c.is_bottom() == s.empty());
  if (s.empty()) return;
  const int dim = 2 * c.num_vars();
  for (int a = 0; a < dim; ++a)
    for (int b = 0; b < dim; ++b) {
      if (a == b) continue;
      CAPTURE(a);
      CAPTURE(b);
      CHECK(c.entry(a, b) == best_entry(s, a, b));
    }
}

constexpr int kIterations = 3000;

}  // namespace

TEST_CASE("octagon: tight closure preserves the points and attains every bound") {
  Gen g(1);
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.vars();
    const Octagon o = g.octagon(n);
    const PointSet s = points(o);
    Octagon c = o;
    c.close();
    CHECK(points(c) == s);
    CHECK(o.is_bottom() == s.empty());
    check_tight(c, s);
  }
}

TEST_CASE("octagon: incremental closure equals full closure") {
  Gen g(2);
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.vars();
    Octagon lazy = Octagon::top(n), eager = Octagon::top(n);
    for (int i = 0; i < n; ++i)
      for (auto k : {OctConstraint::upper(i, kBox), OctConstraint::lower(i, -kBox)}) {
        lazy.add_constraint_lazy(k);
        eager.add_constraint(k);
      }
    const int count = g.uniform(1, 8);
    for (int i = 0; i < count; ++i) {
      const OctConstraint k = g.constraint(n);
      lazy.add_constraint_lazy(k);
      eager.add_constraint(k);
      REQUIRE(eager.is_closed());
    }
    lazy.close();
    const PointSet s = points(lazy);
    check_tight(eager, s);
  }
}

TEST_CASE("octagon: inclusion agrees with point-set inclusion") {
  Gen g(3);
  int included = 0;
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.vars();
    Octagon a = g.octagon(n), b = g.octagon(n);
    switch (it % 3) {
      case 0: break;
      case 1: a = b.meet(g.octagon(n, 2)); break;          // usually a ⊆ b
      case 2: b = a.join(g.octagon(n, 2)); break;          // a ⊆ b
    }
    const bool expected = subset(points(a), points(b));
    included += expected;
    CHECK(a.leq(b) == expected);
  }
  CHECK(included > kIterations / 3);  // the generator exercises both answers
}

TEST_CASE("octagon: join is the best octagon of the union, meet is the intersection") {
  Gen g(4);
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.vars();
    const Octagon a = g.octagon(n), b = g.octagon(n);
    const PointSet sa = points(a), sb = points(b);
    PointSet uni = sa, inter;
    uni.insert(sb.begin(), sb.end());
    std::set_intersection(sa.begin(), sa.end(), sb.begin(), sb.end(),
                          std::inserter(inter, inter.begin()));
    const Octagon j = a.join(b);
    check_tight(j, uni);
    CHECK(a.leq(j));
    CHECK(b.leq(j));
    const Octagon m = a.meet(b);
    CHECK(points(m) == inter);
    CHECK(m.is_bottom() == inter.empty());
  }
}

TEST_CASE("octagon: forget and exact assignments are point-set images") {
  Gen g(5);
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.vars();
    const Octagon o = g.octagon(n);
    const PointSet s = points(o);
    const int x = g.uniform(0, n - 1);
    const auto all_big = box_points(n, -8, 8);

    {  // forget: compare inside the box
      Octagon f = o;
      f.forget(x);
      PointSet expected;
      for (const auto& p : s)
        for (int v = -kBox; v <= kBox; ++v) expected.insert(with(p, x, v));
      CHECK(points(f) == expected);
      if (!s.empty()) CHECK(f.interval(x) == Interval{});
    }
    {  // x := x + c
      const int c = g.uniform(-3, 3);
      Octagon r = o;
      r.assign_add_const(x, c);
      PointSet expected;
      for (const auto& p : s) expected.insert(with(p, x, p[x] + c));
      CHECK(points(r, -8, 8) == expected);
      check_tight(r, expected);
    }
    {  // x := ±y + c (y may be x)
      const int y = g.uniform(0, n - 1), sign = g.sign(), c = g.uniform(-3, 3);
      CAPTURE(y);
      CAPTURE(sign);
      CAPTURE(c);
      Octagon r = o;
      r.assign_var(x, y, sign, c);
      PointSet expected;
      for (const auto& p : s) expected.insert(with(p, x, sign * p[y] + c));
      CHECK(points(r, -8, 8) == expected);
      check_tight(r, expected);
    }
    {  // x := nondet in [lo, hi]
      const int lo = g.uniform(-5, 3), hi = lo + g.uniform(-1, 4);
      Octagon r = o;
      r.assign_interval(x, lo, hi);
      PointSet expected;
      for (const auto& p : s)
        for (int v = lo; v <= hi; ++v) expected.insert(with(p, x, v));
      CHECK(points(r, -8, 8) == expected);
    }
    (void)all_big;
  }
}

TEST_CASE("octagon: linear assignment contains the image") {
  Gen g(6);
  int refined = 0;
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.vars();
    const Octagon o = g.octagon(n);
    const PointSet s = points(o);
    const int x = g.uniform(0, n - 1);
    std::vector<std::int64_t> coeffs(n);
    for (auto& a : coeffs) a = g.uniform(-2, 2);
    const std::int64_t k = g.uniform(-3, 3);
    Octagon r = o;
    r.assign_linear(x, coeffs, k);
    PointSet image;
    for (const auto& p : s) {
      std::int64_t v = k;
      for (int i = 0; i < n; ++i) v += coeffs[i] * p[i];
      image.insert(with(p, x, v));
    }
    for (const auto& p : image) CHECK(r.contains(p));
    CHECK(r.is_bottom() == s.empty());
    // Miné's refinement: for x := y + z, the bound on x − y is the one of z.
    if (n >= 3 && !s.empty()) {
      Octagon t = o;
      std::vector<std::int64_t> yz(n, 0);
      const int y = (x + 1) % n, z = (x + 2) % n;
      yz[y] = 1;
      yz[z] = 1;
      t.assign_linear(x, yz, 0);
      const Interval iz = o.interval(z);
      CHECK(t.implies(OctConstraint::diff(x, y, *iz.hi)));
      CHECK(t.implies(OctConstraint::diff(y, x, -*iz.lo)));
      ++refined;
    }
  }
  CHECK(refined > 0);
}

TEST_CASE("octagon: guards") {
  Gen g(7);
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.vars();
    Octagon o = g.octagon(n);
    if (it % 2) o.close();  // both the incremental and the lazy path
    const PointSet s = points(o);
    {  // octagonal guard: exact
      const OctConstraint k = g.constraint(n);
      Octagon r = o;
      r.add_constraint(k);
      PointSet expected;
      for (const auto& p : s)
        if (k.holds(p)) expected.insert(p);
      CHECK(points(r) == expected);
      CHECK(r.is_bottom() == expected.empty());
      if (o.is_closed()) check_tight(r, expected);
    }
    {  // general linear guard: between the intersection and the original
      std::vector<std::int64_t> coeffs(n);
      for (auto& a : coeffs) a = g.uniform(-3, 3);
      const std::int64_t c = g.uniform(-6, 6);
      Octagon r = o;
      r.guard_linear(coeffs, c);
      PointSet expected;
      for (const auto& p : s) {
        std::int64_t v = c;
        for (int i = 0; i < n; ++i) v += coeffs[i] * p[i];
        if (v <= 0) expected.insert(p);
      }
      const PointSet got = points(r);
      CHECK(subset(expected, got));
      CHECK(subset(got, s));
      int nonzero = 0, units = 0;
      for (auto a : coeffs) {
        nonzero += a != 0;
        units += a == 1 || a == -1;
      }
      if (nonzero == units && nonzero <= 2) CHECK(got == expected);  // octagonal: exact
      if (expected.empty() && nonzero == 1) CHECK(r.is_bottom());
    }
    {  // x != c
      const int x = g.uniform(0, n - 1), c = g.uniform(-kBox, kBox);
      Octagon r = o;
      r.guard_not_equal(x, c);
      PointSet expected;
      for (const auto& p : s)
        if (p[x] != c) expected.insert(p);
      const PointSet got = points(r);
      CHECK(subset(expected, got));
      CHECK(subset(got, s));
    }
  }
}

TEST_CASE("octagon: implies and contradicts are exact") {
  Gen g(8);
  int implied = 0, contradicted = 0;
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.vars();
    Octagon o = g.octagon(n);
    if (it % 2) o.close();
    const PointSet s = points(o);
    for (int r = 0; r < 4; ++r) {
      const OctConstraint k = g.constraint(n, -10, 10);
      CAPTURE(k.str());
      bool all = true, none = true;
      for (const auto& p : s) {
        const bool h = k.holds(p);
        all = all && h;
        none = none && !h;
      }
      CHECK(o.implies(k) == all);
      CHECK(o.contradicts(k) == none);
      CHECK(o.implies(k) == o.contradicts(k.negated()));
      implied += all && !s.empty();
      contradicted += none && !s.empty();
    }
  }
  CHECK(implied > 100);
  CHECK(contradicted > 100);
}

TEST_CASE("octagon: widening is an upper bound, narrowing stays between") {
  Gen g(9);
  const std::vector<std::int64_t> thresholds = {0, 2, 6};
  for (int it = 0; it < kIterations; ++it) {
    CAPTURE(it);
    const int n = g.vars();
    Octagon a = g.octagon(n), b = g.octagon(n);
    if (it % 2) a.close();
    b.close();
    const Octagon w = a.widen(b, it % 3 ? std::span<const std::int64_t>(thresholds)
                                        : std::span<const std::int64_t>());
    CHECK_FALSE((w.is_closed() && !w.is_bottom() && !a.is_closed()));
    for (const auto& p : points(a)) CHECK(w.contains(p));
    for (const auto& p : points(b)) CHECK(w.contains(p));
    CHECK(a.leq(w));
    CHECK(b.leq(w));
    // Narrowing: b ⊑ a  ⇒  b ⊑ a Δ b ⊑ a.
    Octagon big = a;
    big.forget(g.uniform(0, n - 1));
    const Octagon small = big.meet(b);
    const Octagon nar = big.narrow(small);
    CHECK(small.leq(nar));
    CHECK(nar.leq(big));
  }
}

namespace {

/// Abstract iteration of `i = 0; j = 0; while (i < bound) { i++; j++; }` with widening at the
/// loop head; returns the number of widening steps until X_{i+1} = X_i. Variables: i = 0, j = 1.
int iterate_counter_loop(std::int64_t bound, std::span<const std::int64_t> thresholds,
                         Octagon& head) {
  Octagon init = Octagon::top(2);
  init.assign_interval(0, 0, 0);
  init.assign_interval(1, 0, 0);
  auto body = [&](const Octagon& x) {  // F(X) = init ⊔ post(X ∧ i < bound)
    Octagon y = x;
    y.add_constraint(OctConstraint::upper(0, bound - 1));
    y.assign_add_const(0, 1);
    y.assign_add_const(1, 1);
    Octagon r = init.join(y);
    r.close();
    return r;
  };
  Octagon x = init;
  for (int step = 1; step <= 100; ++step) {
    const Octagon next = x.widen(body(x), thresholds);  // never closed
    if (next.leq(x) && x.leq(next)) {
      head = x;
      return step;
    }
    x = next;
  }
  head = x;
  return -1;
}

}  // namespace

TEST_CASE("octagon: widening chain stabilises on an increasing loop") {
  const std::vector<std::int64_t> thresholds = {0, 10, INT32_MAX};
  Octagon head = Octagon::top(2);
  const int steps = iterate_counter_loop(10, thresholds, head);
  CHECK(steps > 0);
  CHECK(steps <= 5);
  // The relation i = j survives widening; the threshold 10 bounds i.
  CHECK(head.implies(OctConstraint::diff(0, 1, 0)));
  CHECK(head.implies(OctConstraint::diff(1, 0, 0)));
  CHECK(head.interval(0) == Interval{0, 10});
  // Without thresholds: i ∈ [0, +∞), then one narrowing step recovers i ≤ 10.
  Octagon plain = Octagon::top(2);
  CHECK(iterate_counter_loop(10, {}, plain) > 0);
  CHECK(plain.interval(0) == Interval{0, std::nullopt});
  Octagon y = plain;
  y.add_constraint(OctConstraint::upper(0, 9));
  y.assign_add_const(0, 1);
  y.assign_add_const(1, 1);
  Octagon init = Octagon::top(2);
  init.assign_interval(0, 0, 0);
  init.assign_interval(1, 0, 0);
  const Octagon narrowed = plain.narrow(init.join(y));
  CHECK(narrowed.interval(0) == Interval{0, 10});
  CHECK(narrowed.implies(OctConstraint::diff(0, 1, 0)));

  // Random increasing chains X_{i+1} = X_i ∇ (X_i ⊔ Y_i) stabilise within a bounded number of
  // steps: every entry can only rise through the finitely many thresholds to +∞.
  Gen g(10);
  for (int it = 0; it < 300; ++it) {
    const int n = g.vars();
    Octagon x = g.octagon(n);
    x.close();
    int rises = 0;
    for (; rises < 200; ++rises) {
      Octagon z = g.octagon(n);
      z.assign_add_const(g.uniform(0, n - 1), g.uniform(-3, 3));  // leaves the box too
      Octagon f = x.join(z);
      f.close();
      Octagon next = x.widen(f, thresholds);
      if (next.leq(x)) break;
      x = next;
    }
    // at most (|thresholds|·2 + 1) rises per entry; (2n)² entries
    CHECK(rises <= 7 * 4 * n * n + 1);
  }
}

TEST_CASE("octagon: Fig. 1 values of sh per product node") {
  // T1: a1: sh += 1; a2: sh += 1; a3: if (sh >= 2)…   T2: b1: sh += 2; b2: sh += 3; b3: if (sh >= 6)…
  const std::int64_t t1[] = {1, 1}, t2[] = {2, 3};
  std::vector<std::vector<Octagon>> node(3, std::vector<Octagon>(3, Octagon::bottom(1)));
  node[0][0] = Octagon::top(1);
  node[0][0].assign_interval(0, 0, 0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      if (i + 1 < 3) {
        Octagon o = node[i][j];
        o.assign_add_const(0, t1[i]);
        node[i + 1][j] = node[i + 1][j].join(o);
      }
      if (j + 1 < 3) {
        Octagon o = node[i][j];
        o.assign_add_const(0, t2[j]);
        node[i][j + 1] = node[i][j + 1].join(o);
      }
    }
  const std::int64_t expected[3][3] = {{0, 2, 5}, {1, 3, 6}, {2, 4, 7}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) CHECK(node[i][j].interval(0) == Interval{expected[i][j], expected[i][j]});
  const std::vector<std::string> names = {"sh"};
  CHECK(node[2][0].to_string(names) == "2 <= sh <= 2");
  const OctConstraint b3 = OctConstraint::lower(0, 6);  // sh >= 6
  CHECK(node[0][2].contradicts(b3));
  CHECK(node[1][2].implies(b3));
  CHECK(node[2][2].implies(b3));
  // Across N = {(a1,b3), (a2,b3), (a3,b3)} the guard is neither implied nor refuted: sensitive.
  const Octagon across = node[0][2].join(node[1][2]).join(node[2][2]);
  CHECK_FALSE(across.implies(b3));
  CHECK_FALSE(across.contradicts(b3));
  // a3's guard sh >= 2 holds at every (a3, ·) node.
  for (int j = 0; j < 3; ++j) CHECK(node[2][j].implies(OctConstraint::lower(0, 2)));
}

TEST_CASE("octagon: to_string") {
  const std::vector<std::string> names = {"x", "y"};
  CHECK(Octagon::top(2).to_string(names) == "top");
  CHECK(Octagon::bottom(2).to_string(names) == "bottom");
  Octagon o = Octagon::top(2);
  o.add_constraint(OctConstraint::diff(0, 1, 3));
  CHECK(o.to_string(names) == "x - y <= 3");
  o.add_constraint(OctConstraint::lower(1, 0));
  o.add_constraint(OctConstraint::upper(1, 5));
  CHECK(o.to_string(names) == "x <= 8, 0 <= y <= 5, x - y <= 3");
  o.add_constraint(OctConstraint::neg_sum(0, 1, 2));
  CHECK(o.to_string(names) == "-7 <= x <= 8, 0 <= y <= 5, x - y <= 3, x + y >= -2");
  o.add_constraint(OctConstraint::lower(0, 0));
  CHECK(o.to_string() == "0 <= x0 <= 8, 0 <= x1 <= 5, x0 - x1 <= 3");
}

TEST_CASE("octagon: infinity, saturation and C integer ranges") {
  Octagon o = Octagon::top(2);
  o.assign_add_const(0, 5);  // ∞ + c = ∞
  CHECK(o.is_top());
  o.add_constraint(OctConstraint::upper(0, INT64_MAX));  // beyond the bound range: no constraint
  CHECK(o.is_top());
  o.assign_interval(0, INT64_MAX - 1, std::nullopt);  // lower end far away: saturated, sound
  CHECK_FALSE(o.is_bottom());
  for (int i = 0; i < 100; ++i) o.assign_add_const(0, INT64_MAX / 2);
  CHECK_FALSE(o.is_bottom());  // saturation never fabricates emptiness

  Octagon c = Octagon::top(1);
  c.assign_interval(0, 100, 120);
  c.assign_add_const(0, 10);
  c.clamp_to_c_type(0, 8, true);  // signed char: 110..130 may wrap
  CHECK(c.interval(0) == Interval{-128, 127});
  Octagon d = Octagon::top(1);
  d.assign_interval(0, 1, 5);
  d.clamp_to_c_type(0, 8, false);  // fits: unchanged
  CHECK(d.interval(0) == Interval{1, 5});
  d.assign_add_const(0, -3);  // may go negative
  d.clamp_to_c_type(0, 32, false);
  CHECK(d.interval(0) == Interval{0, 4294967295LL});
  d.clamp_to_c_type(0, 64, true);
  CHECK(d.interval(0) == Interval{0, 4294967295LL});
  d.assign_add_const(0, -1);
  d.clamp_to_c_type(0, 64, false);  // u64 range: upper end beyond the bound range
  CHECK(d.interval(0) == Interval{0, std::nullopt});

  // Contradictory constraints; x − x ≤ −1 is unsatisfiable.
  Octagon e = Octagon::top(2);
  e.add_constraint(OctConstraint::diff(0, 0, -1));
  CHECK(e.is_bottom());
  Octagon f = Octagon::top(2);
  f.add_constraint(OctConstraint::sum(0, 1, 3));
  f.add_constraint(OctConstraint::neg_sum(0, 1, -4));
  CHECK(f.is_bottom());
  // Integer tightening: 2x ≤ 1 and 2x ≥ 1 has rational but no integer solutions.
  Octagon h = Octagon::top(1);
  h.add_constraint(OctConstraint::sum(0, 0, 1));
  h.add_constraint(OctConstraint::neg_sum(0, 0, -1));
  CHECK(h.is_bottom());
}
