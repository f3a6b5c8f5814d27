// Random concurrent C programs (tools/fuzz/generator.hpp).
#include "tools/fuzz/generator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
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
    case Stmt::Kind::Create: {
      const Thread& w = workers[static_cast<std::size_t>(s.n)];
      if (!w.removed)
        out += pad + fmt::format("pthread_create(&h{0}, 0, t{0}, {1});\n", s.n,
                                 w.arg_target >= 0 ? fmt::format("&g{}", w.arg_target) : std::string("0"));
      break;
    }
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
// A worker created with a pointer argument (`arg_target >= 0`) declares `int *ap = (int *)arg;`
// when it uses `ap`; a function using `ls<i>` declares `static int *ls<i> = &g<k>;`.
std::string body_text(const Program& p, const std::vector<Stmt>& stmts, const Thread* worker, std::string& out,
                      std::vector<int>* line_uids) {
  const std::vector<Thread>& workers = p.workers;
  std::string body;
  std::vector<int> uids;
  g_line_uids = line_uids ? &uids : nullptr;
  print_stmts(stmts, 1, workers, body);
  g_line_uids = nullptr;
  std::string decl;
  for (const char* l : {"l0", "l1"})
    if (uses(body, l)) decl += std::string(decl.empty() ? "  int " : ", ") + l + " = 0";
  if (!decl.empty()) decl += ";\n";
  if (worker && worker->arg_target >= 0 && uses(body, "ap")) decl += "  int *ap = (int *)arg;\n";
  for (std::size_t i = 0; i < p.local_static_ptrs.size(); ++i)
    if (uses(body, fmt::format("ls{}", i)))
      decl += fmt::format("  static int *ls{} = &g{};\n", i, p.local_static_ptrs[i]);
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
  for (std::size_t i = 0; i < global_ptrs.size(); ++i) out += fmt::format("int *gp{} = &g{};\n", i, global_ptrs[i]);
  for (std::size_t i = 0; i < static_ptrs.size(); ++i)
    out += fmt::format("static int *sp{} = &g{};\n", i, static_ptrs[i]);
  if (box_target >= 0 || !outer.empty()) out += "struct box { int *ptr; int v; };\n";
  if (box_target >= 0) out += fmt::format("struct box bx = {{ &g{}, 0 }};\n", box_target);
  if (!ptr_array.empty()) {
    out += fmt::format("int *ptrs[{}] = {{", ptr_array.size());
    for (std::size_t i = 0; i < ptr_array.size(); ++i) out += fmt::format("{} &g{}", i ? "," : "", ptr_array[i]);
    out += " };\n";
  }
  if (!outer.empty()) {
    out += fmt::format("struct outer {{ struct box in[{}]; }};\nstruct outer ob = {{ {{", outer.size());
    for (std::size_t i = 0; i < outer.size(); ++i) out += fmt::format("{} {{ &g{}, {} }}", i ? "," : "", outer[i], i);
    out += " } };\n";
  }
  if (mutex) out += "pthread_mutex_t m;\n";
  if (!workers.empty()) {
    out += "pthread_t";
    for (std::size_t i = 0; i < workers.size(); ++i) out += (i ? ", h" : " h") + std::to_string(i);
    out += ";\n";
  }
  for (int k : getters) out += fmt::format("int get_g{0}(void) {{ return g{0}; }}\n", k);
  for (int k : incrementers) out += fmt::format("int inc_g{0}(void) {{ g{0} = g{0} + 1; return g{0}; }}\n", k);
  for (int k : atomic_fns) {
    out += fmt::format("void __VERIFIER_atomic_set_g{0}(int v) {{ g{0} = v; }}\n", k);
    out += fmt::format("int __VERIFIER_atomic_get_g{0}(void) {{ return g{0}; }}\n", k);
    out += fmt::format("void __VERIFIER_atomic_inc_g{0}(void) {{ g{0} = g{0} + 1; }}\n", k);
  }
  for (std::size_t i = 0; i < workers.size(); ++i) {
    if (workers[i].removed) continue;
    out += fmt::format("void *t{}(void *arg) {{\n", i);
    body_text(*this, workers[i].body, &workers[i], out, line_uids);
    out += "  return 0;\n}\n";
  }
  out += "int main(void) {\n";
  body_text(*this, main_body, nullptr, out, line_uids);
  out += "  return 0;\n}\n";
  return out;
}

std::size_t Program::size() const {
  std::size_t n = count(main_body);
  for (const Thread& t : workers)
    if (!t.removed) n += count(t.body);
  return n;
}

// --- constructs ----------------------------------------------------------------------------

const std::vector<std::string>& construct_names() {
  static const std::vector<std::string> names{
      "global-pointer-init", "static-pointer-init", "struct-held-pointer", "array-held-pointer",
      "nested-aggregate-pointer", "thread-arg-pointer", "discarded-call-result", "used-call-result",
      "unused-read", "atomic-fn-vs-plain"};
  return names;
}

namespace {

void texts_of(const std::vector<Stmt>& v, std::vector<std::string>& simple, std::vector<std::string>& all) {
  for (const Stmt& s : v) {
    if (s.kind == Stmt::Kind::Simple) simple.push_back(s.text);
    if (!s.text.empty()) all.push_back(s.text);
    texts_of(s.body, simple, all);
    texts_of(s.els, simple, all);
  }
}

// `name` read or written (not only its address taken) in `text`.
bool accesses(const std::string& text, const std::string& name) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1))
    if ((at == 0 || (!word(text[at - 1]) && text[at - 1] != '&')) &&
        (at + name.size() >= text.size() || !word(text[at + name.size()])))
      return true;
  return false;
}

}  // namespace

std::vector<std::string> Program::constructs() const {
  struct Fn {
    std::vector<std::string> simple, all;
    const Thread* worker = nullptr;
  };
  std::vector<Fn> fns(1);
  texts_of(main_body, fns[0].simple, fns[0].all);
  for (const Thread& t : workers) {
    if (t.removed) continue;
    Fn f;
    f.worker = &t;
    texts_of(t.body, f.simple, f.all);
    fns.push_back(std::move(f));
  }
  auto any = [&](auto&& pred) {
    for (const Fn& f : fns)
      for (const std::string& t : f.all)
        if (pred(f, t)) return true;
    return false;
  };
  auto any_name = [&](const std::string& prefix, std::size_t n) {
    return any([&](const Fn&, const std::string& t) {
      for (std::size_t i = 0; i < n; ++i)
        if (uses(t, prefix + std::to_string(i))) return true;
      return false;
    });
  };
  auto helper_call = [&](const std::string& t, bool as_statement) {
    for (const auto& [v, f] : {std::pair{&getters, "get_g"}, std::pair{&incrementers, "inc_g"}})
      for (int k : *v) {
        const std::string name = fmt::format("{}{}", f, k);
        if (uses(t, name) && (t == name + "();") == as_statement) return true;
      }
    return false;
  };
  std::vector<std::string> out;
  if ((pointer_target >= 0 && any([](const Fn&, const std::string& t) { return uses(t, "p"); })) ||
      any_name("gp", global_ptrs.size()))
    out.push_back("global-pointer-init");
  if (any_name("sp", static_ptrs.size()) || any_name("ls", local_static_ptrs.size())) out.push_back("static-pointer-init");
  if (box_target >= 0 && any([](const Fn&, const std::string& t) { return t.find("bx.ptr") != std::string::npos; }))
    out.push_back("struct-held-pointer");
  if (!ptr_array.empty() && any([](const Fn&, const std::string& t) { return uses(t, "ptrs"); }))
    out.push_back("array-held-pointer");
  if (!outer.empty() && any([](const Fn&, const std::string& t) { return uses(t, "ob"); }))
    out.push_back("nested-aggregate-pointer");
  if (any([](const Fn& f, const std::string& t) { return f.worker && f.worker->arg_target >= 0 && uses(t, "ap"); }))
    out.push_back("thread-arg-pointer");
  if (any([&](const Fn&, const std::string& t) { return helper_call(t, true); })) out.push_back("discarded-call-result");
  if (any([&](const Fn&, const std::string& t) { return helper_call(t, false); })) out.push_back("used-call-result");
  if (any([](const Fn&, const std::string& t) { return t.rfind("(void)", 0) == 0 || t.rfind("int u", 0) == 0; }))
    out.push_back("unused-read");
  // An atomic function on g<k> in one function, a plain access to g<k> in another.
  bool atomic_vs_plain = false;
  for (int k : atomic_fns)
    for (std::size_t i = 0; i < fns.size() && !atomic_vs_plain; ++i)
      for (const std::string& t : fns[i].all) {
        if (!uses(t, fmt::format("__VERIFIER_atomic_set_g{}", k)) && !uses(t, fmt::format("__VERIFIER_atomic_get_g{}", k)) &&
            !uses(t, fmt::format("__VERIFIER_atomic_inc_g{}", k)))
          continue;
        for (std::size_t j = 0; j < fns.size(); ++j)
          if (j != i)
            for (const std::string& u : fns[j].all)
              if (accesses(u, fmt::format("g{}", k))) atomic_vs_plain = true;
      }
  if (atomic_vs_plain) out.push_back("atomic-fn-vs-plain");
  return out;
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
  std::vector<std::string> holders_;   // pointer lvalues statements dereference and redirect
  std::vector<std::string> calls_;     // helper functions (get_g<k>, inc_g<k>) statements call
  std::vector<int> atomics_;           // g<k> whose __VERIFIER_atomic_* functions statements call
  bool unused_reads_ = false;          // statements `(void)x;` / `int u<uid> = x;`
  bool has_mutex_ = false, has_nondet_ = false;

  void setup_locations(const Program& p, const std::set<int>& protected_globals) {
    shared_reads_.clear();
    shared_writes_.clear();
    pointer_targets_.clear();
    holders_.clear();
    calls_.clear();
    atomics_.clear();
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
    // Holders of a pointer to a protected global (a targeted template's hand-off) stay out of
    // the pools: noise must not write through them.
    auto holder = [&](const std::string& h, int target) {
      if (!protected_globals.count(target)) holders_.push_back(h);
    };
    if (p.pointer_target >= 0) holder("p", p.pointer_target);
    for (std::size_t i = 0; i < p.global_ptrs.size(); ++i) holder(fmt::format("gp{}", i), p.global_ptrs[i]);
    for (std::size_t i = 0; i < p.static_ptrs.size(); ++i) holder(fmt::format("sp{}", i), p.static_ptrs[i]);
    for (std::size_t i = 0; i < p.local_static_ptrs.size(); ++i) holder(fmt::format("ls{}", i), p.local_static_ptrs[i]);
    if (p.box_target >= 0) holder("bx.ptr", p.box_target);
    for (std::size_t i = 0; i < p.ptr_array.size(); ++i) holder(fmt::format("ptrs[{}]", i), p.ptr_array[i]);
    for (std::size_t i = 0; i < p.outer.size(); ++i) holder(fmt::format("ob.in[{}].ptr", i), p.outer[i]);
    if (pointer_targets_.empty()) holders_.clear();  // nowhere to redirect them: keep them out
    for (const std::string& h : holders_) {
      shared_reads_.push_back("*" + h);
      shared_writes_.push_back("*" + h);
    }
    if (p.box_target >= 0) {
      shared_reads_.push_back("bx.v");
      shared_writes_.push_back("bx.v");
    }
    for (int k : p.getters) {
      calls_.push_back(fmt::format("get_g{}", k));
      shared_reads_.push_back(fmt::format("get_g{}()", k));  // a call whose result is used
    }
    for (int k : p.incrementers)
      if (!protected_globals.count(k)) calls_.push_back(fmt::format("inc_g{}", k));
    for (int k : p.atomic_fns)
      if (!protected_globals.count(k)) atomics_.push_back(k);
    has_mutex_ = p.mutex;
    has_nondet_ = p.nondet;
  }

  std::string read_atom(bool allow_local = true) {
    const int r = uni(0, 9);
    if (allow_local && r < 2) return coin(0.5) ? "l0" : "l1";
    if (r < 3) return std::to_string(uni(0, 3));
    return pick(shared_reads_);
  }

  // A shared read that is not a call (for an unused read).
  std::string plain_read() {
    for (int i = 0; i < 8; ++i) {
      std::string r = pick(shared_reads_);
      if (r.find('(') == std::string::npos) return r;
    }
    return "g0";
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

  std::string local() { return coin(0.5) ? "l0" : "l1"; }

  Stmt simple(std::string text) {
    Stmt s;
    s.uid = next_uid_++;
    s.text = std::move(text);
    return s;
  }

  // --- the issue-17 constructs ---

  // A read or write through pointer holder `h`.
  Stmt deref_stmt(const std::string& h) {
    switch (uni(0, 3)) {
      case 0: return simple(local() + " = *" + h + ";");
      case 1: return simple("*" + h + " = *" + h + " + 1;");
      default: return simple("*" + h + " = " + value_expr() + ";");
    }
  }
  Stmt redirect_stmt(const std::string& h) { return simple(fmt::format("{} = &g{};", h, pick(pointer_targets_))); }
  Stmt call_stmt(const std::string& f, bool discard) {
    return simple(discard ? f + "();" : local() + " = " + f + "();");
  }
  Stmt unused_read_stmt() {
    Stmt s = simple("");
    s.text = coin(0.5) ? "(void)" + plain_read() + ";" : fmt::format("int u{} = {};", s.uid, plain_read());
    return s;
  }
  Stmt atomic_call_stmt(int k) {
    switch (uni(0, 2)) {
      case 0: return simple(fmt::format("__VERIFIER_atomic_set_g{}({});", k, coin(0.7) ? std::to_string(uni(0, 3)) : local()));
      case 1: return simple(fmt::format("{} = __VERIFIER_atomic_get_g{}();", local(), k));
      default: return simple(fmt::format("__VERIFIER_atomic_inc_g{}();", k));
    }
  }

  // One statement over the constructs the program declares, if it declares any.
  std::optional<Stmt> construct_stmt(const Ctx& c) {
    std::vector<int> kinds;
    if (!holders_.empty()) kinds.insert(kinds.end(), {0, 0});
    if (!calls_.empty()) kinds.insert(kinds.end(), {2, 3});
    if (unused_reads_) kinds.push_back(4);
    if (!atomics_.empty() && !c.in_atomic) kinds.insert(kinds.end(), {5, 5});
    if (kinds.empty()) return std::nullopt;
    switch (pick(kinds)) {
      case 0: return deref_stmt(pick(holders_));
      case 2: return call_stmt(pick(calls_), true);
      case 3: return call_stmt(pick(calls_), false);
      case 4: return unused_read_stmt();
      default: return atomic_call_stmt(pick(atomics_));
    }
  }

  // A pointer holder of a new kind pointing to g<target>: its lvalue.
  std::string make_holder(Program& p, int target) {
    const int ng = static_cast<int>(p.globals.size());
    for (int tries = 0; tries < 8; ++tries) {
      switch (uni(0, 5)) {
        case 0: p.global_ptrs.push_back(target); return fmt::format("gp{}", p.global_ptrs.size() - 1);
        case 1: p.static_ptrs.push_back(target); return fmt::format("sp{}", p.static_ptrs.size() - 1);
        case 2: p.local_static_ptrs.push_back(target); return fmt::format("ls{}", p.local_static_ptrs.size() - 1);
        case 3:
          if (p.box_target < 0) {
            p.box_target = target;
            return "bx.ptr";
          }
          break;
        case 4:
          if (p.ptr_array.size() < 3) {
            if (p.ptr_array.empty() && coin(0.5)) p.ptr_array.push_back(uni(0, ng - 1));
            p.ptr_array.push_back(target);
            return fmt::format("ptrs[{}]", p.ptr_array.size() - 1);
          }
          break;
        default:
          if (p.outer.empty()) {
            const int slot = uni(0, 1);
            p.outer = {uni(0, ng - 1), uni(0, ng - 1)};
            p.outer[static_cast<std::size_t>(slot)] = target;
            return fmt::format("ob.in[{}].ptr", slot);
          }
          break;
      }
    }
    p.global_ptrs.push_back(target);
    return fmt::format("gp{}", p.global_ptrs.size() - 1);
  }

  Stmt assignment() { return assignment(Ctx{}); }
  Stmt assignment(const Ctx& c) {
    if (coin(0.25))
      if (auto s = construct_stmt(c)) return *s;
    const int r = uni(0, 9);
    if (r < 2) return simple(local() + " = " + pick(shared_reads_) + ";");
    if (r < 4 && !shared_writes_.empty()) {  // read-modify-write (lost updates)
      const std::string w = pick(shared_writes_);
      return simple(w + " = " + w + (coin(0.7) ? " + 1;" : " - 1;"));
    }
    // Redirects are kept rare: a pointer with several targets makes every access through it
    // (and the BMC) expensive.
    if (r == 4 && !pointer_targets_.empty() && !holders_.empty() && coin(0.5)) return redirect_stmt(pick(holders_));
    if (r == 5 && has_nondet_) return simple(local() + " = __VERIFIER_nondet_bool();");
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
    return assignment(c);
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

  // Puts `s` into a worker's top level: replaces an assignment (not one put there by this
  // pass, `placed_`) or is inserted at a random position. Keeps programs about as small.
  std::set<int> placed_;
  void place(std::vector<Stmt>& body, Stmt s) {
    placed_.insert(s.uid);
    std::vector<std::size_t> repl;
    for (std::size_t i = 0; i < body.size(); ++i)
      if (body[i].kind == Stmt::Kind::Simple && !placed_.count(body[i].uid) && body[i].text.rfind("assert", 0) != 0 &&
          body[i].text.rfind("if (", 0) != 0)
        repl.push_back(i);
    if (!repl.empty() && coin(0.8)) {
      body[pick(repl)] = std::move(s);
      return;
    }
    body.insert(body.begin() + uni(0, static_cast<int>(body.size())), std::move(s));
  }

  // Every construct the free-form program declares is used at least once.
  void ensure_constructs(Program& p) {
    const int nw = static_cast<int>(p.workers.size());
    auto worker = [&]() -> std::vector<Stmt>& { return p.workers[static_cast<std::size_t>(uni(0, nw - 1))].body; };
    auto missing = [&](const char* name) {
      const std::vector<std::string> have = p.constructs();
      return std::find(have.begin(), have.end(), name) == have.end();
    };
    auto holder_with = [&](const std::vector<std::string>& prefixes) -> std::string {
      std::vector<std::string> hs;
      for (const std::string& h : holders_)
        for (const std::string& pre : prefixes)
          if (h.rfind(pre, 0) == 0 && (pre != "p" || h == "p")) hs.push_back(h);
      return hs.empty() ? "" : pick(hs);
    };
    for (int round = 0; round < 2; ++round) {
      const std::pair<const char*, std::vector<std::string>> holder_constructs[] = {
          {"global-pointer-init", {"p", "gp"}}, {"static-pointer-init", {"sp", "ls"}},
          {"struct-held-pointer", {"bx."}},     {"array-held-pointer", {"ptrs"}},
          {"nested-aggregate-pointer", {"ob."}}};
      for (const auto& [name, prefixes] : holder_constructs) {
        const std::string h = holder_with(prefixes);
        if (!h.empty() && missing(name)) {
          std::vector<Stmt>& body = worker();
          place(body, deref_stmt(h));
        }
      }
      for (Thread& t : p.workers) {
        if (t.arg_target < 0) continue;
        bool used = false;
        std::vector<std::string> simple, all;
        texts_of(t.body, simple, all);
        for (const std::string& x : all) used = used || uses(x, "ap");
        if (!used) place(t.body, deref_stmt("ap"));
      }
      std::vector<std::string> getters;
      for (int k : p.getters) getters.push_back(fmt::format("get_g{}", k));
      // (One random choice per statement: argument evaluation order is unspecified.)
      auto place_any = [&](auto make) {
        std::vector<Stmt>& body = worker();
        place(body, make());
      };
      if (!calls_.empty() && missing("discarded-call-result")) place_any([&] { return call_stmt(pick(calls_), true); });
      if (!getters.empty() && missing("used-call-result")) place_any([&] { return call_stmt(pick(getters), false); });
      if (unused_reads_ && missing("unused-read")) place_any([&] { return unused_read_stmt(); });
      if (!atomics_.empty() && missing("atomic-fn-vs-plain")) {
        const int i = uni(0, nw - 1), k = pick(atomics_);
        place(p.workers[static_cast<std::size_t>(i)].body, atomic_call_stmt(k));
        if (missing("atomic-fn-vs-plain")) {  // a plain access to g<k> in another thread
          Stmt plain = coin(0.5) ? simple(fmt::format("g{0} = g{0} + 1;", k)) : simple(fmt::format("{} = g{};", local(), k));
          if (nw > 1) {
            const int j = (i + uni(1, nw - 1)) % nw;
            place(p.workers[static_cast<std::size_t>(j)].body, std::move(plain));
          }
          else {  // in main, right after the worker was created
            placed_.insert(plain.uid);
            for (std::size_t j = 0; j < p.main_body.size(); ++j)
              if (p.main_body[j].kind == Stmt::Kind::Create && p.main_body[j].n == i) {
                p.main_body.insert(p.main_body.begin() + static_cast<std::ptrdiff_t>(j) + 1, std::move(plain));
                break;
              }
          }
        }
      }
    }
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
    // The issue-17 constructs: 1-3 of them (more make the BMC slow), each equally likely.
    auto g = [&] { return uni(0, ng - 1); };
    std::vector<int> kinds{0, 1, 2, 3, 4, 5, 6, 7, 8};
    std::shuffle(kinds.begin(), kinds.end(), rng_);
    kinds.resize(static_cast<std::size_t>(uni(1, 3)));
    unused_reads_ = false;
    for (int k : kinds) switch (k) {
        case 0: p.global_ptrs.push_back(g()); break;
        case 1: {
          std::vector<int>& v = coin(0.5) ? p.static_ptrs : p.local_static_ptrs;
          v.push_back(g());
          break;
        }
        case 2: p.box_target = g(); break;
        case 3: p.ptr_array = {g(), g()}; break;
        case 4: p.outer = {g(), g()}; break;
        case 5: p.getters.push_back(g()); break;
        case 6: p.incrementers.push_back(g()); break;
        case 7: p.atomic_fns.push_back(g()); break;
        default: unused_reads_ = true;
      }
    setup_locations(p, {});
    // Fewer statements with more threads: the interleavings multiply.
    const int max_stmts = std::max(1, opt_.max_stmts - nw);
    for (int i = 0; i < nw; ++i) {
      Thread t;
      const auto reads = shared_reads_, writes = shared_writes_;
      const auto holders = holders_;
      if (coin(0.12)) {  // a pointer argument: `int *ap = (int *)arg;`
        t.arg_target = g();
        holders_.push_back("ap");
        shared_reads_.push_back("*ap");
        shared_writes_.push_back("*ap");
      }
      t.body = block(Ctx{}, uni(1, max_stmts));
      p.workers.push_back(std::move(t));
      shared_reads_ = reads, shared_writes_ = writes, holders_ = holders;
    }
    make_main(p);
    ensure_constructs(p);
  }

  // The error needs w0 -> w1 -> w2 (a 3-link hand-off over g0 and g1); noise elsewhere. The
  // links are written plainly or through one of the issue-17 constructs.
  void chain3(Program& p) {
    p.templ = "chain3";
    const int ng = uni(2, 3);
    for (int i = 0; i < ng; ++i) p.globals.push_back(0);
    p.mutex = coin(0.5);
    if (ng > 2 && coin(0.4)) p.pointer_target = 2;
    const int v0 = uni(1, 3), v1 = uni(1, 3);
    const bool broken = coin(0.4);  // SAFE variant: the middle link waits for a value never written
    std::vector<Thread> w(3);
    auto atomic_on = [&](int k) {
      if (std::find(p.atomic_fns.begin(), p.atomic_fns.end(), k) == p.atomic_fns.end()) p.atomic_fns.push_back(k);
    };
    auto getter_on = [&](int k) {
      if (std::find(p.getters.begin(), p.getters.end(), k) == p.getters.end()) p.getters.push_back(k);
    };
    // A write of `v` to g<k> by thread `t`.
    auto write = [&](Thread& t, int k, int v) {
      switch (uni(0, 4)) {
        case 0: atomic_on(k); return simple(fmt::format("__VERIFIER_atomic_set_g{}({});", k, v));
        case 1: return simple(fmt::format("*{} = {};", make_holder(p, k), v));
        case 2:
          if (t.arg_target < 0) {
            t.arg_target = k;
            return simple(fmt::format("*ap = {};", v));
          }
          [[fallthrough]];
        default: return simple(fmt::format("g{} = {};", k, v));
      }
    };
    // An expression reading g<k> in thread `t` (no atomic call: that is not an expression here).
    auto read = [&](Thread& t, int k) {
      switch (uni(0, 4)) {
        case 0: getter_on(k); return fmt::format("get_g{}()", k);
        case 1: return "*" + make_holder(p, k);
        case 2:
          if (t.arg_target < 0) {
            t.arg_target = k;
            return std::string("*ap");
          }
          [[fallthrough]];
        default: return fmt::format("g{}", k);
      }
    };
    w[0].body.push_back(write(w[0], 0, v0));
    Stmt mid;
    mid.kind = Stmt::Kind::If;
    const int expect = broken ? v0 + 4 : v0;
    std::vector<Stmt> before_mid;
    if (coin(0.2)) {
      atomic_on(0);
      before_mid.push_back(simple(fmt::format("l1 = __VERIFIER_atomic_get_g0();")));
      mid.text = fmt::format("l1 == {}", expect);
    } else {
      mid.text = fmt::format("{} == {}", read(w[1], 0), expect);
    }
    mid.body.push_back(write(w[1], 1, v1));
    if (p.mutex && coin(0.5)) {
      Stmt l;
      l.kind = Stmt::Kind::Lock;
      for (Stmt& s : before_mid) l.body.push_back(std::move(s));
      l.body.push_back(mid);
      w[1].body.push_back(l);
    } else {
      for (Stmt& s : before_mid) w[1].body.push_back(std::move(s));
      w[1].body.push_back(mid);
    }
    if (coin(0.2)) {
      atomic_on(1);
      w[2].body.push_back(simple("l0 = __VERIFIER_atomic_get_g1();"));
    } else {
      w[2].body.push_back(simple("l0 = " + read(w[2], 1) + ";"));
    }
    w[2].body.push_back(simple(assert_text(fmt::format("l0 != {}", v1))));
    // A few more constructs for the noise (they cannot touch g0/g1).
    if (ng > 2 && coin(0.3)) getter_on(2);
    unused_reads_ = coin(0.25);
    setup_locations(p, {0, 1});
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
    const int n0 = uni(2, 3), n1 = 2;
    const bool two = coin(0.5);
    const bool locked = p.mutex && coin(0.5);
    // The increment: plain, an atomic function, a discarded call of a helper that increments,
    // or through a pointer (a holder or the thread argument).
    auto counter_loop = [&](Thread& t, int k, int n) {
      const std::string g = fmt::format("g{}", k);
      Stmt inc;
      switch (uni(0, 5)) {
        case 0:
          p.atomic_fns.push_back(k);
          inc = simple(fmt::format("__VERIFIER_atomic_inc_g{}();", k));
          break;
        case 1:
          p.incrementers.push_back(k);
          inc = simple(fmt::format("inc_g{}();", k));
          break;
        case 2: {
          const std::string h = t.arg_target < 0 && coin(0.5) ? (t.arg_target = k, std::string("ap")) : make_holder(p, k);
          inc = simple(fmt::format("*{0} = *{0} + 1;", h));
          break;
        }
        default: inc = simple(g + " = " + g + " + 1;");
      }
      Stmt loop;
      loop.kind = Stmt::Kind::Loop;
      loop.var = "i0";
      loop.n = n;
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
    a.body.push_back(counter_loop(a, 0, n0));
    p.workers.push_back(a);
    std::string cond = fmt::format("g0 == {}", n0);
    if (two) {
      Thread b;
      b.body.push_back(counter_loop(b, 1, n1));
      p.workers.push_back(b);
      cond += fmt::format(" && g1 == {}", n1);
    }
    // Observer: fails only once the counters have reached the end (UNSAFE), or checks a value
    // the counters can never have (SAFE).
    const bool safe = coin(0.4);
    Thread obs;
    if (safe) cond = fmt::format("g0 == {}", n0 + 1);
    if (coin(0.3)) {
      p.getters.push_back(0);
      obs.body.push_back(simple("l0 = get_g0();"));
    } else {
      obs.body.push_back(simple("l0 = g0;"));
    }
    if (coin(0.2)) {  // a read whose value is unused
      if (coin(0.5)) {
        obs.body.push_back(simple("(void)g1;"));
      } else {
        if (p.getters.empty()) p.getters.push_back(0);
        obs.body.push_back(simple("get_g0();"));
      }
    }
    obs.body.push_back(simple(assert_text("!(" + cond + ")")));
    p.workers.push_back(obs);
    setup_locations(p, {0, 1});
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
