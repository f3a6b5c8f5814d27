// Eager-per-term, lazy-per-formula bit-blasting (after CBMC's boolbvt and Bitwuzla's
// BvBitblastSolver): each term is translated once, when first asserted, assumed or needed by
// a parent, into a vector of SAT literals by the circuits of solvers/bv_circuits.hpp
// instantiated on TseitinOps. The literals live in one flat pool indexed through a vector by
// `TermNode::id` (no maps on the hot path); the traversal is iterative because encoder terms
// are deep ITE chains.
//
// Model read-back: a term whose literals all existed at the last satisfiable solve is read
// from the model; any other term (never blasted, or blasted afterwards) is evaluated through
// the reference semantics `eval_node` from its children, so values are always consistent with
// the model and reading never adds clauses. Variables the solver never saw read as 0.
#include "solvers/bv_circuits.hpp"
#include "solvers/decision_procedure.hpp"
#include "solvers/sat_backend.hpp"
#include "solvers/term_eval.hpp"
#include "solvers/tseitin.hpp"

#include <cassert>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <unordered_map>

namespace siren::solvers {

namespace {

using Lits = std::vector<int>;
constexpr std::uint64_t kNotBlasted = std::numeric_limits<std::uint64_t>::max();

class BitblastSolver final : public DecisionProcedure {
 public:
  explicit BitblastSolver(TermManager& tm)
      : tm_(tm), sat_(make_cadical_backend()), ops_(*sat_) {}

  std::string name() const override { return "cadical"; }

  void assert_formula(Term t) override {
    assert(t->sort.is_bool() && "assert_formula: Bool term");
    const int lit = root_literal(t);
    if (lit == ops_.constant(true)) return;
    sat_->add_clause(std::span<const int>(&lit, 1));
  }

  SolveResult solve(std::span<const Term> assumptions) override {
    std::vector<int> lits;
    lits.reserve(assumptions.size());
    for (Term a : assumptions) {
      assert(a->sort.is_bool() && "solve: Bool assumptions");
      lits.push_back(root_literal(a));
    }
    for (int l : lits)
      if (l != ops_.constant(true)) sat_->assume(l);
    const auto start = std::chrono::steady_clock::now();
    const int r = sat_->solve();
    stats_.solve_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++stats_.solve_calls;
    last_ = r == 10 ? SolveResult::Sat : r == 20 ? SolveResult::Unsat : SolveResult::Unknown;
    if (last_ == SolveResult::Sat) vars_at_sat_ = static_cast<int>(sat_->num_vars());
    return last_;
  }

  std::uint64_t value(Term t) override {
    assert(last_ == SolveResult::Sat && "value: the last solve() was not Sat");
    if (readable(t)) return read(t);
    // Evaluate through the term structure, reading the model wherever it can.
    std::unordered_map<std::uint32_t, std::uint64_t> memo;
    std::vector<Term> stack{t};
    std::vector<std::uint64_t> kv;
    while (!stack.empty()) {
      Term n = stack.back();
      if (memo.count(n->id)) { stack.pop_back(); continue; }
      if (readable(n)) { memo.emplace(n->id, read(n)); stack.pop_back(); continue; }
      if (n->kind == Kind::Var) { memo.emplace(n->id, 0); stack.pop_back(); continue; }
      bool ready = true;
      for (Term k : n->kids)
        if (!memo.count(k->id)) { stack.push_back(k); ready = false; }
      if (!ready) continue;
      kv.clear();
      for (Term k : n->kids) kv.push_back(memo.at(k->id));
      memo.emplace(n->id, eval_node(*n, kv.data()));
      stack.pop_back();
    }
    return memo.at(t->id);
  }

  void set_terminate(std::function<bool()> should_stop) override {
    sat_->set_terminate(std::move(should_stop));
  }

  SolverStats stats() const override {
    SolverStats s = stats_;
    s.vars = sat_->num_vars();
    s.clauses = sat_->num_clauses();
    return s;
  }

 private:
  static std::uint32_t bit_width(Term t) { return t->sort.is_bool() ? 1 : t->sort.width; }

  bool blasted(Term t) const { return t->id < offset_.size() && offset_[t->id] != kNotBlasted; }

  const int* bits(Term t) const { return pool_.data() + offset_[t->id]; }

  Lits lits(Term t) const {
    const int* b = bits(t);
    return Lits(b, b + bit_width(t));
  }

  bool readable(Term t) const {
    if (!blasted(t)) return false;
    const int* b = bits(t);
    for (std::uint32_t i = 0; i < bit_width(t); ++i)
      if (std::abs(b[i]) > vars_at_sat_) return false;
    return true;
  }

  std::uint64_t read(Term t) const {
    const int* b = bits(t);
    std::uint64_t v = 0;
    for (std::uint32_t i = 0; i < bit_width(t); ++i)
      if (sat_->value(b[i])) v |= std::uint64_t{1} << i;
    return v;
  }

  int root_literal(Term t) {
    blast(t);
    return bits(t)[0];
  }

  void blast(Term root) {
    if (blasted(root)) return;
    if (offset_.size() < tm_.size()) offset_.resize(tm_.size(), kNotBlasted);
    std::vector<Term> stack{root};
    while (!stack.empty()) {
      Term t = stack.back();
      if (blasted(t)) { stack.pop_back(); continue; }
      bool ready = true;
      for (Term k : t->kids)
        if (!blasted(k)) { stack.push_back(k); ready = false; }
      if (!ready) continue;
      stack.pop_back();
      store(t, encode(t));
    }
  }

  void store(Term t, const Lits& l) {
    assert(l.size() == bit_width(t) && "bit-blaster: result width mismatch");
    offset_[t->id] = pool_.size();
    pool_.insert(pool_.end(), l.begin(), l.end());
  }

  Lits encode(Term t) {
    auto& o = ops_;
    auto kid = [&](std::size_t i) { return lits(t->kids[i]); };
    auto lit = [&](std::size_t i) { return bits(t->kids[i])[0]; };
    switch (t->kind) {
      case Kind::Const:
        return t->sort.is_bool() ? Lits{o.constant(t->value != 0)}
                                 : bv::constant(o, t->sort.width, t->value);
      case Kind::Var: {
        Lits l(bit_width(t));
        for (int& x : l) x = o.fresh();
        return l;
      }
      case Kind::Not: return {o.not_(lit(0))};
      case Kind::And: return {o.and_(lit(0), lit(1))};
      case Kind::Or: return {o.or_(lit(0), lit(1))};
      case Kind::Xor: return {o.xor_(lit(0), lit(1))};
      case Kind::Iff: return {o.not_(o.xor_(lit(0), lit(1)))};
      case Kind::Implies: return {o.or_(o.not_(lit(0)), lit(1))};
      case Kind::Ite: return bv::ite(o, lit(0), kid(1), kid(2));
      case Kind::Eq: return {bv::eq(o, kid(0), kid(1))};
      case Kind::BvNeg: return bv::neg(o, kid(0));
      case Kind::BvNot: return bv::bvnot(o, kid(0));
      case Kind::BvAnd: return bv::bvand(o, kid(0), kid(1));
      case Kind::BvOr: return bv::bvor(o, kid(0), kid(1));
      case Kind::BvXor: return bv::bvxor(o, kid(0), kid(1));
      case Kind::BvAdd: return bv::add(o, kid(0), kid(1));
      case Kind::BvSub: return bv::sub(o, kid(0), kid(1));
      case Kind::BvMul: return bv::mul(o, kid(0), kid(1));
      case Kind::BvUdiv: return bv::udiv(o, kid(0), kid(1));
      case Kind::BvUrem: return bv::urem(o, kid(0), kid(1));
      case Kind::BvSdiv: return bv::sdiv(o, kid(0), kid(1));
      case Kind::BvSrem: return bv::srem(o, kid(0), kid(1));
      case Kind::BvShl: return bv::shl(o, kid(0), kid(1));
      case Kind::BvLshr: return bv::lshr(o, kid(0), kid(1));
      case Kind::BvAshr: return bv::ashr(o, kid(0), kid(1));
      case Kind::BvUlt: return {bv::ult(o, kid(0), kid(1))};
      case Kind::BvUle: return {bv::ule(o, kid(0), kid(1))};
      case Kind::BvSlt: return {bv::slt(o, kid(0), kid(1))};
      case Kind::BvSle: return {bv::sle(o, kid(0), kid(1))};
      case Kind::Extract: return bv::extract(o, kid(0), t->aux0, t->aux1);
      case Kind::Concat: return bv::concat(o, kid(0), kid(1));
      case Kind::ZeroExt: return bv::zext(o, kid(0), t->sort.width);
      case Kind::SignExt: return bv::sext(o, kid(0), t->sort.width);
    }
    assert(false && "bit-blaster: unknown term kind");
    return {};
  }

  TermManager& tm_;
  std::unique_ptr<SatBackend> sat_;
  TseitinOps ops_;
  std::vector<std::uint64_t> offset_;  // per term id: start in pool_, or kNotBlasted
  std::vector<int> pool_;              // literals of all blasted terms, LSB first
  SolveResult last_ = SolveResult::Unknown;
  int vars_at_sat_ = 0;
  SolverStats stats_;
};

}  // namespace

std::unique_ptr<DecisionProcedure> make_cadical_bitblaster(TermManager& tm) {
  return std::make_unique<BitblastSolver>(tm);
}

}  // namespace siren::solvers
