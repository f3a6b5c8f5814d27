// Factory of scheduler reductions (reduction/scheduler_constraints.hpp). "none" adds nothing:
// every interleaving of enabled steps is explored.
#include "reduction/scheduler_constraints.hpp"

#include "reduction/mpor.hpp"
#include "reduction/sir.hpp"

#include <utility>

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

std::vector<std::pair<std::string, ReductionMaker>>& test_reductions() {
  static std::vector<std::pair<std::string, ReductionMaker>> extra;
  return extra;
}

}  // namespace

std::unique_ptr<SchedulerConstraints> make_scheduler_constraints(const std::string& name,
                                                                 const ir::ThreadModel& tm) {
  if (name == "none") return std::make_unique<NoReduction>();
  if (name == "mpor") return make_mpor(tm);
  if (name == "sir") return make_sir(tm);
  for (const auto& [extra, make] : test_reductions())
    if (name == extra) return make(tm);
  return nullptr;
}

void register_test_reduction(const std::string& name, ReductionMaker make) {
  test_reductions().emplace_back(name, std::move(make));
}

std::vector<std::string> scheduler_constraint_names() { return {"none", "mpor", "sir"}; }

}  // namespace siren::reduction
