// The fixpoint of the transaction graph (DESIGN.md §B5 steps 1–3, seed Algorithm 1 steps 1–9):
// abstract interpretation over the graph of location tuples, whose edges are transactions
// (transactions.cpp, abstract_semantics.cpp). A worklist explores the nodes from the initial one,
// joining the states that reach a node and widening them (with thresholds, §B6) after
// TgOptions::widening_delay joins; descending rounds then recompute every invariant from its
// predecessors' (narrowing). A final pass records the edges and the sliced ones (a guard that is
// ⊥ under the invariant), and unreachable nodes are dropped. Refinement (step 9): the graph is
// built again with the switch points of the instructions the last graph executes, until they
// stop changing.
#include "invariants/builder.hpp"

#include <algorithm>
#include <deque>
#include <string>
#include <tuple>

namespace siren::invariants::detail {

namespace {

std::string node_key(const std::vector<std::int32_t>& locs, bool terminated) {
  std::string key(reinterpret_cast<const char*>(locs.data()), locs.size() * sizeof(std::int32_t));
  key.push_back(terminated ? 'T' : 'R');
  return key;
}

}  // namespace

void Builder::run() {
  make_vars();
  make_thresholds();
  // Initially every object accessed by two threads, or escaped, is shared.
  std::vector<std::vector<bool>> reach(tm_.threads.size());
  for (std::size_t t = 0; t < tm_.threads.size(); ++t) reach[t].assign(tm_.threads[t].code.size(), true);
  std::vector<std::vector<bool>> prev_switch;
  if (o_.min_room_nodes > 0 && state_bytes_ * o_.min_room_nodes > o_.max_state_bytes) {
    g_.complete = false;
    g_.incomplete_reason = "memory limit (a node's invariants take " + std::to_string(state_bytes_ >> 10) +
                           " KB: fewer than " + std::to_string(o_.min_room_nodes) + " nodes fit in " +
                           std::to_string(o_.max_state_bytes >> 20) + " MB)";
    compute_switch_points(reach);
    g_.switch_points = switch_;
    g_.seconds = elapsed();
    return;
  }
  for (unsigned round = 0; round <= o_.max_refinements; ++round) {
    compute_switch_points(reach);
    if (round > 0 && switch_ == prev_switch) break;
    prev_switch = switch_;
    g_.rounds = round + 1;
    build_graph();
    if (!g_.complete) break;
    reach = executed_;
  }
  compute_relevance();
  g_.switch_points = switch_;
  g_.seconds = elapsed();
}

double Builder::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Builder::check_limits() {
  if (o_.time_limit_seconds > 0 && elapsed() > o_.time_limit_seconds) {
    g_.complete = false;
    g_.incomplete_reason = "time limit";
  }
}

// ---- the graph ---------------------------------------------------------------------------
TgState Builder::initial_state() const {
  TgState s;
  for (const auto& c : clusters_) s.packs.push_back(Octagon::top(static_cast<int>(c.vars.size())));
  for (int v = 0; v < static_cast<int>(vars_.size()); ++v) {
    const TgVar& x = vars_[v];
    Itv i = Itv::point(0);
    if (x.kind == TgVar::Cell) {
      const auto& cell = tm_.objects[x.obj].cells[x.cell];
      i = cell.init_nondet ? type_range(x.type) : Itv::point(value_of(x.type, cell.init));
    }
    s.packs[x.pack].assign_interval(x.index, opt_lo(i), opt_hi(i));
  }
  return s;
}

std::vector<std::int32_t> Builder::target_locs(const std::vector<std::int32_t>& locs, ThreadId t, const TxOut& o) const {
  std::vector<std::int32_t> r = locs;
  r[t] = o.loc;
  for (std::uint32_t j : o.started) r[j] = 0;
  return r;
}

std::size_t Builder::node_of(std::vector<Node>& nodes, std::unordered_map<std::string, std::size_t>& index,
                             const std::vector<std::int32_t>& locs, bool term, bool& created) {
  const std::string k = node_key(locs, term);
  auto it = index.find(k);
  created = it == index.end();
  if (!created) return it->second;
  index.emplace(k, nodes.size());
  Node n;
  n.locs = locs;
  n.terminated = term;
  n.inv.packs.reserve(clusters_.size());
  for (const auto& c : clusters_) n.inv.packs.push_back(Octagon::bottom(static_cast<int>(c.vars.size())));
  nodes.push_back(std::move(n));
  return nodes.size() - 1;
}

/// Every transaction out of node n (under its invariant).
void Builder::successors(const Node& n, std::vector<std::pair<ThreadId, std::vector<TxOut>>>& res,
                         std::vector<std::uint32_t>* executed) {
  res.clear();
  if (n.terminated) return;
  const TgState& s = n.view();
  if (qbot(s)) return;
  for (ThreadId t = 0; t < n.locs.size(); ++t) {
    if (n.locs[t] < 0) continue;
    res.push_back({t, {}});
    transaction(n.locs, t, s, res.back().second, executed);
  }
}

void Builder::build_graph() {
  std::vector<Node> nodes;
  std::unordered_map<std::string, std::size_t> index;
  std::vector<std::int32_t> init(tm_.threads.size(), kLocNotStarted);
  init[0] = 0;
  bool created = false;
  node_of(nodes, index, init, false, created);
  nodes[0].inv = initial_state();
  std::deque<std::size_t> work{0};
  nodes[0].queued = true;
  std::vector<std::pair<ThreadId, std::vector<TxOut>>> res;
  while (!work.empty() && g_.complete) {
    const std::size_t i = work.front();
    work.pop_front();
    nodes[i].queued = false;
    successors(nodes[i], res, nullptr);
    for (auto& [t, outs] : res)
      for (TxOut& o : outs) {
        const auto locs = target_locs(nodes[i].locs, t, o);
        const std::size_t j = node_of(nodes, index, locs, o.terminated, created);
        Node& d = nodes[j];
        if (!created && leq(o.st, d.view())) continue;
        if (created) {
          d.inv = std::move(o.st);
        } else {
          ++d.visits;
          if (d.visits > o_.widening_delay) {
            d.inv = widen(d.inv, d.view(), o.st);
            d.closed = d.inv;
            close(d.closed);
            d.widened = true;
          } else {
            d.inv = join(d.view(), o.st);
            d.widened = false;
            d.closed = TgState{};
          }
        }
        if (!d.queued) {
          d.queued = true;
          work.push_back(j);
        }
      }
    if (nodes.size() > o_.max_nodes || nodes.size() * state_bytes_ > o_.max_state_bytes) {
      g_.complete = false;
      g_.incomplete_reason = "node limit (" + std::to_string(nodes.size()) + " nodes)";
    }
    check_limits();
    if (!g_.complete && g_.incomplete_reason == "time limit")
      g_.incomplete_reason += " (" + std::to_string(nodes.size()) + " nodes, " + std::to_string(work.size()) + " to visit)";
  }
  if (!g_.complete) {
    publish(nodes, {}, {}, {});
    return;
  }
  // Descending iterations: each node's invariant is recomputed from its predecessors' (sound
  // because the current invariants over-approximate every concrete state).
  for (unsigned d = 0; d < o_.descending_rounds; ++d) {
    std::vector<TgState> next(nodes.size());
    for (auto& n : next)
      for (const auto& c : clusters_) n.packs.push_back(Octagon::bottom(static_cast<int>(c.vars.size())));
    next[0] = initial_state();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      successors(nodes[i], res, nullptr);
      for (auto& [t, outs] : res)
        for (TxOut& o : outs) {
          auto j = index.find(node_key(target_locs(nodes[i].locs, t, o), o.terminated));
          if (j == index.end()) continue;  // cannot happen (the invariants only shrink)
          next[j->second] = join(next[j->second], o.st);
        }
      check_limits();
      if (!g_.complete) break;
    }
    if (!g_.complete) break;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      // keep the smaller of the two (both sound)
      if (leq(next[i], nodes[i].view())) {
        nodes[i].inv = std::move(next[i]);
        nodes[i].widened = false;
        nodes[i].closed = TgState{};
      }
    }
  }
  // Final pass: edges, sliced edges, executed instructions.
  std::vector<TgEdge> edges, sliced;
  std::vector<std::vector<std::uint32_t>> exec_by_node(nodes.size());
  std::vector<Sliced> sl;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].terminated) continue;
    const TgState s = nodes[i].view();
    if (qbot(s)) continue;
    for (ThreadId t = 0; t < nodes[i].locs.size(); ++t) {
      if (nodes[i].locs[t] < 0) continue;
      std::vector<TxOut> outs;
      sl.clear();
      slices_ = &sl;
      transaction(nodes[i].locs, t, s, outs, &exec_by_node[i]);
      slices_ = nullptr;
      for (TxOut& o : outs) {
        auto j = index.find(node_key(target_locs(nodes[i].locs, t, o), o.terminated));
        if (j == index.end() || qbot(o.st)) continue;
        edges.push_back({i, j->second, t, static_cast<std::uint32_t>(nodes[i].locs[t]), o.last_pc, false, false});
      }
      std::sort(sl.begin(), sl.end(), [](const Sliced& a, const Sliced& b) {
        return std::tie(a.pc, a.branch) < std::tie(b.pc, b.branch);
      });
      sl.erase(std::unique(sl.begin(), sl.end(), [](const Sliced& a, const Sliced& b) {
                 return a.pc == b.pc && a.branch == b.branch;
               }), sl.end());
      for (const Sliced& x : sl)
        sliced.push_back({i, TgEdge::kNoNode, t, static_cast<std::uint32_t>(nodes[i].locs[t]), x.pc, true, x.branch});
    }
    check_limits();
    if (!g_.complete) break;
  }
  // dedupe edges (same src, dst, thread)
  std::sort(edges.begin(), edges.end(), [](const TgEdge& a, const TgEdge& b) {
    return std::tie(a.src, a.dst, a.thread) < std::tie(b.src, b.dst, b.thread);
  });
  edges.erase(std::unique(edges.begin(), edges.end(), [](const TgEdge& a, const TgEdge& b) {
                return a.src == b.src && a.dst == b.dst && a.thread == b.thread;
              }), edges.end());
  publish(nodes, edges, sliced, exec_by_node);
}

/// Drops unreachable nodes, renumbers, fills g_ and executed_.
void Builder::publish(std::vector<Node>& nodes, std::vector<TgEdge> edges, std::vector<TgEdge> sliced,
                      const std::vector<std::vector<std::uint32_t>>& exec_by_node) {
  std::vector<std::size_t> remap(nodes.size(), TgEdge::kNoNode);
  if (g_.complete) {
    std::vector<std::vector<std::size_t>> adj(nodes.size());
    for (const auto& e : edges) adj[e.src].push_back(e.dst);
    std::vector<std::size_t> order{0};
    remap[0] = 0;
    for (std::size_t k = 0; k < order.size(); ++k)
      for (std::size_t j : adj[order[k]])
        if (remap[j] == TgEdge::kNoNode) {
          remap[j] = order.size();
          order.push_back(j);
        }
    g_.nodes.clear();
    g_.index.clear();
    for (std::size_t i : order) {
      g_.index.emplace(node_key(nodes[i].locs, nodes[i].terminated), g_.nodes.size());
      g_.nodes.push_back({nodes[i].locs, nodes[i].terminated,
                          std::move(nodes[i].widened ? nodes[i].closed : nodes[i].inv)});
    }
    g_.edges.clear();
    for (auto& e : edges)
      if (remap[e.src] != TgEdge::kNoNode) {
        e.src = remap[e.src];
        e.dst = remap[e.dst];
        g_.edges.push_back(e);
      }
    g_.sliced_edges = 0;
    for (auto& e : sliced)
      if (remap[e.src] != TgEdge::kNoNode) {
        e.src = remap[e.src];
        g_.edges.push_back(e);
        ++g_.sliced_edges;
      }
    executed_.assign(tm_.threads.size(), {});
    for (std::size_t t = 0; t < tm_.threads.size(); ++t) executed_[t].assign(tm_.threads[t].code.size(), false);
    for (std::size_t i : order)
      for (std::uint32_t x : exec_by_node[i]) executed_[x >> 24][x & 0xffffff] = true;
  } else {
    g_.nodes.clear();
    g_.index.clear();
    // incomplete: the invariants mean nothing; keep the location tuples only (cheap)
    for (auto& n : nodes) g_.nodes.push_back({std::move(n.locs), n.terminated, TgState{}});
    g_.edges.clear();
  }
  g_.shared_objects.clear();
  for (std::size_t o = 1; o < tm_.objects.size(); ++o)
    if (shared_obj_[o]) g_.shared_objects.push_back(tm_.objects[o].name);
}

}  // namespace siren::invariants::detail
