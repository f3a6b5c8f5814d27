// Values of the transaction graph's abstract semantics (DESIGN.md §B5 step 2, over the octagons
// of §B6): intervals over 128-bit integers (`Itv`: sums and products of 64-bit bounds do not
// overflow; bounds beyond ±2^61 are dropped, a sound weakening), linear forms over the analysis
// variables (`Lin`, what the octagon's linear assignments and guards take) and abstract values
// (`AVal`: a linear form when one is known, and always an interval). Used by builder.hpp.
#pragma once

#include "ir/type.hpp"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace siren::invariants::detail {

using ir::Type;

__extension__ typedef __int128 W;
constexpr W kSafe = W{1} << 61;  // bounds beyond ±2^61 are dropped (sound weakening)

// --- intervals over 128-bit integers -------------------------------------------------------
struct Itv {
  bool lo_inf = true, hi_inf = true;
  W lo = 0, hi = 0;
  static Itv point(W v) { return {false, false, v, v}; }
  static Itv of(W l, W h) { return {false, false, l, h}; }
  bool singleton() const { return !lo_inf && !hi_inf && lo == hi; }
};

Itv type_range(Type t);
bool fits(const Itv& v, Type t);
Itv add(const Itv& a, const Itv& b);
Itv scale(const Itv& a, W k);
Itv hull(const Itv& a, const Itv& b);
bool big(W v);
Itv mul(const Itv& a, const Itv& b);
std::optional<std::int64_t> opt_lo(const Itv& v);
std::optional<std::int64_t> opt_hi(const Itv& v);

/// Concrete value of a constant / cell bits as a mathematical integer of its type.
W value_of(Type t, std::uint64_t bits);

// --- linear forms --------------------------------------------------------------------------
struct Lin {
  std::vector<std::pair<int, W>> terms;  // (var, coefficient), sorted by var, no zeros
  W c = 0;
  static Lin constant(W v) { return {{}, v}; }
  static Lin var(int v) { return {{{v, 1}}, 0}; }
};
Lin lin_add(const Lin& a, const Lin& b, W kb = 1);
Lin lin_scale(const Lin& a, W k);

struct AVal {
  bool lin_ok = false;
  Lin lin;
  Itv itv;
};

}  // namespace siren::invariants::detail
