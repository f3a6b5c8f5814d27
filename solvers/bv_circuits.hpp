// Bit-vector circuits written once, templated on the bit type (after Bitwuzla's
// src/solver/bv/aig_bitblaster.h and CBMC's bv_utilst). The same code runs on plain `bool`s
// (BoolOps, for exhaustive unit tests against concrete arithmetic) and on SAT literals
// (solvers/tseitin.hpp, Tseitin encoding with constant propagation and structural hashing).
//
// A bit-vector is a std::vector<Bit>, least significant bit first. An `Ops` policy provides
//   using Bit = ...;  Bit constant(bool);  Bit not_(Bit);  Bit and_(Bit, Bit);
//   Bit or_(Bit, Bit);  Bit xor_(Bit, Bit);  Bit ite(Bit c, Bit t, Bit e);
// Circuits: ripple-carry adder, shift-and-add multiplier (O(w^2)), restoring divider whose
// natural behaviour on a zero divisor is exactly SMT-LIB's (quotient all ones, remainder =
// dividend), signed division via magnitudes and sign fix (the SMT-LIB definition of
// bvsdiv/bvsrem), logarithmic barrel shifters that saturate for amounts >= width, and
// comparators as the carry chain of a - b.
#pragma once

#include <cassert>
#include <cstdint>
#include <vector>

namespace siren::solvers::bv {

template <class Ops>
using Bits = std::vector<typename Ops::Bit>;

/// Concrete Booleans: the reference instantiation used by the tests.
struct BoolOps {
  using Bit = bool;
  Bit constant(bool b) { return b; }
  Bit not_(Bit a) { return !a; }
  Bit and_(Bit a, Bit b) { return a && b; }
  Bit or_(Bit a, Bit b) { return a || b; }
  Bit xor_(Bit a, Bit b) { return a != b; }
  Bit ite(Bit c, Bit t, Bit e) { return c ? t : e; }
};

// ---- constants and conversions -----------------------------------------------------------

template <class Ops>
Bits<Ops> constant(Ops& o, std::uint32_t w, std::uint64_t v) {
  Bits<Ops> r;
  r.reserve(w);
  for (std::uint32_t i = 0; i < w; ++i) r.push_back(o.constant(i < 64 && ((v >> i) & 1)));
  return r;
}

/// Only meaningful for BoolOps (tests): bits -> integer.
inline std::uint64_t to_uint(const std::vector<bool>& bits) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (bits[i]) v |= std::uint64_t{1} << i;
  return v;
}

// ---- bitwise -----------------------------------------------------------------------------

template <class Ops>
Bits<Ops> bvnot(Ops& o, const Bits<Ops>& a) {
  Bits<Ops> r;
  r.reserve(a.size());
  for (auto x : a) r.push_back(o.not_(x));
  return r;
}

template <class Ops, class F>
Bits<Ops> bitwise(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b, F f) {
  assert(a.size() == b.size());
  Bits<Ops> r;
  r.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r.push_back(f(a[i], b[i]));
  return r;
}

template <class Ops>
Bits<Ops> bvand(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return bitwise(o, a, b, [&](auto x, auto y) { return o.and_(x, y); });
}
template <class Ops>
Bits<Ops> bvor(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return bitwise(o, a, b, [&](auto x, auto y) { return o.or_(x, y); });
}
template <class Ops>
Bits<Ops> bvxor(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return bitwise(o, a, b, [&](auto x, auto y) { return o.xor_(x, y); });
}

template <class Ops>
Bits<Ops> ite(Ops& o, typename Ops::Bit c, const Bits<Ops>& a, const Bits<Ops>& b) {
  return bitwise(o, a, b, [&](auto x, auto y) { return o.ite(c, x, y); });
}

// ---- structure ---------------------------------------------------------------------------

template <class Ops>
Bits<Ops> extract(Ops&, const Bits<Ops>& a, std::uint32_t hi, std::uint32_t lo) {
  assert(lo <= hi && hi < a.size());
  return Bits<Ops>(a.begin() + lo, a.begin() + hi + 1);
}

/// `hi` becomes the most significant part.
template <class Ops>
Bits<Ops> concat(Ops&, const Bits<Ops>& hi, const Bits<Ops>& lo) {
  Bits<Ops> r = lo;
  r.insert(r.end(), hi.begin(), hi.end());
  return r;
}

template <class Ops>
Bits<Ops> zext(Ops& o, const Bits<Ops>& a, std::uint32_t w) {
  assert(w >= a.size());
  Bits<Ops> r = a;
  r.resize(w, o.constant(false));
  return r;
}

template <class Ops>
Bits<Ops> sext(Ops&, const Bits<Ops>& a, std::uint32_t w) {
  assert(w >= a.size() && !a.empty());
  Bits<Ops> r = a;
  r.resize(w, a.back());
  return r;
}

// ---- arithmetic --------------------------------------------------------------------------

/// a + b + carry_in, ripple carry; `carry_out` (if given) receives the final carry.
template <class Ops>
Bits<Ops> add(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b, typename Ops::Bit carry,
              typename Ops::Bit* carry_out = nullptr) {
  assert(a.size() == b.size());
  Bits<Ops> r;
  r.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto t = o.xor_(a[i], b[i]);
    r.push_back(o.xor_(t, carry));
    carry = o.or_(o.and_(a[i], b[i]), o.and_(carry, t));
  }
  if (carry_out) *carry_out = carry;
  return r;
}

template <class Ops>
Bits<Ops> add(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return add(o, a, b, o.constant(false));
}

/// a - b = a + ~b + 1; `carry_out` is 1 iff a >= b (unsigned, no borrow).
template <class Ops>
Bits<Ops> sub(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b,
              typename Ops::Bit* carry_out = nullptr) {
  return add(o, a, bvnot(o, b), o.constant(true), carry_out);
}

template <class Ops>
Bits<Ops> neg(Ops& o, const Bits<Ops>& a) {
  return add(o, bvnot(o, a), constant(o, static_cast<std::uint32_t>(a.size()), 0),
             o.constant(true));
}

/// Shift-and-add: for each set bit b[i], add a << i; the low i bits are already final.
template <class Ops>
Bits<Ops> mul(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  assert(a.size() == b.size());
  const std::size_t w = a.size();
  Bits<Ops> r(w, o.constant(false));
  for (std::size_t i = 0; i < w; ++i) {
    auto carry = o.constant(false);
    for (std::size_t j = i; j < w; ++j) {
      auto p = o.and_(b[i], a[j - i]);  // partial product bit
      auto t = o.xor_(r[j], p);
      auto s = o.xor_(t, carry);
      if (j + 1 < w) carry = o.or_(o.and_(r[j], p), o.and_(carry, t));
      r[j] = s;
    }
  }
  return r;
}

/// Restoring division (CBMC's unsigned_divider, as a circuit): shift the next dividend bit
/// into a (w+1)-bit partial remainder, subtract the divisor when it fits. A zero divisor
/// always "fits", so q = ~0 and r = a: SMT-LIB's bvudiv/bvurem by zero, with no extra logic.
template <class Ops>
void udivrem(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b, Bits<Ops>& q, Bits<Ops>& r) {
  assert(a.size() == b.size());
  const std::size_t w = a.size();
  const auto f = o.constant(false);
  Bits<Ops> rem(w + 1, f);
  Bits<Ops> div = b;
  div.push_back(f);
  q.assign(w, f);
  for (std::size_t k = w; k-- > 0;) {
    // rem = (rem << 1) | a[k]; rem < div <= 2^w - 1 before the shift, so w+1 bits suffice.
    for (std::size_t i = w; i > 0; --i) rem[i] = rem[i - 1];
    rem[0] = a[k];
    typename Ops::Bit fits;
    Bits<Ops> diff = sub(o, rem, div, &fits);
    q[k] = fits;
    rem = ite(o, fits, diff, rem);
  }
  rem.pop_back();
  r = std::move(rem);
}

template <class Ops>
Bits<Ops> udiv(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  Bits<Ops> q, r;
  udivrem(o, a, b, q, r);
  return q;
}

template <class Ops>
Bits<Ops> urem(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  Bits<Ops> q, r;
  udivrem(o, a, b, q, r);
  return r;
}

template <class Ops>
Bits<Ops> abs(Ops& o, const Bits<Ops>& a) {
  return ite(o, a.back(), neg(o, a), a);
}

/// SMT-LIB bvsdiv: divide magnitudes; negate when the signs differ.
template <class Ops>
Bits<Ops> sdiv(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  Bits<Ops> q = udiv(o, abs(o, a), abs(o, b));
  return ite(o, o.xor_(a.back(), b.back()), neg(o, q), q);
}

/// SMT-LIB bvsrem: remainder of magnitudes, with the dividend's sign.
template <class Ops>
Bits<Ops> srem(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  Bits<Ops> r = urem(o, abs(o, a), abs(o, b));
  return ite(o, a.back(), neg(o, r), r);
}

// ---- shifts ------------------------------------------------------------------------------

enum class Shift { Left, LogicalRight, ArithmeticRight };

/// Logarithmic barrel shifter: stage j shifts by 2^j when amount bit j is set, filling with
/// 0 (or the sign); any set amount bit at or above the first stage that reaches w gives the
/// all-fill result, which is SMT-LIB's semantics for amounts >= width.
template <class Ops>
Bits<Ops> shift(Ops& o, const Bits<Ops>& a, const Bits<Ops>& amount, Shift kind) {
  assert(a.size() == amount.size());
  const std::size_t w = a.size();
  const auto fill = kind == Shift::ArithmeticRight ? a.back() : o.constant(false);
  Bits<Ops> r = a;
  std::size_t j = 0;
  for (; j < w && (std::size_t{1} << j) < w; ++j) {
    const std::size_t d = std::size_t{1} << j;
    Bits<Ops> s(w, fill);
    for (std::size_t i = 0; i < w; ++i) {
      if (kind == Shift::Left) {
        if (i >= d) s[i] = r[i - d];
      } else if (i + d < w) {
        s[i] = r[i + d];
      }
    }
    r = ite(o, amount[j], s, r);
  }
  auto overflow = o.constant(false);
  for (; j < w; ++j) overflow = o.or_(overflow, amount[j]);
  return ite(o, overflow, Bits<Ops>(w, fill), r);
}

template <class Ops>
Bits<Ops> shl(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return shift(o, a, b, Shift::Left);
}
template <class Ops>
Bits<Ops> lshr(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return shift(o, a, b, Shift::LogicalRight);
}
template <class Ops>
Bits<Ops> ashr(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return shift(o, a, b, Shift::ArithmeticRight);
}

// ---- predicates --------------------------------------------------------------------------

template <class Ops>
typename Ops::Bit eq(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  assert(a.size() == b.size());
  auto r = o.constant(true);
  for (std::size_t i = 0; i < a.size(); ++i) r = o.and_(r, o.not_(o.xor_(a[i], b[i])));
  return r;
}

/// a < b (unsigned): no carry out of a + ~b + 1. Only the carry chain is built; `flip_msb`
/// inverts both sign bits, which turns it into the signed comparison.
template <class Ops>
typename Ops::Bit ult_chain(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b, bool flip_msb) {
  assert(a.size() == b.size() && !a.empty());
  auto carry = o.constant(true);
  const std::size_t w = a.size();
  for (std::size_t i = 0; i < w; ++i) {
    auto x = a[i];
    auto y = o.not_(b[i]);
    if (flip_msb && i + 1 == w) { x = o.not_(x); y = o.not_(y); }
    // carry' = majority(x, y, carry)
    carry = o.or_(o.and_(x, y), o.and_(carry, o.xor_(x, y)));
  }
  return o.not_(carry);
}

template <class Ops>
typename Ops::Bit ult(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return ult_chain(o, a, b, false);
}
template <class Ops>
typename Ops::Bit ule(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return o.not_(ult_chain(o, b, a, false));
}
template <class Ops>
typename Ops::Bit slt(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return ult_chain(o, a, b, true);
}
template <class Ops>
typename Ops::Bit sle(Ops& o, const Bits<Ops>& a, const Bits<Ops>& b) {
  return o.not_(ult_chain(o, b, a, true));
}

}  // namespace siren::solvers::bv
