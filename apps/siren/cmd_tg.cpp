// `siren tg FILE.c [--dot] [--json] [-- clang args]`: the transaction graph with octagon
// invariants (invariants/transaction_graph.hpp, DESIGN.md §B5): nodes (location tuples labelled
// thread:file:line) with their invariants as readable constraints, edges (transactions), sliced
// edges (guards that are ⊥ under the invariant), clusters with their relevant shared variables,
// graph size and construction time.
#include "apps/siren/commands.hpp"
#include "apps/siren/model_options.hpp"
#include "invariants/transaction_graph.hpp"
#include "ir/thread_model.hpp"
#include "reduction/sir.hpp"

#include <cstdio>
#include <sys/resource.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace siren::app {
namespace {

struct TgArgs {
  std::string file;
  bool dot = false;
  bool json = false;
  FrontArgs front;
  std::size_t max_nodes = 200'000;
  double time_limit = 7;
  std::size_t max_mb = 512;
  bool summary = false;
  bool collapsed = false;
  bool no_protected = false;
};

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string edge_text(const ir::ThreadModel& tm, const invariants::TgEdge& e) {
  const auto& th = tm.threads[e.thread];
  auto where = [&](std::uint32_t pc) {
    const auto& loc = th.code[pc].loc;
    std::string f = loc.file < tm.files.size() ? tm.files[loc.file] : "?";
    if (auto p = f.find_last_of('/'); p != std::string::npos) f = f.substr(p + 1);
    return f + ":" + std::to_string(loc.line);
  };
  std::string s = th.name + " " + where(e.first_pc) + ".." + where(e.last_pc) + " [" + std::to_string(e.first_pc) +
                  ".." + std::to_string(e.last_pc) + "]";
  if (e.sliced) s += std::string(" guard ") + (e.branch ? "true" : "false") + " is bottom";
  return s;
}

int run_tg(const TgArgs& a) {
  const LoadedModel lm = load_model(a.file, a.front);
  if (lm.input_error) return lm.input_error;
  if (!lm.tm) {  // tg has no verdict to give: an unsupported construct is an input error here
    std::fprintf(stderr, "%s\n", lm.unknown->c_str());
    return lm.internal_error ? kExitInternal : kExitInputError;
  }
  const ir::ThreadModel& tm = *lm.tm;
  invariants::TgOptions to;
  to.max_nodes = a.max_nodes;
  to.time_limit_seconds = a.time_limit;
  to.max_state_bytes = a.max_mb << 20;
  to.lockset_transactions = !a.no_protected;
  const invariants::TransactionGraph g = invariants::build_transaction_graph(tm, to);
  // SIR's pairs (reduction/sir.hpp): dependent data transitions of two threads, insensitive
  // (no context switch needed between them) or SS-pairs (the check failed). SIR works on a
  // graph without protected transactions: this one when no access was protected, else the
  // one `check --reduction sir` builds (within its limits: 2 s, 256 MB).
  invariants::TransactionGraph sir_own;
  const reduction::SirAnalysis sir = reduction::analyse_sir(tm, &g, &sir_own);
  // empty: SIR used this graph, or gave up before building one (then nothing collapses)
  const invariants::TransactionGraph* sg = sir_own.nodes.empty() ? &g : &sir_own;
  // The schedule-insensitive (collapsed) graph: SIR's pairs applied to its graph (steps 10-32).
  const reduction::CollapsedGraph cg = reduction::collapse(*sg, sir);
  const char* const cg_over = sg == &g ? "the graph above" : "the graph without protected transactions";
  auto pair_label = [&](const reduction::SirPair& p) {
    return tm.threads[p.l].name + ":" + invariants::source_label(tm, p.l, p.c) + " / " + tm.threads[p.i].name + ":" +
           invariants::source_label(tm, p.i, p.d);
  };

  std::size_t live = 0;
  for (const auto& e : g.edges) live += e.sliced ? 0 : 1;
  std::size_t relevant = 0;
  for (const auto& c : g.clusters) relevant += c.relevant.size();

  if (a.json) {
    nlohmann::json j;
    j["file"] = a.file;
    j["threads"] = tm.threads.size();
    j["complete"] = g.complete;
    if (!g.complete) j["incomplete_reason"] = g.incomplete_reason;
    j["num_nodes"] = g.nodes.size();
    j["num_edges"] = live;
    j["num_sliced_edges"] = g.sliced_edges;
    j["num_relevant_vars"] = relevant;
    j["rounds"] = g.rounds;
    j["seconds"] = g.seconds;
    j["shared_objects"] = g.shared_objects;
    j["protected_accesses"] = g.protected_accesses;
    {
      struct rusage ru {};
      getrusage(RUSAGE_SELF, &ru);
      j["peak_rss_mb"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
    }
    nlohmann::json clusters = nlohmann::json::array();
    for (const auto& c : g.clusters) {
      if (a.summary && c.relevant.empty()) continue;
      nlohmann::json x;
      std::vector<std::string> vars, rel;
      for (int v : c.vars) vars.push_back(g.vars[v].name);
      for (int v : c.relevant) rel.push_back(g.vars[v].name);
      x["vars"] = vars;
      x["relevant"] = rel;
      clusters.push_back(x);
    }
    j["clusters"] = clusters;
    {
      nlohmann::json x;
      x["gave_up"] = sir.gave_up.empty() ? nlohmann::json(nullptr) : nlohmann::json(sir.gave_up);
      x["insensitive_pairs"] = sir.insensitive_pairs;
      x["ss_pairs"] = sir.ss_pairs;
      if (!a.summary) {
        nlohmann::json ps = nlohmann::json::array();
        for (const auto& p : sir.pairs)
          ps.push_back({{"last", tm.threads[p.l].name}, {"last_pc", p.c}, {"next", tm.threads[p.i].name},
                        {"next_pc", p.d}, {"where", pair_label(p)}, {"insensitive", p.insensitive}});
        x["pairs"] = ps;
      }
      j["sir"] = x;
    }
    {
      nlohmann::json x;
      x["num_nodes"] = cg.nodes.size();
      x["num_edges"] = cg.edges.size();
      x["num_rewired_edges"] = cg.rewired;
      x["num_removed_switches"] = cg.removed.size();
      x["over"] = cg_over;  // node ids below are of that graph
      if (!a.summary) {
        x["nodes"] = cg.nodes;
        nlohmann::json rm = nlohmann::json::array(), es = nlohmann::json::array();
        for (const auto& [m, t] : cg.removed)
          rm.push_back({{"node", m}, {"thread", tm.threads[t].name}, {"label", invariants::node_label(*sg, tm, m)}});
        for (const auto& e : cg.edges)
          es.push_back({{"src", e.src}, {"dst", e.dst}, {"src_label", invariants::node_label(*sg, tm, e.src)},
                        {"dst_label", invariants::node_label(*sg, tm, e.dst)}, {"thread", tm.threads[e.thread].name},
                        {"first_pc", e.first_pc}, {"last_pc", e.last_pc}, {"text", edge_text(tm, e)}});
        x["removed_switches"] = rm;
        x["edges"] = es;
      }
      j["collapsed"] = x;
    }
    if (a.summary) {
      std::printf("%s\n", j.dump(2).c_str());
      return g.complete ? kExitSafe : kExitUnknown;
    }
    nlohmann::json nodes = nlohmann::json::array();
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      nlohmann::json n;
      n["id"] = i;
      n["label"] = invariants::node_label(g, tm, i);
      n["locs"] = g.nodes[i].locs;
      n["terminated"] = g.nodes[i].terminated;
      n["invariant"] = invariants::invariant_string(g, i);
      nlohmann::json itvs = nlohmann::json::object();
      for (const auto& v : g.vars) {
        if (v.kind != invariants::TgVar::Cell || g.nodes[i].inv.packs.empty()) continue;
        const auto iv = g.nodes[i].inv.packs[v.pack].interval(v.index);
        if (iv.empty || (!iv.lo && !iv.hi)) continue;
        itvs[v.name] = {iv.lo ? nlohmann::json(*iv.lo) : nlohmann::json(nullptr),
                        iv.hi ? nlohmann::json(*iv.hi) : nlohmann::json(nullptr)};
      }
      n["shared_intervals"] = itvs;
      nodes.push_back(n);
    }
    j["nodes"] = nodes;
    nlohmann::json edges = nlohmann::json::array();
    for (const auto& e : g.edges) {
      nlohmann::json x;
      x["src"] = e.src;
      if (!e.sliced) x["dst"] = e.dst;
      x["thread"] = tm.threads[e.thread].name;
      x["first_pc"] = e.first_pc;
      x["last_pc"] = e.last_pc;
      x["sliced"] = e.sliced;
      if (e.sliced) x["branch"] = e.branch;
      x["text"] = edge_text(tm, e);
      edges.push_back(x);
    }
    j["edges"] = edges;
    std::printf("%s\n", j.dump(2).c_str());
    return g.complete ? kExitSafe : kExitUnknown;
  }

  if (a.dot && a.collapsed) {
    std::printf("digraph tg_collapsed {\n  node [shape=box, fontname=\"monospace\"];\n");
    for (std::size_t i : cg.nodes)
      std::printf("  n%zu [label=\"%s\\n%s\"];\n", i, dot_escape(invariants::node_label(*sg, tm, i)).c_str(),
                  dot_escape(invariants::invariant_string(*sg, i)).c_str());
    for (const auto& e : cg.edges)
      std::printf("  n%zu -> n%zu [label=\"%s\"];\n", e.src, e.dst, dot_escape(edge_text(tm, e)).c_str());
    std::printf("}\n");
    return g.complete ? kExitSafe : kExitUnknown;
  }
  if (a.dot) {
    std::printf("digraph tg {\n  node [shape=box, fontname=\"monospace\"];\n");
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
      std::printf("  n%zu [label=\"%s\\n%s\"];\n", i, dot_escape(invariants::node_label(g, tm, i)).c_str(),
                  dot_escape(invariants::invariant_string(g, i)).c_str());
    for (const auto& e : g.edges) {
      if (e.sliced) {
        std::printf("  s%zu_%u_%u [shape=point]; n%zu -> s%zu_%u_%u [style=dashed, color=red, label=\"%s\"];\n", e.src,
                    e.thread, e.last_pc * 2 + e.branch, e.src, e.src, e.thread, e.last_pc * 2 + e.branch,
                    dot_escape(edge_text(tm, e)).c_str());
      } else {
        std::printf("  n%zu -> n%zu [label=\"%s\"];\n", e.src, e.dst, dot_escape(edge_text(tm, e)).c_str());
      }
    }
    std::printf("}\n");
    return g.complete ? kExitSafe : kExitUnknown;
  }

  std::printf("transaction graph of %s: %zu threads, %zu nodes, %zu edges, %zu sliced edges, %u round(s), %.3f s\n",
              a.file.c_str(), tm.threads.size(), g.nodes.size(), live, g.sliced_edges, g.rounds, g.seconds);
  std::printf("protected shared accesses (inside transactions: a common lock or create/join order): %zu\n",
              g.protected_accesses);
  if (!g.complete)
    std::printf("INCOMPLETE (%s): the invariants below are not sound\n", g.incomplete_reason.c_str());
  std::printf("shared objects:");
  for (const auto& o : g.shared_objects) std::printf(" %s", o.c_str());
  std::printf("\nclusters:\n");
  for (std::size_t c = 0; c < g.clusters.size(); ++c) {
    std::printf("  #%zu {", c);
    for (std::size_t k = 0; k < g.clusters[c].vars.size(); ++k)
      std::printf("%s%s", k ? ", " : "", g.vars[g.clusters[c].vars[k]].name.c_str());
    std::printf("} relevant shared: {");
    for (std::size_t k = 0; k < g.clusters[c].relevant.size(); ++k)
      std::printf("%s%s", k ? ", " : "", g.vars[g.clusters[c].relevant[k]].name.c_str());
    std::printf("}\n");
  }
  std::printf("nodes:\n");
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    std::printf("  n%zu (%s): %s\n", i, invariants::node_label(g, tm, i).c_str(),
                invariants::invariant_string(g, i).c_str());
  std::printf("edges:\n");
  for (const auto& e : g.edges)
    if (!e.sliced) std::printf("  n%zu -> n%zu  %s\n", e.src, e.dst, edge_text(tm, e).c_str());
  std::printf("sliced edges:\n");
  for (const auto& e : g.edges)
    if (e.sliced) std::printf("  n%zu -x  %s\n", e.src, edge_text(tm, e).c_str());
  std::printf("schedule insensitivity (--reduction sir): %llu insensitive pair(s), %llu SS-pair(s)%s%s\n",
              (unsigned long long)sir.insensitive_pairs, (unsigned long long)sir.ss_pairs,
              sir.gave_up.empty() ? "" : "; gave up, every pair is sensitive: ", sir.gave_up.c_str());
  for (const auto& p : sir.pairs)
    std::printf("  %s %s\n", p.insensitive ? "insensitive" : "SS-pair    ", pair_label(p).c_str());
  std::printf("collapsed graph (schedule-insensitive switches removed from %s): %zu nodes, %zu edges (%zu rewired)\n",
              cg_over, cg.nodes.size(), cg.edges.size(), cg.rewired);
  for (const auto& [m, t] : cg.removed)
    std::printf("  no switch at n%zu (%s) for %s\n", m, invariants::node_label(*sg, tm, m).c_str(),
                tm.threads[t].name.c_str());
  for (const auto& e : cg.edges)
    std::printf("  n%zu -> n%zu  %s\n", e.src, e.dst, edge_text(tm, e).c_str());
  return g.complete ? kExitSafe : kExitUnknown;
}

}  // namespace

void add_tg_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<TgArgs>();
  auto* cmd = app.add_subcommand(
      "tg",
      "Build the transaction graph with octagon invariants (DESIGN.md B5): nodes are tuples of\n"
      "thread locations, edges are transactions; prints each node's invariant, the sliced edges,\n"
      "the variable clusters with their relevant shared variables, the graph size and the time,\n"
      "SIR's insensitive and SS-pairs, and the collapsed graph they give.\n"
      "Exit code 0, or 5 when a limit was hit (the invariants are then not sound).");
  cmd->add_option("file", args->file, "C source file")->required();
  cmd->add_flag("--dot", args->dot, "Print Graphviz DOT");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_option("--max-nodes", args->max_nodes, "Give up beyond this many nodes (default 200000)");
  cmd->add_option("--time-limit", args->time_limit, "Give up after this many seconds of graph construction (default 7; 0: none)");
  cmd->add_option("--max-mb", args->max_mb, "Give up when the node invariants need more than this many MB (default 512)");
  cmd->add_flag("--collapsed", args->collapsed,
                "With --dot: draw the collapsed graph (SIR's schedule-insensitive switches removed, "
                "DESIGN.md B5 steps 10-32) instead of the transaction graph");
  cmd->add_flag("--no-protected", args->no_protected,
                "Every shared access is a switch point, also when a common lock or create/join order "
                "keeps conflicting accesses apart (the graph before that reduction)");
  cmd->add_flag("--summary", args->summary, "With --json: sizes, time, memory and relevant clusters only");
  add_front_options(cmd, args->front);
  cmd->callback([args, &exit_code] { exit_code = run_tg(*args); });
}

}  // namespace siren::app
