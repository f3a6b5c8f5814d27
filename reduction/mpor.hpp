// MPOR (DESIGN.md §B3): monotonic partial order reduction as scheduler constraints.
// Selected with `--reduction mpor` through make_scheduler_constraints.
#pragma once

#include "reduction/scheduler_constraints.hpp"

namespace siren::reduction {

std::unique_ptr<SchedulerConstraints> make_mpor(const ir::ThreadModel& tm);

/// MPOR whose chains are not extended through some location pairs (SIR, DESIGN.md §B4:
/// DEP_li ∧ SS_li). `insensitive[l][i]` lists pairs (c, d): when the last step of thread l was
/// at location c (latched lpc_l) and thread i now executes d, the step does not extend a
/// dependency chain from l. Empty `insensitive`: plain MPOR.
struct ChainFilter {
  std::string name;  // reduction name ("sir")
  std::vector<std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>>> insensitive;  // [l][i]
  /// TEST ONLY: a pair whose c or d is a Lock (a balanced critical section, DESIGN.md §B9.3)
  /// applies to every frame, also where the frame's transactions (FrameView::tx) do not make it
  /// a balanced section (instruction frames, a race query's boundaries): SirOptions::
  /// test_unbalanced_sections.
  bool test_unbalanced_sections = false;
  std::vector<std::pair<std::string, std::uint64_t>> stats;  // appended to stats()
  std::vector<std::pair<std::string, std::string>> text_stats;  // text_stats()
};
std::unique_ptr<SchedulerConstraints> make_mpor_filtered(const ir::ThreadModel& tm, ChainFilter filter);

}  // namespace siren::reduction
