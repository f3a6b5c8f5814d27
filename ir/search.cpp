// Explicit-state search for `siren check` (ir/search.hpp).
#include "ir/search.hpp"

#include "ir/access.hpp"
#include "ir/explorer.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <unordered_map>

namespace siren::ir {

namespace {

bool reads_memory(ExprRef e) {
  if (!e) return false;
  if (e->op == Op::Load || e->op == Op::ValidPtr) return true;
  for (ExprRef k : e->kids)
    if (reads_memory(k)) return true;
  return false;
}

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

/// States as fixed-size rows in chunks, deduplicated by an open-addressing table of row indices.
class StateStore {
 public:
  explicit StateStore(std::size_t words) : words_(words) { table_.assign(1u << 16, kEmpty); }

  std::size_t size() const { return size_; }
  const std::uint64_t* row(std::size_t i) const { return chunks_[i >> kChunkBits].get() + (i & kChunkMask) * words_; }
  std::size_t bytes() const {
    return chunks_.size() * (std::size_t{1} << kChunkBits) * words_ * 8 + table_.size() * 4;
  }

  /// Index of the row equal to `w`, or kEmpty.
  std::uint32_t find(const std::uint64_t* w) const {
    const std::size_t mask = table_.size() - 1;
    for (std::size_t h = hash(w) & mask;; h = (h + 1) & mask) {
      const std::uint32_t idx = table_[h];
      if (idx == kEmpty) return kEmpty;
      if (std::equal(w, w + words_, row(idx))) return idx;
    }
  }

  /// Adds `w` (not present); returns its index.
  std::uint32_t add(const std::uint64_t* w) {
    if (2 * (size_ + 1) > table_.size()) grow();
    if ((size_ >> kChunkBits) >= chunks_.size())
      chunks_.emplace_back(new std::uint64_t[(std::size_t{1} << kChunkBits) * words_]);
    const auto idx = static_cast<std::uint32_t>(size_++);
    std::copy(w, w + words_, chunks_[idx >> kChunkBits].get() + (idx & kChunkMask) * words_);
    insert(idx);
    return idx;
  }

  static constexpr std::uint32_t kEmpty = ~0u;

 private:
  static constexpr unsigned kChunkBits = 14;
  static constexpr std::size_t kChunkMask = (std::size_t{1} << kChunkBits) - 1;

  std::size_t hash(const std::uint64_t* w) const {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (std::size_t i = 0; i < words_; ++i) {
      h ^= w[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdULL;
    }
    return static_cast<std::size_t>(h ^ (h >> 33));
  }
  void insert(std::uint32_t idx) {
    const std::size_t mask = table_.size() - 1;
    std::size_t h = hash(row(idx)) & mask;
    while (table_[h] != kEmpty) h = (h + 1) & mask;
    table_[h] = idx;
  }
  void grow() {
    table_.assign(table_.size() * 2, kEmpty);
    for (std::size_t i = 0; i < size_; ++i) insert(static_cast<std::uint32_t>(i));
  }

  std::size_t words_;
  std::size_t size_ = 0;
  std::vector<std::unique_ptr<std::uint64_t[]>> chunks_;
  std::vector<std::uint32_t> table_;
};

/// Rows of `words` words, stored compressed when they are long: a row is cut into blocks of
/// kBlock words, every distinct block is stored once (a StateStore of blocks), and the row
/// becomes the list of its block ids (a StateStore of id rows). Successive states differ in
/// a few blocks, so long states (big arrays, many threads) share most of their storage.
class RowStore {
 public:
  static constexpr std::size_t kBlock = 8;
  static constexpr std::uint32_t kEmpty = StateStore::kEmpty;

  explicit RowStore(std::size_t words)
      : words_(words), compressed_(words > 2 * kBlock), nblocks_((words + kBlock - 1) / kBlock),
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

  /// Adds a row that find() did not find.
  std::uint32_t add(const std::uint64_t* row) {
    if (!compressed_) return rows_.add(row);
    for (std::size_t b = 0; b < nblocks_; ++b) {
      const std::uint64_t* blk = block(row, b);
      std::uint32_t id = blocks_.find(blk);
      if (id == kEmpty) id = blocks_.add(blk);
      set_id(b, id);
    }
    return rows_.add(ids_.data());
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
          nd_index_.emplace((std::uint64_t{obj.id} << 32) | c, bit);
          if (obj.kind == ObjectKind::Heap) heap_bits_[obj.id].push_back(bit);
        }
    words_ = layout_.words() + (nd_.size() + 63) / 64;
  }

  SearchResult run() {
    store_ = std::make_unique<RowStore>(words_);
    r_.state_words = words_;
    std::vector<std::uint64_t> buf(words_, 0);
    layout_.encode(in_.initial_state({}), buf.data());
    for (std::size_t b = 0; b < nd_.size(); ++b)
      if (tm_.objects[nd_[b].obj].kind != ObjectKind::Heap) set_bit(buf.data(), b, true);
    store_->add(buf.data());
    parent_.push_back(0);
    thread_.push_back(kRoot);
    bfs();
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

  /// Untouched cells the next step of t reads (`reads`) or only writes (`writes`) in `s`.
  void untouched_accesses(const State& s, const std::uint64_t* bits_row, ThreadId t, std::vector<std::size_t>& reads,
                          std::vector<std::size_t>& writes) const {
    reads.clear();
    writes.clear();
    if (nd_.empty() || invisible_[t][s.threads[t].pc]) return;
    for (const Location& l : access_locations(tm_, in_, s, t)) {
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
    untouched_accesses(s, bits.data(), t, reads, writes);
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
          record_error(from, step, chosen, res);
          return false;
        }
        if (!r_.other_error)
          r_.other_error = std::string(res.error_kind == AssertKind::MemSafety ? "possible memory-safety violation at "
                                                                                 : "modelling limit reached at ") +
                           tm_.where(res.loc) + ": " + res.error_message;
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

  /// The schedule to the error and the values of every indeterminate cell it chose.
  void record_error(std::uint32_t from, const Step& last, const std::vector<Choice>& last_choices,
                    const StepResult& res) {
    found_ = true;
    r_.error_message = res.error_message;
    std::vector<Step> trace{last};
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

  void add(std::uint32_t from, Succ& sc) {
    if (store_->find(sc.row.data()) != RowStore::kEmpty) return;
    const std::uint32_t idx = store_->add(sc.row.data());
    parent_.push_back(from);
    thread_.push_back(static_cast<std::uint16_t>(sc.thread));
    if (!sc.nondet.empty()) nondet_.emplace(idx, std::move(sc.nondet));
    if (!sc.choices.empty()) choices_.emplace(idx, std::move(sc.choices));
  }

  bool out_of_budget() {
    const auto now = std::chrono::steady_clock::now();
    if ((o_.deadline && now >= *o_.deadline) ||
        (r_.nondet_restricted && o_.restricted_deadline && now >= *o_.restricted_deadline)) {
      r_.reason = "timeout";
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

  void bfs() {
    State s = in_.initial_state({});
    std::vector<std::uint64_t> rowbuf(words_);
    std::vector<Succ> succ;
    const std::size_t n_threads = tm_.threads.size();
    for (std::size_t i = 0; i < store_->size(); ++i) {
      if ((i & 255) == 0 && out_of_budget()) return;
      const auto from = static_cast<std::uint32_t>(i);
      store_->get(i, rowbuf.data());
      const std::uint64_t* row = rowbuf.data();
      layout_.decode(row, s);
      ++r_.expanded;
      bool full = true;
      if (o_.por) {
        for (ThreadId t = 0; t < n_threads; ++t) {
          const ThreadState& ts = s.threads[t];
          if (!ts.started || ts.finished || ts.pc >= invisible_[t].size() || !invisible_[t][ts.pc]) continue;
          if (!in_.enabled(s, t)) continue;
          succ.clear();
          if (!successors(from, s, row, t, succ)) return;
          bool all_new = !succ.empty();
          for (const Succ& sc : succ)
            if (store_->find(sc.row.data()) != RowStore::kEmpty) all_new = false;
          if (!all_new) break;  // cycle proviso: expand in full
          for (Succ& sc : succ) add(from, sc);
          ++r_.reduced;
          full = false;
          break;
        }
      }
      if (!full) continue;
      for (ThreadId t = 0; t < n_threads; ++t) {
        succ.clear();
        if (!successors(from, s, row, t, succ)) return;
        for (Succ& sc : succ) add(from, sc);
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
      r_.reason = *r_.other_error;
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
  std::vector<NdCell> nd_;
  std::unordered_map<std::uint64_t, std::size_t> nd_index_;  // object << 32 | cell -> bit
  std::vector<std::vector<std::size_t>> heap_bits_;          // [object] bits of its cells
  std::size_t words_ = 0;
  std::unique_ptr<RowStore> store_;
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint16_t> thread_;  // kRoot for the root
  std::unordered_map<std::uint32_t, std::vector<Value>> nondet_;   // Havoc values of the step into a state
  std::unordered_map<std::uint32_t, std::vector<Choice>> choices_;  // cells chosen by that step
  bool found_ = false;
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

}  // namespace siren::ir
