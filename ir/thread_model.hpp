// The thread model: from an ir::Program to the finite set of thread instances the checkers
// execute (docs/semantics.md, "Threads"). Calls are inlined, pthread_create call sites get
// instance slots, condition waits are lowered, and the result is self-contained: it has its
// own expression manager and its own object table (globals, one copy of every address-taken
// local per inlined activation, heap sites per instance, hidden objects).
#pragma once

#include "ir/program.hpp"

#include <memory>
#include <string>
#include <vector>

namespace siren::ir {

using ThreadId = std::uint32_t;

struct ThreadCode {
  ThreadId id = 0;
  std::string name;                 // "main", "thread1#1", "t2#2"
  FunctionId start = kNoFunction;   // start routine in the source Program (main for 0)
  std::vector<LocalVar> locals;     // all locals after inlining (names made unique)
  LocalId param = kNoLocal;         // the start routine's void* parameter (kNoLocal for main)
  std::vector<Instr> code;          // no Call/Return/CondWait/Skip; Goto targets index into code
  // The last instruction is always ThreadExit (or Abort for main).
};

struct ThreadModelOptions {
  unsigned max_threads = 8;     // --threads: total thread instances including main
  unsigned max_recursion = 4;   // --recursion: inlining depth of a recursive call chain
  /// A create site whose instances are used up blocks (an Assume) instead of failing (an
  /// Assert[Limit]): the model's executions are then exactly the executions of the program with
  /// at most max_threads threads, each cut where one more thread would be created
  /// (ThreadModel::thread_bound; `siren check`'s bounded answers, issue 22).
  bool block_at_thread_limit = false;
  /// Objects per `malloc` call site on a CFG cycle: the site's i-th execution allocates its
  /// i-th copy of the object, one more execution than that is an Assert[Limit] ("heap: malloc
  /// site executed more than N times"). 1: one object, the execution after it fails in the
  /// Malloc itself ("heap: call site executed more than once"). check and race grow it after
  /// an UNKNOWN at that limit (ir::LimitKind::HeapSlots).
  unsigned heap_slots = 1;
};

class ThreadModel {
 public:
  ThreadModel();
  ThreadModel(ThreadModel&&) noexcept;
  ThreadModel& operator=(ThreadModel&&) noexcept;
  ~ThreadModel();

  ExprManager& exprs() { return *exprs_; }
  const ExprManager& exprs() const { return *exprs_; }
  /// Builds new expressions beside the model's own. The manager is hash-consed and only grows:
  /// a new node never changes an existing one, so analyses that hold the model by const&
  /// (MPOR's summaries, SIR's substitutions) may build expressions without changing the model.
  ExprManager& expr_builder() const { return *exprs_; }

  std::vector<std::string> files;
  std::vector<Object> objects;      // objects[0] is null
  std::vector<ThreadCode> threads;  // threads[0] is main
  /// True when some create site has fewer slots than it could use or recursion was cut:
  /// the corresponding Assert[Limit] instructions exist in the code.
  bool limited = false;
  /// With ThreadModelOptions::block_at_thread_limit, when some create site can run out of
  /// instances: max_threads. Every execution the checkers explore then has at most this many
  /// threads (main included); where one is cut (a thread blocked at an is_thread_bound_cut
  /// Assume), a verdict that no violation exists holds only up to this bound.
  unsigned thread_bound = 0;

  std::string where(const SourceLoc& loc) const;

 private:
  friend ThreadModel build_thread_model(const Program&, const ThreadModelOptions&);
  std::unique_ptr<ExprManager> exprs_;
};

/// The Assume before a create site that blocks when the site's instances are used up
/// (ThreadModelOptions::block_at_thread_limit; marked with AssertKind::Limit). A thread blocked
/// there is an execution cut by the thread bound.
inline bool is_thread_bound_cut(const Instr& in) {
  return in.kind == InstrKind::Assume && in.assert_kind == AssertKind::Limit;
}

/// Builds the thread model. Never fails on a valid Program (validate() first); modelling
/// bounds that are hit become Assert[Limit] instructions, reported through `limited`.
ThreadModel build_thread_model(const Program& program, const ThreadModelOptions& options);

/// Text listing of every thread's code (for `siren cfg --threads` and tests).
std::string print_thread_model(const ThreadModel& tm);

}  // namespace siren::ir
