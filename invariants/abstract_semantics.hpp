// The transaction graph's guard semantics, for modules that use a built graph (DESIGN.md §B5):
// whether a condition of a thread holds in every state, or in no state, of a node's invariant,
// decided exactly as the graph decides its own guards (abstract_semantics.cpp): the invariant is
// met with the condition and with its negation over packed octagons, linear forms and intervals,
// through ¬, ∧, ∨, comparisons, casts and Ite; either meet being ⊥ decides it.
#pragma once

#include "invariants/transaction_graph.hpp"

#include <memory>

namespace siren::invariants {

namespace detail {
class Builder;
}

/// The guard semantics over the variables and clusters of a graph built for `tm` (both must
/// outlive the decider). Not thread-safe: one decider per thread.
class GuardDecider {
 public:
  GuardDecider(const ir::ThreadModel& tm, const TransactionGraph& g);
  ~GuardDecider();
  GuardDecider(const GuardDecider&) = delete;
  GuardDecider& operator=(const GuardDecider&) = delete;

  /// 1: the condition `c` (an expression of thread `t`) holds in every state of `s`, 0: in none
  /// (also when `s` is ⊥), -1: unknown. `s` is a state of the graph, e.g. a node's invariant.
  int decide(const TgState& s, ir::ThreadId t, ir::ExprRef c);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace siren::invariants
