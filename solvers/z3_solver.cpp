// The Z3 backend (`--solver z3`): terms are translated into Z3 expressions of ONE in-process
// context and ONE incremental solver, with native bit-vectors (Z3's bvudiv/bvsdiv/bvurem/
// bvsrem and shifts have exactly the SMT-LIB semantics our `eval_node` implements, so the
// translation is one operator per node). Translation is iterative (encoder terms are deep ITE
// chains) and cached in a vector indexed by `TermNode::id`, so a term is translated once.
//
// Assumptions: Z3's check(assumptions) accepts only Boolean constants (or their negations),
// so a non-variable assumption term `a` gets a proxy constant p_a with `p_a => a` asserted
// once; later solves reuse it. A node whose inline depth exceeds a bound is named by a fresh
// constant defined equal to it (Z3's rewriters are quadratic on 100k-deep xor/ite chains).
// Values after Sat: variables from the model with completion (those Z3 never saw read as 0 /
// false, like the bit-blaster), every other node through the reference semantics `eval_node`,
// memoised per model — so values are consistent with the model by construction and reading
// never adds anything to the solver.
//
// Time limit: while check() runs, a watchdog thread polls the set_terminate callback every
// few milliseconds and calls context::interrupt() when it fires; check() then returns unknown.
// Z3 errors (exceptions) turn the solve into Unknown with the message in last_error().
#include "solvers/decision_procedure.hpp"
#include "solvers/term_eval.hpp"

#include <z3++.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

namespace siren::solvers {

namespace {

class Z3Solver final : public DecisionProcedure {
 public:
  Z3Solver(TermManager& tm, const std::string& logic)
      : tm_(tm), solver_(make_solver(ctx_, logic)), model_(ctx_) {}

  std::string name() const override { return "z3"; }

  void assert_formula(Term t) override {
    assert(t->sort.is_bool() && "assert_formula: Bool term");
    if (t->kind == Kind::Const && t->value == 1) return;
    try {
      solver_.add(translate(t));
      ++stats_.clauses;
    } catch (const z3::exception& e) {
      pending_error_ = std::string("z3: ") + e.msg();
    }
  }

  SolveResult solve(std::span<const Term> assumptions) override {
    last_ = SolveResult::Unknown;
    error_.clear();
    ++stats_.solve_calls;
    if (!pending_error_.empty()) {
      error_ = pending_error_;
      return last_;
    }
    if (stop_ && stop_()) {
      error_ = "terminated";
      return last_;
    }
    const auto start = std::chrono::steady_clock::now();
    try {
      z3::expr_vector as(ctx_);
      for (Term a : assumptions) {
        assert(a->sort.is_bool() && "solve: Bool assumptions");
        if (a->kind == Kind::Const) {
          if (a->value == 1) continue;
          // A false assumption: unsatisfiable whatever the assertions are.
          as.push_back(proxy(a));
          continue;
        }
        as.push_back(proxy(a));
      }
      z3::check_result r;
      {
        Watchdog dog(ctx_, stop_);
        r = as.empty() ? solver_.check() : solver_.check(as);
      }
      memo_.clear();
      have_.clear();
      if (r == z3::sat) {
        model_ = solver_.get_model();
        last_ = SolveResult::Sat;
      } else if (r == z3::unsat) {
        last_ = SolveResult::Unsat;
      } else {
        error_ = "z3: unknown (" + solver_.reason_unknown() + ")";
      }
    } catch (const z3::exception& e) {
      error_ = std::string("z3: ") + e.msg();
    }
    stats_.solve_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return last_;
  }

  std::uint64_t value(Term t) override {
    assert(last_ == SolveResult::Sat && "value: the last solve() was not Sat");
    // Variables from the model (completion: unconstrained ones read as 0 / false); every
    // other node through the reference semantics, memoised until the next solve.
    if (memo_.size() < tm_.size()) {
      memo_.resize(tm_.size(), 0);
      have_.resize(tm_.size(), 0);
    }
    if (have_[t->id]) return memo_[t->id];
    std::vector<Term> stack{t};
    std::vector<std::uint64_t> kv;
    while (!stack.empty()) {
      Term n = stack.back();
      if (have_[n->id]) { stack.pop_back(); continue; }
      if (n->kind == Kind::Var) {
        memo_[n->id] = var_value(n);
        have_[n->id] = 1;
        stack.pop_back();
        continue;
      }
      bool ready = true;
      for (Term k : n->kids)
        if (!have_[k->id]) { stack.push_back(k); ready = false; }
      if (!ready) continue;
      kv.clear();
      for (Term k : n->kids) kv.push_back(memo_[k->id]);
      memo_[n->id] = eval_node(*n, kv.data());
      have_[n->id] = 1;
      stack.pop_back();
    }
    return memo_[t->id];
  }

  void set_terminate(std::function<bool()> should_stop) override { stop_ = std::move(should_stop); }

  SolverStats stats() const override {
    SolverStats s = stats_;
    s.vars = vars_;
    return s;
  }

  std::string last_error() const override { return error_; }

 private:
  static z3::solver make_solver(z3::context& ctx, const std::string& logic) {
    if (logic.empty()) return z3::solver(ctx);
    return z3::solver(ctx, logic.c_str());
  }

  // Polls the terminate callback while check() runs; interrupts the context when it fires.
  class Watchdog {
   public:
    Watchdog(z3::context& ctx, const std::function<bool()>& stop) {
      if (!stop) return;
      thread_ = std::thread([this, &ctx, &stop] {
        std::unique_lock lk(m_);
        while (!done_) {
          if (stop()) {
            ctx.interrupt();
            return;
          }
          cv_.wait_for(lk, std::chrono::milliseconds(5));
        }
      });
    }
    ~Watchdog() {
      if (!thread_.joinable()) return;
      {
        std::lock_guard lk(m_);
        done_ = true;
      }
      cv_.notify_all();
      thread_.join();
    }

   private:
    std::mutex m_;
    std::condition_variable cv_;
    bool done_ = false;
    std::thread thread_;
  };

  z3::expr proxy(Term a) {
    if (a->kind == Kind::Var) return translate(a);
    if (a->kind == Kind::Not && a->kids[0]->kind == Kind::Var) return translate(a);
    auto it = proxies_.find(a->id);
    if (it != proxies_.end()) return it->second;
    z3::expr p = ctx_.bool_const(("assume!" + std::to_string(a->id)).c_str());
    solver_.add(z3::implies(p, translate(a)));
    proxies_.emplace(a->id, p);
    return p;
  }

  std::uint64_t var_value(Term v) {
    if (!done(v)) return 0;  // never sent to Z3: unconstrained
    z3::expr e = model_.eval(get(v), true);
    if (v->sort.is_bool()) return e.is_true() ? 1 : 0;
    std::uint64_t out = 0;
    if (!Z3_get_numeral_uint64(ctx_, e, &out))
      assert(false && "z3: a model value of a variable is not a numeral");
    return out;
  }

  bool done(Term t) const { return t->id < cache_.size() && cache_[t->id].has_value(); }
  const z3::expr& get(Term t) const { return *cache_[t->id]; }

  z3::expr translate(Term root) {
    if (cache_.size() < tm_.size()) {
      cache_.resize(tm_.size());
      depth_.resize(tm_.size(), 0);
    }
    if (done(root)) return get(root);
    std::vector<Term> stack{root};
    while (!stack.empty()) {
      Term t = stack.back();
      if (done(t)) { stack.pop_back(); continue; }
      bool ready = true;
      for (Term k : t->kids)
        if (!done(k)) { stack.push_back(k); ready = false; }
      if (!ready) continue;
      stack.pop_back();
      // Inline depth; a node deeper than the bound is named by a fresh constant defined
      // equal to it, so Z3's rewriters never see deep terms (some are quadratic in depth).
      std::uint32_t d = 0;
      for (Term k : t->kids) d = std::max(d, depth_[k->id] + 1);
      z3::expr e = make(t);
      if (d > kMaxDepth) {
        z3::expr k = ctx_.constant(("def!" + std::to_string(t->id)).c_str(), e.get_sort());
        solver_.add(k == e);
        e = k;
        d = 0;
      }
      depth_[t->id] = d;
      cache_[t->id].emplace(e);
    }
    return get(root);
  }

  z3::expr wrap(Z3_ast a) {
    ctx_.check_error();
    return z3::expr(ctx_, a);
  }

  z3::expr make(Term t) {
    auto k = [&](std::size_t i) -> const z3::expr& { return get(t->kids[i]); };
    auto bin = [&](Z3_ast (*f)(Z3_context, Z3_ast, Z3_ast)) {
      return wrap(f(ctx_, k(0), k(1)));
    };
    switch (t->kind) {
      case Kind::Const:
        return t->sort.is_bool() ? ctx_.bool_val(t->value != 0)
                                 : ctx_.bv_val(static_cast<std::uint64_t>(t->value), t->sort.width);
      case Kind::Var: {
        ++vars_;
        const std::string n = t->name + "!" + std::to_string(t->id);  // names are not unique
        return t->sort.is_bool() ? ctx_.bool_const(n.c_str())
                                 : ctx_.bv_const(n.c_str(), t->sort.width);
      }
      case Kind::Not: return !k(0);
      case Kind::And: return k(0) && k(1);
      case Kind::Or: return k(0) || k(1);
      case Kind::Xor: return bin(Z3_mk_xor);
      case Kind::Iff: return k(0) == k(1);
      case Kind::Implies: return z3::implies(k(0), k(1));
      case Kind::Ite: return z3::ite(k(0), k(1), k(2));
      case Kind::Eq: return k(0) == k(1);
      case Kind::BvNeg: return wrap(Z3_mk_bvneg(ctx_, k(0)));
      case Kind::BvNot: return wrap(Z3_mk_bvnot(ctx_, k(0)));
      case Kind::BvAnd: return bin(Z3_mk_bvand);
      case Kind::BvOr: return bin(Z3_mk_bvor);
      case Kind::BvXor: return bin(Z3_mk_bvxor);
      case Kind::BvAdd: return bin(Z3_mk_bvadd);
      case Kind::BvSub: return bin(Z3_mk_bvsub);
      case Kind::BvMul: return bin(Z3_mk_bvmul);
      case Kind::BvUdiv: return bin(Z3_mk_bvudiv);
      case Kind::BvUrem: return bin(Z3_mk_bvurem);
      case Kind::BvSdiv: return bin(Z3_mk_bvsdiv);
      case Kind::BvSrem: return bin(Z3_mk_bvsrem);
      case Kind::BvShl: return bin(Z3_mk_bvshl);
      case Kind::BvLshr: return bin(Z3_mk_bvlshr);
      case Kind::BvAshr: return bin(Z3_mk_bvashr);
      case Kind::BvUlt: return bin(Z3_mk_bvult);
      case Kind::BvUle: return bin(Z3_mk_bvule);
      case Kind::BvSlt: return bin(Z3_mk_bvslt);
      case Kind::BvSle: return bin(Z3_mk_bvsle);
      case Kind::Extract: return wrap(Z3_mk_extract(ctx_, t->aux0, t->aux1, k(0)));
      case Kind::Concat: return bin(Z3_mk_concat);
      case Kind::ZeroExt:
        return wrap(Z3_mk_zero_ext(ctx_, t->sort.width - t->kids[0]->sort.width, k(0)));
      case Kind::SignExt:
        return wrap(Z3_mk_sign_ext(ctx_, t->sort.width - t->kids[0]->sort.width, k(0)));
    }
    assert(false && "z3: unknown term kind");
    return ctx_.bool_val(false);
  }

  TermManager& tm_;
  z3::context ctx_;
  z3::solver solver_;
  z3::model model_;
  static constexpr std::uint32_t kMaxDepth = 8;  // 16 is already slow on xor chains
  std::vector<std::optional<z3::expr>> cache_;  // per term id
  std::vector<std::uint32_t> depth_;            // per term id: inline depth of cache_ entry
  std::vector<std::uint64_t> memo_;             // per term id: value in the last model
  std::vector<char> have_;
  std::unordered_map<std::uint32_t, z3::expr> proxies_;
  std::function<bool()> stop_;
  SolveResult last_ = SolveResult::Unknown;
  SolverStats stats_;
  std::uint64_t vars_ = 0;
  std::string error_, pending_error_;
};

}  // namespace

std::unique_ptr<DecisionProcedure> make_z3_solver(TermManager& tm, const std::string& logic) {
  return std::make_unique<Z3Solver>(tm, logic);
}

}  // namespace siren::solvers
