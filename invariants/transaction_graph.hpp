// The transaction graph with octagon invariants (DESIGN.md §B5, seed Algorithm 1 steps 1–9).
//
// Nodes are tuples of per-thread locations (a pc of the thread-model code, or NOTSTARTED /
// FINISHED) plus the `terminated` flag; an edge is a *transaction*: one thread runs from its
// location through every instruction that cannot interfere with another thread (thread-local
// instructions, accesses to objects only one thread touches, whole atomic sections, and shared
// accesses that no conflicting access can run beside: a common must-held lock or create/join
// order keeps them apart, ir/concurrency.hpp) until it reaches its next visible instruction (a
// switch point), finishes or terminates the program.
//
// Soundness first [design]: at every node all threads that can move are expanded (no ample
// sets), so every reachable concrete state whose threads all stand at switch points is
// represented by the node of its location tuple, and the invariant of that node
// over-approximates it (§B8.1). The partial-order reduction of §B5 step 1 is done statically,
// as transaction boundaries: merging non-interfering instructions into transactions
// (Lipton-style movers; locks, creates and joins are always switch points, so a lock held at a
// protected access has been held since its transaction's first step). Further reduction comes
// from slicing edges whose guards are infeasible under the invariant and from iterating (§B5
// step 9): after slicing, objects whose remaining accesses belong to one thread become
// private, so transactions grow.
//
// Abstract states are *packed* octagons: variables (shared data cells, every thread's integer
// locals) are clustered by def-use chains (§B5 "Clustering") and each cluster has its own
// octagon. Synchronisation (mutex cells, create counters) is data in the octagon, so lock
// guards are checked like any other guard; create/join order comes from the location tuple.
//
// Steps 10–32 (SS-Pairs and the collapsed graph) are in reduction/sir.hpp.
#pragma once

#include "invariants/octagon.hpp"
#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace siren::invariants {

struct TgOptions {
  std::size_t max_nodes = 200'000;        // give up (complete = false) beyond this many nodes
  std::size_t max_state_bytes = std::size_t{768} << 20;  // ... or this much invariant storage
  unsigned widening_delay = 3;            // joins at a node/pc before widening kicks in
  unsigned max_refinements = 4;           // rounds of step 9 (re-slicing with fewer switch points)
  unsigned descending_rounds = 2;         // narrowing-like recomputations after the fixpoint
  unsigned max_pack_vars = 16;            // larger clusters are split (sound, less precise)
  double time_limit_seconds = 0;          // 0 = none; otherwise complete = false when exceeded
  std::size_t min_room_nodes = 0;         // give up at once when fewer nodes fit in max_state_bytes
  /// An access of a shared object that no conflicting access of another thread can run beside
  /// (a common must-held lock, or create/join order) is no switch point: transactions run
  /// through it (DESIGN.md B5 step 1).
  bool lockset_transactions = true;
  /// Non-empty: only the variables that share a def-use cluster (before max_pack_vars cuts it)
  /// with a variable these instructions (thread, pc) read or write are tracked; every other
  /// variable is unknown everywhere (sound: an untracked variable is never constrained, a guard
  /// over one is never sliced). SIR asks for the conditionals its pending pairs need only.
  std::vector<std::pair<ir::ThreadId, std::uint32_t>> focus;
};

/// Per-thread location in a node.
inline constexpr std::int32_t kLocNotStarted = -1;
inline constexpr std::int32_t kLocFinished = -2;

struct TgVar {
  enum Kind : std::uint8_t { Cell, Local };
  Kind kind = Cell;
  std::string name;         // "sh", "a[2]", "main::taken#1", "t2#1::k#3"
  ir::Type type;
  ir::ObjectId obj = 0;     // Cell
  std::uint32_t cell = 0;   // Cell
  ir::ThreadId thread = 0;  // Local
  ir::LocalId local = 0;    // Local
  int pack = 0;             // cluster index
  int index = 0;            // index inside the cluster's octagon
};

struct TgCluster {
  std::vector<int> vars;      // indices into TransactionGraph::vars (octagon order)
  std::vector<int> relevant;  // shared cells with a def-use chain from a write to a conditional
};

/// An abstract state: one octagon per cluster.
struct TgState {
  std::vector<Octagon> packs;
  bool is_bottom() const;
};

struct TgNode {
  std::vector<std::int32_t> locs;  // per thread: pc, kLocNotStarted or kLocFinished
  bool terminated = false;
  TgState inv;
};

struct TgEdge {
  std::size_t src = 0;
  std::size_t dst = kNoNode;      // kNoNode for a sliced edge
  ir::ThreadId thread = 0;
  std::uint32_t first_pc = 0;     // the transaction's first instruction
  std::uint32_t last_pc = 0;      // its last instruction (sliced: the guard found infeasible)
  bool sliced = false;            // the guard at last_pc is ⊥ under the invariant of src
  bool branch = false;            // sliced: the branch outcome that is infeasible
  static constexpr std::size_t kNoNode = std::numeric_limits<std::size_t>::max();
};

struct TransactionGraph {
  std::vector<TgVar> vars;
  std::vector<TgCluster> clusters;
  std::vector<TgNode> nodes;   // nodes[0] is the initial node
  std::vector<TgEdge> edges;   // live edges, then sliced ones
  /// switch[t][pc]: a node location of thread t (visible instruction, entry, after create).
  std::vector<std::vector<bool>> switch_points;
  std::vector<std::string> shared_objects;  // objects still touched by more than one thread
  bool complete = true;        // false: a limit was hit; the invariants are NOT sound then
  std::string incomplete_reason;
  unsigned rounds = 0;         // graph constructions (1 + refinements that changed something)
  double seconds = 0;          // construction time
  std::size_t sliced_edges = 0;
  bool lockset_transactions = false;        // built with TgOptions::lockset_transactions
  std::size_t protected_accesses = 0;  // shared accesses no switch point for that reason
                                            // (locks or create/join order)

  std::optional<std::size_t> find(const std::vector<std::int32_t>& locs, bool terminated) const;
  std::unordered_map<std::string, std::size_t> index;  // key of (locs, terminated) -> node
};

TransactionGraph build_transaction_graph(const ir::ThreadModel& tm, const TgOptions& options = {});

/// Node label: `main:fig1.c:25 t2#1:fig1.c:12` (`-` not started, `done` finished).
std::string node_label(const TransactionGraph& g, const ir::ThreadModel& tm, std::size_t node);
/// `file:line` of thread t's instruction pc (basename), "done" past its end.
std::string source_label(const ir::ThreadModel& tm, ir::ThreadId t, std::uint32_t pc);
/// The invariant of a node as readable constraints, clusters joined by ", " ("top" if none).
std::string invariant_string(const TransactionGraph& g, std::size_t node);
/// The interval of a variable (by name) at a node; nullopt if no such variable.
std::optional<Interval> interval_of(const TransactionGraph& g, std::size_t node, const std::string& var);

enum class StateCheck {
  Holds,      // the state is at a node and satisfies its invariant
  Violated,   // the state is at a node and violates its invariant (unsound!)
  NoNode,     // every thread is at a node location but the tuple is missing (unsound!)
  NotAtNode,  // some thread is inside a transaction: the graph claims nothing
};
/// Checks a concrete interpreter state against the invariant of its product node.
StateCheck check_state(const TransactionGraph& g, const ir::ThreadModel& tm, const ir::State& s,
                       std::string* why = nullptr);
inline bool satisfies(const TransactionGraph& g, const ir::ThreadModel& tm, const ir::State& s) {
  const StateCheck c = check_state(g, tm, s);
  return c == StateCheck::Holds || c == StateCheck::NotAtNode;
}

}  // namespace siren::invariants
