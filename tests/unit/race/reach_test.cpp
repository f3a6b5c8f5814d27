// Control-state reachability (race::check_reach, `siren check --reach`) and what it is for:
// a scheduler reduction must keep every control state reachable (DESIGN.md §B8; issue 8).
// Every control state the explorer reaches (the tuple of the threads' pcs, "finished"
// included) is asked under none, mpor and sir over one encoding; each must be REACHABLE with
// a replayed schedule. On fig1 and on the shared SV-COMP tasks the explorer finishes. (The
// fuzz parts in ctest do the same on the 300 random programs.)
#include "race/race.hpp"
#include "explicit/explorer.hpp"
#include "tests/unit/encoder/count_helpers.hpp"
#include "tests/unit/shared_tasks.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace siren;

using test::ask_all;
using test::ReachCount;

TEST_CASE("reach: every control state of fig1 is reachable under none, mpor and sir") {
  auto tm = test::model_of_file(std::string(SIREN_SOURCE_DIR) + "/../shared/examples/fig1.c");
  REQUIRE(tm);
  explicit_state::ExploreOptions eo;
  eo.count_schedules = false;
  const explicit_state::ExploreResult ex = explicit_state::explore(*tm, eo);
  REQUIRE(ex.verdict == explicit_state::ExploreVerdict::Safe);
  // The explorer's count of control states (pinned: a change in the IR of fig1 shows here).
  CHECK(ex.control_states.size() == 146);
  for (const char* red : {"none", "mpor", "sir"}) {
    CAPTURE(red);
    const ReachCount c = ask_all(*tm, ex, red, 60, 120);
    INFO(c.first_problem);
    CHECK(c.timeouts == 0);
    CHECK(c.reached == c.asked);
    CHECK(c.asked == 146);  // every one has a started thread
  }
}

TEST_CASE("reach: an unreachable control state is UNREACHABLE, with and without reductions") {
  auto tm = test::model_of_file(std::string(SIREN_SOURCE_DIR) + "/../shared/examples/fig1.c");
  REQUIRE(tm);
  // main past pthread_join (its last instruction: finished) while t2 has not finished.
  ir::ThreadId t2 = 1;
  std::vector<std::uint32_t> not_done;
  for (std::uint32_t pc = 0; pc < tm->threads[t2].code.size(); ++pc) not_done.push_back(pc);
  const std::vector<race::ControlTarget> targets{
      {0, {static_cast<std::uint32_t>(tm->threads[0].code.size())}}, {t2, not_done}};
  for (const char* red : {"none", "mpor", "sir"}) {
    CAPTURE(red);
    check::CheckOptions co;
    co.bound = 60;
    co.reduction = red;
    const race::RaceAnswer a = race::check_reach(*tm, co, targets);
    CHECK(!a.internal_error);
    CHECK(a.verdict == check::Verdict::Safe);
  }
}

TEST_CASE("reach: every control state the explorer reaches in the shared SV-COMP tasks, under mpor and sir") {
  const auto inputs = test::shared_inputs();
  REQUIRE(!inputs.empty());
  std::size_t tasks = 0, checked = 0, states = 0, timeouts = 0;
  const unsigned bound = 30;
  for (const auto& input : inputs) {
    ++tasks;
    const std::string& path = input.path;
    auto tm = test::model_of_file(path);
    if (!tm) continue;
    explicit_state::ExploreOptions eo;
    eo.bound = bound;
    eo.max_states = 20000;
    eo.count_schedules = false;
    const explicit_state::ExploreResult ex = explicit_state::explore(*tm, eo);
    if (ex.verdict == explicit_state::ExploreVerdict::Unknown || ex.control_states.size() > 1500) continue;
    CAPTURE(path);
    bool complete = true;
    for (const char* red : {"mpor", "sir"}) {
      CAPTURE(red);
      const ReachCount c = ask_all(*tm, ex, red, bound, 8);
      INFO(c.first_problem);
      CHECK(c.reached + c.timeouts == c.asked);  // nothing the explorer reaches is unreachable
      timeouts += c.timeouts;
      states += c.reached;
      complete = complete && c.timeouts == 0;
    }
    if (complete) ++checked;
  }
  MESSAGE("SV-COMP inputs: " << tasks << ", every control state reached under mpor and sir: " << checked
                             << ", control states reached: " << states << ", timeouts: " << timeouts);
  CHECK(checked >= 25);  // 36 on an idle machine; timeouts (a loaded machine) only lower it
}
