// SIR (DESIGN.md §B4): schedule-insensitivity reduction, MPOR with DEP ∧ SS when extending
// dependency chains. Selected with `--reduction sir` through make_scheduler_constraints.
#pragma once

#include "invariants/transaction_graph.hpp"
#include "reduction/mpor.hpp"
#include "reduction/scheduler_constraints.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace siren::reduction {

/// A pair of dependent data transitions of two threads: the last transition of thread l
/// started at location c, thread i's transition starts at d. Insensitive: the static check of
/// §B5 (across every node where a conditional is scheduled) succeeded, so the pair extends no
/// dependency chain; otherwise it is an SS-pair (Clarification 2: pairs come from failed
/// checks). Synchronisation never appears here: it is always sensitive.
struct SirPair {
  ir::ThreadId l = 0, i = 0;
  std::uint32_t c = 0, d = 0;
  bool insensitive = false;
};

struct SirAnalysis {
  std::string gave_up;  // why every pair is sensitive ("" if the analysis ran)
  std::vector<SirPair> pairs;
  std::vector<std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>>> insensitive;  // [l][i]
  std::uint64_t insensitive_pairs = 0, ss_pairs = 0, relevant_conditionals = 0, relevant_shared_vars = 0;
  std::uint64_t analysis_ms = 0;  // graph construction included when it is built here
};

/// The insensitivity analysis over `graph` (nullptr: built here, within 2 s and 256 MB).
SirAnalysis analyse_sir(const ir::ThreadModel& tm, const invariants::TransactionGraph* graph = nullptr);

std::unique_ptr<SchedulerConstraints> make_sir(const ir::ThreadModel& tm);

}  // namespace siren::reduction
