// Points-to analysis over the thread model (DESIGN.md §B5, "may-alias"): which objects, and
// which byte offsets in them, each pointer may designate, for every thread's locals, every
// pointer cell and every pointer expression. Inclusion-based (Andersen), flow-insensitive,
// field-sensitive: an abstract location is an (object, byte offset) pair — a field, an array
// element — or (object, any offset) after arithmetic with a non-constant offset. The thread
// model has already inlined every call and made one copy of each local object per activation
// and of each heap site per thread instance, so those are distinct abstract objects here.
//
// Sound for docs/semantics.md: a pointer value only comes from an address (`ObjAddr`), a
// `Malloc`, a copy (locals, cells, thread arguments and results) or arithmetic on one; an
// integer converted to a pointer designates no object (`IntToPtr`, semantics.md), and so does
// a constant. What the analysis cannot follow is "anywhere" (`PtsSet::any`): a nondet pointer
// (a `Havoc`, an uninitialised pointer cell), or what a store through an "anywhere" pointer
// writes, which every pointer cell may then hold. Consumers treat "anywhere" as every object:
// they fall back, never answer wrongly.
#pragma once

#include "ir/thread_model.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace siren::ir {

struct PtsTarget {
  static constexpr std::int64_t kAnyOffset = INT64_MIN;
  ObjectId obj = 0;
  std::int64_t offset = 0;  // bytes, or kAnyOffset
  friend auto operator<=>(const PtsTarget&, const PtsTarget&) = default;
};

struct PtsSet {
  bool any = false;  // may point anywhere (then `targets` is not meaningful)
  std::set<PtsTarget> targets;
  /// Adds `o`'s targets; true when this set grew.
  bool add(const PtsSet& o);
  friend bool operator==(const PtsSet&, const PtsSet&) = default;
};

struct PointsToOptions {
  /// Per object, more distinct offsets than this collapse into (object, any offset).
  unsigned max_offsets = 16;
  /// TEST ONLY: drop the first target of the first non-empty set of a local after solving (a
  /// deliberately unsound analysis, so that a test can show its soundness check catches it).
  bool test_drop_one_target = false;
  /// TEST ONLY: ignore the initial values of pointer cells (`int *p = &g;`), a deliberately
  /// unsound analysis in which what `*p` reads or writes loses objects (the broken variant the
  /// SIR soundness test catches, tools/fuzz/broken_reduction.cpp).
  bool test_drop_initial_targets = false;
};

class PointsTo {
 public:
  /// Solves the constraints of every thread's code (and the objects' initial values).
  static PointsTo analyse(const ThreadModel& tm, const PointsToOptions& o = {});

  /// What pointer expression `e` of thread `t` may designate.
  PtsSet of(ThreadId t, ExprRef e) const;
  /// The points-to set of thread t's local l (empty for a non-pointer local).
  const PtsSet& local(ThreadId t, LocalId l) const;
  /// The points-to set of pointer cell c of object o (empty for a non-pointer cell).
  PtsSet cell(ObjectId o, std::uint32_t c) const;
  /// The cells an access through `e` (an address of thread t) may touch, as (object, cell);
  /// nullopt when `e` may point anywhere.
  std::optional<std::vector<std::pair<ObjectId, std::uint32_t>>> cells_of(ThreadId t, ExprRef e) const;

  /// One line per pointer local and pointer cell whose set is not empty:
  /// `t1#1::p -> {@g, s.next+any}`; `anywhere` for any.
  std::string print() const;

 private:
  explicit PointsTo(const ThreadModel& tm) : tm_(&tm) {}
  class View;
  class Solver;
  const ThreadModel* tm_;
  unsigned max_offsets_ = 16;
  std::vector<std::vector<PtsSet>> locals_;                        // [thread][local]
  std::map<std::pair<ObjectId, std::uint32_t>, PtsSet> cells_;     // pointer cells
  PtsSet anywhere_stores_;  // what stores through "anywhere" wrote: every pointer cell may hold it
};

}  // namespace siren::ir
