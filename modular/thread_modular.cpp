// Thread-modular reachability with lock ownership (modular/thread_modular.hpp,
// docs/unbounded-threads.md).
#include "modular/thread_modular.hpp"

#include "ir/cfg.hpp"
#include "ir/interpreter.hpp"
#include "ir/points_to.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace siren::modular {
namespace {

using namespace ir;
using clock = std::chrono::steady_clock;
using Row = std::vector<std::uint64_t>;
__extension__ using Int128 = __int128;  // an interval bound of any 64-bit type, signed or not

constexpr unsigned kMaxLockCells = 64;
constexpr unsigned kMaxAtomicSteps = 100'000;  // one atomic section, then "unsupported"

struct RowHash {
  std::size_t operator()(const Row& r) const {
    std::size_t h = r.size();
    for (std::uint64_t x : r) h ^= std::hash<std::uint64_t>{}(x) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};

/// Rows (encoded shared or local states) numbered in order of first sight.
class Interner {
 public:
  std::uint32_t intern(Row&& r) {
    auto [it, fresh] = ids_.try_emplace(std::move(r), static_cast<std::uint32_t>(rows_.size()));
    if (fresh) rows_.push_back(&it->first);
    return it->second;
  }
  const Row& row(std::uint32_t id) const { return *rows_[id]; }
  std::size_t size() const { return rows_.size(); }

 private:
  std::unordered_map<Row, std::uint32_t, RowHash> ids_;
  std::vector<const Row*> rows_;
};

bool nonzero(const Value& v) { return v.bits != 0 || v.obj != 0; }

// The operations that read (and may write) a lock's cell: mutexes and rwlocks.
bool is_lock_op(InstrKind k) {
  return k == InstrKind::Lock || k == InstrKind::TryLock || k == InstrKind::Unlock || k == InstrKind::RdLock ||
         k == InstrKind::WrLock || k == InstrKind::RwUnlock;
}

// An item of the cone of influence: a thread's local or a memory cell.
std::uint64_t local_item(ThreadId t, LocalId l) { return (1ULL << 63) | (std::uint64_t{t} << 32) | l; }
std::uint64_t cell_item(ObjectId o, std::uint32_t c) { return (std::uint64_t{o} << 32) | c; }

// A closed interval of integers in the mathematical view of a type (signed or unsigned).
struct Range {
  Int128 lo, hi;
  bool empty() const { return lo > hi; }
};

Range full_range(Type t) {
  if (t.is_bool()) return {0, 1};
  if (t.is_signed) return {-(static_cast<Int128>(1) << (t.width - 1)), (static_cast<Int128>(1) << (t.width - 1)) - 1};
  return {0, (static_cast<Int128>(1) << t.width) - 1};
}

struct Kind {
  ThreadId tid = 0;
  std::vector<ObjectId> owned;                 // objects private to each instance
  std::vector<LocalId> kept;                   // relevant locals, in layout order
  std::vector<std::vector<bool>> live;         // [pc][index into kept]
  std::map<std::uint32_t, std::vector<Value>> domains;  // Havoc pc -> its values (computed once)
};

struct Succ {
  Row g, l;
  bool has_local = true;
  std::vector<std::pair<std::uint32_t, Row>> created;  // (kind, local row)
};

struct Transition {
  std::uint32_t to;
  std::uint32_t kind;
  std::uint64_t flags;  // the moving thread's held cells
  friend bool operator==(const Transition&, const Transition&) = default;
};

class Analysis {
 public:
  Analysis(const ThreadModel& tm, const ModularOptions& o, const RaceFreedomQuery* race = nullptr)
      : tm_(tm), o_(o), in_(tm), race_(race) {}

  ModularResult run() {
    const auto start = clock::now();
    ModularResult r;
    if (setup()) {
      for (;;) {
        const Outcome out = fixpoint();
        if (out != Outcome::Restart) {
          r.proven = out == Outcome::Fixpoint && (!race_ || no_racing_pair());
          break;
        }
        ++restarts_;
      }
    }
    r.reason = fail_;
    r.pairs = seen_.size();
    r.shared_states = shared_.size();
    r.transitions = transitions_;
    r.kinds = static_cast<unsigned>(kinds_.size());
    r.lock_cells = static_cast<unsigned>(locks_.size());
    r.restarts = restarts_;
    r.pairs_compared = compared_;
    r.seconds = std::chrono::duration<double>(clock::now() - start).count();
    return r;
  }

 private:
  enum class Outcome { Fixpoint, Failed, Restart };

  bool fail(std::string why) {
    if (fail_.empty()) fail_ = std::move(why);
    return false;
  }
  std::string at(const Instr& in) const { return tm_.where(in.loc); }

  // ---- setup: kinds, ownership, pointers, cone of influence, liveness, lock cells ----------

  bool setup() {
    if (tm_.threads.empty()) return fail("no main function");
    if (race_) {
      for (const ThreadCode& tc : tm_.threads)
        for (const Instr& in : tc.code)
          if (in.kind == InstrKind::AtomicBegin)
            return fail(at(in) + ": unsupported by the thread-modular race proof: an atomic section");
      accesses_at_.resize(tm_.threads.size());
      for (std::size_t t = 0; t < tm_.threads.size(); ++t) accesses_at_[t].resize(tm_.threads[t].code.size());
      for (const Access& a : race_->accesses)
        if (a.thread < tm_.threads.size() && a.pc < accesses_at_[a.thread].size())
          accesses_at_[a.thread][a.pc].push_back(a);
    }
    kinds_.push_back({});
    kind_of_tid_[0] = 0;
    for (const Instr& in : tm_.threads[0].code) {
      if (in.kind != InstrKind::ThreadCreate) continue;
      if (in.threads.empty()) return fail(at(in) + ": a create site without an instance slot");
      if (kind_of_tid_.emplace(in.threads[0], static_cast<std::uint32_t>(kinds_.size())).second) {
        Kind k;
        k.tid = in.threads[0];
        kinds_.push_back(std::move(k));
      }
    }
    for (const ThreadCode& tc : tm_.threads)
      for (const Instr& in : tc.code) {
        if (in.kind == InstrKind::ThreadJoin)
          return fail(at(in) + ": unsupported by the thread-modular proof: pthread_join");
        if (in.kind == InstrKind::ThreadCreate && tc.id != 0)
          return fail(at(in) + ": unsupported by the thread-modular proof: a thread other than main creates threads");
      }
    for (const Object& o : tm_.objects)
      if (o.thread_self)  // one thread of each kind stands for all: their ids must not be data
        return fail(o.name + ": unsupported by the thread-modular proof: a thread's own id is data "
                    "(recursive or error-checking mutexes)");
    shared_obj_.assign(tm_.objects.size(), false);
    for (const Object& o : tm_.objects)
      shared_obj_[o.id] = o.id != 0 && (o.kind == ObjectKind::Global || o.kind == ObjectKind::Hidden) &&
                          !o.thread_local_storage;
    if (!ownership() || !pointers()) return false;
    cone_of_influence();
    // Every instance gets its kind's first slot's thread id: the program must not read it.
    for (const Instr& in : tm_.threads[0].code)
      if (in.kind == InstrKind::ThreadCreate && in.a)
        if (const auto cells = pts_->cells_of(0, in.a))
          for (const auto& [o, c] : *cells)
            if (relevant_.count(cell_item(o, c)))
              return fail(at(in) + ": unsupported by the thread-modular proof: a thread handle is read");
    for (Kind& k : kinds_) liveness(k);
    for (const Kind& k : kinds_)
      if (!written_before_read(k)) return false;
    for (const Object& o : tm_.objects) {
      if (!shared_obj_[o.id]) continue;
      for (std::uint32_t c = 0; c < o.cells.size(); ++c) {
        if (!relevant_.count(cell_item(o.id, c))) continue;
        if (o.cells[c].init_nondet)
          return fail(tm_.where(o.loc) + ": unsupported by the thread-modular proof: uninitialised " +
                      o.cells[c].name + " is read");
        shared_cells_.push_back({o.id, c});
      }
    }
    choose_lock_cells();
    base_ = in_.initial_state();
    for (ThreadState& ts : base_.threads) ts.started = false;
    return true;
  }

  // Non-shared objects belong to the one kind whose code names them.
  bool ownership() {
    std::vector<int> owner(tm_.objects.size(), -1);
    for (std::uint32_t k = 0; k < kinds_.size(); ++k) {
      std::unordered_set<ObjectId> named;
      for (const Instr& in : tm_.threads[kinds_[k].tid].code) {
        for (ExprRef e : {in.a, in.b})
          if (e) visit_post_order(e, [&](ExprRef n) { if (n->op == Op::ObjAddr) named.insert(n->obj); });
        if (in.kind == InstrKind::Malloc) named.insert(in.obj);
      }
      for (const ObjectId o : named) {
        if (o == 0 || o >= tm_.objects.size() || shared_obj_[o]) continue;
        if (owner[o] >= 0 && owner[o] != static_cast<int>(k))
          return fail(tm_.where(tm_.objects[o].loc) + ": unsupported by the thread-modular proof: " +
                      tm_.objects[o].name + " is named by two threads");
        owner[o] = static_cast<int>(k);
        kinds_[k].owned.push_back(o);
      }
      std::sort(kinds_[k].owned.begin(), kinds_[k].owned.end());
    }
    return true;
  }

  // No pointer to an instance's own objects reaches shared memory, and every access of a kind
  // touches shared objects or its own: then each instance's objects are its own alone.
  bool pointers() {
    pts_.emplace(PointsTo::analyse(tm_));
    for (const Object& o : tm_.objects) {
      if (!shared_obj_[o.id]) continue;
      for (std::uint32_t c = 0; c < o.cells.size(); ++c) {
        if (!o.cells[c].type.is_ptr()) continue;
        const PtsSet s = pts_->cell(o.id, c);
        if (s.any) return fail(tm_.where(o.loc) + ": unsupported by the thread-modular proof: " + o.cells[c].name +
                               " may point anywhere");
        for (const PtsTarget& t : s.targets)
          if (t.obj != 0 && !shared_obj_[t.obj])
            return fail(tm_.where(o.loc) + ": unsupported by the thread-modular proof: " + o.cells[c].name +
                        " may point to a thread's own " + tm_.objects[t.obj].name);
      }
    }
    for (const Kind& k : kinds_) {
      auto own = [&](ObjectId o) { return shared_obj_[o] || std::binary_search(k.owned.begin(), k.owned.end(), o); };
      for (const Instr& in : tm_.threads[k.tid].code) {
        std::vector<ExprRef> addresses;
        for (ExprRef e : {in.a, in.b})
          if (e) visit_post_order(e, [&](ExprRef n) { if (n->op == Op::Load) addresses.push_back(n->kids[0]); });
        if ((in.kind == InstrKind::Store || in.kind == InstrKind::Free || sync_address_operand(in.kind)) && in.a)
          addresses.push_back(in.a);
        for (ExprRef a : addresses) {
          const auto cells = pts_->cells_of(k.tid, a);
          if (!cells) return fail(at(in) + ": unsupported by the thread-modular proof: a pointer that may point anywhere");
          for (const auto& [o, c] : *cells)
            if (!own(o))
              return fail(at(in) + ": unsupported by the thread-modular proof: an access to another thread's " +
                          tm_.objects[o].name);
        }
      }
    }
    return true;
  }

  // The locals and cells that a condition, an address, an assertion or a lock may depend on.
  // Everything else never changes what any thread can do: one value stands for all.
  void cone_of_influence() {
    std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> deps;
    std::vector<std::uint64_t> roots;
    for (const Kind& k : kinds_) {
      const ThreadId t = k.tid;
      auto reads = [&](ExprRef e, std::vector<std::uint64_t>& out) {
        if (!e) return;
        visit_post_order(e, [&](ExprRef n) {
          if (n->op == Op::Local) out.push_back(local_item(t, static_cast<LocalId>(n->value)));
          if (n->op == Op::Load)
            if (const auto cells = pts_->cells_of(t, n->kids[0]))
              for (const auto& [o, c] : *cells) out.push_back(cell_item(o, c));
        });
      };
      auto targets = [&](ExprRef a, std::vector<std::uint64_t>& out) {
        if (const auto cells = pts_->cells_of(t, a))
          for (const auto& [o, c] : *cells) out.push_back(cell_item(o, c));
      };
      for (const Instr& in : tm_.threads[t].code) {
        if (is_lock_op(in.kind)) {  // the lock's cell decides whether the step can happen
          reads(in.a, roots);
          targets(in.a, roots);
          if (in.kind == InstrKind::TryLock && in.lhs != kNoLocal) targets(in.a, deps[local_item(t, in.lhs)]);
          continue;
        }
        switch (in.kind) {
          case InstrKind::Assign: reads(in.a, deps[local_item(t, in.lhs)]); break;
          case InstrKind::Store: {
            reads(in.a, roots);
            std::vector<std::uint64_t> written, value;
            targets(in.a, written);
            reads(in.b, value);
            for (std::uint64_t w : written) deps[w].insert(deps[w].end(), value.begin(), value.end());
            break;
          }
          case InstrKind::Goto: case InstrKind::Assume: case InstrKind::Assert: reads(in.a, roots); break;
          case InstrKind::Free: reads(in.a, roots); break;
          case InstrKind::ThreadCreate: {
            reads(in.a, roots);
            if (in.lhs != kNoLocal) roots.push_back(local_item(t, in.lhs));
            if (!in.threads.empty()) {
              const ThreadCode& child = tm_.threads[in.threads[0]];
              if (child.param != kNoLocal) reads(in.b, deps[local_item(child.id, child.param)]);
            }
            break;
          }
          default: break;
        }
      }
    }
    std::vector<std::uint64_t> work = roots;
    while (!work.empty()) {
      const std::uint64_t x = work.back();
      work.pop_back();
      if (!relevant_.insert(x).second) continue;
      if (const auto it = deps.find(x); it != deps.end())
        for (std::uint64_t y : it->second)
          if (!relevant_.count(y)) work.push_back(y);
    }
  }

  // Backward liveness of the relevant locals of a kind's code: a dead local's value is never
  // read again before it is written, so states differing only there behave alike.
  void liveness(Kind& k) {
    const ThreadCode& tc = tm_.threads[k.tid];
    std::vector<int> index(tc.locals.size(), -1);
    for (LocalId l = 0; l < tc.locals.size(); ++l)
      if (relevant_.count(local_item(k.tid, l))) {
        index[l] = static_cast<int>(k.kept.size());
        k.kept.push_back(l);
      }
    const std::size_t n = tc.code.size(), m = k.kept.size();
    k.live.assign(n + 1, std::vector<bool>(m, false));
    auto uses = [&](const Instr& in, std::vector<bool>& out) {
      for (ExprRef e : {in.a, in.b})
        if (e) visit_post_order(e, [&](ExprRef x) {
            if (x->op == Op::Local && index[x->value] >= 0) out[index[x->value]] = true;
          });
      if (in.kind == InstrKind::ThreadCreate && in.lhs != kNoLocal && index[in.lhs] >= 0) out[index[in.lhs]] = true;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t pc = n; pc-- > 0;) {
        const Instr& in = tc.code[pc];
        std::vector<bool> out(m, false);
        auto join = [&](std::size_t s) {
          for (std::size_t i = 0; i < m; ++i) out[i] = out[i] || k.live[std::min(s, n)][i];
        };
        for (const std::uint32_t succ : successors(tc.code, static_cast<std::uint32_t>(pc))) join(succ);
        const bool defines = in.kind == InstrKind::Assign || in.kind == InstrKind::Havoc ||
                             in.kind == InstrKind::TryLock || in.kind == InstrKind::Malloc;
        if (defines && in.lhs != kNoLocal && index[in.lhs] >= 0) out[index[in.lhs]] = false;
        uses(in, out);
        if (out != k.live[pc]) {
          k.live[pc] = std::move(out);
          changed = true;
        }
      }
    }
  }

  // A relevant cell of a kind's own object that starts nondet (an uninitialised local object, a
  // heap cell) must be written before it is read on every path: the analysis gives it 0, which
  // is then never seen. A forward must-analysis over the kind's code.
  bool written_before_read(const Kind& k) {
    const ThreadCode& tc = tm_.threads[k.tid];
    std::vector<std::uint64_t> tracked;
    for (const ObjectId o : k.owned)
      for (std::uint32_t c = 0; c < tm_.objects[o].cells.size(); ++c)
        if (tm_.objects[o].cells[c].init_nondet && relevant_.count(cell_item(o, c))) tracked.push_back(cell_item(o, c));
    if (tracked.empty()) return true;
    if (tracked.size() > 64) return fail(tm_.where(tc.code.front().loc) +
                                         ": unsupported by the thread-modular proof: more than 64 uninitialised cells");
    auto bit = [&](std::uint64_t item) -> std::uint64_t {
      const auto it = std::find(tracked.begin(), tracked.end(), item);
      return it == tracked.end() ? 0 : 1ULL << (it - tracked.begin());
    };
    auto cells_bits = [&](ExprRef addr) {
      std::uint64_t b = 0;
      if (const auto cells = pts_->cells_of(k.tid, addr))
        for (const auto& [o, c] : *cells) b |= bit(cell_item(o, c));
      return b;
    };
    // The cell a store surely writes: a constant address, or a pointer with one target that the
    // instruction before checked (assert valid(p)), so that the store happens.
    auto surely_written = [&](std::uint32_t pc) -> std::uint64_t {
      const Instr& in = tc.code[pc];
      if (in.kind != InstrKind::Store) return 0;
      if (in.a->op == Op::ObjAddr) {
        const auto c = tm_.objects[in.a->obj].cell_at(in.a->offset());
        return c ? bit(cell_item(in.a->obj, *c)) : 0;
      }
      const auto cells = pts_->cells_of(k.tid, in.a);
      if (!cells || cells->size() != 1 || pc == 0) return 0;
      const Instr& prev = tc.code[pc - 1];
      if (prev.kind != InstrKind::Assert || prev.assert_kind != AssertKind::MemSafety || prev.a->op != Op::ValidPtr ||
          prev.a->kids[0] != in.a)
        return 0;
      return bit(cell_item(cells->front().first, cells->front().second));
    };
    const std::size_t n = tc.code.size();
    std::vector<std::uint64_t> defined(n + 1, ~0ULL);
    defined[0] = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t pc = 0; pc < n; ++pc) {
        const Instr& in = tc.code[pc];
        std::uint64_t out = defined[pc] | surely_written(static_cast<std::uint32_t>(pc));
        if (in.kind == InstrKind::Malloc)
          for (std::uint32_t c = 0; c < tm_.objects[in.obj].cells.size(); ++c) out &= ~bit(cell_item(in.obj, c));
        auto meet = [&](std::size_t s) {
          s = std::min(s, n);
          if ((defined[s] & out) != defined[s]) {
            defined[s] &= out;
            changed = true;
          }
        };
        for (const std::uint32_t succ : successors(tc.code, static_cast<std::uint32_t>(pc))) meet(succ);
      }
    }
    for (std::size_t pc = 0; pc < n; ++pc) {
      const Instr& in = tc.code[pc];
      std::uint64_t read = 0;
      for (ExprRef e : {in.a, in.b})
        if (e) visit_post_order(e, [&](ExprRef x) { if (x->op == Op::Load) read |= cells_bits(x->kids[0]); });
      if (is_lock_op(in.kind)) read |= cells_bits(in.a);
      if (const std::uint64_t undefined = read & ~defined[pc])
        for (std::size_t i = 0; i < tracked.size(); ++i)
          if (undefined >> i & 1) {
            const auto o = static_cast<ObjectId>(tracked[i] >> 32);
            return fail(at(in) + ": unsupported by the thread-modular proof: " +
                        tm_.objects[o].cells[tracked[i] & 0xffffffffu].name + " may be read before it is written");
          }
    }
    return true;
  }

  // Shared integer cells that start at 0 and that some lock operation or assume reads: their
  // ownership is tracked (at most kMaxLockCells; mutexes first).
  void choose_lock_cells() {
    std::unordered_set<std::uint64_t> assumed, mutexes;
    for (const Kind& k : kinds_)
      for (const Instr& in : tm_.threads[k.tid].code) {
        if (in.kind == InstrKind::Assume || in.kind == InstrKind::Goto) {
          if (in.a) visit_post_order(in.a, [&](ExprRef n) {
              if (n->op == Op::Load)
                if (const auto cells = pts_->cells_of(k.tid, n->kids[0]))
                  for (const auto& [o, c] : *cells) assumed.insert(cell_item(o, c));
            });
        }
      }
    std::vector<std::pair<int, std::uint32_t>> ranked;  // (priority, index into shared_cells_)
    for (std::uint32_t i = 0; i < shared_cells_.size(); ++i) {
      const auto [o, c] = shared_cells_[i];
      const Cell& cell = tm_.objects[o].cells[c];
      if (cell.type.is_ptr() || cell.init != 0 || cell.init_obj != 0) continue;
      if (cell.kind == CellKind::Mutex) ranked.push_back({0, i});
      else if (cell.kind == CellKind::Data && assumed.count(cell_item(o, c))) ranked.push_back({1, i});
    }
    std::stable_sort(ranked.begin(), ranked.end());
    for (const auto& [p, i] : ranked)
      if (locks_.size() < kMaxLockCells) locks_.push_back(i);
  }

  // ---- states ---------------------------------------------------------------------------------

  static void put(Row& r, const Value& v) {
    r.push_back(v.bits);
    r.push_back(v.obj);
  }
  static Value get(const Row& r, std::size_t& i) {
    Value v{r[i], static_cast<ObjectId>(r[i + 1])};
    i += 2;
    return v;
  }

  Row shared_row(const State& s) const {
    Row r;
    r.reserve(shared_cells_.size() * 2);
    for (const auto& [o, c] : shared_cells_) put(r, s.memory[o][c]);
    return r;
  }

  Row local_row(const Kind& k, const State& s, std::uint64_t flags) const {
    const ThreadState& ts = s.threads[k.tid];
    Row r{ts.pc};
    const auto& live = k.live[std::min<std::size_t>(ts.pc, k.live.size() - 1)];
    for (std::size_t i = 0; i < k.kept.size(); ++i) put(r, live[i] ? ts.locals[k.kept[i]] : Value{});
    for (const ObjectId o : k.owned) {
      r.push_back((s.live[o] ? 1u : 0u) | (s.allocated[o] ? 2u : 0u));
      for (std::uint32_t c = 0; c < tm_.objects[o].cells.size(); ++c)
        put(r, relevant_.count(cell_item(o, c)) ? s.memory[o][c] : Value{});
    }
    r.push_back(flags);
    return r;
  }

  State build(const Kind& k, const Row& g, const Row& l) const {
    State s = base_;
    std::size_t i = 0;
    for (const auto& [o, c] : shared_cells_) s.memory[o][c] = get(g, i);
    ThreadState& ts = s.threads[k.tid];
    ts.started = true;
    ts.pc = static_cast<std::uint32_t>(l[0]);
    i = 1;
    for (const LocalId x : k.kept) ts.locals[x] = get(l, i);
    for (const ObjectId o : k.owned) {
      s.live[o] = (l[i] & 1) != 0;
      s.allocated[o] = (l[i] & 2) != 0;
      ++i;
      for (std::uint32_t c = 0; c < tm_.objects[o].cells.size(); ++c) s.memory[o][c] = get(l, i);
    }
    return s;
  }

  // ---- nondet domains ---------------------------------------------------------------------------

  // What the condition `e` (true when `positive`) says about local `x`: an interval containing
  // every value of x for which it can hold (the full range when it says nothing usable).
  Range range_of(ExprRef e, bool positive, LocalId x, Type xt) const {
    const Range all = full_range(xt);
    switch (e->op) {
      case Op::LNot: return range_of(e->kids[0], !positive, x, xt);
      case Op::IntToBool: {
        const ExprRef k = e->kids[0];
        if ((k->op == Op::ZExt || k->op == Op::SExt) && k->kids[0]->type.is_bool())
          return range_of(k->kids[0], positive, x, xt);
        if (k->op == Op::Local && k->value == x) return positive ? all : Range{0, 0};
        return all;
      }
      case Op::LAnd: case Op::LOr: {
        const Range a = range_of(e->kids[0], positive, x, xt), b = range_of(e->kids[1], positive, x, xt);
        if ((e->op == Op::LAnd) == positive) return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)};
        if (a.empty()) return b;
        if (b.empty()) return a;
        return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
      }
      case Op::Eq: case Op::Ne: case Op::Ult: case Op::Ule: case Op::Slt: case Op::Sle: break;
      default: return all;
    }
    ExprRef a = e->kids[0], b = e->kids[1];
    bool flipped = false;  // x on the right: c OP x
    if (b->op == Op::Local && b->value == x && a->is_const()) {
      std::swap(a, b);
      flipped = true;
    }
    if (!(a->op == Op::Local && a->value == x && b->is_const()) || a->type != xt || !xt.is_int()) return all;
    const bool is_signed_op = e->op == Op::Slt || e->op == Op::Sle;
    if ((e->op != Op::Eq && e->op != Op::Ne) && is_signed_op != xt.is_signed) return all;
    const Int128 c = xt.is_signed ? static_cast<Int128>(as_signed(xt, b->value))
                                    : static_cast<Int128>(normalize(xt, b->value));
    // x OP c with OP in {==, !=, <, <=, >, >=}
    enum { EQ, NE, LT, LE, GT, GE } op = EQ;
    switch (e->op) {
      case Op::Eq: op = EQ; break;
      case Op::Ne: op = NE; break;
      case Op::Ult: case Op::Slt: op = flipped ? GT : LT; break;
      default: op = flipped ? GE : LE; break;
    }
    if (!positive) {
      switch (op) {
        case EQ: op = NE; break;
        case NE: op = EQ; break;
        case LT: op = GE; break;
        case LE: op = GT; break;
        case GT: op = LE; break;
        case GE: op = LT; break;
      }
    }
    switch (op) {
      case EQ: return {c, c};
      case NE: return all;
      case LT: return {all.lo, std::min(all.hi, c - 1)};
      case LE: return {all.lo, std::min(all.hi, c)};
      case GT: return {std::max(all.lo, c + 1), all.hi};
      case GE: return {std::max(all.lo, c), all.hi};
    }
    return all;
  }

  // Replaces locals defined since the Havoc by their definitions.
  ExprRef subst(ExprRef e, const std::unordered_map<LocalId, ExprRef>& defs) const {
    if (e->op == Op::Local) {
      const auto it = defs.find(static_cast<LocalId>(e->value));
      return it == defs.end() ? e : it->second;
    }
    if (e->kids.empty()) return e;
    std::vector<ExprRef> kids;
    bool same = true;
    for (ExprRef k : e->kids) {
      kids.push_back(subst(k, defs));
      same = same && kids.back() == k;
    }
    return same ? e : tm_.expr_builder().rebuild(e, kids);
  }

  // The values of x := nondet at `pc` that can matter: those for which the condition after it
  // (straight-line code of copies; an assume, or a branch whose other side aborts) can hold.
  std::optional<Range> bounded_range(const ThreadCode& tc, std::uint32_t pc, LocalId x) const {
    const Type xt = tc.locals[x].type;
    std::unordered_map<LocalId, ExprRef> defs;
    auto aborts = [&](std::uint32_t q) {
      for (int hops = 0; hops < 8 && q < tc.code.size(); ++hops) {
        const Instr& in = tc.code[q];
        if (in.kind == InstrKind::Abort) return true;
        if (always_taken(in)) { q = in.target; continue; }
        if (in.kind == InstrKind::Skip) { ++q; continue; }
        return false;
      }
      return false;
    };
    std::uint32_t p = pc + 1;
    for (int steps = 0; steps < 64 && p < tc.code.size(); ++steps) {
      const Instr& in = tc.code[p];
      switch (in.kind) {
        case InstrKind::Skip: ++p; continue;
        case InstrKind::Assign:
          if (in.lhs == x) return std::nullopt;
          defs[in.lhs] = subst(in.a, defs);
          ++p;
          continue;
        case InstrKind::Assume: return range_of(subst(in.a, defs), true, x, xt);
        case InstrKind::Goto: {
          if (always_taken(in)) {
            p = in.target;
            continue;
          }
          const ExprRef c = subst(in.a, defs);
          if (aborts(p + 1)) return range_of(c, true, x, xt);
          if (aborts(in.target)) return range_of(c, false, x, xt);
          return std::nullopt;
        }
        default: return std::nullopt;
      }
    }
    return std::nullopt;
  }

  const std::vector<Value>* domain(Kind& k, std::uint32_t pc) {
    if (const auto it = k.domains.find(pc); it != k.domains.end()) return &it->second;
    const ThreadCode& tc = tm_.threads[k.tid];
    const Instr& in = tc.code[pc];
    std::vector<Value> values;
    const Type t = in.lhs < tc.locals.size() ? tc.locals[in.lhs].type : Type::boolean();
    if (in.lhs == kNoLocal || !relevant_.count(local_item(k.tid, in.lhs))) {
      values.push_back({});
    } else if (t.is_bool()) {
      values = {{0, 0}, {1, 0}};
    } else if (t.is_ptr()) {
      fail(at(in) + ": unsupported by the thread-modular proof: a nondet pointer");
      return nullptr;
    } else {
      Range r = full_range(t);
      if (const auto b = bounded_range(tc, pc, in.lhs)) r = *b;
      if (!r.empty() && r.hi - r.lo + 1 > static_cast<Int128>(o_.max_nondet_range)) {
        fail(at(in) + ": unsupported by the thread-modular proof: a nondet value without a small finite range (" +
             in.text + ")");
        return nullptr;
      }
      for (Int128 v = r.lo; v <= r.hi; ++v) values.push_back({normalize(t, static_cast<std::uint64_t>(v)), 0});
    }
    return &k.domains.emplace(pc, std::move(values)).first->second;
  }

  // ---- one step of a thread (a whole atomic section) ----------------------------------------

  // The successors of kind k's thread from state s. False when the analysis must stop.
  bool expand(std::uint32_t ki, State s, std::uint64_t flags, std::vector<Succ>& out) {
    Kind& k = kinds_[ki];
    const ThreadId t = k.tid;
    const auto& code = tm_.threads[t].code;
    struct Frame {
      State s;
      unsigned steps;
      std::vector<std::pair<std::uint32_t, Row>> created;
    };
    std::vector<Frame> stack;
    stack.push_back({std::move(s), 0, {}});
    while (!stack.empty()) {
      Frame f = std::move(stack.back());
      stack.pop_back();
      if (!in_.enabled(f.s, t)) continue;  // blocked (inside an atomic section: for good)
      const std::uint32_t pc = f.s.threads[t].pc;
      const Instr& in = code[pc];
      std::vector<Value> choices{Value{}};
      if (in.kind == InstrKind::Havoc) {
        const auto* d = domain(k, pc);
        if (!d) return false;
        choices = *d;
      }
      for (const Value& v : choices) {
        Frame g{f.s, f.steps + 1, f.created};
        const StepResult r = in_.step(g.s, Step{t, {v}});
        if (r.outcome == StepOutcome::Error) {
          if (race_ && r.error_kind == AssertKind::Property) continue;  // ends its execution
          const char* what = r.error_kind == AssertKind::Property    ? "possible violation"
                             : r.error_kind == AssertKind::MemSafety ? "possible memory-safety error"
                                                                     : "modelling limit";
          return fail(tm_.where(r.loc) + ": " + what + " in the thread-modular abstraction (" + r.error_message +
                      "; not a proof either way)");
        }
        if (r.outcome != StepOutcome::Ok) continue;
        if (in.kind == InstrKind::ThreadCreate) {
          // The new instance starts from its kind's first slot; the site's counter stays 0, so
          // the same slot stands for every instance.
          const ThreadId child = in.threads[0];
          const std::uint32_t ck = kind_of_tid_.at(child);
          g.created.push_back({ck, local_row(kinds_[ck], g.s, 0)});
          g.s.threads[child] = base_.threads[child];
          if (in.lhs != kNoLocal) g.s.threads[t].locals[in.lhs] = Value{};
        }
        if (g.s.terminated) continue;  // abort / main returned: nothing moves any more
        if (g.s.atomic != 0) {
          if (g.s.threads[t].finished) continue;  // ended inside an atomic section: nothing moves
          if (g.steps >= kMaxAtomicSteps)
            return fail(at(in) + ": unsupported by the thread-modular proof: an atomic section runs for more than " +
                        std::to_string(kMaxAtomicSteps) + " steps");
          stack.push_back(std::move(g));
          continue;
        }
        Succ sc;
        sc.g = shared_row(g.s);
        sc.has_local = !g.s.threads[t].finished;
        if (sc.has_local) sc.l = local_row(k, g.s, flags);
        sc.created = std::move(g.created);
        out.push_back(std::move(sc));
      }
    }
    return true;
  }

  // ---- race-freedom: no two pairs of one shared state at a racy pair of next accesses -------

  // The data cells (object << 32 | cell) that kind k's thread's next step accesses in the state
  // built from (g, l), each with whether it writes.
  void next_cells(std::uint32_t kind, const Row& g, const Row& l, std::vector<std::pair<std::uint64_t, bool>>& out) {
    out.clear();
    const ThreadId t = kinds_[kind].tid;
    const State s = build(kinds_[kind], g, l);
    const ThreadState& ts = s.threads[t];
    if (!ts.started || ts.finished || ts.pc >= accesses_at_[t].size()) return;
    for (const Access& a : accesses_at_[t][ts.pc]) {
      const Value p = in_.eval(s, t, a.addr);
      const auto cell = in_.cell_of(s, p);
      // Only shared objects: an object a kind owns is each instance's own (pointers()).
      if (!cell || p.obj >= shared_obj_.size() || !shared_obj_[p.obj]) continue;
      if (a.object) {  // a free that succeeds writes every data cell of its heap object
        if (p.bits != 0 || tm_.objects[p.obj].kind != ObjectKind::Heap) continue;
        for (std::uint32_t c = 0; c < tm_.objects[p.obj].cells.size(); ++c)
          if (race_->is_data(p.obj, c)) out.push_back({(std::uint64_t{p.obj} << 32) | c, true});
        continue;
      }
      if (!race_->is_data(p.obj, *cell)) continue;
      out.push_back({(std::uint64_t{p.obj} << 32) | *cell, a.write});
    }
  }

  bool no_racing_pair() {
    std::vector<std::vector<std::pair<std::uint64_t, bool>>> cells;
    for (std::uint32_t g = 0; g < by_g_.size(); ++g) {
      const auto& entries = by_g_[g];
      cells.resize(entries.size());
      for (std::size_t i = 0; i < entries.size(); ++i)
        next_cells(entries[i].first, shared_.row(g), locals_.row(entries[i].second), cells[i]);
      if (o_.deadline && (g & 255) == 0 && clock::now() >= *o_.deadline) return fail("timeout");
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (cells[i].empty()) continue;
        for (std::size_t j = i; j < entries.size(); ++j) {
          const auto [k1, l1] = entries[i];
          const auto [k2, l2] = entries[j];
          if (k1 == 0 && k2 == 0) continue;  // main is one thread
          if ((flags_of(locals_.row(l1)) & flags_of(locals_.row(l2))) != 0) continue;  // one lock cell
          ++compared_;
          for (const auto& [c1, w1] : cells[i])
            for (const auto& [c2, w2] : cells[j])
              if (c1 == c2 && (w1 || w2)) {
                const ThreadId t1 = kinds_[k1].tid, t2 = kinds_[k2].tid;
                const State s1 = build(kinds_[k1], shared_.row(g), locals_.row(l1));
                const State s2 = build(kinds_[k2], shared_.row(g), locals_.row(l2));
                return fail(at(tm_.threads[t1].code[s1.threads[t1].pc]) + " and " +
                            at(tm_.threads[t2].code[s2.threads[t2].pc]) +
                            ": possible data race in the thread-modular abstraction (not a proof either way)");
              }
        }
      }
    }
    return true;
  }

  // ---- the fixpoint -------------------------------------------------------------------------------

  std::uint64_t flags_of(const Row& l) const { return l.back(); }

  Value lock_value(const Row& g, std::uint32_t lock) const {
    std::size_t i = 2 * locks_[lock];
    return get(g, i);
  }

  bool compatible(const Transition& tr, std::uint32_t kind, std::uint64_t flags) const {
    if (o_.test_no_interference) return false;
    if (tr.kind == 0 && kind == 0) return false;  // main is one thread
    return (tr.flags & flags) == 0;               // two threads never hold one lock cell
  }

  void add(std::uint32_t kind, std::uint32_t g, std::uint32_t l) {
    const std::uint64_t key = (std::uint64_t{kind} << 56) | (std::uint64_t{g} << 28) | l;
    if (!seen_.insert(key).second) return;
    if (by_g_.size() <= g) by_g_.resize(g + 1);
    by_g_[g].push_back({kind, l});
    work_.push_back({kind, g, l});
  }

  void add_transition(std::uint32_t g, const Transition& tr) {
    if (guar_.size() <= g) guar_.resize(g + 1);
    auto& list = guar_[g];
    if (std::find(list.begin(), list.end(), tr) != list.end()) return;
    list.push_back(tr);
    ++transitions_;
    if (g >= by_g_.size()) return;
    for (std::size_t i = 0; i < by_g_[g].size(); ++i) {
      const auto [kind, l] = by_g_[g][i];
      if (compatible(tr, kind, flags_of(locals_.row(l)))) add(kind, tr.to, l);
    }
  }

  Outcome fixpoint() {
    shared_ = Interner{};
    locals_ = Interner{};
    seen_.clear();
    by_g_.clear();
    guar_.clear();
    work_.clear();
    transitions_ = 0;
    {
      State s0 = base_;
      s0.threads[0].started = true;
      add(0, shared_.intern(shared_row(s0)), locals_.intern(local_row(kinds_[0], s0, 0)));
    }
    std::size_t processed = 0;
    std::vector<Succ> succs;
    while (!work_.empty()) {
      const auto [kind, g, l] = work_.front();
      work_.pop_front();
      if ((++processed & 255) == 0) {
        if (o_.deadline && clock::now() >= *o_.deadline) {
          fail("timeout");
          return Outcome::Failed;
        }
        if (seen_.size() > o_.max_pairs)
{
          fail("state limit (" + std::to_string(o_.max_pairs) + " thread-modular pairs)");
          return Outcome::Failed;
        }
      }
      if (shared_.size() >= (1u << 28) || locals_.size() >= (1u << 28))
{
        fail("state limit (2^28 shared or local states)");
        return Outcome::Failed;
      }
      const Row &gr = shared_.row(g), &lr = locals_.row(l);  // (rows never move: map nodes)
      const std::uint64_t flags = flags_of(lr);
      succs.clear();
      if (!expand(kind, build(kinds_[kind], gr, lr), flags, succs)) return Outcome::Failed;
      for (Succ& sc : succs) {
        // Lock cells: a thread that changes one must hold it or find it 0; it then holds it
        // exactly while it is non-zero.
        std::uint64_t after = flags;
        for (std::uint32_t j = 0; j < locks_.size(); ++j) {
          const Value b = lock_value(gr, j), a = lock_value(sc.g, j);
          if (a == b) continue;
          if (nonzero(b) && !(flags >> j & 1)) {
            locks_.erase(locks_.begin() + j);  // not a lock: drop it and start again
            return Outcome::Restart;
          }
          after = nonzero(a) ? (after | (1ULL << j)) : (after & ~(1ULL << j));
        }
        const std::uint32_t g2 = shared_.intern(std::move(sc.g));
        if (sc.has_local) {
          sc.l.back() = after;
          add(kind, g2, locals_.intern(std::move(sc.l)));
        }
        for (auto& [ck, row] : sc.created) add(ck, g2, locals_.intern(std::move(row)));
        if (g2 != g) add_transition(g, {g2, kind, flags});
      }
      if (g < guar_.size())
        for (std::size_t i = 0; i < guar_[g].size(); ++i) {
          const Transition tr = guar_[g][i];
          if (compatible(tr, kind, flags)) add(kind, tr.to, l);
        }
    }
    return Outcome::Fixpoint;
  }

  const ThreadModel& tm_;
  const ModularOptions& o_;
  Interpreter in_;
  std::string fail_;
  std::vector<Kind> kinds_;
  std::unordered_map<ThreadId, std::uint32_t> kind_of_tid_;
  std::vector<bool> shared_obj_;
  std::optional<PointsTo> pts_;
  std::unordered_set<std::uint64_t> relevant_;
  std::vector<std::pair<ObjectId, std::uint32_t>> shared_cells_;  // the shared row's layout
  std::vector<std::uint32_t> locks_;                               // indexes into shared_cells_
  State base_;
  Interner shared_, locals_;
  std::unordered_set<std::uint64_t> seen_;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> by_g_;  // g -> (kind, l)
  std::vector<std::vector<Transition>> guar_;                               // g -> transitions
  std::deque<std::array<std::uint32_t, 3>> work_;
  std::size_t transitions_ = 0;
  unsigned restarts_ = 0;
  const RaceFreedomQuery* race_ = nullptr;
  std::vector<std::vector<std::vector<Access>>> accesses_at_;  // race_: [thread][pc]
  std::size_t compared_ = 0;
};

}  // namespace

ModularResult prove_any_number_of_threads(const ir::ThreadModel& tm, const ModularOptions& options) {
  return Analysis(tm, options).run();
}

ModularResult prove_race_freedom(const ir::ThreadModel& tm, const RaceFreedomQuery& query,
                                 const ModularOptions& options) {
  return Analysis(tm, options, &query).run();
}

}  // namespace siren::modular
