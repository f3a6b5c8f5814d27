// SIR, schedule-insensitivity reduction (DESIGN.md §B4, §B5 steps 10–32, §B8), first version.
//
// SIR is MPOR (reduction/mpor.cpp) with DEP_li replaced by DEP_li ∧ SS_li when extending
// dependency chains; the chain machinery is MPOR's (make_mpor_filtered), only the list of
// insensitive location pairs (SS = false) is computed here:
//   SS_li(k) = ¬⋁_{(c,d) insensitive} (lpc_l^k = c ∧ pc_i^k = d)
// with lpc_l the latched location of thread l's last executed step (clarification 1).
//
// Conservative by construction (anything undecided is sensitive, which is MPOR behaviour):
//   * a pair that a relevant use reads (below) is decided over the transaction graph
//     (invariants/transaction_graph.hpp), which must be complete: otherwise that pair is
//     sensitive; a pair that no relevant use reads is insensitive without a graph (§B9.4), and
//     the graph is built only when some pair needs it;
//   * c and d must be plain data steps (Assign, Store, Goto, Assert, Havoc) or atomic blocks of
//     them; every sync operation (lock, unlock, trylock, rwlock, condvars, create, join, exit,
//     atomic begin/end, Assume, Abort, Malloc, Free) is always sensitive (§B4, §B8.4), and so
//     is a step touching a cell some synchronisation operation touches;
//   * an access through a pointer touches the cells of its points-to set (ir/points_to.hpp;
//     may-sets: `*p = e` may write every cell of pts(p)); one that may point anywhere makes its
//     step no data transition. A synchronisation operation through a pointer takes its cells
//     from the points-to analysis too; one that may point anywhere gives up. The graph's
//     abstract semantics treats a load through a pointer as any value and a store through one
//     as a weak update of every cell it may hit, so its invariants still over-approximate
//     everything a conditional reads;
//   * relevance (the paper's def-use filter): c;d and d;c differ only in values on a def-use
//     chain from c and on one from d (build_def_use: flow-insensitive over every thread,
//     through locals, cells, thread arguments and results; a read counts via the value it
//     loads). Only the conditionals (Goto with a condition, Assume, Assert — §B8.2) reading
//     such a value must be decided, and so must an address computed from one (which cell is
//     accessed, and whether the access is valid: undecided) and the thread a join waits for
//     (undecided): these are the relevant uses. The set N of nodes where such a
//     conditional is scheduled and that are reachable from a node with l at c and i at d must
//     be decided uniformly: ∀n∈N inv_n ⇒ cond, or ∀n∈N inv_n ∧ cond = ⊥ (clarification 3;
//     N = ∅: the conditional cannot run after (c, d)). No node with l at c and i at d:
//     sensitive. A conditional that is not a node location (inside a transaction) is decided
//     at the node location its transaction starts from (lift()); when it cannot be moved
//     there, it is undecided at every node location its transaction may start from
//     (transaction_entries), which makes the pairs that reach one sensitive. A condition the
//     graph's own guard semantics cannot decide (invariants::GuardDecider: octagons, linear
//     forms, intervals) is undecided too.
//   Set SIREN_SIR_DEBUG=1 to see why the analysis gave up on a program and why each pair is
//   sensitive.
#include "reduction/sir.hpp"

#include "invariants/abstract_semantics.hpp"
#include "invariants/transaction_graph.hpp"
#include "ir/access.hpp"
#include "ir/cfg.hpp"
#include "ir/points_to.hpp"
#include "ir/printer.hpp"
#include "ir/transactions.hpp"
#include "reduction/mpor.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace siren::reduction {
namespace {

using ir::ExprRef;
using ir::InstrKind;
using ir::Op;
using invariants::OctConstraint;
using invariants::TgEdge;
using invariants::TransactionGraph;
using Focus = std::vector<std::pair<ir::ThreadId, std::uint32_t>>;  // invariants::TgOptions::focus

/// SIREN_SIR_DEBUG set: say on stderr why the analysis gave up and why each pair is sensitive.
bool debug() {
  static const bool on = std::getenv("SIREN_SIR_DEBUG") != nullptr;
  return on;
}

// The flow of SIR's blocks and chains: the thread's code ends at ThreadExit, an always-taken
// goto does not fall through, pc = code.size() (the thread finished) is listed.
constexpr ir::SuccessorRule kSirFlow{.exit_to_end = false, .taken_goto_falls_through = false, .include_end = true};

bool is_conditional(const ir::Instr& in) {
  if (in.kind == InstrKind::Assume || in.kind == InstrKind::Assert) return true;
  return in.kind == InstrKind::Goto && in.a && !in.a->is_const();
}

class Analysis {
 public:
  using CellKey = std::pair<ir::ObjectId, std::uint32_t>;  // (object, byte offset of the cell)

  Analysis(const ir::ThreadModel& tm, const SirOptions& o)
      : tm_(tm), o_(o), n_(tm.threads.size()), pts_(ir::PointsTo::analyse(tm, o.points_to)), tx_(tm, {}, &pts_) {}

  /// Why the analysis gave up globally ("" if it did not).
  std::string precheck() {
    for (ir::ThreadId t = 0; t < n_; ++t)
      for (std::uint32_t pc = 0; pc < tm_.threads[t].code.size(); ++pc) {
        const ir::Instr& in = tm_.threads[t].code[pc];
        if (!ir::is_sync_step(in.kind)) continue;
        for (const ir::Access& a : ir::memory_accesses(tm_, t, pc)) {
          if (a.static_cell()) {
            sync_cells_.insert(cell_key(a.addr->obj, a.addr->offset()));
            continue;
          }
          // a synchronisation through a pointer (pthread_mutex_lock(&dev->lock)): its cells
          // from the points-to analysis, so that no data pair touches them
          const auto cells = pts_.cells_of(t, a.addr);
          if (!cells)
            return "synchronisation through a pointer that may point anywhere at " + tm_.threads[t].name + ":" +
                   std::to_string(pc);
          for (const auto& [o, c] : *cells)
            sync_cells_.insert({o, static_cast<std::uint32_t>(tm_.objects[o].offset_of(c))});
        }
      }
    return "";
  }

  /// Taint: locals whose value may come from shared data (or anything we do not track).
  void compute_taint() {
    taint_.resize(n_);
    for (ir::ThreadId t = 0; t < n_; ++t) {
      const auto& th = tm_.threads[t];
      taint_[t].assign(th.locals.size(), false);
      if (th.param != ir::kNoLocal && th.param < th.locals.size()) taint_[t][th.param] = true;
      bool changed = true;
      while (changed) {
        changed = false;
        for (const ir::Instr& in : th.code) {
          if (in.lhs == ir::kNoLocal || in.lhs >= th.locals.size() || taint_[t][in.lhs]) continue;
          bool dirty = true;
          if (in.kind == InstrKind::Havoc) dirty = false;
          else if (in.kind == InstrKind::Assign) dirty = depends(t, in.a);
          if (dirty) taint_[t][in.lhs] = changed = true;
        }
      }
    }
  }

  /// Whether expression e of thread t may depend on shared data.
  bool depends(ir::ThreadId t, ExprRef e) const {
    if (!e) return false;
    bool d = false;
    ir::visit_post_order(e, [&](ExprRef x) {
      if (x->op == Op::Load) d = true;
      if (x->op == Op::Local && (x->value >= taint_[t].size() || taint_[t][x->value])) d = true;
    });
    return d;
  }

  // ---- def-use chains (DESIGN.md §B5 "Reachability and def-use chains", §B4) -------------
  // Flow-insensitive over every thread: an edge u -> v when an instruction computes what it
  // writes to v from u (a local or cell it reads, including the address of an access: a
  // different address writes a different cell). `*p = e` defines every cell of pts(p). Thread
  // arguments flow into the created instances' parameters, results (pthread_exit, return)
  // into every join. Control dependence is not followed: every conditional a chain reaches
  // must be decided uniformly, so what it guards happens in every order alike.

  /// Builds the graph (after compute_taint).
  void build_def_use() {
    local_base_.assign(n_ + 1, 0);
    for (ir::ThreadId t = 0; t < n_; ++t) local_base_[t + 1] = local_base_[t] + tm_.threads[t].locals.size();
    node_count_ = kFirstNode + local_base_[n_];
    is_cell_.assign(node_count_, 0);
    adj_.assign(node_count_, {});
    for (ir::ThreadId t = 0; t < n_; ++t)
      for (std::uint32_t pc = 0; pc < tm_.threads[t].code.size(); ++pc) {
        const ir::Instr& in = tm_.threads[t].code[pc];
        std::vector<std::uint32_t> src, dst;
        for (ExprRef e : {in.a, in.b}) reads_of(t, e, src);
        for (ExprRef e : in.args) reads_of(t, e, src);
        if (in.lhs != ir::kNoLocal && in.lhs < tm_.threads[t].locals.size()) dst.push_back(local_node(t, in.lhs));
        for (const ir::Access& a : ir::accesses(tm_, t, pc)) {
          if (a.kind == ir::LocKind::Cell && a.write) {
            if (const auto cells = cells_of(t, a)) {
              for (const CellKey& c : *cells) dst.push_back(cell_node(c));
            } else {
              dst.push_back(kAnyWrite);
            }
          } else if (a.kind == ir::LocKind::Started && a.write && in.kind == InstrKind::ThreadCreate) {
            const auto& child = tm_.threads[a.thread];
            if (child.param != ir::kNoLocal && child.param < child.locals.size()) dst.push_back(local_node(a.thread, child.param));
          }
        }
        if (in.kind == InstrKind::ThreadExit) dst.push_back(kRet);
        if (in.kind == InstrKind::ThreadJoin) src.push_back(kRet);
        for (std::uint32_t u : src)
          for (std::uint32_t v : dst)
            if (u != v) adj_[u].push_back(v);
      }
  }

  /// The def-use nodes expression e of thread t reads: its locals, and the cells its loads may
  /// read (kAnyRead through a pointer that may point anywhere).
  void reads_of(ir::ThreadId t, ExprRef e, std::vector<std::uint32_t>& out) const {
    if (!e) return;
    ir::visit_post_order(e, [&](ExprRef x) {
      if (x->op == Op::Local) {
        if (x->value < tm_.threads[t].locals.size()) out.push_back(local_node(t, static_cast<ir::LocalId>(x->value)));
        else out.push_back(kAnyRead);
      } else if (x->op == Op::Load) {
        ir::Access a;
        a.addr = x->kids[0];
        if (const auto cells = cells_of(t, a)) {
          for (const CellKey& c : *cells) out.push_back(cell_node(c));
        } else {
          out.push_back(kAnyRead);
        }
      }
    });
  }

  std::uint32_t local_node(ir::ThreadId t, ir::LocalId l) const {
    return kFirstNode + static_cast<std::uint32_t>(local_base_[t] + l);
  }
  std::uint32_t cell_node(const CellKey& c) const {
    auto [it, fresh] = cell_nodes_.try_emplace(c, node_count_);
    if (fresh) {
      ++node_count_;
      is_cell_.push_back(1);
      adj_.emplace_back();
    }
    return it->second;
  }

  /// Every node a def-use chain from `seeds` reaches (seeds included).
  const std::vector<char>& reached_from(std::vector<std::uint32_t> seeds) const {
    std::sort(seeds.begin(), seeds.end());
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    auto [it, fresh] = closures_.try_emplace(seeds);
    if (!fresh) return it->second;
    std::vector<char>& seen = it->second;
    seen.assign(node_count_, 0);
    std::vector<std::uint32_t> work;
    auto visit = [&](std::uint32_t v) {
      if (v < seen.size() && !seen[v]) seen[v] = 1, work.push_back(v);
    };
    for (std::uint32_t v : seeds) visit(v);
    while (!work.empty()) {
      const std::uint32_t v = work.back();
      work.pop_back();
      if (is_cell_[v]) visit(kAnyRead);  // a load through an "anywhere" pointer may read v
      if (v == kAnyWrite) {              // a store through one may write every cell
        visit(kAnyRead);
        for (std::uint32_t c = 0; c < node_count_; ++c)
          if (is_cell_[c]) visit(c);
      }
      for (std::uint32_t w : adj_[v]) visit(w);
    }
    return seen;
  }

  /// Locations inside an atomic block (after its AtomicBegin, up to its AtomicEnd): no
  /// transition starts there.
  std::vector<char> inside_blocks(ir::ThreadId t) const {
    const auto& code = tm_.threads[t].code;
    std::vector<char> in(code.size(), 0);
    std::vector<std::uint32_t> work;
    for (std::uint32_t pc = 0; pc < code.size(); ++pc)
      if (code[pc].kind == InstrKind::AtomicBegin) work.push_back(pc + 1);
    while (!work.empty()) {
      const std::uint32_t v = work.back();
      work.pop_back();
      if (v >= code.size() || in[v]) continue;
      in[v] = 1;
      const ir::Instr& x = code[v];
      if (x.kind == InstrKind::AtomicEnd) continue;
      for (std::uint32_t s : ir::successors(code, v, kSirFlow)) work.push_back(s);
    }
    return in;
  }

  /// Fills pairs; returns the number of insensitive pairs. A pair that no relevant use reads
  /// is insensitive without a graph (§B9.4); the others need `graph()`'s invariants (called
  /// once, only when some pair needs it; nullptr or an incomplete graph: they are sensitive).
  std::uint64_t run(ChainFilter& f, const std::function<const TransactionGraph*(const Focus&)>& graph) {
    const std::vector<Use> uses = relevant_uses();
    relevant_conds_ = static_cast<std::uint64_t>(std::count_if(uses.begin(), uses.end(), [](const Use& u) { return !u.lock_state; }));
    std::set<CellKey> shared;
    std::vector<std::vector<char>> inside(n_);
    for (ir::ThreadId t = 0; t < n_; ++t) inside[t] = inside_blocks(t);
    std::vector<std::vector<std::optional<Transition>>> tr(n_);
    for (ir::ThreadId t = 0; t < n_; ++t) {
      tr[t].resize(tm_.threads[t].code.size());
      for (std::uint32_t pc = 0; pc < tm_.threads[t].code.size(); ++pc)
        if (!inside[t][pc]) tr[t][pc] = data_accesses(t, pc);
    }
    std::vector<std::pair<std::size_t, std::vector<std::size_t>>> pending;  // (index in pairs_, its uses)
    // per thread and cell: the transitions that access it, and those that write it
    std::vector<std::map<CellKey, std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>>> by_cell(n_);
    for (ir::ThreadId t = 0; t < n_; ++t)
      for (std::uint32_t pc = 0; pc < tr[t].size(); ++pc)
        if (tr[t][pc])
          for (const auto& [cell, write] : tr[t][pc]->cells) {
            auto& [any, writes] = by_cell[t][cell];
            if (any.empty() || any.back() != pc) any.push_back(pc);
            if (write && (writes.empty() || writes.back() != pc)) writes.push_back(pc);
          }
    // the shared cells: accessed by two threads' data transitions, written by one (a table column)
    std::set<CellKey> all_shared;
    for (ir::ThreadId l = 0; l < n_; ++l)
      for (const auto& [cell, acc] : by_cell[l])
        for (ir::ThreadId i = 0; i < n_; ++i)
          if (i != l && !acc.second.empty() && by_cell[i].count(cell)) all_shared.insert(cell);
    all_shared_vars_ = all_shared.size();
    std::vector<std::uint32_t> partners;
    for (ir::ThreadId l = 0; l < n_; ++l)
      for (ir::ThreadId i = 0; i < n_; ++i) {
        if (l == i) continue;
        for (std::uint32_t c = 0; c < tm_.threads[l].code.size(); ++c) {
          const auto& ac = tr[l][c];
          if (!ac) continue;
          partners.clear();  // the d of thread i dependent with c (dependent()), in order
          for (const auto& [cell, write] : ac->cells)
            if (auto it = by_cell[i].find(cell); it != by_cell[i].end()) {
              const auto& ds = write ? it->second.first : it->second.second;
              partners.insert(partners.end(), ds.begin(), ds.end());
            }
          std::sort(partners.begin(), partners.end());
          partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
          for (std::uint32_t d : partners) {
            const auto& ad = tr[i][d];
            assert(ad && dependent(*ac, *ad));
            // The paper's relevance filter (§B4, DESIGN.md §B5 steps 10-32): c;d and d;c differ
            // only in values one of them computed from a cell the other wrote, or in a cell both
            // wrote (and in the branch a conditional of c or d took on such a value). Such a value
            // lies on a def-use chain from c and on one from d, and so does everything computed
            // from it: only uses reading one can tell the orders apart.
            const std::vector<char>& from_c = reached_from(ac->seeds);
            const std::vector<char>& from_d = reached_from(ad->seeds);
            auto in = [&](const std::vector<char>& r, std::uint32_t v) {
              return v < r.size() ? r[v] != 0 : r[kAnyWrite] != 0;
            };
            std::vector<std::size_t> relevant;
            for (std::size_t k = 0; k < uses.size(); ++k) {
              if (o_.test_ignore_conditionals && uses[k].cond) continue;
              if (std::any_of(uses[k].reads.begin(), uses[k].reads.end(),
                              [&](std::uint32_t v) { return in(from_c, v) && in(from_d, v); }))
                relevant.push_back(k);
            }
            const bool section = ac->section || ad->section;
            if (relevant.empty()) {  // no use can tell c;d from d;c: insensitive, no graph needed
              pairs_.push_back({l, i, c, d, true});
              ++irrelevant_pairs_;
              section_pairs_ += section;
              continue;
            }
            for (const auto& a : ac->cells)  // the cells the pair shares (c's that d touches too)
              if (all_shared.count(a.first) && by_cell[i].count(a.first)) shared.insert(a.first);
            if (section) {  // the graph's transactions are not the BMC's (§B9.1): sensitive
              pairs_.push_back({l, i, c, d, false});
              continue;
            }
            pending.push_back({pairs_.size(), std::move(relevant)});
            pairs_.push_back({l, i, c, d, false});
          }
        }
      }
    if (!pending.empty()) {
      // the graph tracks only what the pending pairs' uses read (TgOptions::focus)
      std::set<std::size_t> needed;
      for (const auto& pk : pending) needed.insert(pk.second.begin(), pk.second.end());
      Focus focus;
      for (std::size_t k : needed) focus.push_back({uses[k].t, uses[k].pc});
      const TransactionGraph* g = graph(focus);
      if (!g || !g->complete) {
        no_graph_ = g ? "transaction graph incomplete: " + g->incomplete_reason : "no transaction graph";
        if (debug()) std::fprintf(stderr, "sir: %zu pairs with relevant uses sensitive: %s\n", pending.size(), no_graph_.c_str());
      } else {
        use_graph(*g);
        // each use a pending pair reads, decided at the node locations where its thread may be
        // (lift()), placed once when first needed
        std::vector<std::optional<std::vector<Cond>>> conds(uses.size());
        std::vector<const Cond*> relevant;
        for (auto& [index, ks] : pending) {
          relevant.clear();
          for (std::size_t k : ks) {
            if (!conds[k]) conds[k] = place(uses[k]);
            for (const Cond& x : *conds[k]) relevant.push_back(&x);
          }
          SirPair& p = pairs_[index];
          p.insensitive = insensitive(p.l, p.c, p.i, p.d, relevant);
        }
      }
    }
    for (auto& row : f.insensitive) row.clear();
    f.insensitive.assign(n_, std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>>(n_));
    std::uint64_t count = 0;
    for (const SirPair& p : pairs_)
      if (p.insensitive) {
        f.insensitive[p.l][p.i].push_back({p.c, p.d});
        ++count;
      }
    shared_vars_ = shared.size();
    for (const CellKey& k : shared) relevant_vars_.push_back(ir::cell_name(tm_.objects, k.first, k.second));
    std::sort(relevant_vars_.begin(), relevant_vars_.end());
    return count;
  }

  std::uint64_t balanced_sections() const { return tx_.balanced_sections(); }
  std::uint64_t carried_unlocks() const { return tx_.carried_unlock_steps(); }

  std::uint64_t relevant_conds_ = 0, shared_vars_ = 0, all_shared_vars_ = 0, irrelevant_pairs_ = 0, section_pairs_ = 0;
  std::vector<std::string> relevant_vars_;
  std::string no_graph_;  // why the pairs with relevant uses are sensitive ("" if a graph decided them)
  std::vector<SirPair> pairs_;

 private:
  /// What can tell two orders of a pair apart (DESIGN.md §B9.4): a step of thread t at pc whose
  /// effect on control depends on a value it reads (the def-use nodes `reads`): a conditional
  /// (Goto with a condition, Assume, Assert: the property), an address that may depend on
  /// shared data (which cell is accessed, whether the access is valid; cond nullptr:
  /// undecided), the thread a join waits for and the cells a synchronisation step reads (a
  /// lock's state: whether it blocks).
  struct Use {
    ir::ThreadId t;
    std::uint32_t pc;
    ExprRef cond;
    std::vector<std::uint32_t> reads;
    bool lock_state = false;  // a synchronisation step's cells (not counted as a conditional)
  };

  /// A use, decided at the nodes where thread t is at location `at` (its own location, or the
  /// node location its transaction starts from, see lift()).
  struct Cond {
    ir::ThreadId t;
    std::uint32_t at;
    ExprRef cond;  // nullptr: undecided at every such node
  };

  std::vector<Use> relevant_uses() const {
    std::vector<Use> out;
    for (ir::ThreadId t = 0; t < n_; ++t)
      for (std::uint32_t pc = 0; pc < tm_.threads[t].code.size(); ++pc) {
        const ir::Instr& in = tm_.threads[t].code[pc];
        if (is_conditional(in) && depends(t, in.a)) {
          out.push_back({t, pc, in.a, {}});
          reads_of(t, in.a, out.back().reads);
        }
        if (in.kind == InstrKind::ThreadJoin && depends(t, in.a)) {  // which thread it waits for
          out.push_back({t, pc, nullptr, {}});
          reads_of(t, in.a, out.back().reads);
        }
        if (ir::is_sync_step(in.kind)) {  // whether it blocks: the state of its lock (a data store may reach it)
          Use u{t, pc, nullptr, {}, true};
          for (const ir::Access& a : ir::memory_accesses(tm_, t, pc))
            if (const auto cells = cells_of(t, a))
              for (const CellKey& c : *cells) u.reads.push_back(cell_node(c));
          if (!u.reads.empty()) out.push_back(std::move(u));
        }
        for (const ir::Access& a : ir::accesses(tm_, t, pc))
          if ((a.kind == ir::LocKind::Cell || a.kind == ir::LocKind::Alloc) && a.addr && depends(t, a.addr)) {
            out.push_back({t, pc, nullptr, {}});
            reads_of(t, a.addr, out.back().reads);
            break;
          }
      }
    return out;
  }

  void use_graph(const TransactionGraph& g) {
    g_ = &g;
    decider_ = std::make_unique<invariants::GuardDecider>(tm_, g);
    succ_.assign(g.nodes.size(), {});
    for (const auto& e : g.edges)
      if (!e.sliced && e.dst != invariants::TgEdge::kNoNode) succ_[e.src].push_back(e.dst);
  }

  /// Where use u is decided: its own location when that is a node location, else the node
  /// location its transaction starts from (lift()); when it cannot be moved there, undecided
  /// wherever its transaction may start, so every pair after which one of those starts can be
  /// reached is sensitive.
  std::vector<Cond> place(const Use& u) {
    const auto& sp = g_->switch_points;
    if (u.t < sp.size() && u.pc < sp[u.t].size() && sp[u.t][u.pc]) return {{u.t, u.pc, u.cond}};
    if (u.cond)
      if (auto lifted = lift(u.t, u.pc, u.cond)) return {{u.t, lifted->first, lifted->second}};
    std::vector<Cond> out;
    for (std::uint32_t s : transaction_entries(u.t, u.pc)) out.push_back({u.t, s, nullptr});
    return out;
  }

  std::vector<std::uint32_t> successors(ir::ThreadId t, std::uint32_t pc) const {
    const auto& code = tm_.threads[t].code;
    return ir::successors(code, pc, kSirFlow);
  }

  /// The node locations whose transactions may reach r (r no node location): backwards from
  /// r inside transactions to the first switch points. Every execution of r is inside a
  /// transaction that starts at one of them (pc 0 is a switch point).
  std::set<std::uint32_t> transaction_entries(ir::ThreadId t, std::uint32_t r, std::vector<char>* inside_out = nullptr,
                                              std::vector<std::vector<std::uint32_t>>* pred_out = nullptr) const {
    const auto& code = tm_.threads[t].code;
    std::vector<std::vector<std::uint32_t>> pred(code.size());
    for (std::uint32_t pc = 0; pc < code.size(); ++pc)
      for (std::uint32_t q : successors(t, pc))
        if (q < code.size()) pred[q].push_back(pc);
    std::set<std::uint32_t> entries;
    std::vector<char> inside(code.size(), 0);
    std::vector<std::uint32_t> work{r};
    inside[r] = 1;
    while (!work.empty()) {
      const std::uint32_t v = work.back();
      work.pop_back();
      for (std::uint32_t p : pred[v]) {
        if (g_->switch_points[t][p]) {
          entries.insert(p);
        } else if (!inside[p]) {
          inside[p] = 1;
          work.push_back(p);
        }
      }
    }
    if (inside_out) *inside_out = std::move(inside);
    if (pred_out) *pred_out = std::move(pred);
    return entries;
  }

  /// A data-dependent conditional at r inside a transaction (r is no node location; it reads
  /// locals only, a shared read would make it visible): when every way to r inside
  /// transactions starts at one node location s, the ways begin with a straight line from s
  /// (the chain) and nothing after the chain writes what the condition reads, the condition
  /// has the value of the condition with the chain's assignments substituted backwards,
  /// evaluated before s's step. (A load inside a transaction is of memory no other thread
  /// writes, and no store of the chain may come before it.) Returns (s, that condition), or
  /// nullopt.
  std::optional<std::pair<std::uint32_t, ExprRef>> lift(ir::ThreadId t, std::uint32_t r, ExprRef cond) const {
    const auto& code = tm_.threads[t].code;
    std::vector<std::vector<std::uint32_t>> pred;
    std::vector<char> inside;
    const std::set<std::uint32_t> entries = transaction_entries(t, r, &inside, &pred);
    if (entries.size() != 1) return std::nullopt;
    const std::uint32_t s = *entries.begin();
    // The straight-line start of the ways: s and the locations after it with one way in and out.
    std::vector<std::uint32_t> chain{s};
    std::vector<char> on_chain(code.size(), 0);
    on_chain[s] = 1;
    for (;;) {
      const auto next = successors(t, chain.back());
      if (next.size() != 1 || next[0] >= code.size() || next[0] == r || !inside[next[0]] || on_chain[next[0]] ||
          pred[next[0]].size() != 1)
        break;
      chain.push_back(next[0]);
      on_chain[next[0]] = 1;
    }
    std::set<ir::LocalId> reads;
    bool loads = false;
    auto collect = [&](ExprRef e) {
      reads.clear();
      loads = false;
      ir::visit_post_order(e, [&](ExprRef x) {
        if (x->op == Op::Local) reads.insert(static_cast<ir::LocalId>(x->value));
        else if (x->op == Op::Load) loads = true;
      });
    };
    collect(cond);
    if (loads) return std::nullopt;  // a condition reading memory is a node location itself
    // After the chain nothing on the ways to r may write what the condition reads.
    for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
      if (!inside[pc] || on_chain[pc]) continue;
      const ir::Instr& in = code[pc];
      switch (in.kind) {
        case InstrKind::Goto: case InstrKind::Skip: case InstrKind::Assert: case InstrKind::Assume:
        case InstrKind::AtomicBegin: case InstrKind::AtomicEnd: case InstrKind::Store:
          break;
        case InstrKind::Assign: case InstrKind::Havoc:
          if (reads.count(in.lhs)) return std::nullopt;
          break;
        default: return std::nullopt;
      }
    }
    // Along the chain, backwards: substitute each assignment to what the condition reads.
    ExprRef out = cond;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const ir::Instr& in = code[*it];
      collect(out);
      switch (in.kind) {
        case InstrKind::Goto: case InstrKind::Skip: case InstrKind::Assert: case InstrKind::Assume:
        case InstrKind::AtomicBegin: case InstrKind::AtomicEnd:
          break;
        case InstrKind::Store: case InstrKind::Lock: case InstrKind::Unlock:
          if (loads) return std::nullopt;  // the value loaded later may be the one written here
          break;
        case InstrKind::Assign:
          if (reads.count(in.lhs)) {
            if (!in.a) return std::nullopt;
            out = substitute(out, in.lhs, in.a);
            if (!out) return std::nullopt;
          }
          break;
        case InstrKind::Havoc:
          if (reads.count(in.lhs)) return std::nullopt;
          break;
        default:
          return std::nullopt;  // other steps may write locals besides lhs (e.g. a create counter)
      }
    }
    return std::make_pair(s, out);
  }

  ExprRef substitute(ExprRef e, ir::LocalId x, ExprRef by) const {
    if (e->op == Op::Local && e->value == x) return e->type == by->type ? by : nullptr;
    if (e->kids.empty()) return e;
    std::vector<ExprRef> kids;
    for (ExprRef k : e->kids) {
      ExprRef n = substitute(k, x, by);
      if (!n) return nullptr;
      kids.push_back(n);
    }
    return tm_.expr_builder().rebuild(e, kids);
  }
  /// A data transition: the cells it may access (object, cell start) with whether it may write
  /// them, and where its def-use chains start: every cell it may access (a read counts via the
  /// value it loads, which may be what the other transition of a pair wrote) and the locals it
  /// assigns a value that may depend on shared data.
  struct Transition {
    std::vector<std::pair<CellKey, bool>> cells;
    std::vector<std::uint32_t> seeds;
    bool section = false;  // a balanced critical section (ir::Transactions::balanced)
  };

  // The transition that starts at pc: a plain data step, or an atomic block (AtomicBegin at pc:
  // every step up to its AtomicEnd, which must all be plain data steps; `atomic` is 0 between
  // transitions, see reduction/mpor.cpp). An access through a pointer may touch every cell of
  // its points-to set. nullopt: not a data transition (always sensitive).
  //
  // A balanced critical section (DESIGN.md §B9.3, ir::Transactions::balanced: a Lock whose
  // transaction always releases the mutex again, of a mutex no thread holds at a boundary) is
  // the whole transaction of the Lock: the Lock, every step up to the transaction's end, and
  // the Unlocks of its mutex inside it. The mutex's cell is left out of its accesses: it is
  // free before and after every such transaction, and the Lock never blocks where its thread
  // is at a boundary, so the section changes no other transaction's enabledness and is judged
  // by its data. Any other synchronisation inside (an unlock of another mutex) makes it no
  // data transition. The section is what the BMC runs only with transaction frames whose own
  // Transactions say the same (reduction/mpor.cpp checks FrameView::tx).
  std::optional<Transition> data_accesses(ir::ThreadId t, std::uint32_t pc) const {
    const auto& code = tm_.threads[t].code;
    std::vector<std::uint32_t> steps{pc};
    std::optional<CellKey> mutex;
    if (code[pc].kind == InstrKind::Lock) {
      mutex = mutex_of(t, pc);
      if (!mutex || !(tx_.balanced(t, pc) || o_.test_unbalanced_sections)) return std::nullopt;
      std::vector<char> seen(code.size(), 0);
      std::vector<std::uint32_t> work = ir::successors(code, pc);
      while (!work.empty()) {
        const std::uint32_t v = work.back();
        work.pop_back();
        if (v >= code.size() || tx_.boundary(t, v) || seen[v]) continue;
        seen[v] = 1;
        steps.push_back(v);
        for (std::uint32_t w : ir::successors(code, v)) work.push_back(w);
      }
    }
    if (code[pc].kind == InstrKind::AtomicBegin) {
      steps.clear();
      std::vector<char> seen(code.size(), 0);
      std::vector<std::uint32_t> work{pc};
      while (!work.empty()) {
        const std::uint32_t v = work.back();
        work.pop_back();
        if (v >= code.size()) return std::nullopt;  // the thread ends inside the block
        if (seen[v]) continue;
        seen[v] = 1;
        steps.push_back(v);
        const ir::Instr& in = code[v];
        if (in.kind == InstrKind::AtomicEnd && v != pc) continue;
        for (std::uint32_t s : ir::successors(code, v, kSirFlow)) work.push_back(s);
      }
    }
    Transition out;
    out.section = mutex.has_value();
    for (std::uint32_t s : steps) {
      const InstrKind k = code[s].kind;
      // the section's Lock and the Unlocks of its mutex
      const bool takes_or_frees = mutex && (s == pc || (k == InstrKind::Unlock && mutex_of(t, s) == mutex));
      if (ir::is_sync_step(k) && !takes_or_frees &&
          !(!mutex && steps.size() > 1 && (k == InstrKind::AtomicBegin || k == InstrKind::AtomicEnd)))
        return std::nullopt;
      for (const ir::Access& a : ir::accesses(tm_, t, s)) {
        if (takes_or_frees && a.kind == ir::LocKind::Cell && a.addr == code[s].a) continue;  // the mutex
        if (a.kind == ir::LocKind::Cell) {
          const auto cells = cells_of(t, a);
          if (!cells) return std::nullopt;
          for (const CellKey& c : *cells) {
            if (sync_cells_.count(c)) return std::nullopt;
            out.cells.push_back({c, a.write});
            out.seeds.push_back(cell_node(c));
          }
        } else if (a.kind == ir::LocKind::Atomic && steps.size() > 1) {
          continue;
        } else if (a.write || !(a.kind == ir::LocKind::Started || a.kind == ir::LocKind::Terminated ||
                                 a.kind == ir::LocKind::Atomic || a.kind == ir::LocKind::Alloc)) {
          return std::nullopt;
        }
      }
      const ir::Instr& in = code[s];
      if (in.lhs != ir::kNoLocal && in.lhs < taint_[t].size() && taint_[t][in.lhs]) out.seeds.push_back(local_node(t, in.lhs));
    }
    // sorted by cell, one entry per cell (written if any access writes it), for dependent()
    std::sort(out.cells.begin(), out.cells.end());
    std::vector<std::pair<CellKey, bool>> merged;
    for (const auto& [k, w] : out.cells)
      if (!merged.empty() && merged.back().first == k) merged.back().second = merged.back().second || w;
      else merged.push_back({k, w});
    out.cells = std::move(merged);
    return out;
  }

  /// The one mutex cell a Lock or an Unlock of thread t at pc takes or frees (nullopt: none
  /// known, or it may be one of several).
  std::optional<CellKey> mutex_of(ir::ThreadId t, std::uint32_t pc) const {
    const ir::Instr& in = tm_.threads[t].code[pc];
    for (const ir::Access& a : ir::accesses(tm_, t, pc))
      if (a.kind == ir::LocKind::Cell && a.addr == in.a) {
        const auto cells = cells_of(t, a);
        if (!cells || cells->size() != 1) return std::nullopt;
        return cells->front();
      }
    return std::nullopt;
  }

  /// The cells (object, cell start) access `a` (a Cell access of thread t) may touch: its
  /// constant address, or the points-to set of its pointer. nullopt: it may touch any cell (or
  /// too many to list).
  std::optional<std::vector<CellKey>> cells_of(ir::ThreadId t, const ir::Access& a) const {
    if (a.static_cell()) return std::vector<CellKey>{cell_key(a.addr->obj, a.addr->offset())};
    if (!a.addr) return std::nullopt;
    if (a.addr->is_const()) return std::vector<CellKey>{};  // null: a memory-safety failure, no cell
    const auto cells = pts_.cells_of(t, a.addr);
    if (!cells || cells->size() > kMaxMayCells) return std::nullopt;
    std::vector<CellKey> out;
    for (const auto& [o, c] : *cells) out.push_back({o, static_cast<std::uint32_t>(tm_.objects[o].offset_of(c))});
    return out;
  }

  /// (object, the first byte of the cell at `offset`); the offset itself when no cell starts
  /// or contains it.
  CellKey cell_key(ir::ObjectId o, std::int64_t offset) const {
    if (o < tm_.objects.size())
      if (const auto c = tm_.objects[o].cell_at(offset))
        return {o, static_cast<std::uint32_t>(tm_.objects[o].offset_of(*c))};
    return {o, static_cast<std::uint32_t>(offset)};
  }

  /// Some cell both may access, and one of them may write it (cells sorted, one entry each).
  static bool dependent(const Transition& a, const Transition& b) {
    for (auto x = a.cells.begin(), y = b.cells.begin(); x != a.cells.end() && y != b.cells.end();) {
      if (x->first < y->first) ++x;
      else if (y->first < x->first) ++y;
      else if (x->second || y->second) return true;
      else ++x, ++y;
    }
    return false;
  }

  bool insensitive(ir::ThreadId l, std::uint32_t c, ir::ThreadId i, std::uint32_t d,
                   const std::vector<const Cond*>& conds) {
    // start nodes: l at c, i at d
    std::vector<bool> seen(g_->nodes.size(), false);
    std::deque<std::size_t> work;
    for (std::size_t n = 0; n < g_->nodes.size(); ++n) {
      const auto& locs = g_->nodes[n].locs;
      if (l < locs.size() && i < locs.size() && locs[l] == static_cast<std::int32_t>(c) &&
          locs[i] == static_cast<std::int32_t>(d) && !g_->nodes[n].inv.is_bottom()) {
        seen[n] = true;
        work.push_back(n);
      }
    }
    if (work.empty()) {  // missing node: sensitive
      if (debug())
        std::fprintf(stderr, "sir: %s:%u / %s:%u sensitive: no node\n", tm_.threads[l].name.c_str(), c,
                     tm_.threads[i].name.c_str(), d);
      return false;
    }
    while (!work.empty()) {
      const std::size_t n = work.front();
      work.pop_front();
      for (std::size_t m : succ_[n])
        if (!seen[m]) seen[m] = true, work.push_back(m);
    }
    for (const Cond* x : conds) {
      const ir::ThreadId t = x->t;
      const std::uint32_t r = x->at;
      const ExprRef cond = x->cond;
      bool all_true = true, all_false = true;
      for (std::size_t n = 0; n < g_->nodes.size() && (all_true || all_false); ++n) {
        if (!seen[n] || t >= g_->nodes[n].locs.size() || g_->nodes[n].locs[t] != static_cast<std::int32_t>(r)) continue;
        if (g_->nodes[n].terminated) continue;  // nothing is scheduled after termination
        if (g_->nodes[n].inv.is_bottom()) continue;  // unreachable node
        const int v = cond ? decider_->decide(g_->nodes[n].inv, t, cond) : -1;  // nullptr: undecided
        if (v != 1) all_true = false;
        if (v != 0) all_false = false;
      }
      if (!all_true && !all_false) {
        if (debug())
          std::fprintf(stderr, "sir: %s:%u / %s:%u sensitive: conditional %s:%u not decided at every node\n",
                       tm_.threads[l].name.c_str(), c, tm_.threads[i].name.c_str(), d, tm_.threads[t].name.c_str(), r);
        return false;
      }
    }
    return true;
  }

  const ir::ThreadModel& tm_;
  const SirOptions& o_;
  const TransactionGraph* g_ = nullptr;  // use_graph()
  std::size_t n_;
  std::unique_ptr<invariants::GuardDecider> decider_;  // the graph's own guard semantics
  ir::PointsTo pts_;
  ir::Transactions tx_;  // the BMC's transactions with the default options: its balanced sections
  std::set<CellKey> sync_cells_;
  std::vector<std::vector<bool>> taint_;
  std::vector<std::vector<std::size_t>> succ_;
  // def-use graph: node ids below kFirstNode are summaries, then every thread's locals, then
  // cells (numbered when first met)
  static constexpr std::uint32_t kAnyRead = 0, kAnyWrite = 1, kRet = 2, kFirstNode = 3;
  static constexpr std::size_t kMaxMayCells = 1024;  // beyond: treated as "anywhere"
  std::vector<std::size_t> local_base_;
  mutable std::uint32_t node_count_ = kFirstNode;
  mutable std::map<CellKey, std::uint32_t> cell_nodes_;
  mutable std::vector<char> is_cell_;
  mutable std::vector<std::vector<std::uint32_t>> adj_;
  mutable std::map<std::vector<std::uint32_t>, std::vector<char>> closures_;
};

}  // namespace

SirAnalysis analyse_sir(const ir::ThreadModel& tm, const TransactionGraph* graph, TransactionGraph* keep,
                        const SirOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  SirAnalysis r;
  TransactionGraph own;
  TransactionGraph& built = keep ? *keep : own;
  // The analysis needs a graph whose transactions contain no shared access: lift() moves a
  // conditional inside a transaction to the transaction's node location, which assumes the
  // memory it reads is private. (A protected access would do too, but that is not argued yet.)
  if (graph && graph->lockset_transactions && graph->protected_accesses > 0) graph = nullptr;
  // Built only when a pair has a relevant use (a program whose shared cells no conditional
  // reads needs none), over the variables those uses read, within o.graph_seconds,
  // o.graph_nodes and 256 MB (given up at once when 2000 nodes would not fit).
  auto graph_of = [&](const Focus& focus) -> const TransactionGraph* {
    if (graph || o.graph_seconds <= 0) return graph;
    const auto t0 = std::chrono::steady_clock::now();
    invariants::TgOptions to;
    to.time_limit_seconds = o.graph_seconds;
    to.max_nodes = o.graph_nodes;
    to.min_room_nodes = 2000;  // the largest complete graph of benchmarks/TG.md has 1778 nodes
    to.max_state_bytes = std::size_t{256} << 20;
    to.lockset_transactions = false;
    to.focus = focus;
    built = invariants::build_transaction_graph(tm, to);
    r.graph_ms = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count());
    graph = &built;
    return graph;
  };
  auto lap = [&, last = start](const char* what) mutable {
    if (!debug()) return;
    const auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "sir: %s %.0f ms\n", what, std::chrono::duration<double, std::milli>(now - last).count());
    last = now;
  };
  Analysis a(tm, o);
  r.gave_up = a.precheck();
  lap("precheck");
  if (r.gave_up.empty()) {
    a.compute_taint();
    lap("taint");
    a.build_def_use();
    lap("def-use");
    ChainFilter f;
    a.run(f, graph_of);
    lap("pairs");
    r.no_graph = a.no_graph_;
    r.pairs = std::move(a.pairs_);
    r.insensitive = std::move(f.insensitive);
    r.relevant_conditionals = a.relevant_conds_;
    r.relevant_shared_vars = a.shared_vars_;
    r.shared_vars = a.all_shared_vars_;
    r.relevant_vars = std::move(a.relevant_vars_);
    r.irrelevant_pairs = a.irrelevant_pairs_;
    r.section_pairs = a.section_pairs_;
    r.balanced_sections = a.balanced_sections();
    r.carried_unlocks = a.carried_unlocks();
  }
  if (debug() && !r.gave_up.empty()) std::fprintf(stderr, "sir: gave up: %s\n", r.gave_up.c_str());
  for (const SirPair& p : r.pairs) (p.insensitive ? r.insensitive_pairs : r.ss_pairs) += 1;
  r.analysis_ms = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count());
  return r;
}

CollapsedGraph collapse(const TransactionGraph& g, const SirAnalysis& sir) {
  CollapsedGraph r;
  // (thread, location) -> in a pair; in an SS-pair.
  std::map<std::pair<ir::ThreadId, std::uint32_t>, bool> sensitive;
  if (sir.gave_up.empty() && g.complete)
    for (const SirPair& p : sir.pairs)
      for (auto k : {std::make_pair(p.l, p.c), std::make_pair(p.i, p.d)}) sensitive[k] = sensitive[k] || !p.insensitive;
  auto removed = [&](std::size_t m, ir::ThreadId t) {
    const auto& n = g.nodes[m];
    if (n.terminated || t >= n.locs.size() || n.locs[t] < 0) return false;
    auto it = sensitive.find({t, static_cast<std::uint32_t>(n.locs[t])});
    return it != sensitive.end() && !it->second;
  };
  std::vector<std::vector<std::size_t>> out(g.nodes.size());  // live edge indices by source
  for (std::size_t k = 0; k < g.edges.size(); ++k)
    if (!g.edges[k].sliced) out[g.edges[k].src].push_back(k);
  for (std::size_t m = 0; m < g.nodes.size(); ++m)
    for (ir::ThreadId t = 0; t < g.nodes[m].locs.size(); ++t)
      if (removed(m, t)) r.removed.push_back({m, t});

  std::set<std::tuple<std::size_t, std::size_t, ir::ThreadId>> seen;
  std::vector<std::pair<TgEdge, bool>> edges;  // (edge, made by rewiring)
  auto add = [&](TgEdge e, bool rewired) {
    if (seen.insert({e.src, e.dst, e.thread}).second) edges.push_back({e, rewired});
  };
  for (const TgEdge& e : g.edges) {
    if (e.sliced) continue;
    if (!removed(e.dst, e.thread)) {
      add(e, false);
      continue;
    }
    // Follow e's thread through nodes whose switch is removed; stop at the others (and where
    // the walk closes a cycle).
    std::set<std::size_t> visited{e.dst};
    std::vector<std::pair<std::size_t, std::uint32_t>> work{{e.dst, e.first_pc}};
    while (!work.empty()) {
      const auto [m, first] = work.back();
      work.pop_back();
      for (std::size_t k : out[m]) {
        const TgEdge& x = g.edges[k];
        if (x.thread != e.thread) continue;
        if (removed(x.dst, e.thread) && visited.insert(x.dst).second) {
          work.push_back({x.dst, first});
          continue;
        }
        TgEdge y = x;
        y.src = e.src;
        y.first_pc = first;
        add(y, true);
      }
    }
  }
  std::vector<std::vector<std::size_t>> adj(g.nodes.size());
  for (const auto& [e, rw] : edges) adj[e.src].push_back(e.dst);
  std::vector<bool> reached(g.nodes.size(), false);
  if (!g.nodes.empty()) {
    reached[0] = true;
    r.nodes.push_back(0);
  }
  for (std::size_t k = 0; k < r.nodes.size(); ++k)
    for (std::size_t j : adj[r.nodes[k]])
      if (!reached[j]) {
        reached[j] = true;
        r.nodes.push_back(j);
      }
  std::sort(r.nodes.begin(), r.nodes.end());
  for (const auto& [e, rw] : edges)
    if (reached[e.src]) {
      r.edges.push_back(e);
      r.rewired += rw ? 1 : 0;
    }
  return r;
}

std::unique_ptr<SchedulerConstraints> make_sir(const ir::ThreadModel& tm, const SirOptions& o) {
  SirAnalysis a = analyse_sir(tm, nullptr, nullptr, o);
  ChainFilter f;
  f.name = "sir";
  f.test_unbalanced_sections = o.test_unbalanced_sections;
  if (a.insensitive_pairs) f.insensitive = std::move(a.insensitive);
  f.stats = {{"sir_insensitive_pairs", a.insensitive_pairs},
             {"sir_ss_pairs", a.ss_pairs},
             {"sir_irrelevant_pairs", a.irrelevant_pairs},
             {"sir_section_pairs", a.section_pairs},
             {"sir_balanced_sections", a.balanced_sections},
             {"sir_carried_unlocks", a.carried_unlocks},
             {"sir_relevant_conditionals", a.relevant_conditionals},
             {"sir_relevant_shared_vars", a.relevant_shared_vars},
             {"sir_shared_vars", a.shared_vars},
             {"sir_gave_up", a.gave_up.empty() ? 0u : 1u},
             {"sir_analysis_ms", a.analysis_ms},
             {"sir_graph_ms", a.graph_ms}};
  std::string vars;
  for (const std::string& v : a.relevant_vars) vars += (vars.empty() ? "" : ", ") + v;
  f.text_stats = {{"sir_gave_up_reason", a.gave_up}, {"sir_no_graph_reason", a.no_graph}, {"sir_relevant_vars", vars}};
  return make_mpor_filtered(tm, std::move(f));
}

}  // namespace siren::reduction
