// Scheduler reductions as constraints over the interleaved BMC's scheduler variables
// (DESIGN.md §B2: "With no reduction, SCH = true. MPOR and SIR only add conjuncts to SCH").
//
// The encoder (encoder/transition.cpp) calls add_frame() once per time frame k, after frame k's
// scheduler variable sel^k and state V^k exist and before the transition V^k -> V^{k+1} is
// asserted. An implementation returns Bool terms over sel^0..sel^k and the state terms the
// encoder exposes through FrameView; the encoder asserts their conjunction permanently.
// Reductions therefore only remove interleavings; the property is checked at every depth, so
// prefixes they leave non-extendable are still covered (§B8 item 6).
#pragma once

#include "ir/thread_model.hpp"
#include "ir/transactions.hpp"
#include "solvers/term.hpp"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace siren::reduction {

/// What the encoder exposes about time frame k.
struct FrameView {
  unsigned frame = 0;
  solvers::Term sel = nullptr;            // bit-vector: the thread that moves in frame k
  /// `sel^k = number of threads`: frame k is an idle step (nothing changes). Idle steps are
  /// absorbing (once idle, every later frame is idle), so a model of depth K stands for every
  /// execution of at most K steps. A reduction must leave idle allowed after any prefix.
  solvers::Term idle = nullptr;
  std::vector<solvers::Term> pc;          // [thread] program counter at frame k
  std::vector<solvers::Term> enabled;     // [thread] Bool: the thread can make its step
  /// [thread] Bool: the thread owns the atomic section in frame k (its step continues an
  /// atomic block that began earlier). Empty: no thread does.
  std::vector<solvers::Term> holds_atomic;
  /// [thread] the pcs the thread may be at in frame k (the others need not be encoded); empty
  /// vector (not filled): every pc.
  std::vector<std::vector<std::uint32_t>> reach;
  /// `sel^k = t` (hash-consed, cheap to call repeatedly).
  std::function<solvers::Term(ir::ThreadId)> selected;
  /// `sel^k = t ∧ pc_t^k = i`: thread t executes instruction i in frame k.
  std::function<solvers::Term(ir::ThreadId, std::uint32_t)> executes;
  /// Value of an expression of thread t's code in the state of frame k (e.g. an address).
  std::function<solvers::Term(ir::ThreadId, ir::ExprRef)> eval;
  /// Transaction frames (ir/transactions.hpp): a frame runs a whole transaction, which
  /// starts at pc. Its accesses are its first instruction's, plus, for a merged atomic
  /// region (tx->atomic_regions), the whole region's. Null: one instruction per frame.
  const ir::Transactions* tx = nullptr;
};

class SchedulerConstraints {
 public:
  virtual ~SchedulerConstraints() = default;
  virtual std::string name() const = 0;
  /// Called for k = 0, 1, 2, ... in order; `frames[k]` is the current frame (earlier frames
  /// stay valid). Returns conjuncts to add to SCH(V^k).
  virtual std::vector<solvers::Term> add_frame(solvers::TermManager& terms,
                                               const std::vector<FrameView>& frames) = 0;
  /// Size statistics (name, value) for `siren check --json` `stats`.
  virtual std::vector<std::pair<std::string, std::uint64_t>> stats() const { return {}; }
  /// Textual facts (name, text) for the same `stats` (e.g. why SIR gave up).
  virtual std::vector<std::pair<std::string, std::string>> text_stats() const { return {}; }
};

/// "none" (no reduction), "mpor" (reduction/mpor.hpp), "sir" (reduction/sir.hpp). Returns nullptr for an unknown name.
std::unique_ptr<SchedulerConstraints> make_scheduler_constraints(const std::string& name,
                                                                 const ir::ThreadModel& tm);

/// Names make_scheduler_constraints accepts.
std::vector<std::string> scheduler_constraint_names();

/// Makes a reduction for a thread model.
using ReductionMaker = std::function<std::unique_ptr<SchedulerConstraints>(const ir::ThreadModel&)>;

/// TEST ONLY: makes `name` a reduction make_scheduler_constraints accepts, without listing it in
/// scheduler_constraint_names() (which `siren check` checks its --reduction against). Tools and
/// tests register deliberately broken reductions this way (tools/fuzz/broken_reduction.cpp),
/// to show that their oracles catch them; no product code registers one.
void register_test_reduction(const std::string& name, ReductionMaker make);

}  // namespace siren::reduction
