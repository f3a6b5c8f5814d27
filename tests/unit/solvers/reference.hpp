// Concrete C-like reference arithmetic for the solver tests, written independently of
// solvers/term.cpp: C operators on int64_t/uint64_t plus the SMT-LIB conventions where C has
// undefined behaviour (division by zero, INT_MIN / -1, shifts by >= width).
#pragma once

#include "solvers/term.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace siren::solvers::testing {

inline std::uint64_t mask(std::uint32_t w) { return w == 64 ? ~0ULL : (1ULL << w) - 1; }
inline std::int64_t sgn(std::uint64_t v, std::uint32_t w) {
  return w == 64 ? static_cast<std::int64_t>(v)
                 : static_cast<std::int64_t>(v << (64 - w)) >> (64 - w);
}

/// Reference result of a binary bit-vector operation (comparisons give 0/1).
inline std::uint64_t reference(Kind k, std::uint64_t a, std::uint64_t b, std::uint32_t w) {
  const std::uint64_t m = mask(w);
  const std::int64_t sa = sgn(a, w), sb = sgn(b, w);
  const std::int64_t int_min = w == 64 ? INT64_MIN : -(std::int64_t{1} << (w - 1));
  switch (k) {
    case Kind::BvAnd: return a & b;
    case Kind::BvOr: return a | b;
    case Kind::BvXor: return a ^ b;
    case Kind::BvAdd: return (a + b) & m;
    case Kind::BvSub: return (a - b) & m;
    case Kind::BvMul: return (a * b) & m;
    case Kind::BvUdiv: return b == 0 ? m : a / b;
    case Kind::BvUrem: return b == 0 ? a : a % b;
    case Kind::BvSdiv:
      if (sb == 0) return sa < 0 ? 1 : m;                       // SMT-LIB: -(~0) or ~0
      if (sa == int_min && sb == -1) return a;                  // wraps to INT_MIN
      return static_cast<std::uint64_t>(sa / sb) & m;           // C truncates towards 0
    case Kind::BvSrem:
      if (sb == 0) return a;
      if (sa == int_min && sb == -1) return 0;
      return static_cast<std::uint64_t>(sa % sb) & m;           // C: sign of the dividend
    case Kind::BvShl: return b >= w ? 0 : (a << b) & m;
    case Kind::BvLshr: return b >= w ? 0 : a >> b;
    case Kind::BvAshr: return b >= w ? (sa < 0 ? m : 0) : static_cast<std::uint64_t>(sa >> b) & m;
    case Kind::BvUlt: return a < b;
    case Kind::BvUle: return a <= b;
    case Kind::BvSlt: return sa < sb;
    case Kind::BvSle: return sa <= sb;
    default: return ~0ULL;
  }
}

inline const std::vector<Kind>& binary_kinds() {
  static const std::vector<Kind> ks{
      Kind::BvAnd, Kind::BvOr, Kind::BvXor, Kind::BvAdd, Kind::BvSub, Kind::BvMul,
      Kind::BvUdiv, Kind::BvUrem, Kind::BvSdiv, Kind::BvSrem, Kind::BvShl, Kind::BvLshr,
      Kind::BvAshr, Kind::BvUlt, Kind::BvUle, Kind::BvSlt, Kind::BvSle};
  return ks;
}

inline bool is_comparison(Kind k) {
  return k == Kind::BvUlt || k == Kind::BvUle || k == Kind::BvSlt || k == Kind::BvSle;
}

/// Operands biased towards the interesting corners: 0, 1, -1, INT_MIN, INT_MAX, and small
/// values (so shift amounts below the width are common).
inline std::uint64_t interesting(std::mt19937_64& rng, std::uint32_t w) {
  const std::uint64_t m = mask(w);
  switch (rng() % 8) {
    case 0: {
      const std::uint64_t c[] = {0, 1, m, m >> 1, (m >> 1) + 1, 2, m - 1};
      return c[rng() % 7] & m;
    }
    case 1: case 2: return rng() % (w + 3);
    case 3: return (rng() >> (rng() % 64)) & m;  // small magnitude
    default: return rng() & m;
  }
}

}  // namespace siren::solvers::testing
