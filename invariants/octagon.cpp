// Octagon domain: DBM operations, tight closure, lattice and transfer functions.
//
// Techniques and sources (see octagon.hpp for the representation):
//  * strong closure and the lattice/transfer operations: Miné, *The Octagon Abstract Domain*
//    (HOSC 2006), and APRON's `oct_closure.c` / `oct_transfer.c` (read, not copied);
//  * tight closure for integers (tighten m[i][ī] to an even number between Floyd–Warshall and
//    strengthening; emptiness iff m[i][ī] + m[ī][i] < 0 afterwards): Bagnara, Hill and
//    Zaffanella, *An Improved Tight Closure Algorithm for Integer Octagonal Constraints*;
//  * incremental closure after a change to one variable: Chawdhary, Robbins and King,
//    *Incrementally Closing Octagons* — Floyd–Warshall with the other variables as pivots
//    restricted to that variable's rows and columns, then its two nodes as pivots everywhere.
#include "invariants/octagon.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

namespace siren::invariants {

namespace {

__extension__ typedef __int128 Wide;

constexpr Wide kWideCap = Wide{1} << 100;  // partial sums in interval arithmetic stay below this

/// A 128-bit candidate bound as a stored bound: too large ⇒ +∞, too small ⇒ −kBoundLimit.
/// Both weaken the constraint, so the result is sound.
Bound normalize(Wide v) {
  if (v > kBoundLimit) return kInfinity;
  if (v < -kBoundLimit) return -kBoundLimit;
  return static_cast<Bound>(v);
}

Bound add(Bound a, Bound b) {
  if (a == kInfinity || b == kInfinity) return kInfinity;
  return normalize(Wide{a} + Wide{b});
}

Wide floor_div(Wide a, Wide b) {
  Wide q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

Wide ceil_div(Wide a, Wide b) { return -floor_div(-a, b); }

/// The node of the signed variable s·x: v_{2x} = +x, v_{2x+1} = −x.
int node(int sign, int x) { return sign > 0 ? 2 * x : 2 * x + 1; }

/// An octagonal constraint as one DBM entry m[a][b] ≥ bound (plus its coherent twin), or as a
/// constraint without variables (x − x ≤ c) that is always true or always false.
struct Encoded {
  enum Kind { Entry, AlwaysTrue, AlwaysFalse } kind = Entry;
  int a = 0, b = 0;
  Wide bound = 0;
};

Encoded encode(const OctConstraint& k) {
  assert((k.sx == 1 || k.sx == -1) && "OctConstraint: sx must be ±1");
  assert(k.sy >= -1 && k.sy <= 1 && "OctConstraint: sy must be -1, 0 or +1");
  const int p = node(k.sx, k.x);
  if (k.sy == 0) return {Encoded::Entry, p ^ 1, p, Wide{k.c} * 2};  // v_p − v_p̄ = 2·v_p ≤ 2c
  if (k.y == k.x) {
    if (k.sy == k.sx) return {Encoded::Entry, p ^ 1, p, Wide{k.c}};  // 2·v_p ≤ c
    return {k.c >= 0 ? Encoded::AlwaysTrue : Encoded::AlwaysFalse, 0, 0, 0};  // 0 ≤ c
  }
  const int q = node(k.sy, k.y);
  return {Encoded::Entry, q ^ 1, p, Wide{k.c}};  // v_p − v_q̄ ≤ c
}

std::string var_name(std::span<const std::string> names, int x) {
  if (static_cast<std::size_t>(x) < names.size()) return names[x];
  return "x" + std::to_string(x);
}

// --- interval arithmetic for linear expressions ----------------------------------------------

struct Bounds {  // per-variable interval of a closed octagon; nullopt = infinite
  std::vector<std::optional<Wide>> lo, hi;
};

/// sup of Σ coeffs_i·x_i + constant over the box, or nullopt for +∞.
std::optional<Wide> sup_linear(const Bounds& box, std::span<const Wide> coeffs, Wide constant) {
  Wide sum = constant;
  for (std::size_t i = 0; i < coeffs.size(); ++i) {
    const Wide a = coeffs[i];
    if (a == 0) continue;
    const auto& end = a > 0 ? box.hi[i] : box.lo[i];
    if (!end) return std::nullopt;
    sum += a * *end;  // |a| < 2^65, |end| ≤ 2^61: the product fits
    if (sum > kWideCap) return std::nullopt;
    if (sum < -kWideCap) sum = -kWideCap;  // raising a sup is sound
  }
  return sum;
}

/// inf of the same expression (nullopt for −∞).
std::optional<Wide> inf_linear(const Bounds& box, std::span<const Wide> coeffs, Wide constant) {
  std::vector<Wide> neg(coeffs.begin(), coeffs.end());
  for (auto& a : neg) a = -a;
  auto s = sup_linear(box, neg, -constant);
  if (!s) return std::nullopt;
  return -*s;
}

/// A 128-bit upper bound c of a constraint "… ≤ c" as an int64 constant, or nullopt if it is
/// too large to constrain anything (dropping the constraint is sound).
std::optional<std::int64_t> constraint_constant(Wide c) {
  if (c > kBoundLimit) return std::nullopt;
  if (c < -kBoundLimit) return -kBoundLimit;
  return static_cast<std::int64_t>(c);
}

}  // namespace

// --- OctConstraint ---------------------------------------------------------------------------

bool OctConstraint::holds(std::span<const std::int64_t> point) const {
  Wide lhs = Wide{sx} * point[x];
  if (sy != 0) lhs += Wide{sy} * point[y];
  return lhs <= c;
}

std::string OctConstraint::str(std::span<const std::string> names) const {
  std::string s = (sx < 0 ? "-" : "") + var_name(names, x);
  if (sy != 0) s += (sy < 0 ? " - " : " + ") + var_name(names, y);
  return s + " <= " + std::to_string(c);
}

// --- construction ----------------------------------------------------------------------------

Octagon::Octagon(int n) : n_(n), dim_(2 * n), m_(static_cast<std::size_t>(4) * n * n, kInfinity) {
  assert(n >= 0 && "Octagon: negative number of variables");
  for (int i = 0; i < dim_; ++i) at(i, i) = 0;
}

Octagon Octagon::top(int n) { return Octagon(n); }

Octagon Octagon::bottom(int n) {
  Octagon o(n);
  o.set_bottom();
  return o;
}

void Octagon::set_bottom() {
  empty_ = true;
  closed_ = true;
  std::fill(m_.begin(), m_.end(), kInfinity);
}

Octagon Octagon::closed_copy() const {
  Octagon c = *this;
  c.close();
  return c;
}

bool Octagon::is_bottom() const {
  if (empty_) return true;
  if (closed_) return false;
  return closed_copy().empty_;
}

bool Octagon::is_top() const {
  if (is_bottom()) return false;
  const Octagon c = closed_copy();
  for (int a = 0; a < dim_; ++a)
    for (int b = 0; b < dim_; ++b)
      if (a != b && c.at(a, b) != kInfinity) return false;
  return true;
}

// --- closure ---------------------------------------------------------------------------------

void Octagon::close() {
  if (closed_ || empty_) return;
  for (int k = 0; k < dim_; ++k)
    for (int i = 0; i < dim_; ++i) {
      const Bound ik = at(i, k);
      if (ik == kInfinity) continue;
      for (int j = 0; j < dim_; ++j) at(i, j) = std::min(at(i, j), add(ik, at(k, j)));
    }
  finish_closure();
}

void Octagon::close_incremental(int x) {
  if (empty_) return;
  const int p = 2 * x, q = 2 * x + 1;
  // Pivots other than x's nodes: only x's rows and columns can improve (the rest of the matrix
  // was closed and those paths avoid x's nodes).
  for (int k = 0; k < dim_; ++k) {
    if (k == p || k == q) continue;
    for (int i : {p, q}) {
      const Bound ik = at(i, k);
      if (ik != kInfinity)
        for (int j = 0; j < dim_; ++j) at(i, j) = std::min(at(i, j), add(ik, at(k, j)));
      const Bound ki = at(k, i);
      if (ki != kInfinity)
        for (int j = 0; j < dim_; ++j) at(j, i) = std::min(at(j, i), add(at(j, k), ki));
    }
  }
  // x's two nodes as pivots for every pair.
  for (int k : {p, q})
    for (int i = 0; i < dim_; ++i) {
      const Bound ik = at(i, k);
      if (ik == kInfinity) continue;
      for (int j = 0; j < dim_; ++j) at(i, j) = std::min(at(i, j), add(ik, at(k, j)));
    }
  finish_closure();
}

// Steps 2–4 of the tight closure on a shortest-path-closed integer matrix.
void Octagon::finish_closure() {
  for (int i = 0; i < dim_; ++i)
    if (at(i, i) < 0) return set_bottom();
  for (int i = 0; i < dim_; ++i) {  // tightening: 2·v_i ≤ m  ⇒  v_i ≤ ⌊m/2⌋
    Bound& u = at(i, i ^ 1);
    if (u != kInfinity) u = static_cast<Bound>(2 * floor_div(u, 2));
  }
  for (int i = 0; i < dim_; i += 2) {
    const Bound up = at(i, i ^ 1), down = at(i ^ 1, i);
    if (up != kInfinity && down != kInfinity && Wide{up} + down < 0) return set_bottom();
  }
  for (int i = 0; i < dim_; ++i) {  // strengthening
    const Bound ii = at(i, i ^ 1);
    if (ii == kInfinity) continue;
    for (int j = 0; j < dim_; ++j) {
      const Bound jj = at(j ^ 1, j);
      if (jj == kInfinity) continue;
      const Bound s = normalize(floor_div(Wide{ii} + jj, 2));
      if (s < at(i, j)) at(i, j) = s;
    }
  }
  for (int i = 0; i < dim_; ++i) {
    if (at(i, i) < 0) return set_bottom();
    at(i, i) = 0;
  }
  closed_ = true;
}

// --- constraints -----------------------------------------------------------------------------

bool Octagon::tighten(int a, int b, Bound c) {
  if (c >= at(a, b)) return false;
  at(a, b) = c;
  at(b ^ 1, a ^ 1) = c;
  return true;
}

void Octagon::add_constraint_lazy(const OctConstraint& k) {
  assert(k.x >= 0 && k.x < n_ && (k.sy == 0 || (k.y >= 0 && k.y < n_)) &&
         "Octagon::add_constraint: variable out of range");
  if (empty_) return;
  const Encoded e = encode(k);
  if (e.kind == Encoded::AlwaysFalse) return set_bottom();
  if (e.kind == Encoded::AlwaysTrue) return;
  if (tighten(e.a, e.b, normalize(e.bound))) closed_ = false;
}

void Octagon::add_constraint(const OctConstraint& k) {
  const bool was_closed = closed_ && !empty_;
  add_constraint_lazy(k);
  if (was_closed && !closed_ && !empty_) close_incremental(k.x);
}

void Octagon::guard_linear(std::span<const std::int64_t> coeffs, std::int64_t constant) {
  assert(static_cast<int>(coeffs.size()) == n_ && "Octagon::guard_linear: wrong arity");
  std::vector<int> vars;
  for (int i = 0; i < n_; ++i)
    if (coeffs[i] != 0) vars.push_back(i);
  auto unit = [&](int i) { return coeffs[i] == 1 || coeffs[i] == -1; };
  auto sign = [&](int i) { return coeffs[i] > 0 ? 1 : -1; };
  // Octagonal forms are exact. The constant moves to the right: Σ ≤ −constant.
  const Wide rhs = -Wide{constant};
  auto exact = [&](OctConstraint k, Wide c) {
    if (auto cc = constraint_constant(c)) {
      k.c = *cc;
      add_constraint(k);
    }
  };
  if (vars.empty()) {
    if (constant > 0) set_bottom();
    return;
  }
  if (vars.size() == 1 && unit(vars[0]))
    return exact({vars[0], sign(vars[0]), 0, 0, 0}, rhs);
  if (vars.size() == 1 && (coeffs[vars[0]] == 2 || coeffs[vars[0]] == -2))
    return exact({vars[0], sign(vars[0]), vars[0], sign(vars[0]), 0}, rhs);
  if (vars.size() == 2 && unit(vars[0]) && unit(vars[1]))
    return exact({vars[0], sign(vars[0]), vars[1], sign(vars[1]), 0}, rhs);

  // General linear guard: bound each term a_i·x_i (and each pair of unit terms) by the rest
  // of the expression evaluated over the intervals.
  close();
  if (empty_) return;
  Bounds box;
  for (int i = 0; i < n_; ++i) {
    const Bound up = at(2 * i + 1, 2 * i), down = at(2 * i, 2 * i + 1);
    box.hi.push_back(up == kInfinity ? std::nullopt : std::optional<Wide>(Wide{up} / 2));
    box.lo.push_back(down == kInfinity ? std::nullopt : std::optional<Wide>(-(Wide{down} / 2)));
  }
  std::vector<Wide> rest(coeffs.begin(), coeffs.end());
  if (auto lo = inf_linear(box, rest, Wide{constant}); lo && *lo > 0) return set_bottom();
  std::vector<OctConstraint> found;
  for (int i : vars) {
    rest[i] = 0;
    if (auto lo = inf_linear(box, rest, Wide{constant})) {
      const Wide r = -*lo;  // a_i·x_i ≤ r
      const Wide a = coeffs[i];
      if (a > 0) {
        if (auto c = constraint_constant(floor_div(r, a))) found.push_back(OctConstraint::upper(i, *c));
      } else if (auto c = constraint_constant(-ceil_div(r, a))) {  // −x_i ≤ −⌈r/a⌉
        found.push_back({i, -1, 0, 0, *c});
      }
    }
    for (int j : vars) {
      if (j <= i || !unit(i) || !unit(j)) continue;
      rest[j] = 0;
      if (auto lo = inf_linear(box, rest, Wide{constant}))
        if (auto c = constraint_constant(-*lo)) found.push_back({i, sign(i), j, sign(j), *c});
      rest[j] = coeffs[j];
    }
    rest[i] = coeffs[i];
  }
  for (const auto& k : found) add_constraint_lazy(k);
  close();
}

void Octagon::guard_not_equal(int x, std::int64_t c) {
  const Interval iv = interval(x);
  if (iv.empty) return;
  if (iv.lo && iv.hi && *iv.lo == c && *iv.hi == c) return set_bottom();
  if (iv.lo && *iv.lo == c) add_constraint(OctConstraint::lower(x, c + 1));
  else if (iv.hi && *iv.hi == c) add_constraint(OctConstraint::upper(x, c - 1));
}

// --- lattice ---------------------------------------------------------------------------------

bool Octagon::leq(const Octagon& other) const {
  assert(n_ == other.n_ && "Octagon::leq: different dimensions");
  const Octagon a = closed_copy();
  if (a.empty_) return true;
  if (other.is_bottom()) return false;
  for (std::size_t i = 0; i < m_.size(); ++i)
    if (a.m_[i] > other.m_[i]) return false;
  return true;
}

Octagon Octagon::join(const Octagon& other) const {
  assert(n_ == other.n_ && "Octagon::join: different dimensions");
  Octagon a = closed_copy();
  const Octagon b = other.closed_copy();
  if (a.empty_) return b;
  if (b.empty_) return a;
  for (std::size_t i = 0; i < m_.size(); ++i) a.m_[i] = std::max(a.m_[i], b.m_[i]);
  return a;  // the entrywise max of tightly closed matrices is tightly closed
}

Octagon Octagon::meet(const Octagon& other) const {
  assert(n_ == other.n_ && "Octagon::meet: different dimensions");
  if (empty_ || other.empty_) return bottom(n_);
  Octagon r = *this;
  for (std::size_t i = 0; i < m_.size(); ++i) r.m_[i] = std::min(r.m_[i], other.m_[i]);
  r.closed_ = false;
  return r;
}

Octagon Octagon::widen(const Octagon& next, std::span<const std::int64_t> thresholds) const {
  assert(n_ == next.n_ && "Octagon::widen: different dimensions");
  if (empty_) return next;
  if (next.empty_) return *this;
  std::vector<Bound> binary, unary;  // candidate entries, sorted
  for (std::int64_t t : thresholds)
    for (Wide v : {Wide{t}, -Wide{t}}) {
      binary.push_back(normalize(v));
      unary.push_back(normalize(2 * v));
    }
  std::sort(binary.begin(), binary.end());
  std::sort(unary.begin(), unary.end());
  Octagon r = *this;
  for (int a = 0; a < dim_; ++a)
    for (int b = 0; b < dim_; ++b) {
      const Bound nb = next.at(a, b);
      if (nb <= at(a, b)) continue;
      const auto& cand = (b == (a ^ 1)) ? unary : binary;
      auto it = std::lower_bound(cand.begin(), cand.end(), nb);
      r.at(a, b) = it == cand.end() ? kInfinity : *it;
    }
  r.closed_ = false;  // never close the widened iterate
  return r;
}

Octagon Octagon::narrow(const Octagon& next) const {
  assert(n_ == next.n_ && "Octagon::narrow: different dimensions");
  if (empty_ || next.empty_) return bottom(n_);
  Octagon r = *this;
  for (std::size_t i = 0; i < m_.size(); ++i)
    if (r.m_[i] == kInfinity) r.m_[i] = next.m_[i];
  r.closed_ = false;
  return r;
}

// --- transfer functions ----------------------------------------------------------------------

void Octagon::forget_closed(int x) {
  for (int j = 0; j < dim_; ++j)
    for (int i : {2 * x, 2 * x + 1}) {
      at(i, j) = kInfinity;
      at(j, i) = kInfinity;
    }
  at(2 * x, 2 * x) = 0;
  at(2 * x + 1, 2 * x + 1) = 0;
}

void Octagon::forget(int x) {
  assert(x >= 0 && x < n_ && "Octagon::forget: variable out of range");
  close();
  if (!empty_) forget_closed(x);
}

void Octagon::assign_add_const(int x, std::int64_t c) {
  assert(x >= 0 && x < n_ && "Octagon::assign_add_const: variable out of range");
  close();
  if (empty_) return;
  const int p = 2 * x, q = 2 * x + 1;
  bool saturated = false;
  auto shift = [&](Bound& e, Wide d) {
    if (e == kInfinity) return;
    const Wide exact = Wide{e} + d;
    e = normalize(exact);
    saturated = saturated || Wide{e} != exact;
  };
  for (int j = 0; j < dim_; ++j) {
    if (j == p || j == q) continue;
    shift(at(j, p), c);   // x − v_j grows by c
    shift(at(p, j), -Wide{c});
    shift(at(j, q), -Wide{c});
    shift(at(q, j), c);
  }
  shift(at(q, p), 2 * Wide{c});
  shift(at(p, q), -2 * Wide{c});
  // A translation keeps the matrix tightly closed, unless normalisation weakened an entry.
  closed_ = !saturated;
}

void Octagon::assign_var(int x, int y, int sign, std::int64_t c) {
  assert(x >= 0 && x < n_ && y >= 0 && y < n_ && (sign == 1 || sign == -1) &&
         "Octagon::assign_var: bad arguments");
  if (y == x && sign > 0) return assign_add_const(x, c);
  close();
  if (empty_) return;
  if (y == x) {  // x := −x + c: swap x's nodes (negation), then translate
    const int p = 2 * x, q = 2 * x + 1;
    for (int j = 0; j < dim_; ++j) std::swap(at(p, j), at(q, j));
    for (int j = 0; j < dim_; ++j) std::swap(at(j, p), at(j, q));
    return assign_add_const(x, c);
  }
  forget_closed(x);
  add_constraint_lazy({x, 1, y, -sign, c});    // x − sign·y ≤ c
  add_constraint_lazy({x, -1, y, sign, -c});   // sign·y − x ≤ −c
  if (!empty_) close_incremental(x);
}

void Octagon::assign_interval(int x, std::optional<std::int64_t> lo,
                              std::optional<std::int64_t> hi) {
  assert(x >= 0 && x < n_ && "Octagon::assign_interval: variable out of range");
  close();
  if (empty_) return;
  if (lo && hi && *lo > *hi) return set_bottom();
  forget_closed(x);
  if (hi) add_constraint_lazy(OctConstraint::upper(x, *hi));
  if (lo) add_constraint_lazy(OctConstraint::lower(x, *lo));
  if (!empty_) close_incremental(x);
}

void Octagon::assign_linear(int x, std::span<const std::int64_t> coeffs, std::int64_t constant) {
  assert(x >= 0 && x < n_ && static_cast<int>(coeffs.size()) == n_ &&
         "Octagon::assign_linear: bad arguments");
  std::vector<int> vars;
  for (int i = 0; i < n_; ++i)
    if (coeffs[i] != 0) vars.push_back(i);
  if (vars.empty()) return assign_interval(x, constant, constant);
  if (vars.size() == 1 && (coeffs[vars[0]] == 1 || coeffs[vars[0]] == -1))
    return assign_var(x, vars[0], static_cast<int>(coeffs[vars[0]]), constant);

  close();
  if (empty_) return;
  Bounds box;
  for (int i = 0; i < n_; ++i) {
    const Bound up = at(2 * i + 1, 2 * i), down = at(2 * i, 2 * i + 1);
    box.hi.push_back(up == kInfinity ? std::nullopt : std::optional<Wide>(Wide{up} / 2));
    box.lo.push_back(down == kInfinity ? std::nullopt : std::optional<Wide>(-(Wide{down} / 2)));
  }
  std::vector<Wide> e(coeffs.begin(), coeffs.end());
  std::vector<OctConstraint> found;
  auto push = [&](OctConstraint k, std::optional<Wide> c) {
    if (!c) return;
    if (auto cc = constraint_constant(*c)) {
      k.c = *cc;
      found.push_back(k);
    }
  };
  auto neg = [](std::optional<Wide> v) { return v ? std::optional<Wide>(-*v) : std::nullopt; };
  push(OctConstraint::upper(x, 0), sup_linear(box, e, constant));
  push({x, -1, 0, 0, 0}, neg(inf_linear(box, e, constant)));
  // Miné's refinement: new x ∓ y is bounded by e ∓ y, with y's coefficient cancelled.
  for (int y = 0; y < n_; ++y) {
    if (y == x) continue;
    const Wide ay = e[y];
    e[y] = ay - 1;  // e − y
    push(OctConstraint::diff(x, y, 0), sup_linear(box, e, constant));
    push(OctConstraint::diff(y, x, 0), neg(inf_linear(box, e, constant)));
    e[y] = ay + 1;  // e + y
    push(OctConstraint::sum(x, y, 0), sup_linear(box, e, constant));
    push(OctConstraint::neg_sum(x, y, 0), neg(inf_linear(box, e, constant)));
    e[y] = ay;
  }
  forget_closed(x);
  for (const auto& k : found) add_constraint_lazy(k);
  if (!empty_) close_incremental(x);
}

void Octagon::clamp_to_type(int x, std::int64_t lo, std::int64_t hi) {
  const Interval iv = interval(x);
  if (iv.empty) return;
  if (!iv.lo || *iv.lo < lo || !iv.hi || *iv.hi > hi) assign_interval(x, lo, hi);
}

void Octagon::clamp_to_c_type(int x, unsigned bits, bool is_signed) {
  assert(bits >= 1 && bits <= 64 && "Octagon::clamp_to_c_type: bad width");
  if (is_signed) {
    const std::int64_t lo = bits == 64 ? INT64_MIN : -(std::int64_t{1} << (bits - 1));
    const std::int64_t hi = bits == 64 ? INT64_MAX : (std::int64_t{1} << (bits - 1)) - 1;
    return clamp_to_type(x, lo, hi);
  }
  const std::int64_t hi = bits >= 63 ? INT64_MAX : (std::int64_t{1} << bits) - 1;
  clamp_to_type(x, 0, hi);
}

// --- queries ---------------------------------------------------------------------------------

Interval Octagon::interval(int x) const {
  assert(x >= 0 && x < n_ && "Octagon::interval: variable out of range");
  const Octagon c = closed_copy();
  if (c.empty_) return {std::nullopt, std::nullopt, true};
  Interval iv;
  const Bound up = c.at(2 * x + 1, 2 * x), down = c.at(2 * x, 2 * x + 1);
  if (up != kInfinity) iv.hi = up / 2;  // even after tightening
  if (down != kInfinity) iv.lo = -(down / 2);
  return iv;
}

bool Octagon::implies(const OctConstraint& k) const {
  const Octagon c = closed_copy();
  if (c.empty_) return true;
  const Encoded e = encode(k);
  if (e.kind != Encoded::Entry) return e.kind == Encoded::AlwaysTrue;
  const Bound m = c.at(e.a, e.b);
  return m != kInfinity && Wide{m} <= e.bound;
}

bool Octagon::contradicts(const OctConstraint& k) const {
  const Octagon c = closed_copy();
  if (c.empty_) return true;
  const Encoded e = encode(k);
  if (e.kind != Encoded::Entry) return e.kind == Encoded::AlwaysFalse;
  const Bound m = c.at(e.b, e.a);
  return m != kInfinity && Wide{m} + e.bound < 0;
}

bool Octagon::contains(std::span<const std::int64_t> point) const {
  if (empty_) return false;
  auto value = [&](int a) { return (a & 1) ? -Wide{point[a / 2]} : Wide{point[a / 2]}; };
  for (int a = 0; a < dim_; ++a)
    for (int b = 0; b < dim_; ++b)
      if (at(a, b) != kInfinity && value(b) - value(a) > at(a, b)) return false;
  return true;
}

std::string Octagon::to_string(std::span<const std::string> names) const {
  const Octagon c = closed_copy();
  if (c.empty_) return "bottom";
  std::vector<std::string> parts;
  auto range = [](const std::string& term, Bound lo_entry, Bound hi_entry, Bound scale) {
    // term ∈ [−lo_entry/scale, hi_entry/scale]
    std::string s;
    if (lo_entry == kInfinity && hi_entry == kInfinity) return std::string();
    if (hi_entry == kInfinity) return term + " >= " + std::to_string(-lo_entry / scale);
    if (lo_entry != kInfinity) s = std::to_string(-lo_entry / scale) + " <= ";
    return s + term + " <= " + std::to_string(hi_entry / scale);
  };
  for (int x = 0; x < n_; ++x) {
    const std::string s = range(var_name(names, x), c.at(2 * x, 2 * x + 1), c.at(2 * x + 1, 2 * x), 2);
    if (!s.empty()) parts.push_back(s);
  }
  // A binary entry is shown only if the intervals do not already imply it.
  auto informative = [&](int a, int b) {
    const Bound m = c.at(a, b);
    if (m == kInfinity) return kInfinity;
    const Bound via = add(c.at(a, a ^ 1), c.at(b ^ 1, b));
    if (via != kInfinity && Wide{m} * 2 >= via) return kInfinity;
    return m;
  };
  for (int x = 0; x < n_; ++x)
    for (int y = x + 1; y < n_; ++y) {
      const std::string nx = var_name(names, x), ny = var_name(names, y);
      // x − y ≤ m[2y][2x], y − x ≤ m[2x][2y]; x + y ≤ m[2y+1][2x], −x − y ≤ m[2y][2x+1].
      std::string d = range(nx + " - " + ny, informative(2 * x, 2 * y), informative(2 * y, 2 * x), 1);
      std::string s =
          range(nx + " + " + ny, informative(2 * y, 2 * x + 1), informative(2 * y + 1, 2 * x), 1);
      if (!d.empty()) parts.push_back(d);
      if (!s.empty()) parts.push_back(s);
    }
  if (parts.empty()) return "top";
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out;
}

}  // namespace siren::invariants
