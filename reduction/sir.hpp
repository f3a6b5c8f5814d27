// SIR (DESIGN.md §B4): schedule-insensitivity reduction, MPOR with DEP ∧ SS when extending
// dependency chains. Selected with `--reduction sir` through make_scheduler_constraints.
#pragma once

#include "invariants/transaction_graph.hpp"
#include "ir/points_to.hpp"
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
/// checks). Synchronisation appears here only as a balanced critical section (c or d a Lock,
/// §B9.3: ir::Transactions::balanced); any other is always sensitive.
struct SirPair {
  ir::ThreadId l = 0, i = 0;
  std::uint32_t c = 0, d = 0;
  bool insensitive = false;
};

struct SirAnalysis {
  std::string gave_up;  // why every pair is sensitive ("" if the analysis ran)
  /// Why the pairs with a relevant use are sensitive: no complete transaction graph ("" when
  /// one decided them, or no pair needed one).
  std::string no_graph;
  std::vector<SirPair> pairs;
  std::vector<std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>>> insensitive;  // [l][i]
  std::uint64_t insensitive_pairs = 0, ss_pairs = 0, relevant_conditionals = 0, relevant_shared_vars = 0;
  /// The cells two threads' data transitions access, one writing (what the pairs are over).
  std::uint64_t shared_vars = 0;
  /// Insensitive pairs that no relevant use reads (§B9.4): decided without invariants.
  std::uint64_t irrelevant_pairs = 0;
  /// Insensitive pairs of which one side is a balanced critical section (§B9.3).
  std::uint64_t section_pairs = 0;
  /// The Locks of balanced critical sections and the unlocks transactions carry (the default
  /// transactions, ir::Transactions::balanced, ir::carried_unlocks).
  std::uint64_t balanced_sections = 0, carried_unlocks = 0;
  std::uint64_t analysis_ms = 0;  // graph construction included when it is built here
  std::uint64_t graph_ms = 0;     // the graph built here (0: none was needed or given)
  /// The shared cells of dependent pairs that a relevant conditional reads through a def-use
  /// chain (their names, e.g. "x", "dev.count"), sorted.
  std::vector<std::string> relevant_vars;
};

struct SirOptions {
  /// The points-to analysis the dependence and def-use chains use (its TEST ONLY knob makes a
  /// deliberately unsound SIR, tools/fuzz/broken_reduction.cpp).
  ir::PointsToOptions points_to;
  /// The time limit of the transaction graph built for the pairs a relevant use reads; 0: no
  /// graph (only pairs no relevant use reads are insensitive). The graph tracks only the
  /// variables those uses read (invariants::TgOptions::focus). It is all of SIR's cost on the
  /// drivers, where it never completes: over gdrom's 150 pair harnesses the analysis took
  /// 17.7 s at a 0.5 s limit, 16.7 s of it in graphs, none complete (a graph passes 3000
  /// nodes in 0.5 s and goes on); the graphs that decide pairs on SV-COMP tasks (szymanski)
  /// take 1 ms.
  double graph_seconds = 0.1;
  /// ... and its node limit: every complete graph of the shared SV-COMP tasks has fewer than
  /// 2000 nodes (benchmarks/TG.md); a driver's pair harness passes 200000 in half a second.
  std::size_t graph_nodes = 20'000;
  /// TEST ONLY: a deliberately over-eager relevance (DESIGN.md §B9.7): conditionals (branches,
  /// assumptions, assertions) are no uses, so a pair whose order only a branch or an assertion
  /// observes passes as insensitive.
  bool test_ignore_conditionals = false;
  /// TEST ONLY: the other over-eager variant of §B9.7: every Lock of one known mutex opens a
  /// "balanced critical section", whether or not its transaction releases the mutex again (and
  /// the BMC's own transactions are not asked, ChainFilter::test_unbalanced_sections).
  bool test_unbalanced_sections = false;
};

/// The insensitivity analysis over `graph` (nullptr, or a graph whose transactions run
/// through protected shared accesses: one is built here without them, within 2 s and 256 MB).
/// `built`: where to keep the graph built here (if one is).
SirAnalysis analyse_sir(const ir::ThreadModel& tm, const invariants::TransactionGraph* graph = nullptr,
                        invariants::TransactionGraph* built = nullptr, const SirOptions& o = {});

/// The schedule-insensitive (collapsed) transaction graph of Algorithm 1 steps 10-32, as a
/// view of `graph`: thread t's switch at node m is removed when t's location there starts a
/// data transition that appears in at least one SIR pair and in no SS-pair (either order).
/// Every t-edge into such a node is rewired to the t-successors it leads to (through further
/// such nodes), so t continues without a context switch; nodes no longer reachable from the
/// initial node drop out. Nothing is removed when the analysis gave up.
struct CollapsedGraph {
  std::vector<std::pair<std::size_t, ir::ThreadId>> removed;  // (node, thread): the switch removed (any node)
  std::vector<invariants::TgEdge> edges;                      // live edges (node ids of `graph`)
  std::vector<std::size_t> nodes;                             // nodes reachable from node 0
  std::size_t rewired = 0;                                    // edges made by rewiring
};

CollapsedGraph collapse(const invariants::TransactionGraph& graph, const SirAnalysis& sir);

std::unique_ptr<SchedulerConstraints> make_sir(const ir::ThreadModel& tm, const SirOptions& o = {});

}  // namespace siren::reduction
