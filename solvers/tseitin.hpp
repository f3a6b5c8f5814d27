// Tseitin encoding of gates into CNF over a SatBackend, with constant propagation and
// structural hashing (after CBMC's cnft/aig and Bitwuzla's AigManager): the constant `true`
// is one literal fixed by a unit clause, gates with a constant or repeated input fold away
// without clauses, and an and/xor/ite gate over the same inputs is created once. This is the
// `Ops` policy that instantiates solvers/bv_circuits.hpp on SAT literals.
#pragma once

#include "solvers/sat_backend.hpp"

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace siren::solvers {

class TseitinOps {
 public:
  using Bit = int;  // DIMACS literal

  explicit TseitinOps(SatBackend& sat);

  Bit constant(bool b) const { return b ? true_lit_ : -true_lit_; }
  bool is_const(Bit a) const { return a == true_lit_ || a == -true_lit_; }
  Bit not_(Bit a) const { return -a; }
  Bit and_(Bit a, Bit b);
  Bit or_(Bit a, Bit b) { return -and_(-a, -b); }
  Bit xor_(Bit a, Bit b);
  Bit ite(Bit c, Bit t, Bit e);
  Bit fresh() { return sat_.new_var(); }

  std::uint64_t gates() const { return gates_; }

 private:
  // Open-addressing hash table from a gate's (normalised) inputs to its output literal.
  class GateTable {
   public:
    GateTable();
    int* find_or_slot(int a, int b, int c);  // *result == 0: absent, fill it in
   private:
    struct Entry { int a, b, c, out; };
    void grow();
    std::vector<Entry> entries_;
    std::size_t used_ = 0;
  };

  void clause(std::initializer_list<int> lits);

  SatBackend& sat_;
  int true_lit_;
  GateTable and_table_, xor_table_, ite_table_;
  std::uint64_t gates_ = 0;
};

}  // namespace siren::solvers
