// The octagon abstract domain over integer variables (DESIGN.md §B6).
//
// An octagon over x_0..x_{n-1} is a conjunction of constraints ±x_i ± x_j ≤ c. Following Miné
// (*The Octagon Abstract Domain*, HOSC 2006; PADO 2001), it is stored as a difference-bound
// matrix (DBM) over the 2n signed variables v_{2i} = +x_i, v_{2i+1} = −x_i: entry m[a][b] bounds
// v_b − v_a. Every write updates the coherent entry m[b̄][ā] too (ā = a xor 1).
//
// Normal form is the *tight* strong closure for integers of Bagnara, Hill and Zaffanella
// (*An Improved Tight Closure Algorithm for Integer Octagonal Constraints*, VMCAI 2008):
// Floyd–Warshall, tightening of the unary entries m[i][ī] to even numbers, one strengthening
// pass. On a tightly closed matrix every finite bound is attained by an integer point, so
// inclusion, join, and the two branch checks `inv ⇒ cond` / `inv ∧ cond = ⊥` are exact on the
// integer points. After a change to one variable's rows and columns we close incrementally in
// O(n²) (Chawdhary, Robbins and King, *Incrementally Closing Octagons*, FMSD 2019; APRON's
// `hmat_close_incremental`).
//
// Bounds are 64-bit with a proper +∞ (`kInfinity`). Sums are computed in 128 bits and then
// normalised: a finite bound above `kBoundLimit` becomes +∞ and one below −kBoundLimit is
// raised to −kBoundLimit. Both only weaken a constraint, so they are sound; the domain is
// exact for constants well inside ±2^61.
//
// Widening never closes its result (Miné): iterate X_{i+1} = X_i ∇ close(F(X_i)). The query
// functions (`is_bottom`, `leq`, `interval`, `implies`, …) close a *copy*, so asking a
// question about a widened iterate never closes it in place. The transfer functions and
// guards close the object they modify (they are applied to a copy of the iterate in F).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace siren::invariants {

using Bound = std::int64_t;
inline constexpr Bound kInfinity = INT64_MAX;
inline constexpr Bound kBoundLimit = Bound{1} << 62;

/// An octagonal constraint  sx·x + sy·y ≤ c  with sx ∈ {−1, +1}, sy ∈ {−1, 0, +1}
/// (sy = 0: a unary constraint on x; y is then ignored).
struct OctConstraint {
  int x = 0;
  int sx = 1;
  int y = 0;
  int sy = 0;
  std::int64_t c = 0;

  static OctConstraint upper(int x, std::int64_t c) { return {x, 1, 0, 0, c}; }    // x ≤ c
  static OctConstraint lower(int x, std::int64_t c) { return {x, -1, 0, 0, -c}; }  // x ≥ c
  static OctConstraint diff(int x, int y, std::int64_t c) { return {x, 1, y, -1, c}; }  // x−y ≤ c
  static OctConstraint sum(int x, int y, std::int64_t c) { return {x, 1, y, 1, c}; }    // x+y ≤ c
  static OctConstraint neg_sum(int x, int y, std::int64_t c) {  // −x−y ≤ c, i.e. x+y ≥ −c
    return {x, -1, y, -1, c};
  }

  /// The integer negation: ¬(e ≤ c) is −e ≤ −c − 1.
  OctConstraint negated() const { return {x, -sx, y, -sy, -c - 1}; }
  /// Whether the integer point satisfies the constraint.
  bool holds(std::span<const std::int64_t> point) const;
  std::string str(std::span<const std::string> names = {}) const;
};

/// An integer interval; an absent end is infinite. `empty` marks the empty interval.
struct Interval {
  std::optional<std::int64_t> lo, hi;
  bool empty = false;
  friend bool operator==(const Interval&, const Interval&) = default;
};

class Octagon {
 public:
  /// Top (no constraint) / bottom (no point) over `n` variables.
  static Octagon top(int n);
  static Octagon bottom(int n);

  int num_vars() const { return n_; }
  bool is_bottom() const;  // exact on integers (closes a copy if needed)
  bool is_top() const;
  bool is_closed() const { return closed_ || empty_; }

  // --- constraints and guards ----------------------------------------------------------------
  /// Meet with one constraint. A closed octagon stays closed (incremental closure).
  void add_constraint(const OctConstraint& k);
  /// Meet with one constraint without closing (call close() later; cheaper for batches).
  void add_constraint_lazy(const OctConstraint& k);
  /// Guard  Σ a_i x_i + constant ≤ 0. Octagonal guards (at most two unit coefficients, or one
  /// variable with coefficient ±1/±2) are added exactly; others refine the intervals.
  void guard_linear(std::span<const std::int64_t> coeffs, std::int64_t constant);
  /// Guard x ≠ c: tightens a bound that equals c, otherwise the identity.
  void guard_not_equal(int x, std::int64_t c);

  // --- normal form ---------------------------------------------------------------------------
  /// Tight strong closure (Floyd–Warshall, tightening, strengthening, emptiness test).
  void close();

  // --- lattice -------------------------------------------------------------------------------
  bool leq(const Octagon& other) const;  // γ(this) ⊆ γ(other) on integer points
  bool equivalent(const Octagon& other) const { return leq(other) && other.leq(*this); }
  Octagon join(const Octagon& other) const;  // best octagon containing both; result closed
  Octagon meet(const Octagon& other) const;  // intersection; result not closed
  /// Widening with thresholds: an entry that grows jumps to the smallest threshold above it
  /// (±t for binary entries, ±2t for unary ones), else to +∞. The result is NOT closed and must
  /// not be: pass close(F(X_i)) as `next` and keep the result as X_{i+1} unclosed.
  Octagon widen(const Octagon& next, std::span<const std::int64_t> thresholds = {}) const;
  /// Narrowing: only +∞ entries are refined by `next`.
  Octagon narrow(const Octagon& next) const;

  // --- transfer functions --------------------------------------------------------------------
  void forget(int x);                                  // x := nondet
  void assign_add_const(int x, std::int64_t c);        // x := x + c (exact)
  void assign_var(int x, int y, int sign, std::int64_t c);  // x := sign·y + c, sign ±1 (exact)
  /// x := nondet in [lo, hi] (absent ends are infinite).
  void assign_interval(int x, std::optional<std::int64_t> lo, std::optional<std::int64_t> hi);
  /// x := Σ coeffs_i x_i + constant. Unit forms go to assign_var / assign_add_const; otherwise
  /// the interval of the expression, refined by Miné's bounds on x ∓ y.
  void assign_linear(int x, std::span<const std::int64_t> coeffs, std::int64_t constant);
  /// C integer semantics: if x may leave [lo, hi], x becomes the whole range [lo, hi]
  /// (the result of a wrap-around is unknown within the type).
  void clamp_to_type(int x, std::int64_t lo, std::int64_t hi);
  /// clamp_to_type for a `bits`-wide signed/unsigned C integer (a 64-bit unsigned upper end is
  /// beyond the bound range and is treated as +∞).
  void clamp_to_c_type(int x, unsigned bits, bool is_signed);

  // --- queries -------------------------------------------------------------------------------
  Interval interval(int x) const;
  /// inv ⇒ k: every point satisfies k (true on bottom). Exact on integer points.
  bool implies(const OctConstraint& k) const;
  /// inv ∧ k = ⊥: no point satisfies k (true on bottom). Exact on integer points.
  bool contradicts(const OctConstraint& k) const;
  /// Whether the integer point satisfies every entry of the (possibly unclosed) matrix.
  bool contains(std::span<const std::int64_t> point) const;
  /// Raw DBM entry m[a][b] (bound of v_b − v_a), for tests and debugging.
  Bound entry(int a, int b) const { return at(a, b); }

  /// Readable constraints of the closure, e.g. "2 <= sh <= 2, x - y <= 3"; "bottom" / "top".
  /// Binary constraints implied by the intervals are omitted.
  std::string to_string(std::span<const std::string> names = {}) const;

 private:
  explicit Octagon(int n);
  Bound& at(int a, int b) { return m_[static_cast<std::size_t>(a) * dim_ + b]; }
  Bound at(int a, int b) const { return m_[static_cast<std::size_t>(a) * dim_ + b]; }
  Octagon closed_copy() const;
  void set_bottom();
  bool tighten(int a, int b, Bound c);  // m[a][b] = min(m[a][b], c) and its coherent entry
  void close_incremental(int x);        // rows/columns of x changed on a closed matrix
  void finish_closure();                // tighten, strengthen, emptiness test
  void forget_closed(int x);

  int n_ = 0;
  int dim_ = 0;  // 2n
  std::vector<Bound> m_;
  bool closed_ = true;
  bool empty_ = false;
};

}  // namespace siren::invariants
