// siren's program representation: memory objects made of scalar cells, functions whose
// bodies are goto-style instruction lists (after CBMC's goto programs), and a Program.
//
// The instruction set and its semantics are specified in docs/semantics.md. Nothing here
// depends on Clang; the front end (frontend/) is the only producer of a Program from C.
#pragma once

#include "ir/expr.hpp"
#include "ir/type.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace siren::ir {

using FunctionId = std::uint32_t;
inline constexpr FunctionId kNoFunction = ~0u;
inline constexpr LocalId kNoLocal = ~0u;

struct SourceLoc {
  std::uint32_t file = 0;  // index into Program::files
  std::uint32_t line = 0;  // 0 = unknown
  std::uint32_t col = 0;
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

/// What a cell is for. Synchronization cells hold integers with the meaning given in
/// docs/semantics.md (mutex: 0 free / owner thread id + 1, ...).
enum class CellKind : std::uint8_t { Data, Mutex, Cond, RwLock, ThreadHandle };

struct Cell {
  std::string name;  // "g", "a[3]", "s.next", "buf[2].len"
  Type type;
  CellKind kind = CellKind::Data;
  std::uint64_t init = 0;      // initial bits (Data/sync: normalized integer or bool)
  ObjectId init_obj = 0;       // for pointer cells initialised to an object address
  bool init_nondet = false;    // no initializer and not zero-initialised (locals, heap)
  /// Where the cell lies in its object (docs/semantics.md, "Memory"): its first byte and its
  /// size in bytes, from the C layout of the target's data model (Clang's record layout).
  /// A pointer's offset counts bytes, so a load or store finds its cell by `offset`.
  std::uint64_t offset = 0;
  std::uint32_t size = 1;

  /// An access of `bytes` bytes (0: any) that starts at this cell reads or writes exactly it.
  /// Synchronisation cells stand for a whole pthread object of their own representation, so
  /// any size fits them; a data cell only an access of its own size.
  bool fits(std::uint32_t bytes) const { return bytes == 0 || kind != CellKind::Data || bytes == size; }
};

enum class ObjectKind : std::uint8_t {
  Null,    // object 0, no cells
  Global,  // file-scope and static-local variables: shared, zero-initialised in C
  Local,   // address-taken function locals: one instance per activation (thread model)
  Heap,    // one malloc/calloc call site
  Hidden,  // created by the thread model (thread return values, ...)
};

struct Object {
  ObjectId id = 0;
  ObjectKind kind = ObjectKind::Global;
  std::string name;
  std::vector<Cell> cells;  // in increasing `offset`, none overlapping
  std::uint64_t size = 0;   // bytes (sizeof); see Program::add_object for objects without a layout
  SourceLoc loc;
  FunctionId owner = kNoFunction;  // Local: the function whose activation owns it
  /// Global only: `__thread` / `_Thread_local` storage, one copy per thread instance (the
  /// thread model makes them; the copy starts with these cells' initial values).
  bool thread_local_storage = false;
  /// Thread-local and hidden (the front end's "pthread self"): one 32-bit cell whose copy in
  /// thread instance t starts as t + 1 (the thread model sets it). The front end reads it where
  /// the thread's identity is data: the owner of a recursive or error-checking mutex.
  bool thread_self = false;

  /// The cell that starts at byte `offset`, if one does.
  std::optional<std::uint32_t> cell_at(std::int64_t offset) const;
  /// The address offset of cell `c` (its first byte).
  std::int64_t offset_of(std::uint32_t c) const { return static_cast<std::int64_t>(cells[c].offset); }
};

/// The bytes an access of IR type `t` reads or writes: an integer's width / 8, a bool's 1, a
/// pointer's `pointer_bytes` (Program::pointer_bytes).
std::uint32_t access_bytes(Type t, std::uint32_t pointer_bytes);

struct LocalVar {
  std::string name;
  Type type;
};

enum class InstrKind : std::uint8_t {
  Skip,           // no effect (labels, empty statements, declarations without effect)
  Assign,         // lhs := a
  Store,          // *a := b                    (a: Ptr)
  Havoc,          // lhs := nondet of its type  (__VERIFIER_nondet_*, uninitialised locals)
  Assume,         // block unless a             (__VERIFIER_assume, assume_abort_if_not)
  Assert,         // error (of `assert_kind`) unless a
  Goto,           // if a goto target (a == true for unconditional)
  Call,           // [lhs :=] callee(args...)  (defined functions; inlined by the thread model)
  Return,         // return [a]
  Abort,          // execution of this thread stops for good, not an error (abort, exit)
  Lock,           // pthread_mutex_lock(a)
  TryLock,        // lhs := pthread_mutex_trylock(a)   (0 on success, 16 = EBUSY)
  Unlock,         // pthread_mutex_unlock(a)
  CondWait,       // pthread_cond_wait(a = cond, b = mutex)
  CondSignal,     // pthread_cond_signal(a)
  CondBroadcast,  // pthread_cond_broadcast(a)
  RdLock,         // pthread_rwlock_rdlock(a)
  WrLock,         // pthread_rwlock_wrlock(a)
  RwUnlock,       // pthread_rwlock_unlock(a)
  ThreadCreate,   // pthread_create(a = handle ptr or null, _, callee, b = arg)
  ThreadJoin,     // pthread_join(a = handle value, b = retval ptr or null)
  ThreadExit,     // pthread_exit(a)
  AtomicBegin,    // __VERIFIER_atomic_begin / entry of a __VERIFIER_atomic_* function
  AtomicEnd,      // __VERIFIER_atomic_end / exit of a __VERIFIER_atomic_* function
  Malloc,         // lhs := address of fresh object `obj` (null never returned)
  Free,           // free(a)
};

const char* instr_kind_name(InstrKind k);

enum class AssertKind : std::uint8_t {
  Property,   // assert(), reach_error(), __VERIFIER_error(): a violation is UNSAFE
  MemSafety,  // invalid pointer use: behaviour undefined, the verdict becomes UNKNOWN
  Limit,      // a modelling bound was hit (threads, heap instances, recursion): UNKNOWN
};

/// The model limits that a larger model lifts (check and race translate the program again with
/// more threads, heap objects per site or elements per object of a non-constant size, and ask
/// again): set on the instruction whose failure is that limit (Instr::limit), carried by the
/// engines' errors (ErrorReason) into an UNKNOWN's data (check::CheckResult::limit), so that
/// nothing reads the reason's text to decide.
enum class LimitKind : std::uint8_t {
  None,
  Threads,    // Assert[Limit]: a pthread_create site ran out of instances
  HeapSlots,  // Assert[Limit] / Malloc: a malloc site executed more often than it has objects
  Capacity,   // Assert[MemSafety] of an access: may be past the capacity of an object of a
              // non-constant size (FrontendOptions::capacity)
};

/// A reachable MemSafety / Limit error as an UNKNOWN's reason: its text (error_reason) and
/// the model limit it is, if any.
struct ErrorReason {
  std::string text;
  LimitKind limit = LimitKind::None;
};

/// The one spelling of a reachable MemSafety / Limit error: "possible memory-safety violation
/// at WHERE: WHAT" or "modelling limit reached at WHERE: WHAT".
inline ErrorReason error_reason(AssertKind kind, const std::string& where, const std::string& what, LimitKind limit) {
  return {std::string(kind == AssertKind::MemSafety ? "possible memory-safety violation at " : "modelling limit reached at ") +
              where + ": " + what,
          limit};
}

/// Instr::message of the loads and stores the front end's kernel model makes for a kernel
/// function without a body (frontend/calls.cpp kernel_through), followed by its name: the
/// model's accesses, which no native run makes; a race through one is UNKNOWN (race.cpp).
inline constexpr const char* kKernelModelAccess = "kernel model access: ";

struct Instr {
  InstrKind kind = InstrKind::Skip;
  SourceLoc loc;
  std::string text;  // the C statement, for traces and printing ("data += 2")
  LocalId lhs = kNoLocal;
  ExprRef a = nullptr;
  ExprRef b = nullptr;
  std::vector<ExprRef> args;   // Call arguments
  FunctionId callee = kNoFunction;  // Call, ThreadCreate
  std::uint32_t target = 0;    // Goto: index of the target instruction in the same body
  AssertKind assert_kind = AssertKind::Property;
  ObjectId obj = 0;            // Malloc: the heap object of this call site
  std::string message;         // Assert: what fails ("reach_error() called", "assert(x > 0)");
                               // Havoc: the call it stands for, if any ("nondet_int()": a
                               // __VERIFIER_nondet_* call or a function without a body)
  std::vector<std::uint32_t> threads;  // ThreadCreate in thread-model code: instance slots
  LimitKind limit = LimitKind::None;   // Assert: the model limit its failure is, if any
};

/// A Havoc that is the result of a call (a nondet function, a function without a body): its
/// value is an input of the run, which traces print and the native oracle supplies.
inline bool is_nondet_call(const Instr& in) { return in.kind == InstrKind::Havoc && !in.message.empty(); }
/// The function without a body whose result a Havoc stands for (frontend rv_undefined_call:
/// message "name()"), or "" (not a call's result, or a __VERIFIER_nondet_* call). A value the
/// kernel model lets such a function write (message "name() writes", frontend kernel_through)
/// is "name (what it writes)": a counterexample that uses one is confirmed natively too, where
/// no stub takes it (the native stub writes nothing).
inline std::string bodyless_function(const Instr& in) {
  if (!is_nondet_call(in) || in.message.rfind("__VERIFIER_nondet_", 0) == 0 || in.message.size() < 3) return "";
  static const std::string writes = "() writes";
  if (in.message.size() > writes.size() &&
      in.message.compare(in.message.size() - writes.size(), writes.size(), writes) == 0)
    return in.message.substr(0, in.message.size() - writes.size()) + " (what it writes)";
  if (in.message.compare(in.message.size() - 2, 2, "()") != 0) return "";
  return in.message.substr(0, in.message.size() - 2);
}

/// The function without a body whose pointer result a Havoc chooses among objects (frontend
/// external_objects.cpp: message "name() object"), or "": the value is an index into the
/// front end's choices, which no native stub can return (confirm/library_values.cpp).
inline std::string object_choice_function(const Instr& in) {
  static const std::string suffix = "() object";
  if (!is_nondet_call(in) || in.message.size() <= suffix.size() ||
      in.message.compare(in.message.size() - suffix.size(), suffix.size(), suffix) != 0)
    return "";
  return in.message.substr(0, in.message.size() - suffix.size());
}

struct Function {
  FunctionId id = 0;
  std::string name;
  std::vector<LocalVar> locals;   // parameters first, then every other local/temporary
  std::uint32_t num_params = 0;
  std::optional<Type> return_type;  // nullopt for void
  std::vector<Instr> body;          // ends with Return; Goto targets index into it
  bool is_atomic = false;           // name starts with __VERIFIER_atomic_
  bool has_body = false;            // false: declared only (calls to it are unsupported)
  SourceLoc loc;
  std::vector<ObjectId> frame_objects;  // address-taken locals (ObjectKind::Local)
};

class Program {
 public:
  Program();
  Program(Program&&) noexcept;
  Program& operator=(Program&&) noexcept;
  ~Program();

  ExprManager& exprs() { return *exprs_; }
  const ExprManager& exprs() const { return *exprs_; }

  std::vector<std::string> files;
  std::vector<Object> objects;  // objects[0] is the null object
  std::vector<Function> functions;
  FunctionId entry = kNoFunction;  // main
  /// The data model's pointer size (8: LP64, the default; 4: ILP32 with --32).
  std::uint32_t pointer_bytes = 8;

  /// Assigns o.id. An object built without a layout (size 0 with cells: tests, objects the
  /// thread model or a library model makes) gets the unit layout, cell i at byte i of size 1.
  ObjectId add_object(Object o);
  FunctionId add_function(Function f);
  const Function* find_function(const std::string& name) const;
  std::string where(const SourceLoc& loc) const;  // "file.c:12:3" (file basename kept as given)

 private:
  std::unique_ptr<ExprManager> exprs_;
};

}  // namespace siren::ir
