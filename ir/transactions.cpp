// Boundaries of transactions (ir/transactions.hpp).
#include "ir/transactions.hpp"

#include "ir/access.hpp"
#include "ir/cfg.hpp"
#include "ir/concurrency.hpp"
#include "ir/points_to.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace siren::ir {

bool reads_memory(ExprRef e) {
  if (!e) return false;
  if (e->op == Op::Load || e->op == Op::ValidPtr) return true;
  for (ExprRef k : e->kids)
    if (reads_memory(k)) return true;
  return false;
}

namespace {

// Successors within the thread's code as the BMC's transactions follow them: exact (an
// always-taken Goto goes to its target only), Abort stays where it is (the program ended).
std::vector<std::uint32_t> next_pcs(const std::vector<Instr>& code, std::uint32_t pc) {
  if (code[pc].kind == InstrKind::Abort) return {pc};
  return successors(code, pc);
}
}  // namespace

bool carried_step(const Instr& in) {
  switch (in.kind) {
    case InstrKind::Assign:
    case InstrKind::Havoc:
    case InstrKind::Goto:
    case InstrKind::Assume:
    case InstrKind::Assert:
    case InstrKind::Skip:
    case InstrKind::Store:
    case InstrKind::AtomicEnd:
      return true;
    default:
      return false;
  }
}

bool local_step(const Instr& in) {
  return carried_step(in) && in.kind != InstrKind::Store && in.kind != InstrKind::AtomicEnd &&
         !reads_memory(in.a) && !reads_memory(in.b);
}

bool granularity_known(const std::string& name) {
  return name == "instruction" || name == "transaction" || name == "test-merge-visible" ||
         name == "test-one-sided-lock" || name == "test-carry-any-unlock";
}

std::vector<std::vector<char>> carried_unlocks(const ThreadModel& tm, bool any) {
  return carried_unlocks(tm, PointsTo::analyse(tm), any);
}

std::vector<std::vector<char>> carried_unlocks(const ThreadModel& tm, const PointsTo& pts, bool any) {
  std::vector<std::vector<char>> out(tm.threads.size());
  for (ThreadId t = 0; t < tm.threads.size(); ++t) out[t].assign(tm.threads[t].code.size(), 0);
  // Cells some instruction touches other than by Lock, Unlock or a Store of the constant 0
  // (`everywhere`: one such access may touch any cell).
  std::set<std::uint64_t> other;
  bool everywhere = false;
  for (ThreadId t = 0; t < tm.threads.size() && !any; ++t)
    for (std::uint32_t pc = 0; pc < tm.threads[t].code.size(); ++pc) {
      const Instr& in = tm.threads[t].code[pc];
      const bool lock_only = in.kind == InstrKind::Lock || in.kind == InstrKind::Unlock ||
                             (in.kind == InstrKind::Store && in.b && in.b->is_const() && in.b->value == 0);
      // (a lock's or a store's address is read too: those reads are data accesses)
      for (const Access& a : accesses(tm, t, pc)) {
        if (a.kind != LocKind::Cell) continue;
        if (lock_only && a.addr == in.a) continue;
        const auto keys = access_cells(tm, pts, t, a.addr);
        if (!keys) everywhere = true;
        else other.insert(keys->begin(), keys->end());
      }
    }
  if (everywhere) return out;
  for (ThreadId t = 0; t < tm.threads.size(); ++t)
    for (std::uint32_t pc = 0; pc < tm.threads[t].code.size(); ++pc) {
      const Instr& in = tm.threads[t].code[pc];
      if (in.kind != InstrKind::Unlock || !in.a || reads_memory(in.a)) continue;
      const auto keys = access_cells(tm, pts, t, in.a);
      if (!keys || keys->empty()) continue;
      out[t][pc] = any || std::none_of(keys->begin(), keys->end(), [&](std::uint64_t k) { return other.count(k) != 0; });
    }
  return out;
}

TransactionOptions transaction_options(const std::string& granularity, unsigned unwind) {
  TransactionOptions o;
  o.unwind = unwind;
  o.test_merge_visible = granularity == "test-merge-visible";
  // (without protected steps, so that the wrong boundaries fall on the visible accesses of
  // plain transactions, where the random programs have shown they are caught)
  if (o.test_merge_visible) o.merge_protected = false;
  o.test_one_sided_lock = granularity == "test-one-sided-lock";
  o.test_carry_any_unlock = granularity == "test-carry-any-unlock";
  return o;
}

namespace {
void merge_atomic_regions(const std::vector<Instr>& code, std::vector<char>& merged,
                          std::map<std::uint32_t, std::vector<std::uint32_t>>& regions) {
  const auto size = static_cast<std::uint32_t>(code.size());
  // inside[pc]: on every path from the entry to pc, an AtomicBegin comes after the last
  // AtomicEnd (the thread owns `atomic` there). A must-analysis: start from "inside"
  // everywhere but the entry and intersect.
  std::vector<char> inside(size, 1), seen(size, 0);
  if (size == 0) return;
  inside[0] = 0;
  seen[0] = 1;
  std::vector<std::uint32_t> work{0};
  while (!work.empty()) {
    const std::uint32_t v = work.back();
    work.pop_back();
    const char out = code[v].kind == InstrKind::AtomicBegin ? 1 : code[v].kind == InstrKind::AtomicEnd ? 0 : inside[v];
    for (std::uint32_t w : next_pcs(code, v)) {
      if (w >= size) continue;
      const char nw = seen[w] ? static_cast<char>(inside[w] & out) : out;
      if (!seen[w] || nw != inside[w]) {
        seen[w] = 1;
        inside[w] = nw;
        work.push_back(w);
      }
    }
  }
  // Regions: from an AtomicBegin's successors up to the AtomicEnds that close it.
  std::vector<char> refused(size, 0);  // in some region that cannot be merged
  std::map<std::uint32_t, std::vector<std::uint32_t>> all;
  for (std::uint32_t b = 0; b < size; ++b) {
    if (code[b].kind != InstrKind::AtomicBegin || !seen[b]) continue;
    std::vector<char> in_region(size, 0);
    std::vector<std::uint32_t> region, stack;
    bool ok = true;
    for (std::uint32_t w : next_pcs(code, b)) stack.push_back(w);
    while (!stack.empty()) {
      const std::uint32_t v = stack.back();
      stack.pop_back();
      if (v >= size) {
        ok = false;  // the thread ends inside
        continue;
      }
      if (in_region[v]) continue;
      in_region[v] = 1;
      region.push_back(v);
      if (!carried_step(code[v]) || !inside[v]) ok = false;
      if (code[v].kind == InstrKind::AtomicEnd) continue;
      for (std::uint32_t w : next_pcs(code, v)) stack.push_back(w);
    }
    // No cycle inside (a region with a loop keeps instruction frames: its iterations are
    // not bounded by anything a frame could unroll).
    if (ok) {
      std::vector<char> state(size, 0);
      std::vector<std::pair<std::uint32_t, std::size_t>> dfs;
      for (std::uint32_t root : region) {
        if (state[root] || !ok) continue;
        dfs.push_back({root, 0});
        state[root] = 1;
        while (!dfs.empty() && ok) {
          const std::uint32_t v = dfs.back().first;
          const auto succ = code[v].kind == InstrKind::AtomicEnd ? std::vector<std::uint32_t>{} : next_pcs(code, v);
          if (dfs.back().second == succ.size()) {
            state[v] = 2;
            dfs.pop_back();
            continue;
          }
          const std::uint32_t w = succ[dfs.back().second++];
          if (w >= size || !in_region[w]) continue;
          if (state[w] == 1) ok = false;
          else if (state[w] == 0) {
            state[w] = 1;
            dfs.push_back({w, 0});
          }
        }
      }
    }
    std::sort(region.begin(), region.end());
    if (!ok)
      for (std::uint32_t v : region) refused[v] = 1;
    else
      all.emplace(b, std::move(region));
  }
  for (auto& [b, region] : all) {
    if (std::any_of(region.begin(), region.end(), [&](std::uint32_t v) { return refused[v] != 0; })) continue;
    for (std::uint32_t v : region) merged[v] = 1;
    regions.emplace(b, std::move(region));
  }
}
}  // namespace

namespace {
// Does a cycle from cut point h back to h through non-boundaries (b) contain an instruction
// that writes (Assign, Havoc, Store)? The pcs on such a cycle: reachable from h and reaching h.
bool loop_writes(const std::vector<Instr>& code, const std::vector<char>& b, std::uint32_t h) {
  const auto size = static_cast<std::uint32_t>(code.size());
  std::vector<char> fwd(size, 0), bwd(size, 0);
  std::vector<std::vector<std::uint32_t>> preds(size);
  std::vector<std::uint32_t> stack{h};
  fwd[h] = 1;
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    for (std::uint32_t w : next_pcs(code, v)) {
      if (w >= size || (b[w] && w != h)) continue;
      preds[w].push_back(v);
      if (!fwd[w]) {
        fwd[w] = 1;
        stack.push_back(w);
      }
    }
  }
  stack = {h};
  bwd[h] = 1;
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    for (std::uint32_t u : preds[v])
      if (!bwd[u]) {
        bwd[u] = 1;
        stack.push_back(u);
      }
  }
  for (std::uint32_t v = 0; v < size; ++v) {
    const InstrKind k = code[v].kind;
    if (fwd[v] && bwd[v] && (k == InstrKind::Assign || k == InstrKind::Havoc || k == InstrKind::Store)) return true;
  }
  return false;
}

// The protected steps a transaction may carry: ir::protected_steps, less those that read what
// the first instruction of a transaction reaching them may write other than by a Store (the
// encoder's transaction state holds the first instruction's stores, locals, `atomic` and a
// Lock's or Unlock's mutex cell, not a create's handle, a join's result, a trylock's cell or
// an object's allocation; a lock's cell is still treated as outside it here, which only makes
// more boundaries): such a step starts its own transaction. Creates, joins, locks, mallocs and
// frees are always boundaries, so walking from each of them through the instructions that are
// not visible (and the carried unlocks) finds every such step; turning one into a boundary
// only shortens the walks.
std::vector<std::vector<char>> carried_protected_steps(const ThreadModel& tm, const PointsTo& pts,
                                                       const TransactionOptions& options,
                                                       const std::vector<std::vector<char>>& unlocks) {
  std::vector<std::vector<char>> prot = protected_steps(tm, pts, options.test_one_sided_lock);
  for (ThreadId t = 0; t < tm.threads.size(); ++t) {
    const auto& code = tm.threads[t].code;
    const auto size = static_cast<std::uint32_t>(code.size());
    std::vector<std::uint32_t> seen_from(size, size);  // the walk that last reached pc (v; size: none)
    for (std::uint32_t v = 0; v < size; ++v) {
      const InstrKind kind = code[v].kind;
      if (carried_step(code[v]) || kind == InstrKind::AtomicBegin) continue;  // writes go through the state
      bool writes_alloc = false, writes_anywhere = false;
      std::vector<std::uint64_t> written;
      for (const Access& a : accesses(tm, t, v)) {
        if (!a.write) continue;
        if (a.kind == LocKind::Alloc) writes_alloc = true;
        if (a.kind != LocKind::Cell) continue;
        const auto keys = access_cells(tm, pts, t, a.addr);
        if (!keys) writes_anywhere = true;
        else written.insert(written.end(), keys->begin(), keys->end());
      }
      if (!writes_alloc && !writes_anywhere && written.empty()) continue;
      auto reads_written = [&](std::uint32_t p) {
        for (const Access& a : accesses(tm, t, p)) {
          if (a.write) continue;
          if (a.kind == LocKind::Alloc && writes_alloc) return true;
          if (a.kind != LocKind::Cell) continue;
          if (writes_anywhere) return true;
          const auto keys = access_cells(tm, pts, t, a.addr);
          if (!keys) return true;
          for (std::uint64_t k : *keys)
            if (std::find(written.begin(), written.end(), k) != written.end()) return true;
        }
        return false;
      };
      std::vector<std::uint32_t> stack = next_pcs(code, v);
      while (!stack.empty()) {
        const std::uint32_t p = stack.back();
        stack.pop_back();
        if (p >= size || seen_from[p] == v) continue;
        seen_from[p] = v;
        if (prot[t][p] && reads_written(p)) prot[t][p] = 0;
        if (!local_step(code[p]) && !prot[t][p] && !(t < unlocks.size() && unlocks[t][p]))
          continue;  // a boundary: the walk ends
        for (std::uint32_t w : next_pcs(code, p)) stack.push_back(w);
      }
    }
  }
  return prot;
}
}  // namespace

Transactions::Transactions(const ThreadModel& tm, const TransactionOptions& options, const PointsTo* points_to)
    : unwind_(options.unwind) {
  std::optional<PointsTo> own;
  const PointsTo* pts = points_to;
  if (!pts && (options.carry_unlocks || options.merge_protected)) pts = &own.emplace(PointsTo::analyse(tm));
  std::vector<std::vector<char>> unlock_pcs;
  if (options.carry_unlocks) unlock_pcs = carried_unlocks(tm, *pts, options.test_carry_any_unlock);
  std::vector<std::vector<char>> protected_pcs;
  if (options.merge_protected) protected_pcs = carried_protected_steps(tm, *pts, options, unlock_pcs);
  for (ThreadId t = 0; t < tm.threads.size(); ++t) {
    const ThreadCode& th = tm.threads[t];
    const auto size = static_cast<std::uint32_t>(th.code.size());
    std::vector<char> b(size + 1, 0);
    b[0] = 1;
    b[size] = 1;
    // Atomic regions merged into the transaction of their AtomicBegin (see the header).
    std::vector<char> merged(size, 0);
    std::map<std::uint32_t, std::vector<std::uint32_t>> regions;
    if (options.merge_atomic_regions) merge_atomic_regions(th.code, merged, regions);
    std::vector<char> jump_target(size + 1, 0);
    for (const Instr& in : th.code)
      if (in.kind == InstrKind::Goto && in.target <= size) jump_target[in.target] = 1;
    for (std::uint32_t pc = 0; pc < size; ++pc) {
      if (local_step(th.code[pc]) || merged[pc]) continue;
      if (!protected_pcs.empty() && protected_pcs[t][pc] && !options.keep.count({t, pc})) continue;
      if (!unlock_pcs.empty() && unlock_pcs[t][pc] && !options.keep.count({t, pc})) continue;
      const bool merge = options.test_merge_visible && pc > 0 && !jump_target[pc] &&
                         carried_step(th.code[pc - 1]) && th.code[pc - 1].kind != InstrKind::Goto &&
                         (th.code[pc].kind == InstrKind::Assign || th.code[pc].kind == InstrKind::Assume ||
                          th.code[pc].kind == InstrKind::Assert || th.code[pc].kind == InstrKind::Goto);
      if (!merge) b[pc] = 1;
    }
    // Cut every cycle through non-boundaries: a depth-first search over the edges into
    // non-boundaries; the target of a back edge becomes a boundary (which removes every edge
    // into it, so the rest stays acyclic).
    std::vector<char> cut(size, 0);    // cut points
    std::vector<char> state(size, 0);  // 0 new, 1 on the stack, 2 done
    for (std::uint32_t root = 0; root < size; ++root) {
      if (state[root]) continue;
      std::vector<std::pair<std::uint32_t, std::size_t>> stack{{root, 0}};
      std::vector<std::vector<std::uint32_t>> succ_of{next_pcs(th.code, root)};
      state[root] = 1;
      while (!stack.empty()) {
        auto& [v, i] = stack.back();
        auto& succ = succ_of.back();
        if (i == succ.size()) {
          state[v] = 2;
          stack.pop_back();
          succ_of.pop_back();
          continue;
        }
        const std::uint32_t w = succ[i++];
        if (w >= size || b[w]) continue;
        if (state[w] == 1) {
          b[w] = 1;
          cut[w] = 1;
          continue;
        }
        if (state[w] == 2) continue;
        state[w] = 1;
        stack.push_back({w, 0});
        succ_of.push_back(next_pcs(th.code, w));
      }
    }
    // Longest run of one transaction: longest path in the DAG of edges into non-boundaries.
    std::vector<std::size_t> len(size + 1, 0);  // instructions from pc to the end of its transaction
    std::size_t longest = 0;
    // Nodes in reverse topological order: a depth-first post-order over the DAG.
    std::vector<char> seen(size, 0);
    std::vector<std::uint32_t> post;
    for (std::uint32_t root = 0; root < size; ++root) {
      if (seen[root]) continue;
      std::vector<std::pair<std::uint32_t, std::size_t>> stack{{root, 0}};
      seen[root] = 1;
      while (!stack.empty()) {
        auto& [v, i] = stack.back();
        const auto succ = next_pcs(th.code, v);
        if (i == succ.size()) {
          post.push_back(v);
          stack.pop_back();
          continue;
        }
        const std::uint32_t w = succ[i++];
        if (w >= size || b[w] || seen[w]) continue;
        seen[w] = 1;
        stack.push_back({w, 0});
      }
    }
    for (std::uint32_t v : post) {
      std::size_t best = 0;
      for (std::uint32_t w : next_pcs(th.code, v))
        if (w < size && !b[w]) best = std::max(best, len[w]);
      len[v] = best + 1;
      if (b[v]) longest = std::max(longest, len[v]);
    }
    // Cut points a transaction may run on through: not where it may stop (an Assume or an
    // Assert there would end a transaction at a boundary it started from or ran through), and
    // only the head of a loop that writes something (a local, a cell): a loop without a write
    // that comes back to its head is in the same state there and can only spin (`while (f);`
    // over a local f), where more passes would only make the frame bigger.
    std::vector<char> passable(size, 0);
    if (options.unwind > 0)
      for (std::uint32_t h = 0; h < size; ++h)
        if (cut[h] && th.code[h].kind != InstrKind::Assume && th.code[h].kind != InstrKind::Assert)
          passable[h] = loop_writes(th.code, b, h) ? 1 : 0;
    // What each transaction carries after its first instruction that is not a local step
    // (through passable cut points too), and which transactions may pass a cut point.
    std::map<std::uint32_t, std::vector<std::uint32_t>> carried;
    std::set<std::uint32_t> unwinds;
    std::vector<std::uint32_t> reached_from(size, size);  // the root whose walk last reached pc
    for (std::uint32_t root = 0; root < size; ++root) {
      if (!b[root]) continue;
      std::vector<std::uint32_t> stack = next_pcs(th.code, root), pcs;
      while (!stack.empty()) {
        const std::uint32_t v = stack.back();
        stack.pop_back();
        if (v >= size || (b[v] && !passable[v]) || reached_from[v] == root) continue;
        reached_from[v] = root;
        if (passable[v]) unwinds.insert(root);
        if (!local_step(th.code[v])) pcs.push_back(v);
        for (std::uint32_t w : next_pcs(th.code, v)) stack.push_back(w);
      }
      if (pcs.empty()) continue;
      std::sort(pcs.begin(), pcs.end());
      carried.emplace(root, std::move(pcs));
    }
    if (!protected_pcs.empty())
      for (std::uint32_t pc = 0; pc < size; ++pc)
        if (protected_pcs[t][pc] && !b[pc] && !merged[pc]) ++protected_;
    if (!unlock_pcs.empty())
      for (std::uint32_t pc = 0; pc < size; ++pc)
        if (unlock_pcs[t][pc] && !b[pc]) ++unlocks_;
    boundary_.push_back(std::move(b));
    passable_.push_back(std::move(passable));
    unwinds_from_.push_back(std::move(unwinds));
    longest_.push_back(longest);
    carried_.push_back(std::move(carried));
    regions_.push_back(std::move(regions));
  }
  if (pts) find_balanced_sections(tm, *pts);
  else
    for (ThreadId t = 0; t < tm.threads.size(); ++t) balanced_.emplace_back(tm.threads[t].code.size(), 0);
}

void Transactions::find_balanced_sections(const ThreadModel& tm, const PointsTo& pts) {
  // Does every path of the transaction from Lock b of thread t reach a (carried) Unlock of
  // `cell` alone, with no Assume before it?
  auto closes = [&](ThreadId t, std::uint32_t b, std::uint64_t cell) {
    const auto& code = tm.threads[t].code;
    const auto size = static_cast<std::uint32_t>(code.size());
    std::vector<char> seen(size, 0);
    std::vector<std::uint32_t> stack = next_pcs(code, b);
    while (!stack.empty()) {
      const std::uint32_t v = stack.back();
      stack.pop_back();
      if (v >= size || boundary_[t][v]) return false;  // the transaction (or the thread) ends first
      if (seen[v]) continue;
      seen[v] = 1;
      const Instr& in = code[v];
      if (in.kind == InstrKind::Assume) return false;
      if (in.kind == InstrKind::Unlock) {
        const auto keys = access_cells(tm, pts, t, in.a);
        if (!keys || keys->size() != 1 || keys->front() != cell) return false;  // another mutex, or maybe
        continue;  // this path closes the section
      }
      for (std::uint32_t w : next_pcs(code, v)) stack.push_back(w);
    }
    return true;
  };
  std::map<std::uint64_t, bool> all_balanced;  // mutex cell -> every Lock that may take it opens a section
  std::vector<std::vector<std::uint64_t>> cell_of(tm.threads.size());
  bool unknown = false;
  for (ThreadId t = 0; t < tm.threads.size(); ++t) {
    const auto& code = tm.threads[t].code;
    cell_of[t].assign(code.size(), ~std::uint64_t{0});
    for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
      if (code[pc].kind != InstrKind::Lock) continue;
      const auto keys = access_cells(tm, pts, t, code[pc].a);
      if (!keys) {
        unknown = true;  // a lock that may take any mutex: none is balanced everywhere
        continue;
      }
      const bool ok = keys->size() == 1 && boundary_[t][pc] && closes(t, pc, keys->front());
      if (keys->size() == 1) cell_of[t][pc] = keys->front();
      for (std::uint64_t k : *keys) {
        auto [it, fresh] = all_balanced.try_emplace(k, ok);
        if (!fresh) it->second = it->second && ok;
      }
    }
  }
  for (ThreadId t = 0; t < tm.threads.size(); ++t) {
    balanced_.emplace_back(tm.threads[t].code.size(), 0);
    if (unknown) continue;
    for (std::uint32_t pc = 0; pc < cell_of[t].size(); ++pc)
      if (cell_of[t][pc] != ~std::uint64_t{0} && all_balanced.at(cell_of[t][pc])) {
        balanced_[t][pc] = 1;
        ++balanced_count_;
      }
  }
}

std::size_t Transactions::boundaries(ThreadId t) const {
  return static_cast<std::size_t>(std::count(boundary_[t].begin(), boundary_[t].end() - 1, 1));
}

}  // namespace siren::ir
