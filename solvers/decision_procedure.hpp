// The term-level solver seam (after CBMC's decision_proceduret): the encoder asserts Bool
// terms, solves under assumption terms and reads values back. Implementations: bit-blasting
// onto a SatBackend (solvers/bitblast_solver.cpp, CaDiCaL), later SMT solvers (Z3, Boolector).
#pragma once

#include "solvers/term.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

namespace siren::solvers {

enum class SolveResult { Sat, Unsat, Unknown };

struct SolverStats {
  std::uint64_t vars = 0;
  std::uint64_t clauses = 0;
  std::uint64_t solve_calls = 0;
  double solve_seconds = 0;
};

class DecisionProcedure {
 public:
  virtual ~DecisionProcedure() = default;
  virtual std::string name() const = 0;
  /// Adds `t` (Bool) as a permanent constraint.
  virtual void assert_formula(Term t) = 0;
  /// Solves the asserted constraints plus `assumptions` (Bool terms, only for this call).
  virtual SolveResult solve(std::span<const Term> assumptions) = 0;
  /// After Sat: the value of any term built from asserted/assumed terms' variables (Bool: 0/1).
  virtual std::uint64_t value(Term t) = 0;
  /// Polled during solving; returning true makes solve() return Unknown.
  virtual void set_terminate(std::function<bool()> should_stop) = 0;
  virtual SolverStats stats() const = 0;
};

/// Bit-blasting to CaDiCaL (the default, `--solver cadical`).
std::unique_ptr<DecisionProcedure> make_cadical_bitblaster(TermManager& tm);

}  // namespace siren::solvers
