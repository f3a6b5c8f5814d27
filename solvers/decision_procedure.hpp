// The term-level solver seam (after CBMC's decision_proceduret): the encoder asserts Bool
// terms, solves under assumption terms and reads values back. Implementations: bit-blasting
// onto a SatBackend (solvers/bitblast_solver.cpp, CaDiCaL), Z3 in-process (solvers/z3_solver.cpp)
// and the boolector program (solvers/boolector_solver.cpp).
#pragma once

#include "solvers/term.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
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
  /// Why the last solve() returned Unknown: "terminated" when the callback fired, else a
  /// backend error (a malformed answer, a missing program, ...); may be empty.
  virtual std::string last_error() const { return {}; }
  /// A hint for backends that need an explicit time limit (the boolector child's -t); the
  /// terminate callback stays authoritative. Default: ignored.
  virtual void set_deadline(std::optional<std::chrono::steady_clock::time_point>) {}
};

/// Bit-blasting to CaDiCaL (the default, `--solver cadical`).
std::unique_ptr<DecisionProcedure> make_cadical_bitblaster(TermManager& tm);

/// Z3 in-process (`--solver z3`): native bit-vectors, one incremental solver, assumptions via
/// Boolean proxies. `logic` selects Z3's solver for that logic (QF_FD, Z3's incremental
/// bit-blasting SAT solver: 7x faster on siren check than Z3's
/// default incremental SMT core, and linear on deep terms where QF_BV's preprocessing is not;
/// empty: the default solver).
std::unique_ptr<DecisionProcedure> make_z3_solver(TermManager& tm,
                                                  const std::string& logic = "QF_FD");

/// The `boolector` program (1.5, SMT-LIB2 subset) as one child process per solve()
/// (`--solver boolector`). A missing program gives Unknown with a reason in last_error().
std::unique_ptr<DecisionProcedure> make_boolector_solver(TermManager& tm,
                                                         std::string binary = "boolector");

}  // namespace siren::solvers
