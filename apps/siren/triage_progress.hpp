// The progress bar of `siren triage` (cmd_triage.cpp; triage_slurm.cpp draws the same bar from
// its array tasks' result files): warnings answered over all programs, the verdicts so far, the
// elapsed time and an ETA from the rate since the start. Drawn on stderr, only on a terminal.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>

namespace siren::app {

class TriageProgress {
 public:
  TriageProgress(std::size_t total, bool enabled);
  /// One more answer with this verdict.
  void answered(const std::string& verdict);
  /// The answers so far, counted elsewhere (by verdict).
  void set(const std::map<std::string, std::size_t>& counts);
  void draw();
  /// Ends the bar's line (if it was drawn).
  void finish();

 private:
  std::size_t total_, done_ = 0;
  bool enabled_, drawn_ = false;
  std::map<std::string, std::size_t> counts_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace siren::app
