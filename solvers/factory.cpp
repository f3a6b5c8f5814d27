// The backend factory behind `--solver`: a name -> constructor table over the term-level
// backends (see solvers/factory.hpp). Unknown names give nullptr; the caller reports them.
#include "solvers/factory.hpp"


namespace siren::solvers {

std::unique_ptr<DecisionProcedure> make_decision_procedure(const std::string& name,
                                                           TermManager& tm) {
  if (name == "cadical") return make_cadical_bitblaster(tm);
  if (name == "z3") return make_z3_solver(tm);
  if (name == "boolector") return make_boolector_solver(tm);
  return nullptr;
}

std::vector<std::string> decision_procedure_names() { return {"cadical", "z3", "boolector"}; }

}  // namespace siren::solvers
