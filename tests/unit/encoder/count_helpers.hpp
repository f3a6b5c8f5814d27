// Shared by the schedule-count and reachability tests (mpor_counts_test.cpp,
// sir_counts_test.cpp, reach_test.cpp): C text or a file -> validated thread model, the number
// of complete schedules a reduction admits, and control-state reachability under a reduction.
#pragma once

#include "check/check.hpp"
#include "race/race.hpp"
#include "explicit/explorer.hpp"
#include "frontend/frontend.hpp"
#include "ir/thread_model.hpp"
#include "ir/validator.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>

namespace siren::test {

inline std::optional<ir::ThreadModel> model_of_file(const std::string& path) {
  frontend::FrontendResult fr = frontend::translate_file(path);
  if (fr.status != frontend::FrontendStatus::Ok || !fr.program) return std::nullopt;
  if (!ir::validate(*fr.program).empty()) return std::nullopt;
  return ir::build_thread_model(*fr.program, {});
}

/// `tag` keeps the temporary file names of concurrently running test executables apart.
inline std::optional<ir::ThreadModel> model_of_text(const std::string& text, const std::string& tag) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("siren-" + tag + "-" + std::to_string(getpid()) + ".c")).string();
  {
    std::ofstream out(path);
    out << text;
  }
  auto tm = model_of_file(path);
  std::filesystem::remove(path);
  return tm;
}

inline std::optional<std::uint64_t> count_schedules(const ir::ThreadModel& tm,
                                                    const std::string& reduction, unsigned bound) {
  check::CheckOptions o;
  o.engine = "bmc";
  o.bound = bound;
  o.reduction = reduction;
  o.count_schedules = true;
  o.max_schedules = 200000;
  o.granularity = "instruction";  // the explorer's steps: its counts are the reference
  return check::check(tm, o).schedules;
}

struct ReachCount {
  std::size_t asked = 0, reached = 0, timeouts = 0;
  std::string first_problem;
};

/// Asks every control state of `ex` under `reduction` (bound `bound`, `seconds` in all).
inline ReachCount ask_all(const ir::ThreadModel& tm, const explicit_state::ExploreResult& ex, const std::string& reduction,
                   unsigned bound, double seconds) {
  std::vector<race::RaceQuery> qs;
  for (const explicit_state::ControlState& cs : ex.control_states) {
    race::RaceQuery q;
    q.control = race::control_targets(tm, cs);
    if (!q.control.empty()) qs.push_back(std::move(q));
  }
  race::RaceRunOptions ro;
  ro.check.bound = bound;
  ro.check.reduction = reduction;
  ro.check.deadline = std::chrono::steady_clock::now() +
                      std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  ReachCount c;
  c.asked = qs.size();
  race::solve_race_queries(tm, qs, ro, [&](std::size_t i, const race::RaceAnswer& a) {
    if (a.verdict == check::Verdict::Unsafe) {
      ++c.reached;
    } else if (a.verdict == check::Verdict::Unknown && !a.internal_error && a.time_limit) {
      ++c.timeouts;
    } else if (c.first_problem.empty()) {
      std::string where;
      for (const auto& tg : qs[i].control)
        where += tm.threads[tg.thread].name + "@" + std::to_string(tg.pcs[0]) + " ";
      c.first_problem = "control state " + where + "answered " + check::verdict_name(a.verdict) + " " + a.reason;
    }
  });
  return c;
}


}  // namespace siren::test
