// The backend factory behind `--solver`: a name -> constructor table over the term-level
// backends (see solvers/factory.hpp). Unknown names give nullptr; the caller reports them.
#include "solvers/factory.hpp"

#include <cstdlib>

namespace siren::solvers {

std::unique_ptr<DecisionProcedure> make_decision_procedure(const std::string& name,
                                                           TermManager& tm) {
  if (name == "cadical") return make_cadical_bitblaster(tm);
  if (name == "z3") {
    // SIREN_Z3_LOGIC selects Z3's solver for a logic (e.g. QF_FD: incremental bit-blasting to
    // Z3's SAT core) instead of QF_FD (the default); for experiments.
    const char* logic = std::getenv("SIREN_Z3_LOGIC");
    return logic ? make_z3_solver(tm, logic) : make_z3_solver(tm);
  }
  if (name == "boolector") return make_boolector_solver(tm);
  return nullptr;
}

std::vector<std::string> decision_procedure_names() { return {"cadical", "z3", "boolector"}; }

}  // namespace siren::solvers
