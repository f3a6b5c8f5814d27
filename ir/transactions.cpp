// Boundaries of transactions (ir/transactions.hpp).
#include "ir/transactions.hpp"

#include "ir/cfg.hpp"

#include <algorithm>
#include <map>

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
  return name == "instruction" || name == "transaction" || name == "test-merge-visible";
}

TransactionOptions transaction_options(const std::string& granularity) {
  TransactionOptions o;
  o.test_merge_visible = granularity == "test-merge-visible";
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

Transactions::Transactions(const ThreadModel& tm, const TransactionOptions& options) {
  for (const ThreadCode& th : tm.threads) {
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
      const bool merge = options.test_merge_visible && pc > 0 && !jump_target[pc] &&
                         local_step(th.code[pc - 1]) && th.code[pc - 1].kind != InstrKind::Goto &&
                         (th.code[pc].kind == InstrKind::Assign || th.code[pc].kind == InstrKind::Assume ||
                          th.code[pc].kind == InstrKind::Assert || th.code[pc].kind == InstrKind::Goto);
      if (!merge) b[pc] = 1;
    }
    // Cut every cycle through non-boundaries: a depth-first search over the edges into
    // non-boundaries; the target of a back edge becomes a boundary (which removes every edge
    // into it, so the rest stays acyclic).
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
    boundary_.push_back(std::move(b));
    longest_.push_back(longest);
    regions_.push_back(std::move(regions));
  }
}

std::size_t Transactions::boundaries(ThreadId t) const {
  return static_cast<std::size_t>(std::count(boundary_[t].begin(), boundary_[t].end() - 1, 1));
}

}  // namespace siren::ir
