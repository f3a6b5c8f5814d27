// Terms of the solver layer: a hash-consed DAG of Bool and bit-vector terms (after
// Bitwuzla's node manager). The encoder builds terms through a TermManager and hands them to a
// DecisionProcedure (solvers/decision_procedure.hpp); no solver type leaks above this seam.
//
// Constructors fold constants and apply a few cheap rewrites (x & true = x, ite(true,a,b) = a,
// x = x, ...). Operand sorts are checked with assertions: an ill-sorted build is a bug.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

namespace siren::solvers {

struct Sort {
  std::uint32_t width = 0;  // 0 = Bool, otherwise a bit-vector of that many bits (1..64)
  bool is_bool() const { return width == 0; }
  static Sort boolean() { return {0}; }
  static Sort bv(std::uint32_t w) { return {w}; }
  friend bool operator==(const Sort&, const Sort&) = default;
};

enum class Kind : std::uint8_t {
  Const,  // value: 0/1 for Bool; bits for bit-vectors
  Var,    // a fresh symbol: name
  // Bool
  Not, And, Or, Xor, Iff, Implies,
  // polymorphic
  Ite, Eq,
  // bit-vector
  BvNeg, BvNot, BvAnd, BvOr, BvXor, BvAdd, BvSub, BvMul,
  BvUdiv, BvUrem, BvSdiv, BvSrem,  // SMT-LIB semantics for division by zero
  BvShl, BvLshr, BvAshr,           // SMT-LIB semantics for amounts >= width
  BvUlt, BvUle, BvSlt, BvSle,      // Bool results
  Extract,                         // [hi:lo], hi = aux0, lo = aux1
  Concat,                          // kids[0] is the high part
  ZeroExt, SignExt,                // to the node's sort
};

struct TermNode {
  Kind kind;
  Sort sort;
  std::uint64_t value = 0;  // Const
  std::uint32_t aux0 = 0, aux1 = 0;
  std::string name;         // Var
  std::vector<const TermNode*> kids;
  std::size_t hash = 0;
  std::uint32_t id = 0;     // creation order, dense: usable as an index into side tables
};

using Term = const TermNode*;

class TermManager {
 public:
  TermManager();
  ~TermManager();
  TermManager(const TermManager&) = delete;
  TermManager& operator=(const TermManager&) = delete;

  Term mk_bool(bool b);
  Term mk_true() { return mk_bool(true); }
  Term mk_false() { return mk_bool(false); }
  Term mk_bv(std::uint32_t width, std::uint64_t bits);  // bits masked to width
  Term mk_var(Sort s, std::string name);                // always a new variable

  Term mk_not(Term a);
  Term mk_and(Term a, Term b);
  Term mk_and(std::span<const Term> ts);
  Term mk_or(Term a, Term b);
  Term mk_or(std::span<const Term> ts);
  Term mk_xor(Term a, Term b);
  Term mk_iff(Term a, Term b);
  Term mk_implies(Term a, Term b);
  Term mk_ite(Term c, Term a, Term b);
  Term mk_eq(Term a, Term b);

  Term mk_bv_unary(Kind k, Term a);           // BvNeg, BvNot
  Term mk_bv_binary(Kind k, Term a, Term b);  // arithmetic, bitwise, shifts, comparisons
  Term mk_extract(Term a, std::uint32_t hi, std::uint32_t lo);
  Term mk_concat(Term hi, Term lo);
  Term mk_zext(Term a, std::uint32_t to_width);
  Term mk_sext(Term a, std::uint32_t to_width);
  /// zext/sext/extract to `to_width` (signed selects sign extension when widening).
  Term mk_resize(Term a, std::uint32_t to_width, bool is_signed);

  std::size_t size() const { return nodes_.size(); }

 private:
  Term intern(TermNode n);
  struct Hash { std::size_t operator()(const TermNode* n) const { return n->hash; } };
  struct Equal { bool operator()(const TermNode* a, const TermNode* b) const; };
  std::unordered_set<const TermNode*, Hash, Equal> table_;
  std::vector<std::unique_ptr<TermNode>> nodes_;
};

/// Evaluates a ground term (all leaves constant) — the reference semantics the bit-blaster is
/// tested against. `vars` gives values for Var nodes by id when not null.
std::uint64_t evaluate(Term t, const std::vector<std::uint64_t>* var_values = nullptr);

std::string to_string(Term t);  // SMT-LIB-like s-expression

}  // namespace siren::solvers
