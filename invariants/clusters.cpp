// Variables and clusters of the transaction graph (DESIGN.md §B5 "Clustering"): the analysis
// tracks every non-pointer cell of a global or local object and every non-pointer local of each
// thread; variables that co-occur in an instruction (a def-use chain) share a cluster, and each
// cluster has its own octagon (a pack; clusters larger than TgOptions::max_pack_vars are cut,
// which is sound and less precise). Also here: the widening thresholds (type bounds and the
// program's constants) and, once the graph is built, the shared cells of each cluster that are
// relevant to §B5 steps 10–32: written, and flowing into a conditional along def-use chains.
#include "invariants/builder.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <numeric>
#include <set>

namespace siren::invariants::detail {

// ---- variables and clusters -------------------------------------------------------------
void Builder::make_vars() {
  local_var_.resize(tm_.threads.size());
  for (const auto& o : tm_.objects) {
    if (o.id == 0 || (o.kind != ir::ObjectKind::Global && o.kind != ir::ObjectKind::Local)) continue;
    for (std::uint32_t c = 0; c < o.cells.size(); ++c) {
      const auto& cell = o.cells[c];
      if (cell.type.is_ptr()) continue;
      TgVar v;
      v.kind = TgVar::Cell;
      v.name = cell.name;
      if (o.kind == ir::ObjectKind::Local)
        v.name = o.cells.size() == 1 ? o.name : o.name + "[" + cell.name + "]";
      v.type = cell.type;
      v.obj = o.id;
      v.cell = c;
      cell_var_[key(o.id, c)] = static_cast<int>(vars_.size());
      vars_.push_back(v);
    }
  }
  std::set<std::string> names;
  for (const auto& v : vars_) names.insert(v.name);
  for (std::size_t t = 0; t < tm_.threads.size(); ++t) {
    const auto& th = tm_.threads[t];
    local_var_[t].assign(th.locals.size(), -1);
    for (std::uint32_t l = 0; l < th.locals.size(); ++l) {
      if (th.locals[l].type.is_ptr()) continue;
      TgVar v;
      v.kind = TgVar::Local;
      v.name = th.locals[l].name;
      if (names.count(v.name)) v.name = th.name + "::" + v.name;
      names.insert(v.name);
      v.type = th.locals[l].type;
      v.thread = static_cast<ThreadId>(t);
      v.local = l;
      local_var_[t][l] = static_cast<int>(vars_.size());
      vars_.push_back(v);
    }
  }
  // union-find over def-use co-occurrence
  std::vector<int> parent(vars_.size());
  std::iota(parent.begin(), parent.end(), 0);
  std::function<int(int)> find = [&](int x) { return parent[x] == x ? x : parent[x] = find(parent[x]); };
  auto unite = [&](const std::vector<int>& vs) {
    for (std::size_t i = 1; i < vs.size(); ++i) parent[find(vs[i])] = find(vs[0]);
  };
  for (std::size_t t = 0; t < tm_.threads.size(); ++t) {
    for (const Instr& in : tm_.threads[t].code) {
      std::vector<int> vs;
      auto add = [&](ExprRef e) { vars_in(static_cast<ThreadId>(t), e, vs); };
      switch (in.kind) {
        case InstrKind::Assign:
          if (in.lhs < local_var_[t].size() && local_var_[t][in.lhs] >= 0) vs.push_back(local_var_[t][in.lhs]);
          add(in.a);
          break;
        case InstrKind::Store:
          if (int c = const_cell(in.a); c >= 0) vs.push_back(c);
          add(in.b);
          break;
        case InstrKind::Goto: case InstrKind::Assume: case InstrKind::Assert: case InstrKind::ThreadJoin:
          add(in.a);
          break;
        case InstrKind::ThreadCreate:
          for (std::uint32_t slot : in.threads)
            if (slot < tm_.threads.size()) {
              const auto& th = tm_.threads[slot];
              if (th.param != ir::kNoLocal && th.param < local_var_[slot].size() && local_var_[slot][th.param] >= 0) {
                std::vector<int> w;
                vars_in(static_cast<ThreadId>(t), in.b, w);
                w.push_back(local_var_[slot][th.param]);
                unite(w);
              }
            }
          break;
        default: break;
      }
      unite(vs);
    }
  }
  std::map<int, std::vector<int>> groups;
  for (int v = 0; v < static_cast<int>(vars_.size()); ++v) groups[find(v)].push_back(v);
  if (!o_.focus.empty()) focus_groups(groups, find);
  for (auto& [root, members] : groups) {
    for (std::size_t i = 0; i < members.size(); i += o_.max_pack_vars) {
      TgCluster c;
      for (std::size_t j = i; j < std::min(members.size(), i + o_.max_pack_vars); ++j) {
        vars_[members[j]].pack = static_cast<int>(clusters_.size());
        vars_[members[j]].index = static_cast<int>(c.vars.size());
        c.vars.push_back(members[j]);
      }
      clusters_.push_back(std::move(c));
    }
  }
  state_bytes_ = 0;
  for (const auto& c : clusters_) state_bytes_ += 4 * c.vars.size() * c.vars.size() * sizeof(Bound) + 64;
  g_.vars = vars_;
  g_.clusters = clusters_;
}

/// TgOptions::focus: drops the groups without a variable the focus instructions read or write
/// and renumbers the variables that are left (cell_var_, local_var_, groups).
void Builder::focus_groups(std::map<int, std::vector<int>>& groups, const std::function<int(int)>& find) {
  std::set<int> roots;
  for (const auto& [t, pc] : o_.focus) {
    if (t >= tm_.threads.size() || pc >= tm_.threads[t].code.size()) continue;
    const Instr& in = tm_.threads[t].code[pc];
    std::vector<int> vs;
    vars_in(t, in.a, vs);
    vars_in(t, in.b, vs);
    if (in.kind == InstrKind::Assign && in.lhs < local_var_[t].size() && local_var_[t][in.lhs] >= 0)
      vs.push_back(local_var_[t][in.lhs]);
    if (in.kind == InstrKind::Store)
      if (int c = const_cell(in.a); c >= 0) vs.push_back(c);
    for (int v : vs) roots.insert(find(v));
  }
  std::vector<int> renum(vars_.size(), -1);
  std::vector<TgVar> kept;
  std::map<int, std::vector<int>> out;
  for (auto& [root, members] : groups) {
    if (!roots.count(root)) continue;
    for (int v : members) {
      renum[v] = static_cast<int>(kept.size());
      out[root].push_back(renum[v]);
      kept.push_back(vars_[v]);
    }
  }
  for (auto it = cell_var_.begin(); it != cell_var_.end();) {
    if (renum[it->second] < 0) {
      it = cell_var_.erase(it);
    } else {
      it->second = renum[it->second];
      ++it;
    }
  }
  for (auto& row : local_var_)
    for (int& v : row)
      if (v >= 0) v = renum[v];
  vars_ = std::move(kept);
  groups = std::move(out);
}

/// For GuardDecider: the variables and clusters of `g`, indexed as make_vars indexes them.
void Builder::adopt_vars(const TransactionGraph& g) {
  vars_ = g.vars;
  clusters_ = g.clusters;
  local_var_.resize(tm_.threads.size());
  for (std::size_t t = 0; t < tm_.threads.size(); ++t) local_var_[t].assign(tm_.threads[t].locals.size(), -1);
  for (int v = 0; v < static_cast<int>(vars_.size()); ++v) {
    const TgVar& x = vars_[v];
    if (x.kind == TgVar::Cell) cell_var_[key(x.obj, x.cell)] = v;
    else local_var_[x.thread][x.local] = v;
  }
}

std::uint64_t Builder::key(ir::ObjectId o, std::uint32_t c) { return (std::uint64_t{o} << 32) | c; }

int Builder::const_cell(ExprRef p) const {
  if (!p || p->op != Op::ObjAddr) return -1;
  const auto c = tm_.objects[p->obj].cell_at(p->offset());
  if (!c) return -1;
  auto it = cell_var_.find(key(p->obj, *c));
  return it == cell_var_.end() ? -1 : it->second;
}

int Builder::local_of(ThreadId t, ir::LocalId l) const {
  return l < local_var_[t].size() ? local_var_[t][l] : -1;
}

void Builder::vars_in(ThreadId t, ExprRef e, std::vector<int>& out) const {
  if (!e) return;
  if (e->op == Op::Local) {
    if (int v = local_of(t, static_cast<ir::LocalId>(e->value)); v >= 0) out.push_back(v);
    return;
  }
  if (e->op == Op::Load) {
    if (int v = const_cell(e->kids[0]); v >= 0) out.push_back(v);
    else vars_in(t, e->kids[0], out);
    return;
  }
  for (ExprRef k : e->kids) vars_in(t, k, out);
}

void Builder::make_thresholds() {
  std::set<std::int64_t> th = {0, 1, -1};
  for (unsigned w : {8u, 16u, 32u, 64u}) {
    for (bool s : {true, false}) {
      const Itv r = type_range(Type::integer(w, s));
      if (auto lo = opt_lo(r)) th.insert(*lo);
      if (auto hi = opt_hi(r)) th.insert(*hi);
    }
  }
  std::set<std::int64_t> consts;
  for (const auto& t : tm_.threads)
    for (const Instr& in : t.code)
      for (ExprRef e : {in.a, in.b})
        if (e)
          ir::visit_post_order(e, [&](ExprRef n) {
            if (n->op == Op::Const && (n->type.is_int())) {
              const W v = value_of(n->type, n->value);
              if (!big(v)) consts.insert(static_cast<std::int64_t>(v));
            }
          });
  for (std::int64_t c : consts) {  // Octagon::widen sorts its thresholds on every call: keep few
    if (th.size() > 80) break;
    th.insert(c);
  }
  thresholds_.assign(th.begin(), th.end());
}

// ---- relevance -------------------------------------------------------------------------
void Builder::compute_relevance() {
  const int n = static_cast<int>(vars_.size());
  const int alias = n;  // pseudo-variable: any cell reached through a pointer
  std::vector<std::vector<int>> rev(n + 1);  // rev[v]: vars whose value flows into v
  std::vector<bool> written(n + 1, false), in_cond(n + 1, false);
  auto flows = [&](ThreadId t, ExprRef e, std::vector<int>& out) {
    vars_in(t, e, out);
    bool ptr_load = false;
    if (e)
      ir::visit_post_order(e, [&](ExprRef x) {
        if (x->op == Op::Load && const_cell(x->kids[0]) < 0) ptr_load = true;
      });
    if (ptr_load) out.push_back(alias);
  };
  auto def = [&](int dst, const std::vector<int>& srcs) {
    if (dst < 0) return;
    for (int s : srcs) rev[dst].push_back(s);
  };
  auto target = [&](ExprRef p) -> int {  // -1: none, alias for a pointer
    if (!p || p->is_const()) return -1;
    if (p->op == Op::ObjAddr) return const_cell(p);
    return alias;
  };
  for (ThreadId t = 0; t < tm_.threads.size(); ++t)
    for (std::uint32_t pc = 0; pc < tm_.threads[t].code.size(); ++pc) {
      if (!executed_.empty() && !executed_[t][pc]) continue;
      const Instr& in = tm_.threads[t].code[pc];
      std::vector<int> srcs;
      switch (in.kind) {
        case InstrKind::Assign:
          flows(t, in.a, srcs);
          def(local_of(t, in.lhs), srcs);
          break;
        case InstrKind::Store: {
          flows(t, in.b, srcs);
          const int d = target(in.a);
          def(d, srcs);
          if (d >= 0) written[d] = true;
          break;
        }
        case InstrKind::Goto:
          if (in.a->is_const()) break;
          [[fallthrough]];
        case InstrKind::Assume: case InstrKind::Assert: case InstrKind::ThreadJoin:
          flows(t, in.a, srcs);
          for (int v : srcs) in_cond[v] = true;
          break;
        case InstrKind::Lock: case InstrKind::TryLock: case InstrKind::WrLock: case InstrKind::RdLock: {
          const int d = target(in.a);
          if (d >= 0) written[d] = in_cond[d] = true;
          break;
        }
        case InstrKind::Unlock: case InstrKind::RwUnlock: {
          const int d = target(in.a);
          if (d >= 0) written[d] = true;
          break;
        }
        default: break;
      }
    }
  // alias <-> escaped cells
  for (const auto& [k, v] : cell_var_)
    if (facts_.escaped(static_cast<ir::ObjectId>(k >> 32))) {
      rev[v].push_back(alias);
      rev[alias].push_back(v);
      if (written[alias]) written[v] = true;
    }
  std::vector<bool> reaches(n + 1, false);
  std::deque<int> work;
  for (int v = 0; v <= n; ++v)
    if (in_cond[v]) reaches[v] = true, work.push_back(v);
  while (!work.empty()) {
    const int v = work.front();
    work.pop_front();
    for (int s : rev[v])
      if (!reaches[s]) reaches[s] = true, work.push_back(s);
  }
  for (auto& c : g_.clusters) {
    c.relevant.clear();
    for (int v : c.vars)
      if (vars_[v].kind == TgVar::Cell && shared_obj_[vars_[v].obj] && written[v] && reaches[v]) c.relevant.push_back(v);
  }
}

}  // namespace siren::invariants::detail
