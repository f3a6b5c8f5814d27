// Intervals over 128-bit integers and linear forms: the values of the transaction graph's
// abstract semantics (linear.hpp, DESIGN.md §B5 step 2).
#include "invariants/linear.hpp"

#include "ir/type.hpp"

#include <algorithm>

namespace siren::invariants::detail {

// --- intervals over 128-bit integers -------------------------------------------------------
Itv type_range(Type t) {
  if (t.is_bool()) return Itv::of(0, 1);
  if (!t.is_int()) return {};
  if (t.is_signed) return Itv::of(-(W{1} << (t.width - 1)), (W{1} << (t.width - 1)) - 1);
  return Itv::of(0, (W{1} << t.width) - 1);
}
bool fits(const Itv& v, Type t) {
  const Itv r = type_range(t);
  return !v.lo_inf && !v.hi_inf && !r.lo_inf && v.lo >= r.lo && v.hi <= r.hi;
}
Itv add(const Itv& a, const Itv& b) {
  Itv r;
  r.lo_inf = a.lo_inf || b.lo_inf;
  r.hi_inf = a.hi_inf || b.hi_inf;
  if (!r.lo_inf) r.lo = a.lo + b.lo;
  if (!r.hi_inf) r.hi = a.hi + b.hi;
  return r;
}
Itv scale(const Itv& a, W k) {
  if (k == 0) return Itv::point(0);
  Itv r;
  if (k > 0) {
    r.lo_inf = a.lo_inf, r.hi_inf = a.hi_inf;
    r.lo = a.lo * k, r.hi = a.hi * k;
  } else {
    r.lo_inf = a.hi_inf, r.hi_inf = a.lo_inf;
    r.lo = a.hi * k, r.hi = a.lo * k;
  }
  return r;
}
Itv hull(const Itv& a, const Itv& b) {
  Itv r;
  r.lo_inf = a.lo_inf || b.lo_inf;
  r.hi_inf = a.hi_inf || b.hi_inf;
  if (!r.lo_inf) r.lo = std::min(a.lo, b.lo);
  if (!r.hi_inf) r.hi = std::max(a.hi, b.hi);
  return r;
}
bool big(W v) { return v > kSafe || v < -kSafe; }
Itv mul(const Itv& a, const Itv& b) {
  if (a.lo_inf || a.hi_inf || b.lo_inf || b.hi_inf) return {};
  if (big(a.lo) || big(a.hi) || big(b.lo) || big(b.hi)) return {};
  W c[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return Itv::of(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
}
std::optional<std::int64_t> opt_lo(const Itv& v) {
  if (v.lo_inf || v.lo < -kSafe) return std::nullopt;
  return static_cast<std::int64_t>(std::min(v.lo, kSafe));
}
std::optional<std::int64_t> opt_hi(const Itv& v) {
  if (v.hi_inf || v.hi > kSafe) return std::nullopt;
  return static_cast<std::int64_t>(std::max(v.hi, -kSafe));
}

W value_of(Type t, std::uint64_t bits) {
  if (t.is_bool()) return bits & 1;
  if (t.is_int() && !t.is_signed) return static_cast<W>(ir::normalize(t, bits));
  return static_cast<W>(ir::as_signed(t, ir::normalize(t, bits)));
}

// --- linear forms --------------------------------------------------------------------------
Lin lin_add(const Lin& a, const Lin& b, W kb) {
  Lin r;
  r.c = a.c + kb * b.c;
  std::size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    if (j == b.terms.size() || (i < a.terms.size() && a.terms[i].first < b.terms[j].first)) {
      r.terms.push_back(a.terms[i++]);
    } else if (i == a.terms.size() || b.terms[j].first < a.terms[i].first) {
      r.terms.push_back({b.terms[j].first, kb * b.terms[j].second});
      ++j;
    } else {
      const W k = a.terms[i].second + kb * b.terms[j].second;
      if (k != 0) r.terms.push_back({a.terms[i].first, k});
      ++i, ++j;
    }
  }
  return r;
}
Lin lin_scale(const Lin& a, W k) {
  if (k == 0) return Lin::constant(0);
  Lin r = a;
  r.c *= k;
  for (auto& t : r.terms) t.second *= k;
  return r;
}

}  // namespace siren::invariants::detail
