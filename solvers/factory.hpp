// Choosing a DecisionProcedure by its `--solver` name. The names of the term-level backends
// are "cadical" (bit-blasting, solvers/bitblast_solver.cpp), "z3" (solvers/z3_solver.cpp) and
// "boolector" (solvers/boolector_solver.cpp). "portfolio" is not a DecisionProcedure: it runs
// whole checks with two backends in parallel processes (apps/siren/cmd_check.cpp).
#pragma once

#include "solvers/decision_procedure.hpp"

#include <memory>
#include <string>
#include <vector>

namespace siren::solvers {

/// The backend called `name`, or nullptr when there is none.
std::unique_ptr<DecisionProcedure> make_decision_procedure(const std::string& name,
                                                           TermManager& tm);

/// The names make_decision_procedure accepts, default first.
std::vector<std::string> decision_procedure_names();

}  // namespace siren::solvers
