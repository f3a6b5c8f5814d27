// TEST ONLY: a deliberately unsound scheduler reduction for the differential fuzzer (see
// tools/fuzz/README.md). It lives here, not in reduction/: siren-fuzz registers it with
// reduction::register_test_reduction, and nothing in siren itself can make it.
#include "tools/fuzz/broken_reduction.hpp"

#include "reduction/scheduler_constraints.hpp"
#include "reduction/sir.hpp"

#include <memory>

namespace siren::fuzz {
namespace {

using reduction::FrameView;

// TEST ONLY (tools/fuzz, issue 4): a deliberately UNSOUND reduction. No preemption: a thread
// that can still move keeps running (sel^{k-1} = u ∧ enabled_u^k ⇒ sel^k = u), which drops
// interleavings and hence bugs. It exists so that ctest can prove the differential
// fuzzer (siren-fuzz --test-reduction test-broken) catches a broken reduction. It is not in
// scheduler_constraint_names() and `siren check` does not accept it.
class BrokenTestReduction final : public reduction::SchedulerConstraints {
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

void register_broken_reduction() {
  reduction::register_test_reduction("test-broken", [](const ir::ThreadModel& tm) {
    return std::unique_ptr<reduction::SchedulerConstraints>(new BrokenTestReduction(tm.threads.size()));
  });
  // SIR over a deliberately unsound points-to analysis: the initial values of pointer cells
  // (`int *p = &g;`) are ignored, so an access through such a pointer touches no cell and a
  // conditional reading g through it looks unrelated to g's writes (the "observe" template).
  reduction::register_test_reduction("test-sir-broken-points-to", [](const ir::ThreadModel& tm) {
    reduction::SirOptions o;
    o.points_to.test_drop_initial_targets = true;
    return reduction::make_sir(tm, o);
  });
  // SIR with relevance only (no transaction graph: a pair that a relevant use reads is
  // sensitive), sound, as on a program whose graph is incomplete (DESIGN.md §B9.4) ...
  reduction::register_test_reduction("test-sir-no-graph", [](const ir::ThreadModel& tm) {
    reduction::SirOptions o;
    o.graph_seconds = 0;
    return reduction::make_sir(tm, o);
  });
  // ... and deliberately over-eager (§B9.7): conditionals are no relevant uses, so an order
  // only a branch or an assertion observes passes as insensitive.
  reduction::register_test_reduction("test-sir-ignore-conditionals", [](const ir::ThreadModel& tm) {
    reduction::SirOptions o;
    o.test_ignore_conditionals = true;
    return reduction::make_sir(tm, o);
  });
  // ... and the other over-eager variant (§B9.7): every Lock of a known mutex opens a
  // "balanced critical section", also one whose transaction ends holding the mutex.
  reduction::register_test_reduction("test-sir-unbalanced-sections", [](const ir::ThreadModel& tm) {
    reduction::SirOptions o;
    o.test_unbalanced_sections = true;
    return reduction::make_sir(tm, o);
  });
}

}  // namespace siren::fuzz
