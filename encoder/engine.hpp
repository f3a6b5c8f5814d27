// The interleaved BMC engine (DESIGN.md §B2), one class split over files by concern:
//   state.cpp          state variables V^k per time frame, the initial state I(V^0)
//   expr_encoder.cpp   ir::Expr -> solver terms: pointers as (object, offset) bit-vectors,
//                      loads as ITEs over candidate cells, C conversions
//   transition.cpp     scheduler variable sel^k, enabledness, error terms, and the one frame
//                      condition per state variable (V^k -> V^{k+1})
//   trace.cpp          model -> schedule + nondet values -> ir::replay -> trace rows
//   bmc.cpp            the deepening loop: property at every depth, completeness, limits
// Only docs/semantics.md defines what the terms mean; the concrete interpreter implements the
// same text and replays every counterexample.
#pragma once

#include "encoder/bmc.hpp"
#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"
#include "ir/transactions.hpp"
#include "reduction/scheduler_constraints.hpp"
#include "solvers/decision_procedure.hpp"
#include "solvers/term.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace siren::encoder {

using solvers::Sort;
using solvers::Term;

/// The state V^k: every entry is a constant, an input variable, or a variable defined equal
/// to its frame condition (so term depth stays bounded whatever K is).
struct State {
  std::vector<Term> pc;                     // [thread] bv; code.size() = finished
  std::vector<Term> started;                // [thread] Bool
  std::vector<Term> retval;                 // [thread] pointer
  std::vector<std::vector<Term>> locals;    // [thread][local]
  std::vector<std::vector<Term>> cells;     // [object][cell]
  std::vector<Term> live;                   // [object] Bool (true for non-heap objects)
  std::vector<Term> allocated;              // [object] Bool: heap site executed (else null)
  Term atomic = nullptr;                    // bv: 0 or owner + 1
  Term terminated = nullptr;                // Bool
};

/// A place where an execution can reach an error in frame k.
struct ErrorSite {
  ir::ThreadId thread = 0;
  std::uint32_t pc = 0;
  ir::AssertKind kind = ir::AssertKind::Property;
  std::string message;
  ir::LimitKind limit = ir::LimitKind::None;  // the model limit it is (ir::Instr::limit)
  Term term = nullptr;  // Bool over V^k: this error is reached by thread `thread`'s next step
};

/// The UNKNOWN reason of a reachable MemSafety / Limit error site (ir::error_reason).
inline ir::ErrorReason error_reason(const ir::ThreadModel& tm, const ErrorSite& site) {
  const ir::Instr& in = tm.threads[site.thread].code[site.pc];
  return ir::error_reason(site.kind, tm.where(in.loc), site.message.empty() ? in.text : site.message, site.limit);
}

/// Values of some locals of one thread that differ from V^k (sorted by local): the locals part
/// of a state inside a transaction (ir/transactions.hpp), which writes nothing else after its
/// first instruction.
using LocalOverlay = std::vector<std::pair<ir::LocalId, Term>>;
/// Values of memory cells that differ from V^k, keyed (object << 32 | cell), sorted: the
/// memory a transaction has written so far (its first instruction's stores, and a merged
/// atomic region's, ir/transactions.hpp).
using CellOverlay = std::vector<std::pair<std::uint64_t, Term>>;

/// Transaction frames: a way out of thread t's transaction to its next boundary.
struct TxExit {
  Term guard = nullptr;  // Bool over V^k: thread t's transaction takes this way (as if selected)
  std::uint32_t target = 0;
  LocalOverlay locals;   // t's locals at the exit
  CellOverlay cells;     // memory the transaction wrote
  Term atomic = nullptr; // `atomic` at the exit when the transaction changed it
};

/// Transaction frames: an instruction after the first of a transaction of thread t.
struct TxNode {
  std::uint32_t pc = 0;
  Term guard = nullptr;  // Bool over V^k: the transaction executes it (as if selected)
  Term havoc = nullptr;  // a Havoc's input variable for this frame
};

/// Frame k: the scheduler choice, the nondet inputs of the step, and guards over V^k.
struct Frame {
  Term sel = nullptr;        // 0..n-1: the thread that moves; n: idle (absorbing)
  Term idle = nullptr;       // sel^k = n
  Term havoc_int = nullptr;  // 64-bit value for a Havoc of a bool/int local (if any)
  Term havoc_ptr = nullptr;  // pointer value for a Havoc of a pointer local (if any)
  std::vector<std::vector<std::uint32_t>> reach;  // [thread] pcs possible at frame k
  std::vector<Term> selected;                      // [thread] sel^k = t
  std::vector<std::unordered_map<std::uint32_t, Term>> at;  // [thread][pc] sel=t ∧ pc=i
  std::vector<Term> base_enabled;  // [thread] started ∧ ¬finished ∧ ¬terminated ∧ atomic ok
  std::vector<Term> can_move;      // [thread] some step (possibly a failing assert) exists
  std::vector<Term> enabled;       // [thread] a step that does not fail exists
  std::vector<ErrorSite> errors;
  Term bad_property = nullptr;
  Term bad_other = nullptr;        // MemSafety / Limit
  Term any_can_move = nullptr;
  // Transaction frames only (Engine::tx):
  std::vector<std::vector<TxExit>> exits;  // [thread]
  std::vector<std::vector<TxNode>> tail;   // [thread] in the order the transaction runs them
};

class Engine {
 public:
  Engine(const ir::ThreadModel& tm, solvers::TermManager& terms,
         solvers::DecisionProcedure& dp, reduction::SchedulerConstraints& sch);

  // --- state.cpp ---
  void make_initial_state();
  Sort sort_of(ir::Type t) const;
  Term zero(ir::Type t);
  /// Restricts a pointer input to the null object or an object pointers may designate.
  void constrain_pointer_input(Term p);

  // --- expr_encoder.cpp ---
  Term encode(ir::ThreadId t, ir::ExprRef e, unsigned k);
  /// The same over V^k with thread t's locals as `locals` says (inside a transaction);
  /// `cache` belongs to that one state.
  Term encode_in(ir::ThreadId t, ir::ExprRef e, unsigned k, const LocalOverlay& locals,
                 std::unordered_map<ir::ExprRef, Term>& cache, const CellOverlay* cells = nullptr);
  Term convert(ir::Type from, ir::Type to, Term v);
  Term mk_ptr(Term obj, Term off);
  Term ptr_obj(Term p);
  Term ptr_off(Term p);
  Term ptr_to_int(Term p, unsigned width);
  Term obj_const(ir::ObjectId o);
  /// Objects a pointer expression may designate (besides the null object).
  const std::vector<ir::ObjectId>& candidates(ir::ExprRef p);
  struct Target {
    ir::ObjectId obj;
    std::uint32_t cell;
    Term hit;  // Bool: the pointer designates this cell and the object is live
  };
  std::vector<Target> targets(Term p, const std::vector<ir::ObjectId>& cands, const State& s);
  /// A synchronization cell read as a signed integer of its width, sign-extended to 64 bits
  /// (how the interpreter reads mutex / rwlock cells).
  Term sync_read(const Target& tg, const State& s);
  Term load(ir::Type type, Term p, const std::vector<ir::ObjectId>& cands, const State& s,
            const CellOverlay* cells = nullptr);
  /// The value of cell (o, c): from `cells` if it holds one, else from s.
  static Term cell_value(const State& s, const CellOverlay* cells, ir::ObjectId o, std::uint32_t c);
  /// Bool: offset `off` (32 bits) starts a cell of object `o` that an access of `bytes` bytes
  /// fits (ir::Cell::fits; 0: any size).
  Term cell_start(ir::ObjectId o, Term off, std::uint32_t bytes);

  // --- transition.cpp ---
  void build_frame(unsigned k);      // sel^k and the guards of frame k over V^k
  void add_transition(unsigned k);   // asserts SCH(V^k), builds V^{k+1}
  /// The local of thread t that instruction i writes (its lhs), with the value, over V^k; the
  /// writes to other threads' locals (a created thread's parameter) are not included.
  std::optional<std::pair<ir::LocalId, Term>> own_write(ir::ThreadId t, std::uint32_t i, unsigned k);
  /// TryLock at instruction i of thread t: the lock is free in V^k.
  Term trylock_free(ir::ThreadId t, std::uint32_t i, unsigned k);

  // --- transaction.cpp (transaction frames) ---
  struct FirstStep {
    std::uint32_t pc;
    Term ok;  // Bool over V^k: the thread can move and its first instruction does not fail
  };
  /// Frame k's transactions of thread t that start with `firsts`: their exits, later
  /// instructions and errors (into frames[k]).
  void encode_transactions(unsigned k, ir::ThreadId t, const std::vector<FirstStep>& firsts,
                           std::vector<Term>& bad_property, std::vector<Term>& bad_other);
  /// Boundaries a transaction of thread t from boundary b can end at.
  const std::vector<std::uint32_t>& tx_targets(ir::ThreadId t, std::uint32_t b);

  // --- trace.cpp ---
  /// Schedule and nondet inputs of the model of `Φ_k ∧ bad^k` (the error step is step k+1,
  /// taken by the thread of `error_site`), replayed: fills `result` (trace or internal error).
  void extract_trace(unsigned k, const ErrorSite& error_site, CheckResult& result);
  /// The schedule of the model's frames 0..k-1 (up to the first idle frame), one ir::Step per
  /// instruction, with its nondet inputs. False (and `why`) when the model is out of range.
  bool schedule_of(unsigned k, std::vector<ir::Step>& out, std::string& why);
  /// The steps of thread t's transaction in frame k up to (not including) instruction
  /// `stop` (or all of it: stop = ~0u), from the model.
  bool transaction_steps(unsigned k, ir::ThreadId t, std::uint32_t stop, std::vector<ir::Step>& out,
                         std::string& why);
  /// One step of thread t at instruction pc in frame k, with its nondet inputs.
  ir::Step step_at(unsigned k, ir::ThreadId t, std::uint32_t pc, Term tail_havoc = nullptr);
  ir::Value model_value(Term t, ir::Type type);

  const ir::ThreadModel& tm;
  solvers::TermManager& terms;
  solvers::DecisionProcedure& dp;
  reduction::SchedulerConstraints& sch;

  unsigned obj_bits = 1, ptr_bits = 33, sel_bits = 1, atomic_bits = 1;
  std::vector<unsigned> pc_bits;            // [thread]
  std::vector<ir::ObjectId> pointees;       // objects whose address may be held in a value
  std::vector<std::vector<Term>> nondet_init;  // [object][cell] frame-0 input (or null)
  std::vector<State> states;                // V^0 .. V^k
  std::vector<Frame> frames;                // frame 0 .. k
  std::vector<reduction::FrameView> views;  // for the scheduler reduction
  bool has_int_havoc = false, has_ptr_havoc = false;
  bool absorbing_idle = false;  // CheckOptions::deepening "geometric"
  /// Transaction frames (CheckOptions::granularity "transaction"): one frame runs one
  /// transaction of the selected thread. Null: one instruction per frame.
  const ir::Transactions* tx = nullptr;

 private:
  void compute_pointees();
  std::unordered_map<ir::ExprRef, std::vector<ir::ObjectId>> cand_cache_;
  /// The offsets of the cells of an object that an access of some size fits (cell_start):
  /// `starts` when listed one by one; else the cells from `first` to `last` repeat every
  /// `period` bytes, starting at `first` + each of `phase`. Computed once per (object, size).
  struct CellStarts {
    std::vector<std::uint64_t> starts;
    std::uint64_t first = 0, last = 0, period = 0;
    std::vector<std::uint64_t> phase;
  };
  const CellStarts& cell_starts(ir::ObjectId o, std::uint32_t bytes);
  std::map<std::pair<ir::ObjectId, std::uint32_t>, CellStarts> cell_starts_;
  std::vector<std::unordered_map<ir::ExprRef, Term>> enc_cache_;  // [thread], frame cache_k_
  unsigned cache_k_ = ~0u;
  std::vector<std::unordered_map<std::uint32_t, std::vector<std::uint32_t>>> tx_targets_;  // [thread][b]
  std::vector<std::vector<std::uint32_t>> tx_order_;  // [thread] non-boundaries, in an order edges respect
};

unsigned bits_for(std::uint64_t max_value);

}  // namespace siren::encoder
