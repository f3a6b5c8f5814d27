// Transaction graph with octagon invariants (invariants/transaction_graph.hpp):
//  * Fig. 1 of the seed: sh is exactly 2, 4, 7 at (a3,b1), (a3,b2), (a3,b3);
//  * soundness: every concrete state reached by an exhaustive breadth-first exploration (our own
//    small explorer over ir::Interpreter, same nondet domain as `siren explore`) whose threads all
//    stand at node locations is in the graph and satisfies its node's invariant — on ≥ 200 random
//    programs and on every shared SV-COMP task the exploration finishes;
//  * protected accesses (a common lock, create/join order) run inside transactions: a pinned
//    program, and at least 40 of the random programs have such accesses.
#include "frontend/frontend.hpp"
#include "invariants/transaction_graph.hpp"
#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"
#include "tests/unit/shared_tasks.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

using namespace siren;
using invariants::StateCheck;

namespace {

std::optional<ir::ThreadModel> load(const std::string& path, unsigned threads = 8) {
  frontend::FrontendResult r = frontend::translate_file(path);
  if (r.status != frontend::FrontendStatus::Ok || !r.program) return std::nullopt;
  ir::ThreadModelOptions o;
  o.max_threads = threads;
  return ir::build_thread_model(*r.program, o);
}

std::optional<ir::ThreadModel> load_text(const std::string& c, unsigned threads = 8) {
  static int counter = 0;
  const std::string path = "/tmp/siren_tg_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".c";
  {
    std::ofstream f(path);
    f << c;
  }
  auto tm = load(path, threads);
  std::remove(path.c_str());
  return tm;
}

std::size_t find_node(const invariants::TransactionGraph& g, const ir::ThreadModel& tm, const std::string& label) {
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (invariants::node_label(g, tm, i) == label) return i;
  return g.nodes.size();
}

// --- a small exhaustive explorer that hands every reachable state to a callback ------------
std::string serialize(const ir::State& s) {
  std::string k;
  auto put = [&](std::uint64_t v) { k.append(reinterpret_cast<const char*>(&v), sizeof v); };
  for (const auto& o : s.memory)
    for (const auto& v : o) put(v.bits), put(v.obj);
  for (bool b : s.live) k.push_back(b);
  for (bool b : s.allocated) k.push_back(b);
  for (const auto& t : s.threads) {
    put(t.pc);
    k.push_back(t.started);
    k.push_back(t.finished);
    for (const auto& v : t.locals) put(v.bits), put(v.obj);
    put(t.retval.bits), put(t.retval.obj);
  }
  put(s.atomic);
  k.push_back(s.terminated);
  return k;
}

std::vector<ir::Value> domain(ir::Type t) {
  if (t.is_ptr()) return {ir::Value{}};
  std::vector<ir::Value> out;
  for (std::int64_t v = -2; v <= 2; ++v) {
    const std::uint64_t n = ir::normalize(t, static_cast<std::uint64_t>(v));
    bool dup = false;
    for (const auto& x : out) dup |= x.bits == n;
    if (!dup) out.push_back({n, 0});
  }
  return out;
}

std::vector<std::vector<ir::Value>> product(const std::vector<std::vector<ir::Value>>& doms, std::size_t cap) {
  std::vector<std::vector<ir::Value>> out{{}};
  for (const auto& d : doms) {
    std::vector<std::vector<ir::Value>> next;
    for (const auto& p : out)
      for (const auto& v : d) {
        if (next.size() >= cap) break;
        auto q = p;
        q.push_back(v);
        next.push_back(std::move(q));
      }
    out = std::move(next);
  }
  return out;
}

struct Counts {
  std::size_t states = 0, checked = 0, not_at_node = 0, violated = 0, no_node = 0;
  bool finished = true;
  std::string first_problem;
};

Counts explore_and_check(const ir::ThreadModel& tm, const invariants::TransactionGraph& g, std::size_t max_states,
                         double max_seconds = 20) {
  Counts c;
  const auto t0 = std::chrono::steady_clock::now();
  ir::Interpreter in(tm);
  std::vector<std::vector<ir::Value>> doms;
  for (const auto& o : tm.objects)
    if (o.id != 0 && o.kind != ir::ObjectKind::Heap)
      for (const auto& cell : o.cells)
        if (cell.init_nondet) doms.push_back(domain(cell.type));
  std::unordered_set<std::string> seen;
  std::deque<ir::State> work;
  auto add = [&](ir::State&& s) {
    if (seen.size() >= max_states) {
      c.finished = false;
      return;
    }
    if (!seen.insert(serialize(s)).second) return;
    ++c.states;
    std::string why;
    switch (invariants::check_state(g, tm, s, &why)) {
      case StateCheck::Holds: ++c.checked; break;
      case StateCheck::NotAtNode: ++c.not_at_node; break;
      case StateCheck::Violated:
        ++c.violated;
        if (c.first_problem.empty()) c.first_problem = "violated at " + why;
        break;
      case StateCheck::NoNode:
        ++c.no_node;
        if (c.first_problem.empty()) {
          std::string l;
          for (std::size_t t = 0; t < s.threads.size(); ++t)
            l += " " + std::to_string(!s.threads[t].started ? -1 : s.threads[t].finished ? -2 : (int)s.threads[t].pc);
          c.first_problem = "no node for" + l;
        }
        break;
    }
    work.push_back(std::move(s));
  };
  for (const auto& init : product(doms, 64)) add(in.initial_state(init));
  while (!work.empty()) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > max_seconds) {
      c.finished = false;
      break;
    }
    ir::State s = std::move(work.front());
    work.pop_front();
    for (ir::ThreadId t = 0; t < tm.threads.size(); ++t) {
      if (!in.enabled(s, t)) continue;
      const ir::Instr& instr = tm.threads[t].code[s.threads[t].pc];
      std::vector<std::vector<ir::Value>> choices{{}};
      if (instr.kind == ir::InstrKind::Havoc && instr.lhs < tm.threads[t].locals.size()) {
        choices.clear();
        for (const auto& v : domain(tm.threads[t].locals[instr.lhs].type)) choices.push_back({v});
      } else if (instr.kind == ir::InstrKind::Malloc && instr.obj < tm.objects.size()) {
        std::vector<std::vector<ir::Value>> d;
        for (const auto& cell : tm.objects[instr.obj].cells)
          if (cell.init_nondet) d.push_back(domain(cell.type));
        choices = product(d, 16);
      }
      for (auto& ch : choices) {
        ir::State n = s;
        const ir::StepResult r = in.step(n, {t, ch});
        if (r.outcome == ir::StepOutcome::Ok) add(std::move(n));
      }
    }
  }
  return c;
}

// --- a tiny random program generator ------------------------------------------------------
struct Gen {
  std::mt19937 rng;
  explicit Gen(unsigned seed) : rng(seed) {}
  int pick(int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); }
  int small() { return pick(7) - 3; }
  std::string var() { return pick(2) ? "x" : "y"; }
  std::string expr(int depth = 0) {
    switch (depth > 1 ? pick(3) : pick(7)) {
      case 0: return std::to_string(small());
      case 1: return var();
      case 2: return "r";
      case 3: return "(" + expr(depth + 1) + " + " + expr(depth + 1) + ")";
      case 4: return "(" + expr(depth + 1) + " - " + expr(depth + 1) + ")";
      case 5: return "(" + expr(depth + 1) + " * " + std::to_string(small()) + ")";
      default: return "-" + var();
    }
  }
  std::string cond() {
    static const char* ops[] = {"<", "<=", "==", "!=", ">", ">="};
    std::string c = expr(1) + " " + ops[pick(6)] + " " + expr(1);
    if (pick(5) == 0) c = "(" + c + ") && (" + var() + " " + ops[pick(6)] + " " + std::to_string(small()) + ")";
    if (pick(6) == 0) c = "!(" + c + ")";
    return c;
  }
  std::string stmt(int depth) {
    switch (depth > 0 ? pick(4) : pick(9)) {
      case 0: return var() + " = " + expr() + ";\n";
      case 1: return "r = " + var() + ";\n";
      case 2: return var() + " = r + " + std::to_string(small()) + ";\n";
      case 3: return "__VERIFIER_atomic_add" + std::to_string(pick(2)) + "(" + std::to_string(small()) + ");\n";
      case 4: return "if (" + cond() + ") {\n" + block(depth + 1) + "} else {\n" + block(depth + 1) + "}\n";
      case 5: return "pthread_mutex_lock(&m);\n" + block(depth + 1) + "pthread_mutex_unlock(&m);\n";
      case 6: return "for (int i = 0; i < " + std::to_string(1 + pick(2)) + "; i++) {\n" + block(depth + 1) + "}\n";
      case 7: return "r = __VERIFIER_nondet_int();\nif (r > 2) r = 2;\nif (r < -2) r = -2;\n";
      default: return "__VERIFIER_atomic_begin();\n" + block(depth + 1) + "__VERIFIER_atomic_end();\n";
    }
  }
  std::string block(int depth) {
    std::string s;
    const int n = 1 + pick(depth > 0 ? 2 : 3);
    for (int i = 0; i < n; ++i) s += stmt(depth);
    return s;
  }
  std::string program() {
    const int workers = 1 + pick(2);
    std::ostringstream o;
    o << "#include <pthread.h>\nextern int __VERIFIER_nondet_int(void);\n"
         "extern void __VERIFIER_atomic_begin(void);\nextern void __VERIFIER_atomic_end(void);\n"
         "int x = "
      << small() << ", y = " << small() << ";\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
      << "void __VERIFIER_atomic_add0(int k) { x = x + k; }\n"
      << "void __VERIFIER_atomic_add1(int k) { y = y - k; }\n";
    for (int w = 0; w < workers; ++w)
      o << "void *w" << w << "(void *arg) {\nint r = 0;\n" << block(0) << "return 0;\n}\n";
    o << "int main(void) {\nint r = 0;\npthread_t t[2];\n";
    for (int w = 0; w < workers; ++w) o << "pthread_create(&t[" << w << "], 0, w" << w << ", 0);\n";
    o << block(0);
    if (pick(2))
      for (int w = 0; w < workers; ++w) o << "pthread_join(t[" << w << "], 0);\n";
    o << "if (" << cond() << ") r = 1;\nreturn 0;\n}\n";
    return o.str();
  }
};

}  // namespace

TEST_CASE("tg: Fig. 1 — sh is exactly 2, 4, 7 at (a3,b1), (a3,b2), (a3,b3)") {
  auto tm = load(std::string(SIREN_SHARED_DIR) + "/examples/fig1.c");
  REQUIRE(tm);
  const auto g = invariants::build_transaction_graph(*tm);
  REQUIRE(g.complete);
  // fig1.c: a1..a3 are lines 23, 24, 25 of main; b1..b3 lines 12, 13, 14 of t2.
  const std::pair<const char*, std::int64_t> expect[] = {
      {"main:fig1.c:25 t2#1:fig1.c:12", 2}, {"main:fig1.c:25 t2#1:fig1.c:13", 4}, {"main:fig1.c:25 t2#1:fig1.c:14", 7},
      {"main:fig1.c:23 t2#1:fig1.c:12", 0}, {"main:fig1.c:23 t2#1:fig1.c:14", 5}, {"main:fig1.c:24 t2#1:fig1.c:14", 6},
  };
  for (const auto& [label, v] : expect) {
    CAPTURE(label);
    const std::size_t n = find_node(g, *tm, label);
    REQUIRE(n < g.nodes.size());
    const auto iv = invariants::interval_of(g, n, "sh");
    REQUIRE(iv);
    CHECK(iv->lo == v);
    CHECK(iv->hi == v);
  }
  // b3's guard (sh >= 6) is false at (a1,b3) and true at (a2,b3): one branch each is sliced
  std::size_t sliced_b3 = 0;
  for (const auto& e : g.edges)
    if (e.sliced && e.thread == 1 && tm->threads[1].code[e.last_pc].loc.line == 14) ++sliced_b3;
  CHECK(sliced_b3 >= 2);
  // relevant shared variables: sh
  bool sh_relevant = false;
  for (const auto& c : g.clusters)
    for (int v : c.relevant) sh_relevant |= g.vars[v].name == "sh";
  CHECK(sh_relevant);
  // every reachable state is covered
  const Counts c = explore_and_check(*tm, g, 100000);
  CHECK(c.finished);
  CHECK(c.violated == 0);
  CHECK(c.no_node == 0);
  CHECK(c.checked > 0);
}

TEST_CASE("tg: mutual exclusion and loops (widening) stay sound") {
  const char* prog = R"(#include <pthread.h>
int c = 0; int flag = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) {
  for (int i = 0; i < 3; i++) { pthread_mutex_lock(&m); c = c + 1; pthread_mutex_unlock(&m); }
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, w, 0);
  pthread_create(&t2, 0, w, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (c > 6) flag = 1;
  return 0;
}
)";
  auto tm = load_text(prog);
  REQUIRE(tm);
  const auto g = invariants::build_transaction_graph(*tm);
  REQUIRE(g.complete);
  const Counts c = explore_and_check(*tm, g, 200000);
  INFO(c.first_problem);
  CHECK(c.finished);
  CHECK(c.violated == 0);
  CHECK(c.no_node == 0);
  CHECK(c.checked > 0);
}

TEST_CASE("tg: accesses kept apart by a lock or by create/join order are inside transactions") {
  const char* prog = R"(#include <pthread.h>
int x; int flag;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) { pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t t;
  x = 5;
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&m); x = x + 2; pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  if (x != 8) flag = 1;
  return 0;
}
)";
  auto tm = load_text(prog);
  REQUIRE(tm);
  invariants::TgOptions off;
  off.lockset_transactions = false;
  const auto g = invariants::build_transaction_graph(*tm);
  const auto g_off = invariants::build_transaction_graph(*tm, off);
  REQUIRE(g.complete);
  REQUIRE(g_off.complete);
  // x = 5 before the create, both read-modify-writes under m, the read after the join: every
  // access of x (flag is main's alone).
  CHECK(g.protected_accesses >= 4);
  CHECK(g_off.protected_accesses == 0);
  CHECK(g.nodes.size() < g_off.nodes.size());
  // after the join x is exactly 8 in both graphs, so flag = 1 never happens: at the end x is
  // 8 and flag 0
  for (const auto* gr : {&g, &g_off}) {
    bool ended = false;
    for (std::size_t n = 0; n < gr->nodes.size(); ++n) {
      if (!gr->nodes[n].terminated) continue;
      ended = true;
      const auto x = invariants::interval_of(*gr, n, "x"), flag = invariants::interval_of(*gr, n, "flag");
      REQUIRE(x);
      REQUIRE(flag);
      CHECK(x->lo == 8);
      CHECK(x->hi == 8);
      CHECK(flag->lo == 0);
      CHECK(flag->hi == 0);
    }
    CHECK(ended);
    const Counts c = explore_and_check(*tm, *gr, 100000);
    CHECK(c.finished);
    CHECK(c.violated == 0);
    CHECK(c.no_node == 0);
    CHECK(c.checked > 0);
  }
}

TEST_CASE("tg: soundness on 200 random programs") {
  std::size_t programs = 0, checked_states = 0, unfinished = 0, incomplete = 0, with_protected = 0, focused_fewer = 0;
  for (unsigned seed = 1; programs < 200 && seed < 400; ++seed) {
    Gen gen(seed);
    const std::string src = gen.program();
    auto tm = load_text(src);
    if (!tm) {
      MESSAGE("seed " << seed << ": front end rejected the program\n" << src);
      continue;
    }
    invariants::TgOptions o;
    o.time_limit_seconds = 3;
    const auto g = invariants::build_transaction_graph(*tm, o);
    if (!g.complete) {
      ++incomplete;
      continue;
    }
    const Counts c = explore_and_check(*tm, g, 30000, 2);
    if (!c.finished) {
      ++unfinished;
      // states seen so far must still be fine
    }
    CAPTURE(seed);
    CAPTURE(src);
    INFO(c.first_problem);
    CHECK(c.violated == 0);
    CHECK(c.no_node == 0);
    checked_states += c.checked;
    if (c.finished) ++programs;
    if (c.finished && g.protected_accesses > 0) ++with_protected;
    // TgOptions::focus (SIR's graph): the graph over the clusters of one conditional's
    // variables only; its invariants must hold as the whole graph's do
    invariants::TgOptions fo = o;
    for (ir::ThreadId t = 0; t < tm->threads.size(); ++t)
      for (std::uint32_t pc = 0; pc < tm->threads[t].code.size(); ++pc)
        if (tm->threads[t].code[pc].kind == ir::InstrKind::Goto && tm->threads[t].code[pc].a) fo.focus = {{t, pc}};
    if (fo.focus.empty()) continue;
    const auto fg = invariants::build_transaction_graph(*tm, fo);
    if (!fg.complete) continue;
    const Counts fc = explore_and_check(*tm, fg, 30000, 2);
    INFO("focused graph: " << fc.first_problem);
    CHECK(fc.violated == 0);
    CHECK(fc.no_node == 0);
    if (fc.checked > 0 && fg.vars.size() < g.vars.size()) ++focused_fewer;
  }
  MESSAGE("focused graphs with fewer variables than the whole graph, checked: " << focused_fewer);
  CHECK(focused_fewer >= 50);
  MESSAGE("random programs checked: " << programs << ", states checked: " << checked_states
                                      << ", unfinished explorations: " << unfinished << ", incomplete graphs: " << incomplete
                                      << ", with protected accesses inside transactions: " << with_protected);
  CHECK(programs >= 200);
  CHECK(with_protected >= 40);  // the lock / create-join reduction of switch points is exercised
}

TEST_CASE("tg: soundness on the shared SV-COMP tasks the explorer finishes") {
  const auto inputs = test::shared_inputs();
  REQUIRE(!inputs.empty());
  std::size_t tasks = 0, finished = 0, skipped = 0, states = 0;
  for (const auto& input : inputs) {
    ++tasks;
    const std::string& path = input.path;
    auto tm = load(path);
    if (!tm) {
      ++skipped;
      continue;
    }
    invariants::TgOptions o;
    o.time_limit_seconds = 3;
    const auto g = invariants::build_transaction_graph(*tm, o);
    if (!g.complete) {
      ++skipped;
      continue;
    }
    const Counts c = explore_and_check(*tm, g, 150000, 4);
    CAPTURE(path);
    INFO(c.first_problem);
    CHECK(c.violated == 0);
    CHECK(c.no_node == 0);
    if (c.finished) {
      ++finished;
      states += c.checked;
    }
  }
  MESSAGE("SV-COMP tasks: " << tasks << ", exploration finished and checked: " << finished
                            << ", skipped (front end / graph limit): " << skipped << ", states checked: " << states);
  CHECK(finished > 0);
}
