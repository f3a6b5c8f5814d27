// Factory of scheduler reductions (reduction/scheduler_constraints.hpp). "none" adds nothing:
// every interleaving of enabled steps is explored.
#include "reduction/scheduler_constraints.hpp"

#include "reduction/mpor.hpp"
#include "reduction/sir.hpp"

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

// TEST ONLY (tools/fuzz, issue 4): a deliberately UNSOUND reduction. No preemption: a thread
// that can still move keeps running (sel^{k-1} = u ∧ enabled_u^k ⇒ sel^k = u), which drops
// interleavings and hence bugs. It exists so that ctest can prove the differential
// fuzzer (siren-fuzz --test-reduction test-broken) catches a broken reduction. It is not in
// scheduler_constraint_names() and `siren check` does not accept it.
class BrokenTestReduction final : public SchedulerConstraints {
 public:
  explicit BrokenTestReduction(std::size_t threads) : threads_(threads) {}
  std::string name() const override { return "test-broken"; }
  std::vector<solvers::Term> add_frame(solvers::TermManager& terms,
                                       const std::vector<FrameView>& frames) override {
    std::vector<solvers::Term> out;
    if (frames.size() < 2) return out;
    const FrameView& prev = frames[frames.size() - 2];
    const FrameView& cur = frames.back();
    for (std::size_t u = 0; u < threads_; ++u)
      for (std::size_t t = 0; t < threads_; ++t)
        if (t != u)
          out.push_back(terms.mk_not(terms.mk_and(
              terms.mk_and(prev.selected(static_cast<ir::ThreadId>(u)), cur.enabled[u]),
              cur.selected(static_cast<ir::ThreadId>(t)))));
    return out;
  }

 private:
  std::size_t threads_;
};

}  // namespace

std::unique_ptr<SchedulerConstraints> make_scheduler_constraints(const std::string& name,
                                                                 const ir::ThreadModel& tm) {
  if (name == "none") return std::make_unique<NoReduction>();
  if (name == "mpor") return make_mpor(tm);
  if (name == "sir") return make_sir(tm);
  if (name == "test-broken") return std::make_unique<BrokenTestReduction>(tm.threads.size());
  return nullptr;
}

std::vector<std::string> scheduler_constraint_names() { return {"none", "mpor", "sir"}; }

}  // namespace siren::reduction
