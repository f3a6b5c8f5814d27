// The concrete interpreter: executes a ThreadModel under a given schedule and given nondet
// values, exactly as docs/semantics.md says. Independent of the encoder and the solvers by
// construction; every UNSAFE trace is replayed through it before it is printed.
#pragma once

#include "ir/thread_model.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace siren::ir {

/// A value in a cell or local: bits (normalized for its type); pointers also carry obj.
struct Value {
  std::uint64_t bits = 0;
  ObjectId obj = 0;
  friend bool operator==(const Value&, const Value&) = default;
};

struct ThreadState {
  std::uint32_t pc = 0;         // index into ThreadCode::code
  bool started = false;         // main starts started
  bool finished = false;
  std::vector<Value> locals;
  Value retval;
  friend bool operator==(const ThreadState&, const ThreadState&) = default;
};

struct State {
  std::vector<std::vector<Value>> memory;  // [object][cell]
  std::vector<bool> live;                  // [object]
  std::vector<bool> allocated;             // [object] heap: its Malloc has executed (stays true after free)
  std::vector<ThreadState> threads;
  std::uint32_t atomic = 0;                // 0 or owner thread id + 1
  bool terminated = false;
  bool operator==(const State&) const = default;
};

/// One step of a schedule: which thread moves, and the values its Havoc (if any) produces
/// and the values given to init_nondet cells of objects made live in this step.
struct Step {
  ThreadId thread = 0;
  std::vector<Value> nondet;  // consumed in order by the instruction (Havoc: one value)
  friend bool operator==(const Step&, const Step&) = default;
};

enum class StepOutcome {
  Ok,          // executed
  NotEnabled,  // the thread cannot move (not started, finished, blocked, atomic held by another, terminated)
  Error,       // an Assert failed: see error_kind / error_message
};

struct StepResult {
  StepOutcome outcome = StepOutcome::Ok;
  AssertKind error_kind = AssertKind::Property;
  std::string error_message;
  LimitKind error_limit = LimitKind::None;  // the model limit the error is (Instr::limit)
  SourceLoc loc;  // location of the executed instruction
};

class Interpreter {
 public:
  explicit Interpreter(const ThreadModel& tm);
  /// The initial state; `initial_nondet` gives values to init_nondet cells in (object, cell)
  /// order (missing values default to 0).
  State initial_state(const std::vector<Value>& initial_nondet = {}) const;
  /// Can thread `t` move in `s`? (Ignores nondet choices: Havoc is always enabled.)
  bool enabled(const State& s, ThreadId t) const;
  /// Executes one step in place. On NotEnabled the state is unchanged.
  StepResult step(State& s, const Step& step) const;
  /// Evaluates an expression of thread `t`'s code in `s` (semantics.md).
  Value eval(const State& s, ThreadId t, ExprRef e) const;
  std::string format_value(const Value& v, Type t) const;
  /// Converts a value between scalar types with mk_convert's rules (semantics.md).
  static Value convert(Type from, Type to, const Value& v);
  /// The cell that pointer `p` designates in `s`: p's object is live and p's byte offset is
  /// the start of one of its cells that an access of `bytes` bytes fits (Cell::fits; 0: any).
  /// ValidPtr(p, bytes) holds iff this is set (docs/semantics.md, "Memory").
  std::optional<std::uint32_t> cell_of(const State& s, const Value& p, std::uint32_t bytes = 0) const;
  bool valid_ptr(const State& s, const Value& p, std::uint32_t bytes = 0) const {
    return cell_of(s, p, bytes).has_value();
  }

 private:
  const ThreadModel& tm_;
};

/// Replays a whole schedule from the initial state. Result: the outcome of the last executed
/// step (Error if an assertion failed at the last step; NotEnabled at the first step that
/// could not execute, with `steps_done` telling which).
struct ReplayResult {
  StepResult last;
  std::size_t steps_done = 0;
  State final_state;
};
ReplayResult replay(const ThreadModel& tm, const std::vector<Value>& initial_nondet,
                    const std::vector<Step>& schedule);

}  // namespace siren::ir
