// The literal-level solver seam (after Bitwuzla's src/sat and CBMC's propt): DIMACS-style
// literals (variable v > 0 as v, its negation as -v). Only solvers/cadical_backend.cpp
// includes cadical.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

namespace siren::solvers {

class SatBackend {
 public:
  virtual ~SatBackend() = default;
  virtual int new_var() = 0;
  virtual void add_clause(std::span<const int> lits) = 0;
  virtual void assume(int lit) = 0;          // for the next solve() only
  virtual int solve() = 0;                   // 10 sat, 20 unsat, 0 unknown (terminated)
  virtual bool value(int lit) const = 0;     // after 10
  virtual bool failed(int lit) const = 0;    // after 20: assumption lit was used
  virtual void set_terminate(std::function<bool()> should_stop) = 0;
  virtual std::uint64_t num_vars() const = 0;
  virtual std::uint64_t num_clauses() const = 0;
};

std::unique_ptr<SatBackend> make_cadical_backend();

}  // namespace siren::solvers
