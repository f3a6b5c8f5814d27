// Explicit-state search for `siren check` (explicit/search.hpp).
#include "explicit/search.hpp"

#include "ir/access.hpp"
#include "ir/points_to.hpp"
#include "ir/transactions.hpp"
#include "ir/cfg.hpp"
#include "explicit/explorer.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace siren::explicit_state {

using namespace ir;

namespace {

/// The fixed layout of a flattened State: which values are pointers (two words: bits, object).
class Layout {
 public:
  explicit Layout(const ThreadModel& tm) {
    for (const ThreadCode& th : tm.threads) {
      std::vector<bool> p;
      for (const LocalVar& l : th.locals) p.push_back(l.type.is_ptr());
      local_ptr_.push_back(std::move(p));
    }
    for (const Object& o : tm.objects) {
      std::vector<bool> p;
      for (const Cell& c : o.cells) p.push_back(c.type.is_ptr());
      cell_ptr_.push_back(std::move(p));
    }
    words_ = 1 + 3 * tm.threads.size() + (2 * tm.objects.size() + 63) / 64;
    for (const auto& v : local_ptr_)
      for (bool p : v) words_ += p ? 2 : 1;
    for (const auto& v : cell_ptr_)
      for (bool p : v) words_ += p ? 2 : 1;
  }

  std::size_t words() const { return words_; }

  void encode(const State& s, std::uint64_t* out) const {
    std::size_t i = 0;
    out[i++] = std::uint64_t{s.atomic} | (std::uint64_t{s.terminated} << 32);
    for (std::size_t t = 0; t < s.threads.size(); ++t) {
      const ThreadState& ts = s.threads[t];
      out[i++] = std::uint64_t{ts.pc} | (std::uint64_t{ts.started} << 32) | (std::uint64_t{ts.finished} << 33);
      out[i++] = ts.retval.bits;
      out[i++] = ts.retval.obj;
      for (std::size_t l = 0; l < ts.locals.size(); ++l) {
        out[i++] = ts.locals[l].bits;
        if (local_ptr_[t][l]) out[i++] = ts.locals[l].obj;
      }
    }
    for (std::size_t o = 0; o < s.memory.size(); ++o)
      for (std::size_t c = 0; c < s.memory[o].size(); ++c) {
        out[i++] = s.memory[o][c].bits;
        if (cell_ptr_[o][c]) out[i++] = s.memory[o][c].obj;
      }
    const std::size_t bits_at = i;
    for (; i < words_; ++i) out[i] = 0;
    for (std::size_t o = 0; o < s.live.size(); ++o) {
      if (s.live[o]) out[bits_at + (2 * o) / 64] |= std::uint64_t{1} << ((2 * o) % 64);
      if (o < s.allocated.size() && s.allocated[o])
        out[bits_at + (2 * o + 1) / 64] |= std::uint64_t{1} << ((2 * o + 1) % 64);
    }
  }

  /// Overwrites `s` (which has the right shape: a decoded or initial state).
  void decode(const std::uint64_t* in, State& s) const {
    std::size_t i = 0;
    s.atomic = static_cast<std::uint32_t>(in[i] & 0xffffffffu);
    s.terminated = (in[i++] >> 32) & 1;
    for (std::size_t t = 0; t < s.threads.size(); ++t) {
      ThreadState& ts = s.threads[t];
      ts.pc = static_cast<std::uint32_t>(in[i] & 0xffffffffu);
      ts.started = (in[i] >> 32) & 1;
      ts.finished = (in[i++] >> 33) & 1;
      ts.retval.bits = in[i++];
      ts.retval.obj = static_cast<ObjectId>(in[i++]);
      for (std::size_t l = 0; l < ts.locals.size(); ++l) {
        ts.locals[l].bits = in[i++];
        ts.locals[l].obj = local_ptr_[t][l] ? static_cast<ObjectId>(in[i++]) : 0;
      }
    }
    for (std::size_t o = 0; o < s.memory.size(); ++o)
      for (std::size_t c = 0; c < s.memory[o].size(); ++c) {
        s.memory[o][c].bits = in[i++];
        s.memory[o][c].obj = cell_ptr_[o][c] ? static_cast<ObjectId>(in[i++]) : 0;
      }
    const std::size_t bits_at = i;
    for (std::size_t o = 0; o < s.live.size(); ++o) {
      s.live[o] = (in[bits_at + (2 * o) / 64] >> ((2 * o) % 64)) & 1;
      if (o < s.allocated.size()) s.allocated[o] = (in[bits_at + (2 * o + 1) / 64] >> ((2 * o + 1) % 64)) & 1;
    }
  }

 private:
  std::vector<std::vector<bool>> local_ptr_, cell_ptr_;
  std::size_t words_ = 0;
};

/// States as fixed-size rows in chunks, deduplicated by an open-addressing table whose slots
/// hold a row index and 32 bits of the row's hash (compared before the row itself, and used
/// to rehash when the table grows).
class StateStore {
 public:
  explicit StateStore(std::size_t words) : words_(words) { table_.assign(1u << 16, kFree); }

  static constexpr std::uint32_t kEmpty = ~0u;

  std::size_t size() const { return size_; }
  const std::uint64_t* row(std::size_t i) const { return chunks_[i >> kChunkBits].get() + (i & kChunkMask) * words_; }
  std::size_t bytes() const {
    return chunks_.size() * (std::size_t{1} << kChunkBits) * words_ * 8 + table_.size() * 8;
  }

  std::uint32_t hash(const std::uint64_t* w) const {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (std::size_t i = 0; i < words_; ++i) {
      h ^= w[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdULL;
    }
    return static_cast<std::uint32_t>((h ^ (h >> 29)) >> 16);
  }

  /// Index of the row equal to `w` (hash `h`), or kEmpty.
  std::uint32_t find(const std::uint64_t* w, std::uint32_t h) const {
    const std::size_t mask = table_.size() - 1;
    for (std::size_t p = h & mask;; p = (p + 1) & mask) {
      const std::uint64_t slot = table_[p];
      if (slot == kFree) return kEmpty;
      const auto idx = static_cast<std::uint32_t>(slot);
      if (static_cast<std::uint32_t>(slot >> 32) == h && std::equal(w, w + words_, row(idx))) return idx;
    }
  }
  std::uint32_t find(const std::uint64_t* w) const { return find(w, hash(w)); }

  /// Adds `w` (hash `h`, not present); returns its index.
  std::uint32_t add(const std::uint64_t* w, std::uint32_t h) {
    if (2 * (size_ + 1) > table_.size()) grow();
    if ((size_ >> kChunkBits) >= chunks_.size())
      chunks_.emplace_back(new std::uint64_t[(std::size_t{1} << kChunkBits) * words_]);
    const auto idx = static_cast<std::uint32_t>(size_++);
    std::copy(w, w + words_, chunks_[idx >> kChunkBits].get() + (idx & kChunkMask) * words_);
    place((std::uint64_t{h} << 32) | idx);
    return idx;
  }

 private:
  static constexpr unsigned kChunkBits = 14;
  static constexpr std::size_t kChunkMask = (std::size_t{1} << kChunkBits) - 1;
  static constexpr std::uint64_t kFree = ~std::uint64_t{0};

  void place(std::uint64_t slot) {
    const std::size_t mask = table_.size() - 1;
    std::size_t p = static_cast<std::uint32_t>(slot >> 32) & mask;
    while (table_[p] != kFree) p = (p + 1) & mask;
    table_[p] = slot;
  }
  void grow() {
    std::vector<std::uint64_t> old(table_.size() * 2, kFree);
    old.swap(table_);
    for (std::uint64_t slot : old)
      if (slot != kFree) place(slot);
  }

  std::size_t words_;
  std::size_t size_ = 0;
  std::vector<std::unique_ptr<std::uint64_t[]>> chunks_;
  std::vector<std::uint64_t> table_;
};

/// What a thread may still access from a pc on (every instruction reachable in its code),
/// abstracted for the dependence test of visible ample sets: cells with a constant address,
/// whole objects for addresses with a constant base object or with a points-to set
/// (ir/points_to.hpp), `top` for a pointer that may point anywhere.
struct Future {
  std::unordered_set<std::uint64_t> cell_r, cell_w;  // object << 32 | offset
  std::unordered_set<ObjectId> obj_r, obj_w, alloc_w;
  bool top_r = false, top_w = false, alloc_top_w = false;

  void merge(const Future& o) {
    cell_r.insert(o.cell_r.begin(), o.cell_r.end());
    cell_w.insert(o.cell_w.begin(), o.cell_w.end());
    obj_r.insert(o.obj_r.begin(), o.obj_r.end());
    obj_w.insert(o.obj_w.begin(), o.obj_w.end());
    alloc_w.insert(o.alloc_w.begin(), o.alloc_w.end());
    top_r |= o.top_r;
    top_w |= o.top_w;
    alloc_top_w |= o.alloc_top_w;
  }

  /// Adds access `a` of thread t.
  void add(const Access& a, ThreadId t, const ir::PointsTo& pts) {
    if (a.kind == LocKind::Cell) {
      if (a.static_cell()) {
        (a.write ? cell_w : cell_r).insert((std::uint64_t{a.addr->obj} << 32) | (a.addr->value & 0xffffffffULL));
      } else if (const ObjectId o = base_object(a.addr)) {
        (a.write ? obj_w : obj_r).insert(o);
      } else if (!add_targets(pts, t, a.addr, a.write ? obj_w : obj_r)) {
        (a.write ? top_w : top_r) = true;
      }
    } else if (a.kind == LocKind::Alloc && a.write) {
      if (!a.addr) alloc_w.insert(a.obj);
      else if (const ObjectId o = base_object(a.addr)) alloc_w.insert(o);
      else if (!add_targets(pts, t, a.addr, alloc_w)) alloc_top_w = true;
    }
    // Started / Finished / Atomic / Terminated: see Search::independent.
  }

  /// The objects pointer p of thread t may designate, into `out`; false when it may point
  /// anywhere.
  static bool add_targets(const ir::PointsTo& pts, ThreadId t, ExprRef p, std::unordered_set<ObjectId>& out) {
    const ir::PtsSet s = pts.of(t, p);
    if (s.any) return false;
    for (const ir::PtsTarget& x : s.targets) out.insert(x.obj);
    return true;
  }

  static ObjectId base_object(ExprRef p) {
    while (p && p->op == Op::PtrAdd) p = p->kids[0];
    return p && p->op == Op::ObjAddr ? p->obj : 0;
  }

  /// Can a step with the concrete accesses `alpha` conflict with one of these accesses?
  bool conflicts(const std::vector<Location>& alpha) const {
    for (const Location& l : alpha) {
      if (l.kind == LocKind::Cell) {
        const auto o = static_cast<ObjectId>(l.index >> 32);
        if (top_w || obj_w.count(o) || cell_w.count(l.index)) return true;
        if (l.write && (top_r || obj_r.count(o) || cell_r.count(l.index))) return true;
      } else if (l.kind == LocKind::Alloc && !l.write) {
        if (alloc_top_w || alloc_w.count(static_cast<ObjectId>(l.index))) return true;
      }
    }
    return false;
  }
};

/// Future[t][pc], shared by the pcs of one strongly connected component of t's code.
std::vector<std::vector<std::shared_ptr<const Future>>> futures(const ThreadModel& tm) {
  std::vector<std::vector<std::shared_ptr<const Future>>> out;
  const ir::PointsTo pts = ir::PointsTo::analyse(tm);
  for (ThreadId t = 0; t < tm.threads.size(); ++t) {
    const auto& code = tm.threads[t].code;
    const auto n = static_cast<std::uint32_t>(code.size());
    std::vector<std::vector<std::uint32_t>> succ(n);
    for (std::uint32_t i = 0; i < n; ++i)
      succ[i] = successors(code, i, {.exit_to_end = false, .taken_goto_falls_through = true, .include_end = false});
    // Tarjan (iterative): components come out in reverse topological order.
    std::vector<std::int64_t> index(n, -1), low(n, 0), comp(n, -1);
    std::vector<char> on(n, 0);
    std::vector<std::uint32_t> stack;
    std::vector<std::shared_ptr<const Future>> comp_future;
    std::vector<std::shared_ptr<const Future>> at(n);
    std::int64_t counter = 0;
    for (std::uint32_t root = 0; root < n; ++root) {
      if (index[root] >= 0) continue;
      std::vector<std::pair<std::uint32_t, std::size_t>> call{{root, 0}};
      index[root] = low[root] = counter++;
      stack.push_back(root);
      on[root] = 1;
      while (!call.empty()) {
        auto& [v, k] = call.back();
        if (k < succ[v].size()) {
          const std::uint32_t w = succ[v][k++];
          if (index[w] < 0) {
            index[w] = low[w] = counter++;
            stack.push_back(w);
            on[w] = 1;
            call.push_back({w, 0});
          } else if (on[w]) {
            low[v] = std::min(low[v], index[w]);
          }
          continue;
        }
        if (low[v] == index[v]) {
          auto f = std::make_shared<Future>();
          std::vector<std::uint32_t> members;
          for (;;) {
            const std::uint32_t w = stack.back();
            stack.pop_back();
            on[w] = 0;
            comp[w] = static_cast<std::int64_t>(comp_future.size());
            members.push_back(w);
            if (w == v) break;
          }
          for (std::uint32_t m : members) {
            for (const Access& a : accesses(tm, t, m)) f->add(a, t, pts);
            for (std::uint32_t w : succ[m])
              if (comp[w] >= 0 && comp[w] != comp[v]) f->merge(*comp_future[static_cast<std::size_t>(comp[w])]);
          }
          comp_future.push_back(f);
          for (std::uint32_t m : members) at[m] = f;
        }
        const std::uint32_t done = v;
        call.pop_back();
        if (!call.empty()) low[call.back().first] = std::min(low[call.back().first], low[done]);
      }
    }
    out.push_back(std::move(at));
  }
  return out;
}

/// Rows of `words` words, stored compressed when they are long (more than 48 words): a row is cut into blocks of
/// kBlock words, every distinct block is stored once (a StateStore of blocks), and the row
/// becomes the list of its block ids (a StateStore of id rows). Successive states differ in
/// a few blocks, so long states (big arrays, many threads) share most of their storage.
class RowStore {
 public:
  static constexpr std::size_t kBlock = 8;
  static constexpr std::uint32_t kEmpty = StateStore::kEmpty;

  explicit RowStore(std::size_t words)
      : words_(words), compressed_(words > 6 * kBlock), nblocks_((words + kBlock - 1) / kBlock),
        rows_(compressed_ ? (nblocks_ + 1) / 2 : words), blocks_(kBlock), ids_((nblocks_ + 1) / 2), block_(kBlock) {}

  std::size_t size() const { return rows_.size(); }
  std::size_t bytes() const { return rows_.bytes() + (compressed_ ? blocks_.bytes() : 0); }

  std::uint32_t find(const std::uint64_t* row) {
    if (!compressed_) return rows_.find(row);
    for (std::size_t b = 0; b < nblocks_; ++b) {
      const std::uint32_t id = blocks_.find(block(row, b));
      if (id == kEmpty) return kEmpty;
      set_id(b, id);
    }
    return rows_.find(ids_.data());
  }

  /// The row's index, and whether it was new.
  std::pair<std::uint32_t, bool> insert(const std::uint64_t* row) {
    const std::uint64_t* key = row;
    if (compressed_) {
      for (std::size_t b = 0; b < nblocks_; ++b) {
        const std::uint64_t* blk = block(row, b);
        const std::uint32_t h = blocks_.hash(blk);
        std::uint32_t id = blocks_.find(blk, h);
        if (id == kEmpty) id = blocks_.add(blk, h);
        set_id(b, id);
      }
      key = ids_.data();
    }
    const std::uint32_t h = rows_.hash(key);
    const std::uint32_t idx = rows_.find(key, h);
    if (idx != kEmpty) return {idx, false};
    return {rows_.add(key, h), true};
  }

  void get(std::size_t i, std::uint64_t* out) const {
    const std::uint64_t* r = rows_.row(i);
    if (!compressed_) {
      std::copy(r, r + words_, out);
      return;
    }
    for (std::size_t b = 0; b < nblocks_; ++b) {
      const auto id = static_cast<std::uint32_t>(r[b / 2] >> (32 * (b % 2)));
      const std::uint64_t* blk = blocks_.row(id);
      const std::size_t n = std::min(kBlock, words_ - b * kBlock);
      std::copy(blk, blk + n, out + b * kBlock);
    }
  }

 private:
  const std::uint64_t* block(const std::uint64_t* row, std::size_t b) {
    const std::size_t n = std::min(kBlock, words_ - b * kBlock);
    if (n == kBlock) return row + b * kBlock;
    std::fill(block_.begin(), block_.end(), 0);  // the last, partial block: zero-padded
    std::copy(row + b * kBlock, row + b * kBlock + n, block_.begin());
    return block_.data();
  }
  void set_id(std::size_t b, std::uint32_t id) {
    std::uint64_t& w = ids_[b / 2];
    const unsigned shift = 32 * (b % 2);
    w = (w & ~(std::uint64_t{0xffffffffu} << shift)) | (std::uint64_t{id} << shift);
  }

  std::size_t words_;
  bool compressed_;
  std::size_t nblocks_;
  StateStore rows_, blocks_;
  std::vector<std::uint64_t> ids_, block_;
};

class Search {
 public:
  Search(const ThreadModel& tm, const SearchOptions& o) : tm_(tm), o_(o), in_(tm), layout_(tm) {
    for (ThreadId t = 0; t < tm.threads.size(); ++t) {
      std::vector<char> v;
      for (std::uint32_t pc = 0; pc < tm.threads[t].code.size(); ++pc) v.push_back(invisible_step(tm, t, pc));
      invisible_.push_back(std::move(v));
    }
    // Every init_nondet cell (initial cells of non-heap objects, cells of heap objects) gets a
    // bit in the state: set while the cell holds its indeterminate value and no step has read
    // or written it. The stored value is then 0 and stands for any value of the domain.
    heap_bits_.resize(tm.objects.size());
    for (const Object& obj : tm.objects)
      for (std::size_t c = 0; c < obj.cells.size(); ++c)
        if (obj.id != 0 && obj.cells[c].init_nondet) {
          const std::size_t bit = nd_.size();
          nd_.push_back({obj.id, static_cast<std::uint32_t>(c), obj.cells[c].type});
          nd_index_.emplace((std::uint64_t{obj.id} << 32) | obj.cells[c].offset, bit);  // as Location::index
          if (obj.kind == ObjectKind::Heap) heap_bits_[obj.id].push_back(bit);
        }
    words_ = layout_.words() + (nd_.size() + 63) / 64;
    if (o_.por) future_ = futures(tm);
  }

  SearchResult run() {
    store_ = std::make_unique<RowStore>(words_);
    r_.state_words = words_;
    std::vector<std::uint64_t> buf(words_, 0);
    layout_.encode(in_.initial_state({}), buf.data());
    for (std::size_t b = 0; b < nd_.size(); ++b)
      if (tm_.objects[nd_[b].obj].kind != ObjectKind::Heap) set_bit(buf.data(), b, true);
    store_->insert(buf.data());
    parent_.push_back(0);
    thread_.push_back(kRoot);
    depth_first_ = o_.por;
    if (depth_first_) dfs();
    else bfs();
    r_.states = store_->size();
    return finish();
  }

 private:
  // ---- Indeterminate cells, chosen at their first read ----
  //
  // Reading an untouched cell is where its value first matters, so the step that reads it
  // branches over the domain there (and the cell becomes touched); a write makes it touched
  // without a choice. This explores the same executions as choosing every value up front (no
  // step before the read could observe the value), with far fewer states. A trace records the
  // choices; they become the initial nondet values (non-heap cells) or the nondet values of
  // the Malloc step that allocated the object (heap cells), which is what replay() takes.
  struct NdCell {
    ObjectId obj;
    std::uint32_t cell;
    Type type;
  };
  struct Choice {
    std::uint32_t bit;
    Value value;
  };

  static constexpr std::uint16_t kRoot = 0xffff;

  bool bit(const std::uint64_t* row, std::size_t b) const { return (row[layout_.words() + b / 64] >> (b % 64)) & 1; }
  void set_bit(std::uint64_t* row, std::size_t b, bool v) const {
    const std::uint64_t m = std::uint64_t{1} << (b % 64);
    if (v) row[layout_.words() + b / 64] |= m;
    else row[layout_.words() + b / 64] &= ~m;
  }

  struct Succ {
    std::vector<std::uint64_t> row;
    ThreadId thread;
    std::vector<Value> nondet;
    std::vector<Choice> choices;
  };

  std::vector<std::vector<Value>> havoc_choices(const State& s, ThreadId t) {
    const ThreadCode& th = tm_.threads[t];
    const Instr& in = th.code[s.threads[t].pc];
    if (in.kind == InstrKind::Havoc && in.lhs < th.locals.size()) {
      std::vector<std::vector<Value>> out;
      for (const Value& v : nondet_domain(th.locals[in.lhs].type, o_.nondet_min, o_.nondet_max, r_.nondet_restricted))
        out.push_back({v});
      return out;
    }
    return {{}};  // Malloc: heap cells start untouched (0 in the row), chosen when read
  }

  /// The accesses of t's next step in `s`, when indeterminate cells exist and the step is not
  /// invisible (otherwise it touches none of them); else empty.
  std::vector<Location> nd_relevant_accesses(const State& s, ThreadId t) const {
    if (nd_.empty() || invisible_[t][s.threads[t].pc]) return {};
    return access_locations(tm_, in_, s, t);
  }

  /// Untouched cells among `locs` that are read (`reads`) or only written (`writes`).
  void untouched_accesses(const std::vector<Location>& locs, const std::uint64_t* bits_row,
                          std::vector<std::size_t>& reads, std::vector<std::size_t>& writes) const {
    reads.clear();
    writes.clear();
    if (nd_.empty()) return;
    for (const Location& l : locs) {
      if (l.kind != LocKind::Cell) continue;
      auto it = nd_index_.find(l.index);
      if (it == nd_index_.end() || !bit(bits_row, it->second)) continue;
      (l.write ? writes : reads).push_back(it->second);
    }
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
  }

  /// Successors of thread t's step in `s` (row `row`). Errors are recorded; returns false when a
  /// Property error was found and the search must stop.
  bool successors(std::uint32_t from, const State& s, const std::uint64_t* row, ThreadId t, std::vector<Succ>& out) {
    std::vector<std::uint64_t> bits(row, row + words_);
    std::vector<Choice> chosen;
    return successors_rec(from, s, bits, chosen, t, out);
  }

  bool successors_rec(std::uint32_t from, const State& s, std::vector<std::uint64_t>& bits,
                      std::vector<Choice>& chosen, ThreadId t, std::vector<Succ>& out) {
    const ThreadState& ts = s.threads[t];
    if (s.terminated || !ts.started || ts.finished || ts.pc >= tm_.threads[t].code.size()) return true;
    std::vector<std::size_t> reads, writes;
    untouched_accesses(nd_relevant_accesses(s, t), bits.data(), reads, writes);
    if (!reads.empty()) {
      // Branch over the values of the untouched cells read; then look again (the addresses
      // of further reads may depend on the chosen values).
      std::vector<std::vector<Value>> doms;
      for (std::size_t b : reads)
        doms.push_back(nondet_domain(nd_[b].type, o_.nondet_min, o_.nondet_max, r_.nondet_restricted));
      bool capped = false;
      const auto combos = nondet_product(doms, o_.max_nondet_combinations, capped);
      if (capped) r_.nondet_restricted = true;
      for (const auto& combo : combos) {
        State s2 = s;
        std::vector<std::uint64_t> bits2 = bits;
        const std::size_t mark = chosen.size();
        for (std::size_t i = 0; i < reads.size(); ++i) {
          const NdCell& c = nd_[reads[i]];
          s2.memory[c.obj][c.cell] = combo[i];
          set_bit(bits2.data(), reads[i], false);
          chosen.push_back({static_cast<std::uint32_t>(reads[i]), combo[i]});
        }
        if (!successors_rec(from, s2, bits2, chosen, t, out)) return false;
        chosen.resize(mark);
      }
      return true;
    }
    if (!in_.enabled(s, t)) return true;
    for (std::size_t b : writes) set_bit(bits.data(), b, false);
    const Instr& in = tm_.threads[t].code[ts.pc];
    for (auto& nd : havoc_choices(s, t)) {
      State next = s;
      Step step{t, std::move(nd)};
      const StepResult res = in_.step(next, step);
      if (res.outcome == StepOutcome::Error) {
        if (res.error_kind == AssertKind::Property) {
          if (o_.target) continue;  // the execution ends; an assertion is not the property
          found_ = true;
          r_.error_message = res.error_message;
          record_path(from, &step, chosen);
          return false;
        }
        if (!r_.other_error)
          r_.other_error = ir::error_reason(res.error_kind, tm_.where(res.loc), res.error_message, res.error_limit);
        continue;
      }
      if (res.outcome != StepOutcome::Ok) continue;
      Succ sc;
      sc.row.resize(words_);
      layout_.encode(next, sc.row.data());
      std::copy(bits.begin() + static_cast<std::ptrdiff_t>(layout_.words()), bits.end(),
                sc.row.begin() + static_cast<std::ptrdiff_t>(layout_.words()));
      if (in.kind == InstrKind::Malloc && in.obj < heap_bits_.size())
        for (std::size_t b : heap_bits_[in.obj]) set_bit(sc.row.data(), b, true);
      sc.thread = t;
      sc.nondet = std::move(step.nondet);
      sc.choices = chosen;
      out.push_back(std::move(sc));
    }
    return true;
  }

  /// The schedule to state `from` (then `last`, when given) and the values of every
  /// indeterminate cell it chose.
  void record_path(std::uint32_t from, const Step* last, const std::vector<Choice>& last_choices) {
    std::vector<Step> trace;
    if (last) trace.push_back(*last);
    std::vector<Choice> choices = last_choices;
    for (std::uint32_t n = from; thread_[n] != kRoot; n = parent_[n]) {
      Step st{thread_[n], {}};
      if (auto it = nondet_.find(n); it != nondet_.end()) st.nondet = it->second;
      if (auto it = choices_.find(n); it != choices_.end()) choices.insert(choices.end(), it->second.begin(), it->second.end());
      trace.push_back(std::move(st));
    }
    std::reverse(trace.begin(), trace.end());
    // Initial cells: replay()'s initial nondet vector, in (object, cell) order of non-heap cells.
    std::vector<Value> initial;
    std::unordered_map<std::uint32_t, std::size_t> initial_pos;
    for (std::size_t b = 0; b < nd_.size(); ++b)
      if (tm_.objects[nd_[b].obj].kind != ObjectKind::Heap) {
        initial_pos[static_cast<std::uint32_t>(b)] = initial.size();
        initial.push_back(Value{});
      }
    std::unordered_map<ObjectId, std::vector<std::pair<std::uint32_t, Value>>> heap;
    for (const Choice& c : choices) {
      if (auto it = initial_pos.find(c.bit); it != initial_pos.end()) initial[it->second] = c.value;
      else heap[nd_[c.bit].obj].push_back({nd_[c.bit].cell, c.value});
    }
    // Heap cells: the nondet values of the Malloc step of their object (found by replaying).
    if (!heap.empty()) {
      State st = in_.initial_state(initial);
      for (Step& step : trace) {
        const ThreadState& ts = st.threads[step.thread];
        const auto& code = tm_.threads[step.thread].code;
        if (ts.pc < code.size() && code[ts.pc].kind == InstrKind::Malloc) {
          const ObjectId o = code[ts.pc].obj;
          if (auto it = heap.find(o); it != heap.end()) {
            const Object& obj = tm_.objects[o];
            step.nondet.clear();
            for (std::uint32_t c = 0; c < obj.cells.size(); ++c) {
              if (!obj.cells[c].init_nondet) continue;
              Value v{};
              for (const auto& [cell, val] : it->second)
                if (cell == c) v = val;
              step.nondet.push_back(v);
            }
          }
        }
        if (in_.step(st, step).outcome != StepOutcome::Ok) break;
      }
    }
    r_.error_trace = std::move(trace);
    r_.error_initial_nondet = std::move(initial);
  }

  /// Stores a successor; its index, or kEmpty when it was already stored.
  std::uint32_t add(std::uint32_t from, Succ& sc) {
    const auto [idx, is_new] = store_->insert(sc.row.data());
    if (!is_new) return RowStore::kEmpty;
    parent_.push_back(from);
    thread_.push_back(static_cast<std::uint16_t>(sc.thread));
    if (!sc.nondet.empty()) nondet_.emplace(idx, std::move(sc.nondet));
    if (!sc.choices.empty()) choices_.emplace(idx, std::move(sc.choices));
    return idx;
  }

  bool out_of_budget() {
    const auto now = std::chrono::steady_clock::now();
    if ((o_.deadline && now >= *o_.deadline) ||
        ((r_.nondet_restricted || r_.other_error) && o_.restricted_deadline && now >= *o_.restricted_deadline)) {
      // (after a restricted draw the search could only have found errors, never proven SAFE)
      r_.reason = r_.nondet_restricted ? "timeout (nondet values restricted to " + std::to_string(o_.nondet_min) +
                                             ".." + std::to_string(o_.nondet_max) + ")"
                                       : "timeout";
      r_.time_limit = true;
      return true;
    }
    // Stored rows, the hash table (and its next doubling), parents, and the side tables.
    const std::size_t bytes = store_->bytes() + store_->size() * 12 + parent_.capacity() * 6 +
                              (nondet_.size() + choices_.size()) * 128;
    if (bytes > o_.max_memory_mb * std::size_t{1024 * 1024}) {
      r_.reason = "state storage limit (" + std::to_string(o_.max_memory_mb) + " MB) reached";
      return true;
    }
    if (store_->size() >= 0xfffffff0u) {
      r_.reason = "too many states";
      return true;
    }
    return false;
  }

  /// A thread whose next step alone is an ample set in `s` (-1: none): an enabled invisible
  /// step, or (SearchOptions::por_visible) an enabled step that conflicts with nothing any other
  /// unfinished thread can still do (its Future). Such a step commutes with every step the
  /// others can take before it, and cannot be disabled by them (a disabling write would be a
  /// conflict); blocking every thread through atomic sections or program termination can
  /// postpone it but not change what the others do, so every error stays reachable.
  int ample_thread(const State& s, const std::uint64_t* row) const {
    const std::size_t n = tm_.threads.size();
    for (ThreadId t = 0; t < n; ++t) {
      const ThreadState& ts = s.threads[t];
      if (!ts.started || ts.finished || ts.pc >= invisible_[t].size() || !invisible_[t][ts.pc]) continue;
      if (in_.enabled(s, t)) return static_cast<int>(t);
    }
    if (!o_.por_visible || s.terminated) return -1;
    std::vector<std::size_t> reads, writes;
    for (ThreadId t = 0; t < n; ++t) {
      const ThreadState& ts = s.threads[t];
      if (!ts.started || ts.finished || ts.pc >= invisible_[t].size()) continue;
      switch (tm_.threads[t].code[ts.pc].kind) {
        case InstrKind::Assign: case InstrKind::Havoc: case InstrKind::Goto: case InstrKind::Assume:
        case InstrKind::Assert: case InstrKind::Store: case InstrKind::Lock: case InstrKind::TryLock:
        case InstrKind::Unlock: case InstrKind::RdLock: case InstrKind::WrLock: case InstrKind::RwUnlock:
        case InstrKind::CondSignal: case InstrKind::CondBroadcast:
          break;
        default:
          continue;  // thread, atomic, heap and termination steps: never alone
      }
      if (!in_.enabled(s, t)) continue;
      const std::vector<Location> alpha = access_locations(tm_, in_, s, t);
      untouched_accesses(alpha, row, reads, writes);
      if (!reads.empty()) continue;
      bool independent = true;
      for (ThreadId u = 0; u < n && independent; ++u) {
        if (u == t) continue;
        const ThreadState& us = s.threads[u];
        if (us.finished) continue;
        const std::uint32_t pc = us.started ? us.pc : 0;
        if (pc >= future_[u].size()) continue;
        if (future_[u][pc]->conflicts(alpha)) independent = false;
      }
      if (independent) return static_cast<int>(t);
    }
    return -1;
  }

  /// SearchOptions::target in `s`, with the threads whose next step reads an unchosen
  /// indeterminate cell left out (and the search then unable to answer Safe).
  bool target_holds(const State& s, const std::uint64_t* row) {
    settled_.assign(tm_.threads.size(), 1);
    std::vector<std::size_t> reads, writes;
    for (ThreadId t = 0; t < tm_.threads.size(); ++t) {
      const ThreadState& ts = s.threads[t];
      if (s.terminated || !ts.started || ts.finished || ts.pc >= tm_.threads[t].code.size()) continue;
      untouched_accesses(nd_relevant_accesses(s, t), row, reads, writes);
      if (!reads.empty()) {
        settled_[t] = 0;
        r_.target_unsettled = true;
      }
    }
    return o_.target(s, settled_);
  }

  /// Expands state i (decoded into `s`): adds its successors (one ample set when the reduction
  /// applies) to the store; `fresh` gets the ones that were new. Returns false when a Property
  /// error was found. The cycle proviso: the ample set is used only if none of its successors
  /// is on the DFS stack (depth-first) / was seen before (breadth-first).
  bool expand(std::uint32_t i, const State& s, const std::uint64_t* row, std::vector<std::uint32_t>& fresh) {
    fresh.clear();
    ++r_.expanded;
    if (o_.target && target_holds(s, row)) {
      found_ = true;
      record_path(i, nullptr, {});
      return false;
    }
    if (tm_.thread_bound > 0 && !r_.thread_cut)
      for (ThreadId t = 0; t < tm_.threads.size(); ++t) {
        const ThreadState& ts = s.threads[t];
        if (ts.started && !ts.finished && ts.pc < tm_.threads[t].code.size() &&
            is_thread_bound_cut(tm_.threads[t].code[ts.pc]) && !in_.enabled(s, t))
          r_.thread_cut = true;
      }
    if (o_.por) {
      const int t = ample_thread(s, row);
      if (t >= 0) {
        succ_.clear();
        if (!successors(i, s, row, static_cast<ThreadId>(t), succ_)) return false;
        bool ok = !succ_.empty();
        for (const Succ& sc : succ_) {
          const std::uint32_t idx = store_->find(sc.row.data());
          if (idx != RowStore::kEmpty && (!depth_first_ || on_stack_[idx])) ok = false;
        }
        if (ok) {
          for (Succ& sc : succ_)
            if (const std::uint32_t idx = add(i, sc); idx != RowStore::kEmpty) fresh.push_back(idx);
          ++r_.reduced;
          return true;
        }
      }
    }
    // Depth-first, the first successor is explored first: start with the thread after the one
    // that made the last step (a context switch), so that the search reaches interleaved
    // executions early (bugs usually need them) instead of running each thread to its end.
    const std::size_t n = tm_.threads.size();
    const std::size_t first = depth_first_ && thread_[i] != kRoot ? (thread_[i] + 1u) % n : 0;
    for (std::size_t k = 0; k < n; ++k) {
      const auto t = static_cast<ThreadId>((first + k) % n);
      succ_.clear();
      if (!successors(i, s, row, t, succ_)) return false;
      for (Succ& sc : succ_)
        if (const std::uint32_t idx = add(i, sc); idx != RowStore::kEmpty) fresh.push_back(idx);
    }
    return true;
  }

  void bfs() {
    State s = in_.initial_state({});
    std::vector<std::uint64_t> rowbuf(words_);
    std::vector<std::uint32_t> fresh;
    for (std::size_t i = 0; i < store_->size(); ++i) {
      if ((i & 255) == 0 && out_of_budget()) return;
      store_->get(i, rowbuf.data());
      layout_.decode(rowbuf.data(), s);
      if (!expand(static_cast<std::uint32_t>(i), s, rowbuf.data(), fresh)) return;
    }
    r_.exhausted = true;
  }

  void dfs() {
    State s = in_.initial_state({});
    std::vector<std::uint64_t> rowbuf(words_);
    struct Frame {
      std::uint32_t idx;
      std::vector<std::uint32_t> children;
      std::size_t next = 0;
    };
    std::vector<Frame> stack;
    auto push = [&](std::uint32_t idx) {
      if (on_stack_.size() < store_->size()) on_stack_.resize(store_->size() * 2, 0);
      store_->get(idx, rowbuf.data());
      layout_.decode(rowbuf.data(), s);
      on_stack_[idx] = 1;
      stack.push_back({idx, {}, 0});
      return expand(idx, s, rowbuf.data(), stack.back().children);
    };
    on_stack_.assign(1024, 0);
    if (!push(0)) return;
    for (std::size_t steps = 0; !stack.empty(); ++steps) {
      if ((steps & 255) == 0 && out_of_budget()) return;
      Frame& f = stack.back();
      if (f.next < f.children.size()) {
        if (!push(f.children[f.next++])) return;
      } else {
        on_stack_[f.idx] = 0;
        stack.pop_back();
      }
    }
    r_.exhausted = true;
  }

  SearchResult finish() {
    if (std::getenv("SIREN_SEARCH_VERBOSE"))
      std::fprintf(stderr, "[search] %zu states of %zu words, %zu expanded (%zu by an ample set), %zu indeterminate cells\n",
                   r_.states, words_, r_.expanded, r_.reduced, nd_.size());
    if (found_) {
      r_.verdict = SearchVerdict::Unsafe;
    } else if (!r_.exhausted) {
      r_.verdict = SearchVerdict::Unknown;
    } else if (r_.other_error) {
      r_.verdict = SearchVerdict::Unknown;
      r_.reason = r_.other_error->text;
    } else if (r_.target_unsettled) {
      r_.verdict = SearchVerdict::Unknown;
      r_.reason = "a next access reads an indeterminate value not chosen yet";
    } else if (r_.nondet_restricted) {
      r_.verdict = SearchVerdict::Unknown;
      r_.reason = "nondet values restricted to " + std::to_string(o_.nondet_min) + ".." + std::to_string(o_.nondet_max);
    } else {
      r_.verdict = SearchVerdict::Safe;
    }
    return std::move(r_);
  }

  const ThreadModel& tm_;
  const SearchOptions& o_;
  Interpreter in_;
  Layout layout_;
  std::vector<std::vector<char>> invisible_;
  std::vector<std::vector<std::shared_ptr<const Future>>> future_;  // [thread][pc]
  std::vector<NdCell> nd_;
  std::unordered_map<std::uint64_t, std::size_t> nd_index_;  // object << 32 | byte offset -> bit
  std::vector<std::vector<std::size_t>> heap_bits_;          // [object] bits of its cells
  std::size_t words_ = 0;
  std::unique_ptr<RowStore> store_;
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint16_t> thread_;  // kRoot for the root
  std::unordered_map<std::uint32_t, std::vector<Value>> nondet_;   // Havoc values of the step into a state
  std::unordered_map<std::uint32_t, std::vector<Choice>> choices_;  // cells chosen by that step
  bool found_ = false;
  bool depth_first_ = true;
  std::vector<char> on_stack_;  // depth-first: [state] on the DFS stack
  std::vector<Succ> succ_;
  std::vector<char> settled_;  // target_holds: [thread]
  SearchResult r_;
};

}  // namespace

bool invisible_step(const ThreadModel& tm, ThreadId t, std::uint32_t pc) {
  const Instr& in = tm.threads[t].code[pc];
  switch (in.kind) {
    case InstrKind::Assign:
    case InstrKind::Havoc:
    case InstrKind::Goto:
    case InstrKind::Assume:
      return !reads_memory(in.a) && !reads_memory(in.b);
    default:
      return false;
  }
}

SearchResult search(const ThreadModel& tm, const SearchOptions& options) {
  if (tm.threads.empty()) {
    SearchResult r;
    r.reason = "no threads (no entry function)";
    return r;
  }
  if (tm.threads.size() >= 0xffff) {
    SearchResult r;
    r.reason = "too many threads for the explicit search";
    return r;
  }
  return Search(tm, options).run();
}

}  // namespace siren::explicit_state
