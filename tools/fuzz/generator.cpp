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

void print_stmts(const std::vector<Stmt>& stmts, int indent, const Program& p, std::string& out);

// Statement uid of each printed line (filled while printing a function body; lines are
// counted from the start of the body text and shifted by the caller).
thread_local std::vector<int>* g_line_uids = nullptr;

void print_stmt(const Stmt& s, int indent, const Program& p, std::string& out) {
  const std::vector<Thread>& workers = p.workers;
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
      print_stmts(s.body, indent + 1, p, out);
      if (!s.els.empty()) {
        out += pad + "} else {\n";
        print_stmts(s.els, indent + 1, p, out);
      }
      out += pad + "}\n";
      break;
    case Stmt::Kind::Loop:
      out += pad + fmt::format("for (int {0} = 0; {0} < {1}{2}; {0}++) {{\n", s.var, s.n,
                               s.text.empty() ? "" : " && (" + s.text + ")");
      print_stmts(s.body, indent + 1, p, out);
      out += pad + "}\n";
      break;
    case Stmt::Kind::Lock:
      switch (p.lock_style) {
        case 1:
          out += pad + "while (!__sync_bool_compare_and_swap(&lk, 0, 1)) {}\n";
          print_stmts(s.body, indent + 1, p, out);
          out += pad + "__sync_lock_release(&lk);\n";
          break;
        case 2:  // a try lock: the body runs only when the lock was free
          out += pad + "if (__sync_bool_compare_and_swap(&lk, 0, 1)) {\n";
          print_stmts(s.body, indent + 1, p, out);
          out += pad + "  __sync_lock_release(&lk);\n" + pad + "}\n";
          break;
        case 3:
          out += pad + "while (atomic_exchange(&lk, 1)) {}\n";
          print_stmts(s.body, indent + 1, p, out);
          out += pad + "atomic_store(&lk, 0);\n";
          break;
        case 4:  // recursive: held twice around the body
          out += pad + "pthread_mutex_lock(&m);\n" + pad + "pthread_mutex_lock(&m);\n";
          print_stmts(s.body, indent + 1, p, out);
          out += pad + "pthread_mutex_unlock(&m);\n" + pad + "pthread_mutex_unlock(&m);\n";
          break;
        case 5:  // error-checking: the relock fails with EDEADLK, the body runs then
          out += pad + "pthread_mutex_lock(&m);\n" + pad + "if (pthread_mutex_lock(&m) == EDEADLK) {\n";
          print_stmts(s.body, indent + 1, p, out);
          out += pad + "}\n" + pad + "pthread_mutex_unlock(&m);\n";
          break;
        default:
          out += pad + "pthread_mutex_lock(&m);\n";
          print_stmts(s.body, indent + 1, p, out);
          out += pad + "pthread_mutex_unlock(&m);\n";
      }
      break;
    case Stmt::Kind::Atomic:
      out += pad + "__VERIFIER_atomic_begin();\n";
      print_stmts(s.body, indent + 1, p, out);
      out += pad + "__VERIFIER_atomic_end();\n";
      break;
    case Stmt::Kind::Create: {
      const Thread& w = workers[static_cast<std::size_t>(s.n)];
      if (w.removed) break;
      const std::string create =
          fmt::format("pthread_create(&h{0}, 0, {1}{0}, {2});\n", s.n, w.start_ptr ? "st" : "t",
                      w.task >= 0         ? fmt::format("&tk{}", w.task)
                      : w.container_arg   ? std::string("&pv.dev")
                      : w.arg_target >= 0 ? fmt::format("&g{}", w.arg_target)
                                          : std::string("0"));
      if (!w.parameterized) out += pad + create;
      else if (p.instances < 0) out += pad + "while (__VERIFIER_nondet_bool()) {\n" + pad + "  " + create + pad + "}\n";
      else
        for (int i = 0; i < p.instances; ++i) out += pad + create;
      break;
    }
    case Stmt::Kind::Join:
      if (!workers[static_cast<std::size_t>(s.n)].removed) out += pad + fmt::format("pthread_join(h{}, 0);\n", s.n);
      break;
  }
}

void print_stmts(const std::vector<Stmt>& stmts, int indent, const Program& p, std::string& out) {
  for (const Stmt& s : stmts) print_stmt(s, indent, p, out);
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
  std::string body;
  std::vector<int> uids;
  g_line_uids = line_uids ? &uids : nullptr;
  print_stmts(stmts, 1, p, body);
  g_line_uids = nullptr;
  std::string decl;
  for (const char* l : {"l0", "l1"})
    if (uses(body, l)) decl += std::string(decl.empty() ? "  int " : ", ") + l + " = 0";
  if (!decl.empty()) decl += ";\n";
  if (worker && worker->arg_target >= 0 && uses(body, "ap")) decl += "  int *ap = (int *)arg;\n";
  if (worker && worker->task >= 0 && uses(body, "tk")) decl += "  struct task *tk = (struct task *)arg;\n";
  if (worker && worker->container_arg && uses(body, "cp"))
    decl += "  struct priv *cp = container_of((struct dev *)arg, struct priv, dev);\n";
  if (!worker && p.mutex && (p.lock_style == 4 || p.lock_style == 5))  // main makes the mutex's kind
    decl += fmt::format("  pthread_mutexattr_t ma;\n  pthread_mutexattr_init(&ma);\n"
                        "  pthread_mutexattr_settype(&ma, {});\n  pthread_mutex_init(&m, &ma);\n",
                        p.lock_style == 4 ? "PTHREAD_MUTEX_RECURSIVE" : "PTHREAD_MUTEX_ERRORCHECK");
  if (!worker)  // main: the start routines held in its locals
    for (std::size_t i = 0; i < p.workers.size(); ++i)
      if (p.workers[i].start_ptr == 2 && uses(body, fmt::format("st{}", i)))
        decl += fmt::format("  void *(*st{0})(void *) = t{0};\n", i);
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
  if (mutex && lock_style == 5) out += "#include <errno.h>\n";
  if (stdatomic()) out += "#include <stdatomic.h>\n";
  if (container) {
    out += "#include <stddef.h>\n";
    out += "#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))\n";
  }
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
  switch (union_kind) {
    case 0: out += "union word { int i; unsigned u; };\nunion word uw = { 1 };\n"; break;
    case 1: out += "union pair { int a[2]; struct { int x, y; } s; };\nunion pair up = { { 0, 1 } };\n"; break;
    case 2: out += fmt::format("union slot {{ int *wp; const int *rp; }};\nunion slot us = {{ &g{} }};\n", union_target); break;
    default: break;
  }
  if (bitfields) {
    out += "struct bits { int lo : 3; unsigned mid : 4; _Bool on : 1; int : 0; int hi : 4; char tag; unsigned : 2; "
           "unsigned top : 6; };\n";
    out += "struct bits bf = { -1, 7, 1, 2, 'a', 9 };\n";
  }
  if (container) {
    out += "struct dev { int id; int flags; };\nstruct priv { int count; struct dev dev; };\n";
    out += "struct priv pv = { 0, { 1, 0 } };\n";
  }
  for (std::size_t i = 0; i < atomic_globals.size(); ++i)
    out += fmt::format("{} a{} = {};\n", i % 2 ? "atomic_int" : "_Atomic int", i, atomic_globals[i]);
  if (mutex) out += lock_style == 0 || lock_style >= 4 ? "pthread_mutex_t m;\n" : lock_style == 3 ? "atomic_int lk = 0;\n" : "int lk = 0;\n";
  if (sections) out += "int s0, s1;\npthread_mutex_t ms;\n";
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
  for (std::size_t i = 0; i < callbacks.size(); ++i) {
    const Callback& c = callbacks[i];
    static const char* const bodies[] = {"return v + 1;", "return v - 1;", "g{0} = v; return v;",
                                         "g{0} = g{0} + v; return g{0};", "return g{0} + v;"};
    out += fmt::format("int cb{}(int v) {{ {} }}\n", i, fmt::format(fmt::runtime(bodies[c.kind]), c.k));
  }
  for (std::size_t i = 0; i < fn_ptrs.size(); ++i) out += fmt::format("int (*fp{})(int) = cb{};\n", i, fn_ptrs[i]);
  if (!ops.empty()) {
    out += "struct ops { int (*run)(int); int (*alt)(int); };\n";
    out += designated ? fmt::format("struct ops ops = {{ .run = cb{}, .alt = cb{} }};\n", ops[0], ops[1])
                      : fmt::format("struct ops ops = {{ cb{}, cb{} }};\n", ops[0], ops[1]);
    if (ops_ptr) out += "struct ops *opp = &ops;\n";
  }
  if (!tasks.empty()) {
    out += "struct task { int (*fn)(int); int *at; };\n";
    for (std::size_t i = 0; i < tasks.size(); ++i)
      out += designated ? fmt::format("struct task tk{} = {{ .fn = cb{}, .at = &g{} }};\n", i, tasks[i].first, tasks[i].second)
                        : fmt::format("struct task tk{} = {{ cb{}, &g{} }};\n", i, tasks[i].first, tasks[i].second);
  }
  for (std::size_t i = 0; i < workers.size(); ++i) {
    if (workers[i].removed) continue;
    out += fmt::format("void *t{}(void *arg) {{\n", i);
    body_text(*this, workers[i].body, &workers[i], out, line_uids);
    out += "  return 0;\n}\n";
  }
  for (std::size_t i = 0; i < workers.size(); ++i)
    if (!workers[i].removed && workers[i].start_ptr == 1) out += fmt::format("void *(*st{0})(void *) = t{0};\n", i);
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
      "unused-read", "atomic-fn-vs-plain", "function pointer call", "function pointer thread start",
      "function pointer thread argument", "C11 atomic", "GCC atomic builtin", "union", "container_of",
      "bit-field"};
  return names;
}

namespace {

bool has_lock(const std::vector<Stmt>& v) {
  for (const Stmt& s : v)
    if (s.kind == Stmt::Kind::Lock || has_lock(s.body) || has_lock(s.els)) return true;
  return false;
}

// A call through a function pointer in `text` (fp<i>(...), (*fp<i>)(...), ops.run(...),
// opp->alt(...), tk->fn(...)).
bool fnptr_call(const std::string& text) {
  for (std::size_t at = text.find("fp"); at != std::string::npos; at = text.find("fp", at + 1)) {
    std::size_t e = at + 2;
    while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e]))) ++e;
    if (e > at + 2 && e < text.size() && (text[e] == '(' || (text[e] == ')' && text.compare(e, 2, ")(") == 0)))
      return true;
  }
  for (const char* h : {"ops.run(", "ops.alt(", "opp->run(", "opp->alt(", "tk->fn("})
    if (text.find(h) != std::string::npos) return true;
  return false;
}

// A C11 atomic operation (<stdatomic.h>) or an access to an _Atomic global a<i>.
bool c11_atomic(const std::string& text, std::size_t n_atomic_globals) {
  for (const char* f : {"atomic_load(", "atomic_store(", "atomic_exchange(", "atomic_fetch_", "atomic_compare_exchange_strong(",
                        "atomic_init("})
    for (std::size_t at = text.find(f); at != std::string::npos; at = text.find(f, at + 1))
      if (at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) return true;
  for (std::size_t i = 0; i < n_atomic_globals; ++i)
    if (uses(text, "a" + std::to_string(i))) return true;
  return false;
}

bool gcc_atomic(const std::string& text) {
  return text.find("__sync_") != std::string::npos || text.find("__atomic_") != std::string::npos;
}

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
  bool locks = has_lock(main_body);
  for (const Thread& t : workers) locks = locks || (!t.removed && has_lock(t.body));
  if (any([](const Fn&, const std::string& t) { return fnptr_call(t); })) out.push_back("function pointer call");
  if (std::any_of(workers.begin(), workers.end(), [](const Thread& t) { return !t.removed && t.start_ptr; }))
    out.push_back("function pointer thread start");
  if (any([](const Fn& f, const std::string& t) { return f.worker && f.worker->task >= 0 && t.find("tk->fn(") != std::string::npos; }))
    out.push_back("function pointer thread argument");
  const std::size_t na = atomic_globals.size();
  if ((mutex && locks && lock_style == 3) || any([&](const Fn&, const std::string& t) { return c11_atomic(t, na); }))
    out.push_back("C11 atomic");
  if ((mutex && locks && (lock_style == 1 || lock_style == 2)) || any([](const Fn&, const std::string& t) { return gcc_atomic(t); }))
    out.push_back("GCC atomic builtin");
  if (union_kind >= 0 && any([&](const Fn&, const std::string& t) { return uses(t, union_var()); })) out.push_back("union");
  if (container && any([](const Fn& f, const std::string& t) { return f.worker && f.worker->container_arg && uses(t, "cp"); }))
    out.push_back("container_of");
  if (bitfields && any([](const Fn&, const std::string& t) { return uses(t, "bf"); })) out.push_back("bit-field");
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

  // GeneratorOptions::bitfields: one to two bit-field statements in each worker (under the lock
  // with probability 0.4), and an assertion on the fields in main after the joins. Drawn after
  // the program, so that the rest of it is the program of the same seed without the option.
  void add_bitfields(Program& p) {
    p.bitfields = true;
    static const char* const writes[] = {"bf.lo = bf.lo + 1;", "bf.mid += 3;", "bf.on = !bf.on;", "bf.hi--;",
                                         "bf.top = bf.top * 2 + 1;", "bf.lo = bf.hi;", "bf.mid = bf.lo;",
                                         "++bf.hi;", "bf.tag = bf.tag + bf.on;"};
    for (Thread& t : p.workers) {
      if (t.removed) continue;
      for (int k = uni(1, 2); k > 0; --k) {
        Stmt s = simple(coin(0.2) ? fmt::format("{} = bf.{};", local(), coin(0.5) ? "lo" : "hi")
                                  : std::string(writes[uni(0, 8)]));
        if (p.mutex && coin(0.4)) {
          Stmt l;
          l.kind = Stmt::Kind::Lock;
          l.body.push_back(std::move(s));
          s = std::move(l);
        }
        t.body.insert(t.body.begin() + uni(0, static_cast<int>(t.body.size())), std::move(s));
      }
    }
    // An initial value, before any thread runs: true in C, so it fails only where the layout or
    // the initialiser is wrong (the native oracle then disagrees). One load: few steps of the
    // bound.
    p.main_body.insert(p.main_body.begin(), simple("assert(bf.mid == 7);"));
    static const char* const fields[] = {"bf.lo", "bf.hi", "bf.mid", "bf.on", "bf.top", "bf.lo + bf.hi"};
    const std::string f = fields[uni(0, 5)];
    const int v = f == "bf.on" ? uni(0, 1) : f == "bf.mid" || f == "bf.top" ? uni(0, 12) : uni(-4, 3);
    p.main_body.push_back(simple(assert_text(fmt::format("{} != {}", f, v))));
  }

  // GeneratorOptions::sections: one to two critical sections of `ms` in each worker, maybe one
  // in main after its creates, over s0 and s1 only (so that each is protected and every lock
  // of ms opens a balanced section), and maybe an assertion on them after the joins (relevant
  // uses) or none (irrelevant cells). Drawn after the program, like the bit-fields.
  void add_sections(Program& p) {
    p.sections = true;
    static const char* const bodies[] = {"s0 = s0 + 1;", "s1 = s0;", "s0 = 2;", "s1 = s1 + s0;",
                                         "if (s0 > 1) s1 = 0;", "s0 = s0 * 2; s1 = 1;", "if (s1 == 0) s0 = 3;"};
    auto section = [&] {
      std::string body = bodies[uni(0, 6)];
      if (coin(0.3)) body += std::string(" ") + bodies[uni(0, 6)];
      return simple("pthread_mutex_lock(&ms); " + body + " pthread_mutex_unlock(&ms);");
    };
    for (Thread& t : p.workers) {
      if (t.removed) continue;
      for (int k = uni(1, 2); k > 0; --k)
        t.body.insert(t.body.begin() + uni(0, static_cast<int>(t.body.size())), section());
    }
    if (coin(0.5)) {  // main's, right after its last create
      std::size_t at = 0;
      for (std::size_t j = 0; j < p.main_body.size(); ++j)
        if (p.main_body[j].kind == Stmt::Kind::Create) at = j + 1;
      p.main_body.insert(p.main_body.begin() + static_cast<std::ptrdiff_t>(at), section());
    }
    if (coin(0.5)) p.main_body.push_back(simple(assert_text(fmt::format("s{} != {}", uni(0, 1), uni(0, 4)))));
  }

  Program program(std::uint64_t seed) {
    Program p;
    p.seed = seed;
    if (opt_.parameterized) {
      param(p);
      return p;
    }
    const int r = uni(0, 99);
    if (r < 15) chain3(p);
    else if (r < 27) deep(p);
    else if (r >= 93) observe(p);
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
  std::vector<std::string> fn_holders_;  // function pointer lvalues statements call and redirect
  int n_callbacks_ = 0;
  std::vector<std::string> c11_;       // _Atomic globals a<i> C11 operations act on
  std::vector<std::string> gcc_;       // plain locations GCC atomic builtins act on (&g<k>, holders)
  // C11 / GCC atomics are rejected in a program that calls __VERIFIER_atomic_begin(): no
  // Atomic statements then.
  bool no_sections_ = false;

  void setup_locations(const Program& p, const std::set<int>& protected_globals) {
    shared_reads_.clear();
    shared_writes_.clear();
    pointer_targets_.clear();
    holders_.clear();
    calls_.clear();
    atomics_.clear();
    fn_holders_.clear();
    c11_.clear();
    gcc_.clear();
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
    if (p.union_kind == 2) holder("us.wp", p.union_target);
    if (pointer_targets_.empty()) holders_.clear();  // nowhere to redirect them: keep them out
    for (const std::string& h : holders_) {
      shared_reads_.push_back("*" + h);
      shared_writes_.push_back("*" + h);
    }
    // Union members (each location written through one member, read through another) and the
    // container's fields (accessed plainly here, through `cp` in the workers given &pv.dev).
    for (const std::string& m : union_members(p)) {
      shared_reads_.push_back(m);
      shared_writes_.push_back(m);
    }
    if (p.union_kind == 2 && !holders_.empty()) shared_reads_.push_back("*us.rp");
    if (p.container)
      for (const char* m : {"pv.count", "pv.dev.flags"}) {
        shared_reads_.push_back(m);
        shared_writes_.push_back(m);
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
    n_callbacks_ = static_cast<int>(p.callbacks.size());
    for (std::size_t i = 0; i < p.fn_ptrs.size(); ++i) fn_holders_.push_back(fmt::format("fp{}", i));
    if (!p.ops.empty()) {
      for (const char* h : {"ops.run", "ops.alt"}) fn_holders_.push_back(h);
      if (p.ops_ptr)
        for (const char* h : {"opp->run", "opp->alt"}) fn_holders_.push_back(h);
    }
    for (std::size_t i = 0; i < p.atomic_globals.size(); ++i) {
      c11_.push_back(fmt::format("a{}", i));
      shared_reads_.push_back(c11_.back());  // a plain-syntax access of an _Atomic object is atomic
      shared_writes_.push_back(c11_.back());
    }
    if (gcc_on_) {
      for (std::size_t i = 0; i < p.globals.size(); ++i)
        if (!protected_globals.count(static_cast<int>(i))) gcc_.push_back(fmt::format("&g{}", i));
      for (std::size_t i = 0; i < p.array.size(); ++i) gcc_.push_back(fmt::format("&arr[{}]", i));
      for (const std::string& h : holders_) gcc_.push_back(h);
    }
    has_mutex_ = p.mutex;
    has_nondet_ = p.nondet;
  }
  bool gcc_on_ = false;  // setup_locations: GCC atomic builtins on the plain locations

  // The integer members of the union (kinds 0 and 1; kind 2's pointers are holders).
  static std::vector<std::string> union_members(const Program& p) {
    if (p.union_kind == 0) return {"uw.i", "uw.u"};
    if (p.union_kind == 1) return {"up.a[0]", "up.a[1]", "up.s.x", "up.s.y"};
    return {};
  }
  // A write through one member of the union and a read of the same cell through another.
  std::pair<Stmt, Stmt> union_pun(const Program& p) {
    const std::string l = local();
    switch (p.union_kind) {
      case 0: {
        const bool u = coin(0.5);
        Stmt w = coin(0.5) ? simple(fmt::format("uw.{0} = uw.{0} + 1;", u ? "u" : "i"))
                           : simple(u ? fmt::format("uw.u = {}u;", uni(0, 3)) : fmt::format("uw.i = {};", uni(-1, 3)));
        const std::string r = u ? "uw.i" : "uw.u";
        return {std::move(w), coin(0.3) ? simple(assert_text(fmt::format("{} != {}", r, uni(1, 2)))) : simple(l + " = " + r + ";")};
      }
      case 1: {
        const int i = uni(0, 1);
        const std::string a = fmt::format("up.a[{}]", i), f = i ? "up.s.y" : "up.s.x";
        const bool arr = coin(0.5);
        const std::string wm = arr ? a : f, rm = arr ? f : a;
        Stmt w = coin(0.5) ? simple(fmt::format("{0} = {0} + 1;", wm)) : simple(fmt::format("{} = {};", wm, value_expr()));
        return {std::move(w), coin(0.3) ? simple(assert_text(fmt::format("{} != {}", rm, uni(1, 2)))) : simple(l + " = " + rm + ";")};
      }
      default: {
        Stmt w = coin(0.5) && !pointer_targets_.empty() ? simple(fmt::format("us.wp = &g{};", pick(pointer_targets_)))
                                                        : simple(fmt::format("*us.wp = {};", value_expr()));
        return {std::move(w), coin(0.3) ? simple(assert_text(fmt::format("*us.rp != {}", uni(1, 2)))) : simple(l + " = *us.rp;")};
      }
    }
  }
  // A statement in a worker holding `cp` (the container recovered from its argument).
  Stmt container_stmt() {
    switch (uni(0, 4)) {
      case 0: case 1: return simple("cp->count = cp->count + 1;");
      case 2: return simple(fmt::format("cp->dev.flags = {};", value_expr()));
      case 3: return simple(fmt::format("{} = cp->count + cp->dev.id;", local()));
      default: return simple(assert_text(fmt::format("cp->count != {}", uni(1, 2))));
    }
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

  // A call through function pointer `h`: its result assigned to a local or a shared location,
  // discarded, or asserted on. The argument is one atom: a callback may write a global, and the
  // order of two reads and a call in one expression is unspecified.
  Stmt fn_call_stmt(const std::string& h) {
    const std::string callee = coin(0.25) ? "(*" + h + ")" : h;
    const std::string call = callee + "(" + read_atom() + ")";
    switch (uni(0, 7)) {
      case 0: case 1: case 2: return simple(local() + " = " + call + ";");
      case 3: case 4:
        if (!shared_writes_.empty()) return simple(pick(shared_writes_) + " = " + call + ";");
        [[fallthrough]];
      case 5: case 6: return simple(call + ";");
      default: return simple(assert_text(call + " != " + std::to_string(uni(0, 3))));
    }
  }
  // `h` set to another callback, or to one of two chosen by a condition.
  Stmt fn_redirect_stmt(const std::string& h) {
    if (coin(0.3) && n_callbacks_ >= 2)
      return simple(fmt::format("{} = {} ? cb{} : cb{};", h, cond_expr(1), uni(0, n_callbacks_ - 1), uni(0, n_callbacks_ - 1)));
    return simple(fmt::format("{} = cb{};", h, uni(0, n_callbacks_ - 1)));
  }
  // One C11 operation (seq_cst; strong CAS only) on the _Atomic global `a`.
  Stmt c11_stmt(const std::string& a) {
    const std::string l = local(), other = l == "l0" ? "l1" : "l0";
    const int c = uni(0, 3);
    switch (uni(0, 11)) {
      case 0: case 1: return simple(fmt::format("atomic_fetch_add(&{}, 1);", a));
      case 2: return simple(fmt::format("{} = atomic_fetch_{}(&{}, {});", l, coin(0.5) ? "add" : "sub", a, uni(1, 2)));
      case 3: case 4: return simple(fmt::format("{} = atomic_load(&{});", l, a));
      case 5: return simple(fmt::format("atomic_store(&{}, {});", a, value_expr()));
      case 6: return simple(fmt::format("{} = atomic_exchange(&{}, {});", l, a, c));
      case 7: case 8: return simple(fmt::format("{} = atomic_compare_exchange_strong(&{}, &{}, {});", l, a, other, c));
      case 9: return simple(coin(0.5) ? a + "++;" : fmt::format("{} += {};", a, uni(1, 2)));
      case 10: return simple(fmt::format("{} = {} + {};", l, a, uni(0, 1)));  // a plain-syntax atomic load
      default:  // not atomic (C11 7.17.2.2): races with the other accesses
        return simple(fmt::format("atomic_init(&{}, {});", a, c));
    }
  }
  // One GCC atomic builtin on the plain location `*q` (`q` a pointer expression).
  Stmt gcc_stmt(const std::string& q) {
    const std::string l = local(), other = l == "l0" ? "l1" : "l0";
    const int c = uni(0, 3), d = uni(0, 3);
    switch (uni(0, 11)) {
      case 0: case 1: return simple(fmt::format("__sync_fetch_and_add({}, 1);", q));
      case 2: return simple(fmt::format("{} = __sync_fetch_and_sub({}, 1);", l, q));
      case 3: return simple(fmt::format("{} = __sync_add_and_fetch({}, {});", l, q, uni(1, 2)));
      case 4: return simple(fmt::format("{} = __sync_val_compare_and_swap({}, {}, {});", l, q, c, d));
      case 5: return simple(fmt::format("{} = __sync_bool_compare_and_swap({}, {}, {});", l, q, c, d));
      case 6: return simple(fmt::format("{} = __sync_lock_test_and_set({}, {});", l, q, c));
      case 7: return simple(fmt::format("{} = __atomic_load_n({}, __ATOMIC_SEQ_CST);", l, q));
      case 8: return simple(fmt::format("__atomic_store_n({}, {}, __ATOMIC_SEQ_CST);", q, c));
      case 9: return simple(fmt::format("__atomic_fetch_add({}, {}, __ATOMIC_SEQ_CST);", q, uni(1, 2)));
      case 10: return simple(fmt::format("{} = __atomic_exchange_n({}, {}, __ATOMIC_SEQ_CST);", l, q, c));
      default:  // strong (weak = 0)
        return simple(fmt::format("{} = __atomic_compare_exchange_n({}, &{}, {}, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);",
                                  l, q, other, c));
    }
  }
  std::string gcc_target() { return pick(gcc_); }  // `&g<k>`, `&arr[i]` or a pointer holder
  // A condition that is a strong compare-and-swap (for a CAS-guarded if).
  std::string cas_cond() {
    if (!c11_.empty() && (gcc_.empty() || coin(0.5)))
      return fmt::format("atomic_compare_exchange_strong(&{}, &{}, {})", pick(c11_), local(), uni(0, 3));
    return fmt::format("__sync_bool_compare_and_swap({}, {}, {})", gcc_target(), uni(0, 3), uni(0, 3));
  }

  // One statement over the constructs the program declares, if it declares any.
  std::optional<Stmt> construct_stmt(const Ctx& c) {
    std::vector<int> kinds;
    if (!holders_.empty()) kinds.insert(kinds.end(), {0, 0});
    if (!calls_.empty()) kinds.insert(kinds.end(), {2, 3});
    if (unused_reads_) kinds.push_back(4);
    if (!atomics_.empty() && !c.in_atomic) kinds.insert(kinds.end(), {5, 5});
    if (!fn_holders_.empty()) kinds.insert(kinds.end(), {6, 6, 7});
    if (!c11_.empty()) kinds.insert(kinds.end(), {8, 8, 8});
    if (!gcc_.empty()) kinds.insert(kinds.end(), {9, 9, 9});
    if (kinds.empty()) return std::nullopt;
    switch (pick(kinds)) {
      case 0: return deref_stmt(pick(holders_));
      case 2: return call_stmt(pick(calls_), true);
      case 3: return call_stmt(pick(calls_), false);
      case 4: return unused_read_stmt();
      case 6: return fn_call_stmt(pick(fn_holders_));
      case 7: return fn_redirect_stmt(pick(fn_holders_));
      case 8: return c11_stmt(pick(c11_));
      case 9: return gcc_stmt(gcc_target());
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
    if (nest && !c.in_atomic && !c.in_lock && !no_sections_ && r < 58) {
      Stmt s;
      s.kind = Stmt::Kind::Atomic;
      Ctx in = c;
      ++in.depth;
      in.in_atomic = true;
      s.body = block(in, uni(1, 3));
      return s;
    }
    if (nest && (!c11_.empty() || !gcc_.empty()) && r >= 58 && r < 64) {  // a CAS-guarded block
      Stmt s;
      s.kind = Stmt::Kind::If;
      s.text = cas_cond();
      Ctx in = c;
      ++in.depth;
      s.body = block(in, uni(1, 2));
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
    // A statement, under the lock with probability 0.4 (if there is one).
    auto maybe_locked = [&](Stmt s) {
      if (!p.mutex || !coin(0.4)) return s;
      Stmt l;
      l.kind = Stmt::Kind::Lock;
      l.body.push_back(std::move(s));
      return l;
    };
    // In worker i's top level, or (one worker) in main right after worker i was created.
    auto place_other = [&](int i, Stmt s) {
      if (nw > 1) {
        const int j = (i + uni(1, nw - 1)) % nw;
        place(p.workers[static_cast<std::size_t>(j)].body, std::move(s));
        return;
      }
      placed_.insert(s.uid);
      for (std::size_t j = 0; j < p.main_body.size(); ++j)
        if (p.main_body[j].kind == Stmt::Kind::Create && p.main_body[j].n == i) {
          p.main_body.insert(p.main_body.begin() + static_cast<std::ptrdiff_t>(j) + 1, std::move(s));
          break;
        }
    };
    // A union: written through one member in a worker, the cell read through another member in
    // another thread (either may be under the lock: races and lost updates when not).
    if (p.union_kind >= 0) {
      auto [w, r] = union_pun(p);
      const int i = uni(0, nw - 1);
      place(p.workers[static_cast<std::size_t>(i)].body, maybe_locked(std::move(w)));
      place_other(i, maybe_locked(std::move(r)));
    }
    // container_of: every worker given &pv.dev uses `cp`; sometimes another thread accesses
    // the container's count plainly.
    for (int i = 0; i < nw; ++i) {
      Thread& t = p.workers[static_cast<std::size_t>(i)];
      if (!t.container_arg) continue;
      std::vector<std::string> simples, all;
      texts_of(t.body, simples, all);
      if (std::none_of(all.begin(), all.end(), [](const std::string& x) { return uses(x, "cp"); }))
        place(t.body, maybe_locked(container_stmt()));
      if (coin(0.4))
        place_other(i, maybe_locked(coin(0.5) ? simple("pv.count = pv.count + 1;") : simple(local() + " = pv.count;")));
    }
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
      if (!fn_holders_.empty() && missing("function pointer call"))
        place_any([&] { return fn_call_stmt(pick(fn_holders_)); });
      // A callback chosen at run time (so that more than one is address-taken and a call has
      // several candidates): in main before the threads start, or in a worker (racy).
      if (round == 0 && !fn_holders_.empty() && n_callbacks_ >= 2 && coin(0.6)) {
        Stmt r = fn_redirect_stmt(pick(fn_holders_));
        if (coin(0.5)) {
          placed_.insert(r.uid);
          p.main_body.insert(p.main_body.begin(), std::move(r));
        } else {
          place_any([&] { return r; });
        }
      }
      for (Thread& t : p.workers) {
        if (t.task < 0) continue;
        std::vector<std::string> simples, all;
        texts_of(t.body, simples, all);
        if (std::none_of(all.begin(), all.end(), [](const std::string& x) { return x.find("tk->fn(") != std::string::npos; }))
          place(t.body, coin(0.5) ? simple("*tk->at = tk->fn(*tk->at);") : fn_call_stmt("tk->fn"));
      }
      if (!c11_.empty() && missing("C11 atomic")) place_any([&] { return c11_stmt(pick(c11_)); });
      if (!gcc_.empty() && missing("GCC atomic builtin")) place_any([&] { return gcc_stmt(gcc_target()); });
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
    // Last (the programs before it stay as they were): a critical section with two writes to
    // one global, read without the lock by another thread, which can see the value between
    // them: a transaction may carry a step only when a lock *both* sides hold protects it
    // (ir::protected_steps), so the intermediate value must stay observable.
    if (p.mutex && p.lock_style == 0 && !p.globals.empty() && coin(0.25)) {
      const int k = uni(0, static_cast<int>(p.globals.size()) - 1);
      const std::string x = fmt::format("g{}", k);
      Stmt l;
      l.kind = Stmt::Kind::Lock;
      l.body.push_back(simple(x + " = " + x + " + 1;"));
      l.body.push_back(simple(x + " = " + x + " + 1;"));
      const int i = uni(0, nw - 1);
      place(p.workers[static_cast<std::size_t>(i)].body, std::move(l));
      place_other(i, simple(assert_text(fmt::format("{} != {}", x, p.globals[static_cast<std::size_t>(k)] + 1))));
    }
    // Last again: a loop inside a critical section over a global of its own that every thread
    // touches only under the lock, in one or two workers: the loop's body is protected steps,
    // so a transaction runs on through its head (ir::Transactions::passable, check
    // --tx-unwind), and the assertion after it sees 2 or 4 (reachable) or 3 or 5 (not).
    if (p.mutex && p.lock_style == 0 && coin(0.6)) {
      const int k = static_cast<int>(p.globals.size());
      p.globals.push_back(0);
      const std::string x = fmt::format("g{}", k);
      const int first = uni(0, nw - 1), copies = nw > 1 && coin(0.5) ? 2 : 1;
      for (int c = 0; c < copies; ++c) {
        Stmt loop;
        loop.kind = Stmt::Kind::Loop;
        loop.var = "i1";
        loop.n = 2;
        loop.body.push_back(simple(x + " = " + x + " + 1;"));
        Stmt l;
        l.kind = Stmt::Kind::Lock;
        l.body.push_back(std::move(loop));
        if (coin(0.6)) l.body.push_back(simple(assert_text(fmt::format("{} != {}", x, uni(2, 5)))));
        place(p.workers[static_cast<std::size_t>((first + c) % nw)].body, std::move(l));
      }
    }
  }

  // Callbacks `int cb<i>(int v)` (2-3; some read or write a global) and where they are held: a
  // global pointer, an ops table (initialised at file scope, maybe reached through a pointer),
  // a struct task passed as the thread argument (workers share one sometimes).
  void add_callbacks(Program& p, int ng, int nw) {
    const int nc = coin(0.85) ? 2 : 3;
    for (int i = 0; i < nc; ++i) p.callbacks.push_back({uni(0, 4), uni(0, ng - 1)});
    p.designated = coin(0.6);
    const int r = uni(0, 99);
    if (r < 45 || nw == 0) p.fn_ptrs.push_back(uni(0, nc - 1));
    if (r >= 30 && r < 75) {
      p.ops = {uni(0, nc - 1), uni(0, nc - 1)};
      p.ops_ptr = coin(0.4);
    }
    if (r >= 30 || (p.fn_ptrs.empty() && p.ops.empty())) {
      // One task (two make every access through `tk` pointer-chasing, and the BMC slow): the
      // first worker gets it, each other one with probability 0.5 (they share it then).
      p.tasks.push_back({uni(0, nc - 1), uni(0, ng - 1)});
      for (int i = 0; i < nw; ++i)
        if (i == 0 || coin(0.5)) p.workers[static_cast<std::size_t>(i)].task = 0;
    }
  }

  // Workers started through a pointer (at most two: each pointer call site dispatches over every
  // start routine and takes a thread slot for each, and three such sites of three routines
  // exceed the front end's 8 threads).
  void start_ptrs(Program& p) {
    int n = 0;
    for (Thread& t : p.workers)
      if (coin(0.1) && n < 2) t.start_ptr = uni(1, 2), ++n;
  }

  void random(Program& p) {
    p.templ = "random";
    gcc_on_ = no_sections_ = false;
    const int nw = uni(1, opt_.max_workers);
    p.workers.resize(static_cast<std::size_t>(nw));
    const int ng = uni(1, 3);
    for (int i = 0; i < ng; ++i) p.globals.push_back(uni(0, 2));
    if (coin(0.4)) {
      const int n = uni(2, 3);
      for (int i = 0; i < n; ++i) p.array.push_back(uni(0, 1));
    }
    if (coin(0.35)) p.pointer_target = uni(0, ng - 1);
    p.mutex = coin(0.5);
    p.nondet = coin(0.15);
    // Function pointers and atomics: in a quarter / a third of the free-form programs.
    const bool fn_ptrs = coin(0.25), atomics = coin(0.3);
    // A union and container_of: each in about a fifth of them.
    const bool unions = coin(0.19), container = coin(0.19);
    // The issue-17 constructs: 1-3 of them (more make the BMC slow; 1-2 with function pointers,
    // atomics, a union or container_of), each equally likely.
    auto g = [&] { return uni(0, ng - 1); };
    std::vector<int> kinds{0, 1, 2, 3, 4, 5, 6, 7, 8};
    std::shuffle(kinds.begin(), kinds.end(), rng_);
    kinds.resize(static_cast<std::size_t>(uni(1, fn_ptrs || atomics || unions || container ? 2 : 3)));
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
    if (fn_ptrs) add_callbacks(p, ng, nw);
    if (atomics) {
      if (coin(0.7)) {
        const int na = uni(1, 2);
        for (int i = 0; i < na; ++i) p.atomic_globals.push_back(uni(0, 2));
      }
      gcc_on_ = p.atomic_globals.empty() || coin(0.5);
      if (p.mutex) p.lock_style = uni(0, 3);
      no_sections_ = true;
    }
    if (unions) {
      p.union_kind = uni(0, 2);
      p.union_target = g();
    }
    if (container) {  // the first worker without a task gets &pv.dev, each other one with p = 0.5
      for (Thread& t : p.workers)
        if (t.task < 0 && (!p.container || coin(0.5))) t.container_arg = p.container = true;
    }
    start_ptrs(p);
    setup_locations(p, {});
    // Fewer statements with more threads: the interleavings multiply.
    const int max_stmts = std::max(1, opt_.max_stmts - nw);
    for (int i = 0; i < nw; ++i) {
      Thread& t = p.workers[static_cast<std::size_t>(i)];
      const auto reads = shared_reads_, writes = shared_writes_;
      const auto holders = holders_, fn_holders = fn_holders_;
      if (t.task >= 0) {  // `struct task *tk = (struct task *)arg;`: a callback and a pointer
        fn_holders_.push_back("tk->fn");  // (`*tk->at` only in the statement ensure_constructs adds)
      } else if (t.container_arg) {  // `struct priv *cp = container_of(...)`: the container's fields
        // the last: dev.flags reached by byte arithmetic on a char pointer (semantics.md, "Layout")
        for (const char* m : {"cp->count", "cp->dev.flags",
                              "*(int *)((char *)cp + offsetof(struct priv, dev) + offsetof(struct dev, flags))"}) {
          shared_reads_.push_back(m);
          shared_writes_.push_back(m);
        }
      } else if (coin(0.12)) {  // a pointer argument: `int *ap = (int *)arg;`
        t.arg_target = g();
        holders_.push_back("ap");
        shared_reads_.push_back("*ap");
        shared_writes_.push_back("*ap");
      }
      t.body = block(Ctx{}, uni(1, max_stmts));
      shared_reads_ = reads, shared_writes_ = writes, holders_ = holders, fn_holders_ = fn_holders;
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
    // A callback of `kind` on g<k> held in a new global function pointer: its name.
    auto callback_on = [&](int kind, int k) {
      p.callbacks.push_back({kind, k});
      p.fn_ptrs.push_back(static_cast<int>(p.callbacks.size()) - 1);
      return fmt::format(fmt::runtime(coin(0.3) ? "(*fp{})" : "fp{}"), p.fn_ptrs.size() - 1);
    };
    auto write = [&](Thread& t, int k, int v) {
      switch (uni(0, 6)) {
        case 5:
          no_sections_ = true;
          return simple(coin(0.5) ? fmt::format("__atomic_store_n(&g{}, {}, __ATOMIC_SEQ_CST);", k, v)
                                  : fmt::format("__sync_lock_test_and_set(&g{}, {});", k, v));
        case 6: return simple(fmt::format("{}({});", callback_on(2, k), v));  // g<k> = v
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
      switch (uni(0, 6)) {
        case 5:
          no_sections_ = true;
          return coin(0.5) ? fmt::format("__atomic_load_n(&g{}, __ATOMIC_SEQ_CST)", k)
                           : fmt::format("__sync_fetch_and_add(&g{}, 0)", k);
        case 6: return callback_on(4, k) + "(0)";  // g<k> + 0
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
    fn_holders_.clear();  // the callbacks are the links'
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
    start_ptrs(p);
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
      switch (uni(0, 7)) {
        case 6:
          no_sections_ = true;
          inc = simple(coin(0.5) ? fmt::format("__sync_fetch_and_add(&g{}, 1);", k)
                                 : fmt::format("__atomic_fetch_add(&g{}, 1, __ATOMIC_SEQ_CST);", k));
          break;
        case 7:  // through an ops table whose other callback decrements, or a task argument
          if (p.callbacks.empty()) {
            p.callbacks = {{0, 0}, {1, 0}};
            p.designated = coin(0.5);
          }
          if (t.arg_target < 0 && t.task < 0 && coin(0.5)) {
            t.task = static_cast<int>(p.tasks.size());
            p.tasks.push_back({0, k});
            inc = simple("*tk->at = tk->fn(*tk->at);");
            break;
          }
          if (p.ops.empty()) p.ops = {0, 1};
          inc = simple(fmt::format("{0} = ops.run({0});", g));
          break;
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
    start_ptrs(p);
    setup_locations(p, {0, 1});
    make_main(p);
  }

  // A write order observed only through a pointer: two workers write g0 without
  // synchronisation, main joins them and branches on g0 read through a pointer holder (p, or
  // one make_holder declares). Which branch runs depends on the order of the two writes, so a
  // reduction that takes them for commuting loses one branch's control states: SIR with a
  // points-to analysis that loses the holder's initial target sees a branch unrelated to g0
  // (ir::PointsToOptions::test_drop_initial_targets; ctest "fuzz: a broken points-to analysis
  // under SIR is caught"). The assert fails when the second writer's value is seen (UNSAFE),
  // or checks a value l0 never has (SAFE). Noise on g1 in the workers.
  void observe(Program& p) {
    p.templ = "observe";
    p.globals = {0, uni(0, 2)};
    p.mutex = coin(0.3);
    const int v0 = uni(1, 3), v1 = v0 + uni(1, 2);
    std::string h;
    if (coin(0.4)) {
      p.pointer_target = 0;
      h = "p";
    } else {
      h = make_holder(p, 0);
    }
    std::vector<Thread> w(2);
    w[0].body.push_back(simple(fmt::format("g0 = {};", v0)));
    w[1].body.push_back(simple(fmt::format("g0 = {};", v1)));
    setup_locations(p, {0});
    // Noise that cannot touch g0; mostly writes of g1 no conditional reads (a pair that SIR
    // finds insensitive and MPOR does not).
    for (Thread& t : w)
      for (int i = uni(0, 1); i > 0; --i) {
        Stmt s = coin(0.6) ? simple(coin(0.5) ? "g1 = g1 + 1;" : fmt::format("g1 = {};", uni(0, 3))) : assignment();
        t.body.insert(t.body.begin() + (coin(0.5) ? 0 : static_cast<std::ptrdiff_t>(t.body.size())), s);
      }
    p.workers = std::move(w);
    for (int i = 0; i < 2; ++i) {
      Stmt s;
      s.kind = Stmt::Kind::Create;
      s.n = i;
      p.main_body.push_back(s);
    }
    for (int i = 0; i < 2; ++i) {
      Stmt s;
      s.kind = Stmt::Kind::Join;
      s.n = i;
      p.main_body.push_back(s);
    }
    Stmt branch;
    branch.kind = Stmt::Kind::If;
    branch.text = fmt::format("*{} == {}", h, v1);
    branch.body.push_back(simple("l0 = 1;"));
    branch.els.push_back(simple("l0 = 2;"));
    p.main_body.push_back(branch);
    p.main_body.push_back(simple(assert_text(coin(0.5) ? "l0 != 1" : "l0 != 3")));
  }

  // Any number of instances of worker t0: main runs `while (__VERIFIER_nondet_bool())
  // pthread_create(&h0, 0, t0, 0);`, maybe after creating a second worker t1 once. t0's body
  // is free-form (one statement over g0/g1, the lock, atomic sections), or in a quarter of
  // the programs a ticket: `l0 = __sync_fetch_and_add(&g0, 1);` and an assertion that fails
  // once M instances have taken one (M = 1..9: a bug that needs M + 1 threads, beyond the
  // instance counts the driver compares when M >= 5).
  void param(Program& p) {
    p.templ = "param";
    gcc_on_ = no_sections_ = false;
    unused_reads_ = false;
    p.nondet = true;
    const int ng = uni(1, 2);
    for (int i = 0; i < ng; ++i) p.globals.push_back(uni(0, 2));
    p.mutex = coin(0.5);
    const bool ticket = coin(0.25);
    no_sections_ = ticket;  // a GCC builtin: no __VERIFIER_atomic_begin() in the program
    std::vector<Thread> w(coin(0.35) ? 2 : 1);
    w[0].parameterized = true;
    setup_locations(p, ticket ? std::set<int>{0} : std::set<int>{});
    if (ticket) {
      const int m = uni(1, 9);
      p.ticket_workers = m + 1;
      p.globals[0] = 0;
      w[0].body.push_back(simple("l0 = __sync_fetch_and_add(&g0, 1);"));
      w[0].body.push_back(simple(assert_text(fmt::format("l0 < {}", m))));
    } else {
      w[0].body = block(Ctx{}, 1);
    }
    if (w.size() > 1) w[1].body = block(Ctx{}, uni(1, 2));
    p.workers = std::move(w);
    Ctx c;
    c.main = true;
    if (p.workers.size() > 1) {
      Stmt s;
      s.kind = Stmt::Kind::Create;
      s.n = 1;
      p.main_body.push_back(s);
    }
    Stmt loop;
    loop.kind = Stmt::Kind::Create;
    loop.n = 0;
    p.main_body.push_back(loop);
    if (coin(0.3)) p.main_body.push_back(stmt(c));
    if (p.workers.size() > 1 && coin(0.5)) {
      Stmt s;
      s.kind = Stmt::Kind::Join;
      s.n = 1;
      p.main_body.push_back(s);
    }
    if (!ticket && coin(0.5)) p.main_body.push_back(simple(assert_text(cond_expr())));
  }

  std::mt19937_64 rng_;
  GeneratorOptions opt_;
  int next_uid_ = 0;
};

}  // namespace

namespace {
bool has_atomic_section(const std::vector<Stmt>& v) {
  for (const Stmt& s : v)
    if (s.kind == Stmt::Kind::Atomic || has_atomic_section(s.body) || has_atomic_section(s.els)) return true;
  return false;
}
}  // namespace

Program generate(std::uint64_t seed, const GeneratorOptions& options) {
  Gen g(seed, options);
  Program p = g.program(seed);
  // Not beside __VERIFIER_atomic_begin/end: a mutex of another kind is one atomic step per
  // operation, which the front end does not nest in such sections (UNKNOWN).
  bool sections = has_atomic_section(p.main_body);
  for (const Thread& t : p.workers) sections = sections || has_atomic_section(t.body);
  if (options.mutex_kinds && p.mutex && p.lock_style == 0 && !sections) p.lock_style = seed % 2 ? 4 : 5;
  if (options.bitfields) g.add_bitfields(p);
  if (options.sections) g.add_sections(p);
  return p;
}

}  // namespace siren::fuzz
