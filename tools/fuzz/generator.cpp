// Random concurrent C programs (tools/fuzz/generator.hpp).
#include "tools/fuzz/generator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <set>

namespace siren::fuzz {

// --- printing ------------------------------------------------------------------------------

namespace {

void print_stmts(const std::vector<Stmt>& stmts, int indent, const std::vector<Thread>& workers, std::string& out);

// Statement uid of each printed line (filled while printing a function body; lines are
// counted from the start of the body text and shifted by the caller).
thread_local std::vector<int>* g_line_uids = nullptr;

void print_stmt(const Stmt& s, int indent, const std::vector<Thread>& workers, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  if (g_line_uids) {
    const auto line = static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n'));
    if (g_line_uids->size() <= line) g_line_uids->resize(line + 1, -1);
    (*g_line_uids)[line] = s.uid;
  }
  switch (s.kind) {
    case Stmt::Kind::Simple: out += pad + s.text + "\n"; break;
    case Stmt::Kind::If:
      out += pad + "if (" + s.text + ") {\n";
      print_stmts(s.body, indent + 1, workers, out);
      if (!s.els.empty()) {
        out += pad + "} else {\n";
        print_stmts(s.els, indent + 1, workers, out);
      }
      out += pad + "}\n";
      break;
    case Stmt::Kind::Loop:
      out += pad + fmt::format("for (int {0} = 0; {0} < {1}{2}; {0}++) {{\n", s.var, s.n,
                               s.text.empty() ? "" : " && (" + s.text + ")");
      print_stmts(s.body, indent + 1, workers, out);
      out += pad + "}\n";
      break;
    case Stmt::Kind::Lock:
      out += pad + "pthread_mutex_lock(&m);\n";
      print_stmts(s.body, indent + 1, workers, out);
      out += pad + "pthread_mutex_unlock(&m);\n";
      break;
    case Stmt::Kind::Atomic:
      out += pad + "__VERIFIER_atomic_begin();\n";
      print_stmts(s.body, indent + 1, workers, out);
      out += pad + "__VERIFIER_atomic_end();\n";
      break;
    case Stmt::Kind::Create:
      if (!workers[static_cast<std::size_t>(s.n)].removed)
        out += pad + fmt::format("pthread_create(&h{0}, 0, t{0}, 0);\n", s.n);
      break;
    case Stmt::Kind::Join:
      if (!workers[static_cast<std::size_t>(s.n)].removed) out += pad + fmt::format("pthread_join(h{}, 0);\n", s.n);
      break;
  }
}

void print_stmts(const std::vector<Stmt>& stmts, int indent, const std::vector<Thread>& workers, std::string& out) {
  for (const Stmt& s : stmts) print_stmt(s, indent, workers, out);
}

std::size_t count(const std::vector<Stmt>& v) {
  std::size_t n = 0;
  for (const Stmt& s : v) n += 1 + count(s.body) + count(s.els);
  return n;
}

bool uses(const std::string& text, const std::string& name) {
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if ((at == 0 || !word(text[at - 1])) && (at + name.size() >= text.size() || !word(text[at + name.size()])))
      return true;
  }
  return false;
}

// A function body: declarations of the locals it uses (initialised: an uninitialised local
// would be a Havoc the explorer cannot enumerate), then the statements.
std::string body_text(const std::vector<Stmt>& stmts, const std::vector<Thread>& workers, std::string& out,
                      std::vector<int>* line_uids) {
  std::string body;
  std::vector<int> uids;
  g_line_uids = line_uids ? &uids : nullptr;
  print_stmts(stmts, 1, workers, body);
  g_line_uids = nullptr;
  std::string decl;
  for (const char* l : {"l0", "l1"})
    if (uses(body, l)) decl += std::string(decl.empty() ? "  int " : ", ") + l + " = 0";
  if (!decl.empty()) decl += ";\n";
  out += decl;
  if (line_uids) {
    const auto first = static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n'));
    if (line_uids->size() < first + uids.size()) line_uids->resize(first + uids.size(), -1);
    for (std::size_t i = 0; i < uids.size(); ++i) (*line_uids)[first + i] = uids[i];
  }
  out += body;
  return out;
}

}  // namespace

std::string Program::to_c(std::vector<int>* line_uids) const {
  std::string out = fmt::format("/* siren-fuzz seed {} template {} */\n", seed, templ);
  out += "#include <assert.h>\n#include <pthread.h>\n";
  out += "extern void reach_error(void);\n";
  out += "extern void __VERIFIER_atomic_begin(void);\nextern void __VERIFIER_atomic_end(void);\n";
  if (nondet) out += "extern _Bool __VERIFIER_nondet_bool(void);\n";
  for (std::size_t i = 0; i < globals.size(); ++i) out += fmt::format("int g{} = {};\n", i, globals[i]);
  if (!array.empty()) {
    out += fmt::format("int arr[{}] = {{", array.size());
    for (std::size_t i = 0; i < array.size(); ++i) out += (i ? ", " : "") + std::to_string(array[i]);
    out += "};\n";
  }
  if (pointer_target >= 0) out += fmt::format("int *p = &g{};\n", pointer_target);
  if (mutex) out += "pthread_mutex_t m;\n";
  if (!workers.empty()) {
    out += "pthread_t";
    for (std::size_t i = 0; i < workers.size(); ++i) out += (i ? ", h" : " h") + std::to_string(i);
    out += ";\n";
  }
  for (std::size_t i = 0; i < workers.size(); ++i) {
    if (workers[i].removed) continue;
    out += fmt::format("void *t{}(void *arg) {{\n", i);
    body_text(workers[i].body, workers, out, line_uids);
    out += "  return 0;\n}\n";
  }
  out += "int main(void) {\n";
  body_text(main_body, workers, out, line_uids);
  out += "  return 0;\n}\n";
  return out;
}

std::size_t Program::size() const {
  std::size_t n = count(main_body);
  for (const Thread& t : workers)
    if (!t.removed) n += count(t.body);
  return n;
}

// --- generation ----------------------------------------------------------------------------

namespace {

class Gen {
 public:
  Gen(std::uint64_t seed, const GeneratorOptions& o) : rng_(seed), opt_(o) {}

  int uni(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[static_cast<std::size_t>(uni(0, static_cast<int>(v.size()) - 1))]; }

  Program program(std::uint64_t seed) {
    Program p;
    p.seed = seed;
    const int r = uni(0, 99);
    if (r < 15) chain3(p);
    else if (r < 27) deep(p);
    else random(p);
    return p;
  }

 private:
  struct Ctx {
    bool main = false;
    int depth = 0;
    bool in_lock = false, in_atomic = false, in_loop = false;
  };

  // Shared locations that statements may write / read.
  std::vector<std::string> shared_reads_, shared_writes_;
  std::vector<int> pointer_targets_;
  bool has_mutex_ = false, has_nondet_ = false;

  void setup_locations(const Program& p, const std::set<int>& protected_globals) {
    shared_reads_.clear();
    shared_writes_.clear();
    pointer_targets_.clear();
    for (std::size_t i = 0; i < p.globals.size(); ++i) {
      shared_reads_.push_back("g" + std::to_string(i));
      if (!protected_globals.count(static_cast<int>(i))) {
        shared_writes_.push_back("g" + std::to_string(i));
        pointer_targets_.push_back(static_cast<int>(i));
      }
    }
    for (std::size_t i = 0; i < p.array.size(); ++i) {
      shared_reads_.push_back(fmt::format("arr[{}]", i));
      shared_writes_.push_back(fmt::format("arr[{}]", i));
    }
    if (p.array.size() >= 2) {
      shared_reads_.push_back("arr[l0 & 1]");
      shared_writes_.push_back("arr[l1 & 1]");
    }
    if (p.pointer_target >= 0) {
      shared_reads_.push_back("*p");
      shared_writes_.push_back("*p");
    }
    has_mutex_ = p.mutex;
    has_nondet_ = p.nondet;
  }

  std::string read_atom(bool allow_local = true) {
    const int r = uni(0, 9);
    if (allow_local && r < 2) return coin(0.5) ? "l0" : "l1";
    if (r < 3) return std::to_string(uni(0, 3));
    return pick(shared_reads_);
  }

  std::string value_expr() {
    switch (uni(0, 5)) {
      case 0: return std::to_string(uni(0, 3));
      case 1: case 2: return read_atom();
      case 3: return read_atom() + " + " + std::to_string(uni(1, 2));
      case 4: return read_atom() + " - " + read_atom();
      default: return read_atom() + " + " + read_atom();
    }
  }

  std::string cond_expr(int depth = 0) {
    static const std::vector<std::string> ops{"==", "!=", "<", "<=", ">", ">="};
    const int r = uni(0, 9);
    if (depth == 0 && r == 0) return cond_expr(1) + " && " + cond_expr(1);
    if (depth == 0 && r == 1) return cond_expr(1) + " || " + cond_expr(1);
    if (r < 4) return read_atom() + " " + pick(ops) + " " + read_atom();
    return read_atom() + " " + pick(ops) + " " + std::to_string(uni(0, 3));
  }

  std::string assert_text(const std::string& c) {
    if (coin(0.5)) return "assert(" + c + ");";
    return "if (!(" + c + ")) reach_error();";
  }

  Stmt simple(std::string text) {
    Stmt s;
    s.uid = next_uid_++;
    s.text = std::move(text);
    return s;
  }

  Stmt assignment() {
    const int r = uni(0, 9);
    if (r < 2) return simple((coin(0.5) ? "l0" : "l1") + std::string(" = ") + pick(shared_reads_) + ";");
    if (r < 4 && !shared_writes_.empty()) {  // read-modify-write (lost updates)
      const std::string w = pick(shared_writes_);
      return simple(w + " = " + w + (coin(0.7) ? " + 1;" : " - 1;"));
    }
    if (r == 4 && !pointer_targets_.empty() && shared_reads_.back() == "*p")
      return simple(fmt::format("p = &g{};", pick(pointer_targets_)));
    if (r == 5 && has_nondet_) return simple((coin(0.5) ? "l0" : "l1") + std::string(" = __VERIFIER_nondet_bool();"));
    if (shared_writes_.empty()) return simple("l0 = " + value_expr() + ";");
    return simple(pick(shared_writes_) + " = " + value_expr() + ";");
  }

  std::vector<Stmt> block(Ctx c, int n) {
    std::vector<Stmt> out;
    for (int i = 0; i < n; ++i) out.push_back(stmt(c));
    return out;
  }

  Stmt stmt(Ctx c) {
    const int r = uni(0, 99);
    const bool nest = c.depth == 0 || (c.depth == 1 && coin(0.25));
    if (r < 14) return simple(assert_text(cond_expr()));
    if (nest && r < 28) {
      Stmt s;
      s.kind = Stmt::Kind::If;
      s.text = cond_expr();
      Ctx in = c;
      ++in.depth;
      s.body = block(in, uni(1, 2));
      if (coin(0.3)) s.els = block(in, 1);
      return s;
    }
    if (nest && !c.in_loop && !c.in_atomic && r < 36) {
      Stmt s;
      s.kind = Stmt::Kind::Loop;
      s.var = c.depth == 0 ? "i0" : "i1";
      s.n = uni(1, 2);
      if (coin(0.5)) s.text = cond_expr(1);
      Ctx in = c;
      ++in.depth;
      in.in_loop = true;
      s.body = block(in, uni(1, 2));
      return s;
    }
    if (nest && has_mutex_ && !c.in_lock && !c.in_atomic && r < 50) {
      Stmt s;
      s.kind = Stmt::Kind::Lock;
      Ctx in = c;
      ++in.depth;
      in.in_lock = true;
      s.body = block(in, uni(1, 3));
      return s;
    }
    if (nest && !c.in_atomic && !c.in_lock && r < 58) {
      Stmt s;
      s.kind = Stmt::Kind::Atomic;
      Ctx in = c;
      ++in.depth;
      in.in_atomic = true;
      s.body = block(in, uni(1, 3));
      return s;
    }
    return assignment();
  }

  // main: [pre] create... [mid] [joins] [post]; each worker created exactly once.
  void make_main(Program& p, std::vector<Stmt> extra_post = {}) {
    Ctx c;
    c.main = true;
    const int nw = static_cast<int>(p.workers.size());
    if (coin(0.3)) p.main_body.push_back(stmt(c));
    for (int i = 0; i < nw; ++i) {
      Stmt s;
      s.kind = Stmt::Kind::Create;
      s.n = i;
      p.main_body.push_back(s);
      if (coin(0.25)) p.main_body.push_back(stmt(c));
    }
    if (coin(0.4)) p.main_body.push_back(stmt(c));
    const bool join_all = coin(0.6);
    for (int i = 0; i < nw; ++i)
      if (join_all || coin(0.5)) {
        Stmt s;
        s.kind = Stmt::Kind::Join;
        s.n = i;
        p.main_body.push_back(s);
      }
    for (Stmt& s : extra_post) p.main_body.push_back(std::move(s));
    if (coin(0.7)) p.main_body.push_back(simple(assert_text(cond_expr())));
  }

  void random(Program& p) {
    p.templ = "random";
    const int nw = uni(1, opt_.max_workers);
    const int ng = uni(1, 3);
    for (int i = 0; i < ng; ++i) p.globals.push_back(uni(0, 2));
    if (coin(0.4)) {
      const int n = uni(2, 3);
      for (int i = 0; i < n; ++i) p.array.push_back(uni(0, 1));
    }
    if (coin(0.35)) p.pointer_target = uni(0, ng - 1);
    p.mutex = coin(0.5);
    p.nondet = coin(0.15);
    setup_locations(p, {});
    // Fewer statements with more threads: the interleavings multiply.
    const int max_stmts = std::max(1, opt_.max_stmts - nw);
    for (int i = 0; i < nw; ++i) {
      Thread t;
      t.body = block(Ctx{}, uni(1, max_stmts));
      p.workers.push_back(std::move(t));
    }
    make_main(p);
  }

  // The error needs w0 -> w1 -> w2 (a 3-link hand-off over g0 and g1); noise elsewhere.
  void chain3(Program& p) {
    p.templ = "chain3";
    const int ng = uni(2, 3);
    for (int i = 0; i < ng; ++i) p.globals.push_back(0);
    p.mutex = coin(0.5);
    if (ng > 2 && coin(0.4)) p.pointer_target = 2;
    setup_locations(p, {0, 1});
    const int v0 = uni(1, 3), v1 = uni(1, 3);
    const bool broken = coin(0.4);  // SAFE variant: the middle link waits for a value never written
    std::vector<Thread> w(3);
    w[0].body.push_back(simple(fmt::format("g0 = {};", v0)));
    Stmt mid;
    mid.kind = Stmt::Kind::If;
    mid.text = fmt::format("g0 == {}", broken ? v0 + 4 : v0);
    mid.body.push_back(simple(fmt::format("g1 = {};", v1)));
    if (has_mutex_ && coin(0.5)) {
      Stmt l;
      l.kind = Stmt::Kind::Lock;
      l.body.push_back(mid);
      w[1].body.push_back(l);
    } else {
      w[1].body.push_back(mid);
    }
    w[2].body.push_back(simple("l0 = g1;"));
    w[2].body.push_back(simple(assert_text(fmt::format("l0 != {}", v1))));
    for (Thread& t : w) {  // noise that cannot touch g0/g1
      const int n = uni(0, 2);
      for (int i = 0; i < n; ++i) {
        Stmt s = assignment();
        // mostly after the hand-off, so the shortest counterexample stays within the bound
        const std::size_t at = coin(0.75) ? t.body.size() : 0;
        t.body.insert(t.body.begin() + static_cast<std::ptrdiff_t>(at), s);
      }
    }
    std::shuffle(w.begin(), w.end(), rng_);  // creation order varies
    p.workers = std::move(w);
    make_main(p);
    // make_main may add a random final assert over g0/g1 (reads only): fine.
  }

  // The error needs a long execution: counters driven by bounded loops.
  void deep(Program& p) {
    p.templ = "deep";
    p.globals = {0, 0};
    p.mutex = coin(0.5);
    setup_locations(p, {0, 1});
    const int n0 = uni(2, 3), n1 = 2;
    const bool two = coin(0.5);
    const bool locked = p.mutex && coin(0.5);
    auto counter_loop = [&](const std::string& g, int n) {
      Stmt loop;
      loop.kind = Stmt::Kind::Loop;
      loop.var = "i0";
      loop.n = n;
      Stmt inc = simple(g + " = " + g + " + 1;");
      if (locked) {
        Stmt l;
        l.kind = Stmt::Kind::Lock;
        l.body.push_back(inc);
        loop.body.push_back(l);
      } else {
        loop.body.push_back(inc);
      }
      return loop;
    };
    Thread a;
    a.body.push_back(counter_loop("g0", n0));
    p.workers.push_back(a);
    std::string cond = fmt::format("g0 == {}", n0);
    if (two) {
      Thread b;
      b.body.push_back(counter_loop("g1", n1));
      p.workers.push_back(b);
      cond += fmt::format(" && g1 == {}", n1);
    }
    // Observer: fails only once the counters have reached the end (UNSAFE), or checks a value
    // the counters can never have (SAFE).
    const bool safe = coin(0.4);
    Thread obs;
    if (safe) cond = fmt::format("g0 == {}", n0 + 1);
    obs.body.push_back(simple("l0 = g0;"));
    obs.body.push_back(simple(assert_text("!(" + cond + ")")));
    p.workers.push_back(obs);
    make_main(p);
  }

  std::mt19937_64 rng_;
  GeneratorOptions opt_;
  int next_uid_ = 0;
};

}  // namespace

Program generate(std::uint64_t seed, const GeneratorOptions& options) {
  Gen g(seed, options);
  return g.program(seed);
}

}  // namespace siren::fuzz
