// Factory of scheduler reductions (reduction/scheduler_constraints.hpp). "none" adds nothing:
// every interleaving of enabled steps is explored.
#include "reduction/scheduler_constraints.hpp"

namespace siren::reduction {
namespace {

class NoReduction final : public SchedulerConstraints {
 public:
  std::string name() const override { return "none"; }
  std::vector<solvers::Term> add_frame(solvers::TermManager&,
                                       const std::vector<FrameView>&) override {
    return {};
  }
};

}  // namespace

std::unique_ptr<SchedulerConstraints> make_scheduler_constraints(const std::string& name,
                                                                 const ir::ThreadModel&) {
  if (name == "none") return std::make_unique<NoReduction>();
  return nullptr;
}

std::vector<std::string> scheduler_constraint_names() { return {"none"}; }

}  // namespace siren::reduction
