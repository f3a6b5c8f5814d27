// The builder of the transaction graph (transaction_graph.hpp, DESIGN.md §B5): one class, split
// over files by concern. The declarations below are grouped under the file that implements them:
//
//   fixpoint.cpp            refinement rounds, node exploration with widening, descending rounds,
//                           the final pass (edges, sliced edges) and publication of the graph
//   clusters.cpp            analysis variables, def-use clusters (packs), widening thresholds,
//                           relevance of shared cells
//   transactions.cpp        switch points (which instructions end a transaction) and the
//                           fixpoint over one transaction's instructions
//   abstract_semantics.cpp  packed-octagon states: expressions, guards (`decide`), assignments,
//                           join / widening, and the transfer function of every instruction
//
// The values (Itv, Lin, AVal) are in linear.hpp, the program facts in program_facts.hpp.
#pragma once

#include "invariants/linear.hpp"
#include "invariants/program_facts.hpp"
#include "invariants/transaction_graph.hpp"
#include "ir/concurrency.hpp"
#include "ir/points_to.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace siren::invariants::detail {

struct TxOut {
  std::int32_t loc = 0;  // pc, kLocFinished
  bool terminated = false;
  std::vector<std::uint32_t> started;  // slots started in this transaction (sorted)
  TgState st;
  std::uint32_t last_pc = 0;
};

struct Sliced {
  std::uint32_t pc;
  bool branch;
};

class Builder {
 public:
  Builder(const ir::ThreadModel& tm, const TgOptions& o, TransactionGraph& g)
      : tm_(tm), o_(o), g_(g), facts_(tm), start_(std::chrono::steady_clock::now()) {}

  // fixpoint.cpp
  void run();

  // clusters.cpp: instead of make_vars, the variables and clusters of a graph built before (for
  // GuardDecider, abstract_semantics.hpp)
  void adopt_vars(const TransactionGraph& g);

  // abstract_semantics.cpp
  int decide(const TgState& s, ThreadId t, ExprRef c);

 private:
  // ---- the graph (fixpoint.cpp) ------------------------------------------------------------
  struct Node {
    std::vector<std::int32_t> locs;
    bool terminated = false;
    TgState inv;
    TgState closed;        // closure of inv when `widened` (inv is closed otherwise)
    bool widened = false;
    unsigned visits = 0;
    bool queued = false;
    const TgState& view() const { return widened ? closed : inv; }
  };

  double elapsed() const;
  void check_limits();
  TgState initial_state() const;
  std::vector<std::int32_t> target_locs(const std::vector<std::int32_t>& locs, ThreadId t, const TxOut& o) const;
  std::size_t node_of(std::vector<Node>& nodes, std::unordered_map<std::string, std::size_t>& index,
                      const std::vector<std::int32_t>& locs, bool term, bool& created);
  void successors(const Node& n, std::vector<std::pair<ThreadId, std::vector<TxOut>>>& res,
                  std::vector<std::uint32_t>* executed);
  void build_graph();
  void publish(std::vector<Node>& nodes, std::vector<TgEdge> edges, std::vector<TgEdge> sliced,
               const std::vector<std::vector<std::uint32_t>>& exec_by_node);

  // ---- variables and clusters (clusters.cpp) -----------------------------------------------
  void make_vars();
  void focus_groups(std::map<int, std::vector<int>>& groups, const std::function<int(int)>& find);
  static std::uint64_t key(ir::ObjectId o, std::uint32_t c);
  int const_cell(ExprRef p) const;
  int local_of(ThreadId t, ir::LocalId l) const;
  void vars_in(ThreadId t, ExprRef e, std::vector<int>& out) const;
  void make_thresholds();
  void compute_relevance();

  // ---- switch points and transactions (transactions.cpp) -----------------------------------
  struct Succ {
    std::int32_t next;  // pc, or kLocFinished / kTerm
    TgState st;
    std::int32_t started = -1;
  };
  static constexpr std::int32_t kTerm = -3;

  void compute_switch_points(const std::vector<std::vector<bool>>& reach);
  void transaction(const std::vector<std::int32_t>& locs, ThreadId t, const TgState& s0, std::vector<TxOut>& outs,
                   std::vector<std::uint32_t>* executed);

  // ---- abstract semantics (abstract_semantics.cpp) -----------------------------------------
  // abstract values
  Itv var_itv(const TgState& s, int v) const;
  Itv lin_itv(const TgState& s, const Lin& l) const;
  AVal unknown(Type t) const;
  AVal make(const TgState& s, Lin l, Type t) const;
  AVal from_itv(Itv i, Type t) const;
  AVal eval(const TgState& s, ThreadId t, ExprRef e);
  // guards
  static bool qbot(const TgState& s);
  void set_bottom(TgState& s) const;
  void apply_le(TgState& s, const Lin& l) const;
  void apply_ne(TgState& s, const Lin& d) const;
  std::optional<Lin> bound_form(const AVal& a, int sign) const;
  void apply_cmp_le(TgState& s, const AVal& a, const AVal& b, W k) const;
  void guard(TgState& s, ThreadId t, ExprRef c, bool pos);
  void cmp(TgState& s, Op op, const AVal& a, const AVal& b) const;
  // the lattice
  TgState join(const TgState& a, const TgState& b) const;
  bool leq(const TgState& a, const TgState& b) const;
  TgState widen(const TgState& raw, const TgState& closed, const TgState& next) const;
  void close(TgState& s) const;
  // assignments
  void assign_var(TgState& s, int v, const AVal& val, Type from) const;
  void havoc_var(TgState& s, int v) const;
  void forget_targets(TgState& s, ThreadId t, ExprRef p) const;
  /// The tracked variables of the cells pointer p of thread t may designate (points-to);
  /// nullopt when it may designate a cell no variable tracks, or anything.
  std::optional<std::vector<int>> target_vars(ThreadId t, ExprRef p) const;
  const ir::PointsTo& points_to() const;
  void store(TgState& s, ThreadId t, ExprRef p, const AVal& val, Type from) const;
  // instructions
  void record_slice(std::uint32_t pc, bool branch);
  void exec(const std::vector<std::int32_t>& locs, const std::vector<std::uint32_t>& started, ThreadId t,
            std::uint32_t pc, const TgState& s, std::vector<Succ>& out);

  const ir::ThreadModel& tm_;
  const TgOptions& o_;
  TransactionGraph& g_;
  Facts facts_;
  std::chrono::steady_clock::time_point start_;
  std::vector<TgVar> vars_;
  std::vector<TgCluster> clusters_;
  std::unordered_map<std::uint64_t, int> cell_var_;
  std::vector<std::vector<int>> local_var_;
  std::vector<std::int64_t> thresholds_;
  std::size_t state_bytes_ = 0;
  std::vector<bool> shared_obj_;
  std::vector<std::vector<bool>> switch_;
  std::vector<std::vector<std::optional<std::set<std::uint64_t>>>> locks_;  // must-locksets [thread][pc]
  std::vector<ir::CreateJoinOrder> order_;                                 // [thread]
  std::vector<std::vector<bool>> executed_;
  mutable std::optional<ir::PointsTo> pts_;  // made when first needed
  std::vector<Sliced>* slices_ = nullptr;
  unsigned decide_depth_ = 0;
};

}  // namespace siren::invariants::detail
