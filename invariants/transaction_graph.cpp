// The transaction graph with octagon invariants: see transaction_graph.hpp and DESIGN.md §B5.
// This file has the graph's public queries; the builder (builder.hpp) is implemented in
// fixpoint.cpp, clusters.cpp, transactions.cpp and abstract_semantics.cpp, over the values of
// linear.hpp and the facts of program_facts.hpp.
#include "invariants/transaction_graph.hpp"

#include "invariants/builder.hpp"
#include "invariants/linear.hpp"

#include <string>

namespace siren::invariants {

using detail::big;
using detail::Builder;
using detail::value_of;
using detail::W;

bool TgState::is_bottom() const {
  for (const auto& p : packs)
    if (p.is_bottom()) return true;
  return false;
}

std::optional<std::size_t> TransactionGraph::find(const std::vector<std::int32_t>& locs, bool terminated) const {
  std::string key(reinterpret_cast<const char*>(locs.data()), locs.size() * sizeof(std::int32_t));
  key.push_back(terminated ? 'T' : 'R');
  auto it = index.find(key);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

namespace {

std::string basename_of(const std::string& f) {
  const auto p = f.find_last_of('/');
  return p == std::string::npos ? f : f.substr(p + 1);
}

}  // namespace

TransactionGraph build_transaction_graph(const ir::ThreadModel& tm, const TgOptions& options) {
  TransactionGraph g;
  g.lockset_transactions = options.lockset_transactions;
  Builder b(tm, options, g);
  b.run();
  return g;
}

std::string node_label(const TransactionGraph& g, const ir::ThreadModel& tm, std::size_t node) {
  const TgNode& n = g.nodes[node];
  std::string out;
  for (std::size_t t = 0; t < n.locs.size(); ++t) {
    if (t) out += ' ';
    out += tm.threads[t].name + ':';
    const std::int32_t pc = n.locs[t];
    if (pc == kLocNotStarted) {
      out += '-';
    } else if (pc == kLocFinished) {
      out += "done";
    } else {
      out += source_label(tm, static_cast<ir::ThreadId>(t), static_cast<std::uint32_t>(pc));
    }
  }
  if (n.terminated) out += " [terminated]";
  return out;
}

std::string source_label(const ir::ThreadModel& tm, ir::ThreadId t, std::uint32_t pc) {
  if (pc >= tm.threads[t].code.size()) return "done";
  const auto& loc = tm.threads[t].code[pc].loc;
  return (loc.file < tm.files.size() ? basename_of(tm.files[loc.file]) : std::string("?")) + ':' + std::to_string(loc.line);
}

std::string invariant_string(const TransactionGraph& g, std::size_t node) {
  const TgNode& n = g.nodes[node];
  if (n.inv.packs.size() != g.clusters.size()) return "unknown (incomplete graph)";
  if (n.inv.is_bottom()) return "bottom";
  std::string out;
  for (std::size_t c = 0; c < g.clusters.size(); ++c) {
    std::vector<std::string> names;
    for (int v : g.clusters[c].vars) names.push_back(g.vars[v].name);
    if (n.inv.packs[c].is_top()) continue;
    const std::string s = n.inv.packs[c].to_string(names);
    if (s == "top") continue;
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out.empty() ? "top" : out;
}

std::optional<Interval> interval_of(const TransactionGraph& g, std::size_t node, const std::string& var) {
  if (g.nodes[node].inv.packs.size() != g.clusters.size()) return std::nullopt;
  for (const TgVar& v : g.vars)
    if (v.name == var) return g.nodes[node].inv.packs[v.pack].interval(v.index);
  return std::nullopt;
}

StateCheck check_state(const TransactionGraph& g, const ir::ThreadModel& tm, const ir::State& s, std::string* why) {
  std::vector<std::int32_t> locs(tm.threads.size());
  bool at_switch = true;
  for (std::size_t t = 0; t < tm.threads.size(); ++t) {
    const auto& ts = s.threads[t];
    if (!ts.started) locs[t] = kLocNotStarted;
    else if (ts.finished) locs[t] = kLocFinished;
    else {
      locs[t] = static_cast<std::int32_t>(ts.pc);
      // after Abort main's pc stays on the Abort instruction
      const bool aborted = s.terminated && tm.threads[t].code[ts.pc].kind == ir::InstrKind::Abort;
      if (!aborted && (t >= g.switch_points.size() || !g.switch_points[t][ts.pc])) at_switch = false;
    }
  }
  if (!at_switch) return StateCheck::NotAtNode;
  const auto n = g.find(locs, s.terminated);
  if (!n) {
    if (why) *why = "no node for this location tuple";
    return StateCheck::NoNode;
  }
  const TgNode& node = g.nodes[*n];
  if (node.inv.packs.size() != g.clusters.size()) return StateCheck::NotAtNode;  // incomplete graph: no claim
  for (std::size_t c = 0; c < g.clusters.size(); ++c) {
    Octagon o = node.inv.packs[c];
    std::vector<std::int64_t> point;
    for (int vi : g.clusters[c].vars) {
      const TgVar& v = g.vars[vi];
      const ir::Value val = v.kind == TgVar::Cell ? s.memory[v.obj][v.cell] : s.threads[v.thread].locals[v.local];
      const W x = value_of(v.type, val.bits);
      if (big(x)) {
        o.forget(static_cast<int>(point.size()));
        point.push_back(0);
      } else {
        point.push_back(static_cast<std::int64_t>(x));
      }
    }
    if (!o.contains(point)) {
      if (why) {
        *why = "cluster " + std::to_string(c) + ": ";
        std::vector<std::string> names;
        for (std::size_t k = 0; k < g.clusters[c].vars.size(); ++k) {
          names.push_back(g.vars[g.clusters[c].vars[k]].name);
          *why += names.back() + "=" + std::to_string(point[k]) + " ";
        }
        *why += "not in " + node.inv.packs[c].to_string(names);
      }
      return StateCheck::Violated;
    }
  }
  return StateCheck::Holds;
}

}  // namespace siren::invariants
