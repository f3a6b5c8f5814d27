// The progress bar of `siren triage` (triage_progress.hpp).
#include "apps/siren/triage_progress.hpp"

#include "race/triage_batch.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace siren::app {

TriageProgress::TriageProgress(std::size_t total, bool enabled) : total_(total), enabled_(enabled) {}

void TriageProgress::answered(const std::string& verdict) {
  ++done_;
  ++counts_[verdict];
  draw();
}

void TriageProgress::set(const std::map<std::string, std::size_t>& counts) {
  counts_ = counts;
  done_ = 0;
  for (const auto& [v, n] : counts) done_ += n;
  draw();
}

void TriageProgress::draw() {
  if (!enabled_) return;
  const int width = 30;
  const std::size_t done = std::min(done_, total_);
  const int fill = total_ ? static_cast<int>(width * done / total_) : width;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string mix;
  for (const char* v : race::kTriageVerdicts)
    if (auto it = counts_.find(v); it != counts_.end() && it->second)
      mix += fmt::format("{}{} {}", mix.empty() ? " (" : ", ", v, it->second);
  if (!mix.empty()) mix += ")";
  std::string eta = "ETA -";
  if (done > 0 && done < total_) eta = fmt::format("ETA {:.0f} s", secs / done * (total_ - done));
  else if (done >= total_) eta = "done";
  std::fprintf(stderr, "\r[%s%s] %zu/%zu warnings%s  %.1f s, %s\033[K", std::string(fill, '#').c_str(),
               std::string(width - fill, ' ').c_str(), done, total_, mix.c_str(), secs, eta.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void TriageProgress::finish() {
  if (drawn_) std::fprintf(stderr, "\n");
  drawn_ = false;
}

}  // namespace siren::app
