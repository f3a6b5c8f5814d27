// The Boolector backend (`--solver boolector`): Debian ships only the 2012 `boolector` 1.5.118
// program, so every solve() writes one SMT-LIB2 problem, runs `boolector --smt2 -rwl2 -m -d [-t SEC] FILE`
// as a child process and reads the verdict and model from its standard output. The solver
// keeps every asserted term; a query is "all assertions + this call's assumptions".
//
// Encoding: boolector 1.5 accepts only declare-fun / assert / check-sat / let / ite / bv ops
// (no define-fun, no get-value), and terms share subterms heavily, so the problem is written
// DAG-aware and flat: a node used more than once (or sitting deeper than a small nesting
// bound) becomes an auxiliary symbol `tN` declared and constrained by `(assert (= tN expr))`;
// other nodes are inlined. Boolector's rewriter substitutes such equalities away. Variables
// are `vN` (N = TermNode::id: names from the encoder are not unique or SMT-LIB-safe).
//
// Answers: exit code 10 = sat (then `name value` lines in decimal; missing variables read as
// 0), 20 = unsat, 14 = unknown (its own -t time limit); anything else, a missing binary,
// output that does not parse, or a model that does not satisfy the assertions under the
// reference semantics `evaluate` gives Unknown with the reason in last_error().
// The terminate callback is polled while the child runs; when it fires the child is killed.
#include "solvers/decision_procedure.hpp"
#include "solvers/term_eval.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <unordered_map>

extern char** environ;

namespace siren::solvers {

namespace {

const char* op_name(Kind k) {
  switch (k) {
    case Kind::Not: return "not"; case Kind::And: return "and"; case Kind::Or: return "or";
    case Kind::Xor: return "xor"; case Kind::Iff: return "="; case Kind::Implies: return "=>";
    case Kind::Ite: return "ite"; case Kind::Eq: return "=";
    case Kind::BvNeg: return "bvneg"; case Kind::BvNot: return "bvnot";
    case Kind::BvAnd: return "bvand"; case Kind::BvOr: return "bvor";
    case Kind::BvXor: return "bvxor"; case Kind::BvAdd: return "bvadd";
    case Kind::BvSub: return "bvsub"; case Kind::BvMul: return "bvmul";
    case Kind::BvUdiv: return "bvudiv"; case Kind::BvUrem: return "bvurem";
    case Kind::BvSdiv: return "bvsdiv"; case Kind::BvSrem: return "bvsrem";
    case Kind::BvShl: return "bvshl"; case Kind::BvLshr: return "bvlshr";
    case Kind::BvAshr: return "bvashr"; case Kind::BvUlt: return "bvult";
    case Kind::BvUle: return "bvule"; case Kind::BvSlt: return "bvslt";
    case Kind::BvSle: return "bvsle"; case Kind::Concat: return "concat";
    default: return nullptr;
  }
}

std::string sort_text(Sort s) {
  return s.is_bool() ? "Bool" : "(_ BitVec " + std::to_string(s.width) + ")";
}

std::string const_text(Term t) {
  if (t->sort.is_bool()) return t->value ? "true" : "false";
  std::string s = "#b";
  for (std::uint32_t i = t->sort.width; i-- > 0;) s += ((t->value >> i) & 1) ? '1' : '0';
  return s;
}

/// Writes the SMT-LIB2 problem `roots` (Bool terms, all asserted) DAG-aware and flat.
class Smt2Writer {
 public:
  explicit Smt2Writer(std::size_t num_terms) : uses_(num_terms, 0), state_(num_terms, 0) {}

  std::string write(const std::vector<Term>& roots) {
    count_uses(roots);
    out_ << "(set-logic QF_BV)\n";
    for (Term r : roots) {
      const std::string e = expr(r);
      out_ << "(assert " << e << ")\n";
    }
    out_ << "(check-sat)\n(exit)\n";
    return out_.str();
  }

 private:
  static constexpr int kMaxInlineDepth = 32;

  void count_uses(const std::vector<Term>& roots) {
    std::vector<Term> stack(roots.begin(), roots.end());
    for (Term r : roots) ++uses_[r->id];
    std::vector<char> seen(uses_.size(), 0);
    while (!stack.empty()) {
      Term t = stack.back();
      stack.pop_back();
      if (seen[t->id]) continue;
      seen[t->id] = 1;
      for (Term k : t->kids) {
        ++uses_[k->id];
        if (!seen[k->id]) stack.push_back(k);
      }
    }
  }

  // Text of `root`: every shared (or deep) non-leaf node below it is first declared and
  // defined as an auxiliary symbol, post-order and iteratively.
  std::string expr(Term root) {
    // Post-order over nodes not yet named; inline text is built bottom-up in `text_`.
    std::vector<Term> stack{root};
    while (!stack.empty()) {
      Term t = stack.back();
      if (state_[t->id] == 2) { stack.pop_back(); continue; }
      if (state_[t->id] == 0) {
        state_[t->id] = 1;
        for (Term k : t->kids)
          if (state_[k->id] == 0) stack.push_back(k);
        continue;
      }
      stack.pop_back();
      finish(t);
    }
    int d = 0;
    return take(root, d);
  }

  // All kids are finished: build t's text; name it when shared or too deep.
  void finish(Term t) {
    state_[t->id] = 2;
    std::string s;
    int d = 0;
    switch (t->kind) {
      case Kind::Const: return;  // always written inline
      case Kind::Var:
        s = "v" + std::to_string(t->id);
        out_ << "(declare-fun " << s << " () " << sort_text(t->sort) << ")\n";
        names_.emplace(t->id, s);
        return;
      default: {
        std::string head;
        switch (t->kind) {
          case Kind::Extract:
            head = "(_ extract " + std::to_string(t->aux0) + " " + std::to_string(t->aux1) + ")";
            break;
          case Kind::ZeroExt:
            head = "(_ zero_extend " + std::to_string(t->sort.width - t->kids[0]->sort.width) + ")";
            break;
          case Kind::SignExt:
            head = "(_ sign_extend " + std::to_string(t->sort.width - t->kids[0]->sort.width) + ")";
            break;
          default: head = op_name(t->kind); break;
        }
        s = "(" + head;
        for (Term k : t->kids) {
          s += ' ';
          s += take(k, d);
        }
        s += ')';
        ++d;
      }
    }
    if (uses_[t->id] > 1 || d > kMaxInlineDepth) {
      const std::string n = "t" + std::to_string(t->id);
      out_ << "(declare-fun " << n << " () " << sort_text(t->sort) << ")\n";
      out_ << "(assert (= " << n << " " << s << "))\n";
      names_.emplace(t->id, n);
      return;
    }
    text_.emplace(t->id, std::move(s));
    depth_.emplace(t->id, d);
  }

  // The text of a finished kid: its name, or its inline text (consumed: used once).
  std::string take(Term k, int& d) {
    if (auto it = names_.find(k->id); it != names_.end()) return it->second;
    if (k->kind == Kind::Const) return const_text(k);
    auto it = text_.find(k->id);
    assert(it != text_.end() && "boolector writer: kid text missing");
    std::string s = std::move(it->second);
    text_.erase(it);
    d = std::max(d, depth_[k->id]);
    return s;
  }

  std::vector<std::uint32_t> uses_;
  std::vector<char> state_;  // 0 new, 1 expanded, 2 finished
  std::unordered_map<std::uint32_t, std::string> names_, text_;
  std::unordered_map<std::uint32_t, int> depth_;
  std::ostringstream out_;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string first_line(const std::string& s) {
  std::string l = s.substr(0, s.find('\n'));
  return l.size() > 200 ? l.substr(0, 200) + "..." : l;
}

class BoolectorSolver final : public DecisionProcedure {
 public:
  BoolectorSolver(TermManager& tm, std::string binary) : tm_(tm), binary_(std::move(binary)) {}

  std::string name() const override { return "boolector"; }

  void assert_formula(Term t) override {
    assert(t->sort.is_bool() && "assert_formula: Bool term");
    if (t->kind == Kind::Const && t->value == 1) return;
    asserted_.push_back(t);
  }

  SolveResult solve(std::span<const Term> assumptions) override {
    const auto start = std::chrono::steady_clock::now();
    ++stats_.solve_calls;
    last_ = run(assumptions);
    stats_.solve_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return last_;
  }

  std::uint64_t value(Term t) override {
    assert(last_ == SolveResult::Sat && "value: the last solve() was not Sat");
    if (model_.size() < tm_.size()) model_.resize(tm_.size(), 0);
    return evaluate(t, &model_);
  }

  void set_terminate(std::function<bool()> should_stop) override { stop_ = std::move(should_stop); }
  void set_deadline(std::optional<std::chrono::steady_clock::time_point> d) override {
    deadline_ = d;
  }

  SolverStats stats() const override {
    SolverStats s = stats_;
    s.clauses = asserted_.size();
    return s;
  }

  std::string last_error() const override { return error_; }

 private:
  SolveResult unknown(std::string why) {
    error_ = std::move(why);
    return SolveResult::Unknown;
  }

  SolveResult run(std::span<const Term> assumptions) {
    error_.clear();
    std::vector<Term> roots;
    roots.reserve(asserted_.size() + assumptions.size());
    for (Term a : asserted_) roots.push_back(a);
    for (Term a : assumptions) {
      assert(a->sort.is_bool() && "solve: Bool assumptions");
      if (!(a->kind == Kind::Const && a->value == 1)) roots.push_back(a);
    }
    for (Term r : roots)
      if (r->kind == Kind::Const && r->value == 0) return SolveResult::Unsat;
    if (roots.empty()) {
      model_.assign(tm_.size(), 0);
      return SolveResult::Sat;
    }
    if (stop_ && stop_()) return unknown("terminated");

    // The problem file and the files for the child's output.
    char dir_tmpl[] = "/tmp/siren-btor-XXXXXX";
    if (!mkdtemp(dir_tmpl)) return unknown(std::string("boolector: mkdtemp: ") + std::strerror(errno));
    const std::string dir = dir_tmpl;
    const std::string in = dir + "/q.smt2", out = dir + "/out", err = dir + "/err";
    struct Cleanup {
      std::string dir;
      ~Cleanup() {
        for (const char* f : {"/q.smt2", "/out", "/err"}) ::unlink((dir + f).c_str());
        ::rmdir(dir.c_str());
      }
    } cleanup{dir};
    {
      std::ofstream f(in, std::ios::binary);
      f << Smt2Writer(tm_.size()).write(roots);
      if (!f) return unknown("boolector: cannot write " + in);
    }

    // -rwl2: rewrite level 3 (the default) is superlinear on long xor/ite chains (a 100k-node
    // xor chain: 60-100 s at level 3, 0.7 s at level 2).
    std::vector<std::string> args{binary_, "--smt2", "-rwl2", "-m", "-d"};
    if (deadline_) {
      const double left =
          std::chrono::duration<double>(*deadline_ - std::chrono::steady_clock::now()).count();
      if (left <= 0) return unknown("terminated");
      args.push_back("-t");
      args.push_back(std::to_string(std::max<long>(1, static_cast<long>(std::ceil(left)))));
    }
    args.push_back(in);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, binary_.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
      return unknown("boolector: cannot run '" + binary_ + "': " + std::strerror(rc));

    int status = 0;
    bool killed = false;
    for (auto sleep = std::chrono::microseconds(100);;) {
      const pid_t w = ::waitpid(pid, &status, WNOHANG);
      if (w == pid) break;
      if (w < 0 && errno != EINTR) return unknown("boolector: waitpid failed");
      if (!killed && stop_ && stop_()) {
        ::kill(pid, SIGKILL);
        killed = true;
      }
      std::this_thread::sleep_for(sleep);
      sleep = std::min(sleep * 2, std::chrono::microseconds(5000));
    }
    if (killed) return unknown("terminated");
    if (WIFSIGNALED(status))
      return unknown("boolector: killed by signal " + std::to_string(WTERMSIG(status)));
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    const std::string text = read_file(out);
    if (code == 127 && text.empty())
      return unknown("boolector: cannot run '" + binary_ + "' (exit 127): " +
                     first_line(read_file(err)));
    if (code == 14) return unknown("boolector: unknown (time limit)");
    if (code != 10 && code != 20) {
      std::string e = read_file(err);
      if (e.empty()) e = text;
      return unknown("boolector: exit code " + std::to_string(code) + ": " + first_line(e));
    }

    // Parse: the verdict line, then (sat) `name value` lines.
    std::istringstream lines(text);
    std::string line, verdict;
    while (std::getline(lines, line)) {
      if (line.empty() || line[0] == '[') continue;  // warnings
      verdict = line;
      break;
    }
    if (code == 20) {
      if (verdict != "unsat")
        return unknown("boolector: exit code 20 but output '" + first_line(verdict) + "'");
      return SolveResult::Unsat;
    }
    if (verdict != "sat")
      return unknown("boolector: exit code 10 but output '" + first_line(verdict) + "'");
    model_.assign(tm_.size(), 0);
    while (std::getline(lines, line)) {
      if (line.empty() || line[0] == '[') continue;
      const auto sp = line.find(' ');
      if (sp == std::string::npos) return unknown("boolector: malformed model line '" + first_line(line) + "'");
      const std::string name = line.substr(0, sp), val = line.substr(sp + 1);
      if (name.size() < 2 || name[0] != 'v') continue;  // auxiliary symbols
      std::uint32_t id = 0;
      auto [p, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), id);
      if (ec != std::errc() || p != name.data() + name.size() || id >= tm_.size()) continue;
      std::uint64_t v = 0;
      auto [q, ec2] = std::from_chars(val.data(), val.data() + val.size(), v);
      if (ec2 != std::errc() || q != val.data() + val.size())
        return unknown("boolector: malformed model value '" + first_line(line) + "'");
      model_[id] = v;
    }
    // Self-check: the model must satisfy what was asked under the reference semantics.
    for (Term r : roots)
      if (evaluate(r, &model_) != 1)
        return unknown("boolector: the model does not satisfy an asserted formula");
    return SolveResult::Sat;
  }

  TermManager& tm_;
  std::string binary_;
  std::vector<Term> asserted_;
  std::vector<std::uint64_t> model_;  // per term id: Var values of the last Sat
  std::function<bool()> stop_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  SolveResult last_ = SolveResult::Unknown;
  SolverStats stats_;
  std::string error_;
};

}  // namespace

std::unique_ptr<DecisionProcedure> make_boolector_solver(TermManager& tm, std::string binary) {
  return std::make_unique<BoolectorSolver>(tm, std::move(binary));
}

}  // namespace siren::solvers
