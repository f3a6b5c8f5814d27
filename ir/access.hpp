// Static access summary of one instruction of the thread model: which locations the step
// reads and writes (docs/semantics.md, "The explorer", defines dependence over exactly these
// locations). The explorer evaluates the summary in a concrete state (access_locations) to
// get its dynamic version; the MPOR reduction (reduction/mpor.cpp) evaluates it symbolically;
// the race analysis uses memory_accesses().
//
// Every address / thread-id expression is an expression of thread t's code evaluated in the
// state BEFORE the step. An access only happens when its condition (below, per kind) holds in
// that state.
#pragma once

#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <cstdint>
#include <vector>

namespace siren::ir {

enum class LocKind : std::uint8_t {
  Cell,        // a memory cell
  Started,     // started[j]
  Finished,    // finished[j]
  Alloc,       // alloc[o] (heap objects; Free also writes it for other objects)
  Atomic,      // the atomic-section owner
  Terminated,  // the program has terminated (Abort)
};

const char* loc_kind_name(LocKind k);

struct Access {
  LocKind kind = LocKind::Cell;
  bool write = false;
  /// Cell: the pointer; the access happens iff ValidPtr(addr).
  /// Alloc: a pointer whose object is the location (null: the constant `obj`). Reads happen iff
  ///   the pointer's object is a Heap object; writes (Free) iff the object is not null.
  /// Finished: the thread id expression (read as an unsigned id; null: the constant `thread`).
  ExprRef addr = nullptr;
  ObjectId obj = 0;      // Alloc with addr == null (Malloc)
  ThreadId thread = 0;   // Started / Finished with a constant thread
  /// Started written by a ThreadCreate: the access happens iff local `counter` (as unsigned)
  /// equals `slot` (then `thread` is the instance started). kNoLocal: unconditional.
  LocalId counter = kNoLocal;
  std::uint32_t slot = 0;

  /// Cell with a constant address (`ObjAddr`): the cell is statically known (it is accessed
  /// iff the offset is in range and the object is live).
  bool static_cell() const { return kind == LocKind::Cell && addr && addr->op == Op::ObjAddr; }
  friend bool operator==(const Access&, const Access&) = default;
};

/// What instruction `pc` of thread `t` reads and writes, in a fixed order: started[t] read,
/// terminated read, atomic read, then the instruction's own accesses (loads of its operands,
/// post-order, then its write / synchronization / thread accesses).
///
/// Every step reads `atomic`: AtomicBegin/AtomicEnd write it and disable/enable every other
/// thread, so they must be dependent with every step of another thread (otherwise a reduction
/// could pick a representative that runs a step inside another thread's atomic section, which
/// does not exist, and lose the real execution). Reductions whose transitions are whole atomic
/// blocks (MPOR, SIR, the explorer's Mazurkiewicz classes) leave `atomic` out instead: it is 0
/// between transitions.
std::vector<Access> accesses(const ThreadModel& tm, ThreadId t, std::uint32_t pc);

/// Only the memory-cell accesses of accesses(tm, t, pc) (Load: read, Store: write, lock-like
/// operations: read and write of their cell, ThreadCreate's handle store, ThreadJoin's retval
/// store).
std::vector<Access> memory_accesses(const ThreadModel& tm, ThreadId t, std::uint32_t pc);

/// A concrete location (the explorer's dynamic dependence): `kind` and an index (cell:
/// object << 32 | the byte offset of the cell; Started/Finished: thread; Alloc: object; others 0).
struct Location {
  LocKind kind = LocKind::Cell;
  std::uint64_t index = 0;
  bool write = false;
  friend bool operator==(const Location&, const Location&) = default;
};

/// The accesses of thread t's next step in state s, evaluated (conditions checked) with the
/// interpreter. Precondition: t is started, not finished, its pc is in range.
std::vector<Location> access_locations(const ThreadModel& tm, const Interpreter& in, const State& s, ThreadId t);

/// Two steps of different threads conflict: one writes a location the other reads or writes.
bool conflict(const std::vector<Location>& a, const std::vector<Location>& b);

}  // namespace siren::ir
