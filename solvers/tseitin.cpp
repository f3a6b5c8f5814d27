// Tseitin gates with constant propagation and structural hashing; see tseitin.hpp.
// Clauses per gate (Tseitin 1968; Plaisted-Greenbaum would drop half, but the encoder reads
// values of arbitrary subterms back, so both directions are kept):
//   g = a & b        (-g a) (-g b) (g -a -b)
//   g = a ^ b        (-g a b) (-g -a -b) (g -a b) (g a -b)
//   g = c ? t : e    (-c -t g) (-c t -g) (c -e g) (c e -g) plus the redundant
//                    (-t -e g) (t e -g), which help propagation (Een & Sorensson, MiniSat+).
#include "solvers/tseitin.hpp"

#include <cassert>
#include <cstdlib>
#include <utility>

namespace siren::solvers {

TseitinOps::GateTable::GateTable() : entries_(1024, Entry{0, 0, 0, 0}) {}

int* TseitinOps::GateTable::find_or_slot(int a, int b, int c) {
  if (2 * (used_ + 1) > entries_.size()) grow();
  std::uint64_t h = static_cast<std::uint32_t>(a);
  h = h * 0x9e3779b97f4a7c15ULL ^ static_cast<std::uint32_t>(b);
  h = h * 0x9e3779b97f4a7c15ULL ^ static_cast<std::uint32_t>(c);
  h *= 0x9e3779b97f4a7c15ULL;
  const std::size_t mask = entries_.size() - 1;
  for (std::size_t i = (h >> 20) & mask;; i = (i + 1) & mask) {
    Entry& e = entries_[i];
    if (e.out == 0) {
      e.a = a; e.b = b; e.c = c;
      ++used_;
      return &e.out;
    }
    if (e.a == a && e.b == b && e.c == c) return &e.out;
  }
}

void TseitinOps::GateTable::grow() {
  std::vector<Entry> old = std::move(entries_);
  entries_.assign(old.size() * 2, Entry{0, 0, 0, 0});
  used_ = 0;
  for (const Entry& e : old)
    if (e.out != 0) *find_or_slot(e.a, e.b, e.c) = e.out;
}

TseitinOps::TseitinOps(SatBackend& sat) : sat_(sat), true_lit_(sat.new_var()) {
  clause({true_lit_});
}

void TseitinOps::clause(std::initializer_list<int> lits) {
  sat_.add_clause(std::span<const int>(lits.begin(), lits.size()));
}

int TseitinOps::and_(int a, int b) {
  const int t = true_lit_;
  if (a == -t || b == -t) return -t;
  if (a == t) return b;
  if (b == t) return a;
  if (a == b) return a;
  if (a == -b) return -t;
  if (a > b) std::swap(a, b);
  int* slot = and_table_.find_or_slot(a, b, 0);
  if (*slot) return *slot;
  const int g = sat_.new_var();
  *slot = g;
  ++gates_;
  clause({-g, a});
  clause({-g, b});
  clause({g, -a, -b});
  return g;
}

int TseitinOps::xor_(int a, int b) {
  const int t = true_lit_;
  if (a == t) return -b;
  if (a == -t) return b;
  if (b == t) return -a;
  if (b == -t) return a;
  if (a == b) return -t;
  if (a == -b) return t;
  // Normalise to positive inputs: a ^ -b = -(a ^ b).
  const bool flip = (a < 0) != (b < 0);
  a = std::abs(a);
  b = std::abs(b);
  if (a > b) std::swap(a, b);
  int* slot = xor_table_.find_or_slot(a, b, 0);
  if (!*slot) {
    const int g = sat_.new_var();
    *slot = g;
    ++gates_;
    clause({-g, a, b});
    clause({-g, -a, -b});
    clause({g, -a, b});
    clause({g, a, -b});
  }
  return flip ? -*slot : *slot;
}

int TseitinOps::ite(int c, int x, int y) {
  const int t = true_lit_;
  if (c == t) return x;
  if (c == -t) return y;
  if (x == y) return x;
  if (c < 0) { c = -c; std::swap(x, y); }
  if (x == -y) return xor_(-c, x);
  if (x == t || x == c) return or_(c, y);
  if (x == -t || x == -c) return and_(-c, y);
  if (y == t || y == -c) return or_(-c, x);
  if (y == -t || y == c) return and_(c, x);
  // Normalise the then-branch to positive: ite(c, -x, -y) = -ite(c, x, y).
  const bool flip = x < 0;
  if (flip) { x = -x; y = -y; }
  int* slot = ite_table_.find_or_slot(c, x, y);
  if (!*slot) {
    const int g = sat_.new_var();
    *slot = g;
    ++gates_;
    clause({-c, -x, g});
    clause({-c, x, -g});
    clause({c, -y, g});
    clause({c, y, -g});
    clause({-x, -y, g});
    clause({x, y, -g});
  }
  return flip ? -*slot : *slot;
}

}  // namespace siren::solvers
