// TermManager: hash-consing, operand normalisation, constant folding and cheap rewrites,
// evaluate() and to_string().
#include "solvers/term.hpp"

#include <doctest/doctest.h>

using namespace siren::solvers;

TEST_CASE("terms: hash-consing gives pointer equality and dense ids") {
  TermManager tm;
  Term x = tm.mk_var(Sort::bv(8), "x"), y = tm.mk_var(Sort::bv(8), "y");
  CHECK(x != y);
  CHECK(tm.mk_var(Sort::bv(8), "x") != x);  // variables are always fresh
  CHECK(tm.mk_bv(8, 3) == tm.mk_bv(8, 3));
  CHECK(tm.mk_bv(8, 259) == tm.mk_bv(8, 3));  // masked to the width
  CHECK(tm.mk_bv(8, 3) != tm.mk_bv(16, 3));
  CHECK(tm.mk_true() == tm.mk_bool(true));
  Term a = tm.mk_bv_binary(Kind::BvAdd, x, y);
  CHECK(tm.mk_bv_binary(Kind::BvAdd, x, y) == a);
  CHECK(tm.mk_bv_binary(Kind::BvAdd, y, x) == a);  // commutative operands are ordered
  CHECK(tm.mk_bv_binary(Kind::BvSub, x, y) != tm.mk_bv_binary(Kind::BvSub, y, x));
  CHECK(tm.mk_eq(x, y) == tm.mk_eq(y, x));
  CHECK(tm.mk_extract(x, 3, 1) == tm.mk_extract(x, 3, 1));
  CHECK(tm.mk_extract(x, 3, 1) != tm.mk_extract(x, 4, 1));
  Term p = tm.mk_var(Sort::boolean(), "p"), q = tm.mk_var(Sort::boolean(), "q");
  CHECK(tm.mk_and(p, q) == tm.mk_and(q, p));
  CHECK(tm.mk_iff(p, q) == tm.mk_eq(q, p));
  const std::size_t before = tm.size();
  tm.mk_and(p, q);
  tm.mk_bv_binary(Kind::BvAdd, y, x);
  CHECK(tm.size() == before);
  for (std::uint32_t i = 0; i < 3; ++i) {
    Term k = tm.mk_bv(4, 15 + i);
    CHECK(k->id + 1 == tm.size());  // new nodes get the next dense id
  }
  CHECK(x->id < y->id);
  CHECK(a->id > y->id);
}

TEST_CASE("terms: Boolean rewrites") {
  TermManager tm;
  Term t = tm.mk_true(), f = tm.mk_false();
  Term p = tm.mk_var(Sort::boolean(), "p"), q = tm.mk_var(Sort::boolean(), "q");
  CHECK(tm.mk_not(tm.mk_not(p)) == p);
  CHECK(tm.mk_not(t) == f);
  CHECK(tm.mk_and(p, t) == p);
  CHECK(tm.mk_and(t, p) == p);
  CHECK(tm.mk_and(p, f) == f);
  CHECK(tm.mk_and(p, p) == p);
  CHECK(tm.mk_and(p, tm.mk_not(p)) == f);
  CHECK(tm.mk_or(p, f) == p);
  CHECK(tm.mk_or(p, t) == t);
  CHECK(tm.mk_or(tm.mk_not(p), p) == t);
  CHECK(tm.mk_xor(p, p) == f);
  CHECK(tm.mk_xor(p, t) == tm.mk_not(p));
  CHECK(tm.mk_implies(f, p) == t);
  CHECK(tm.mk_implies(p, t) == t);
  CHECK(tm.mk_implies(t, p) == p);
  CHECK(tm.mk_iff(p, p) == t);
  CHECK(tm.mk_iff(p, t) == p);
  CHECK(tm.mk_iff(p, f) == tm.mk_not(p));
  CHECK(tm.mk_ite(t, p, q) == p);
  CHECK(tm.mk_ite(f, p, q) == q);
  CHECK(tm.mk_ite(p, q, q) == q);
  CHECK(tm.mk_ite(p, t, f) == p);
  CHECK(tm.mk_ite(p, f, t) == tm.mk_not(p));
  CHECK(tm.mk_ite(tm.mk_not(p), q, tm.mk_not(q)) == tm.mk_ite(p, tm.mk_not(q), q));
  CHECK(tm.mk_and(std::span<const Term>()) == t);
  CHECK(tm.mk_or(std::span<const Term>()) == f);
  const Term pq[] = {p, t, q};
  CHECK(tm.mk_and(pq) == tm.mk_and(p, q));
  CHECK(tm.mk_or(pq) == t);
}

TEST_CASE("terms: bit-vector folding and identities") {
  TermManager tm;
  Term x = tm.mk_var(Sort::bv(8), "x"), y = tm.mk_var(Sort::bv(8), "y");
  auto bin = [&](Kind k, Term a, Term b) { return tm.mk_bv_binary(k, a, b); };
  auto c = [&](std::uint64_t v) { return tm.mk_bv(8, v); };
  CHECK(bin(Kind::BvAdd, c(200), c(100)) == c(44));
  CHECK(bin(Kind::BvSub, c(1), c(2)) == c(255));
  CHECK(bin(Kind::BvMul, c(16), c(17)) == c(16));
  CHECK(bin(Kind::BvUdiv, c(7), c(0)) == c(255));  // SMT-LIB division by zero
  CHECK(bin(Kind::BvUrem, c(7), c(0)) == c(7));
  CHECK(bin(Kind::BvSdiv, c(0x80), c(0xff)) == c(0x80));  // INT_MIN / -1 wraps
  CHECK(bin(Kind::BvSdiv, c(0xf9), c(2)) == c(0xfd));     // -7 / 2 = -3
  CHECK(bin(Kind::BvSrem, c(0xf9), c(2)) == c(0xff));     // -7 % 2 = -1
  CHECK(bin(Kind::BvSdiv, c(0xf9), c(0)) == c(1));        // negative / 0 = 1
  CHECK(bin(Kind::BvShl, c(1), c(8)) == c(0));
  CHECK(bin(Kind::BvAshr, c(0x80), c(200)) == c(0xff));
  CHECK(bin(Kind::BvLshr, c(0x80), c(7)) == c(1));
  CHECK(bin(Kind::BvSlt, c(0x80), c(0)) == tm.mk_true());
  CHECK(bin(Kind::BvUlt, c(0x80), c(0)) == tm.mk_false());
  CHECK(tm.mk_bv_unary(Kind::BvNeg, c(1)) == c(255));
  CHECK(tm.mk_bv_unary(Kind::BvNot, c(0x0f)) == c(0xf0));
  CHECK(tm.mk_bv_unary(Kind::BvNeg, tm.mk_bv_unary(Kind::BvNeg, x)) == x);
  CHECK(bin(Kind::BvAdd, x, c(0)) == x);
  CHECK(bin(Kind::BvMul, c(1), x) == x);
  CHECK(bin(Kind::BvMul, x, c(0)) == c(0));
  CHECK(bin(Kind::BvAnd, x, c(255)) == x);
  CHECK(bin(Kind::BvOr, x, c(255)) == c(255));
  CHECK(bin(Kind::BvXor, x, x) == c(0));
  CHECK(bin(Kind::BvSub, x, x) == c(0));
  CHECK(bin(Kind::BvShl, x, c(9)) == c(0));
  CHECK(bin(Kind::BvUle, x, x) == tm.mk_true());
  CHECK(bin(Kind::BvSlt, y, y) == tm.mk_false());
  CHECK(tm.mk_eq(x, x) == tm.mk_true());
  CHECK(tm.mk_eq(c(3), c(4)) == tm.mk_false());
  CHECK(tm.mk_ite(tm.mk_var(Sort::boolean(), "p"), x, x) == x);
  CHECK(tm.mk_extract(x, 7, 0) == x);
  CHECK(tm.mk_extract(tm.mk_extract(x, 6, 2), 3, 1) == tm.mk_extract(x, 5, 3));
  CHECK(tm.mk_extract(c(0xb4), 5, 2) == tm.mk_bv(4, 0xd));
  CHECK(tm.mk_concat(tm.mk_bv(4, 0xa), tm.mk_bv(4, 0x5)) == c(0xa5));
  CHECK(tm.mk_zext(x, 8) == x);
  CHECK(tm.mk_sext(c(0x80), 16) == tm.mk_bv(16, 0xff80));
  CHECK(tm.mk_zext(c(0x80), 16) == tm.mk_bv(16, 0x80));
  CHECK(tm.mk_resize(c(0x80), 16, true) == tm.mk_bv(16, 0xff80));
  CHECK(tm.mk_resize(c(0x80), 16, false) == tm.mk_bv(16, 0x80));
  CHECK(tm.mk_resize(tm.mk_bv(16, 0x1234), 8, true) == c(0x34));
  CHECK(tm.mk_resize(x, 8, true) == x);
  CHECK(tm.mk_bv(64, ~0ULL)->value == ~0ULL);
}

TEST_CASE("terms: evaluate with variables and deep DAGs") {
  TermManager tm;
  Term x = tm.mk_var(Sort::bv(32), "x");
  Term p = tm.mk_var(Sort::boolean(), "p");
  // A deep ITE chain (iterative evaluation must not overflow the stack) with sharing.
  Term acc = x;
  for (int i = 0; i < 100000; ++i)
    acc = tm.mk_ite(p, tm.mk_bv_binary(Kind::BvAdd, acc, tm.mk_bv(32, 1)), acc);
  std::vector<std::uint64_t> vals(tm.size(), 0);
  vals[x->id] = 5;
  vals[p->id] = 1;
  CHECK(evaluate(acc, &vals) == 100005);
  vals[p->id] = 0;
  CHECK(evaluate(acc, &vals) == 5);
  CHECK(evaluate(tm.mk_bv(8, 7)) == 7);
  CHECK(evaluate(x) == 0);  // no values: variables are 0
}

TEST_CASE("terms: to_string") {
  TermManager tm;
  Term x = tm.mk_var(Sort::bv(8), "x");
  Term p = tm.mk_var(Sort::boolean(), "p");
  CHECK(to_string(tm.mk_bv_binary(Kind::BvAdd, x, tm.mk_bv(8, 3))) == "(bvadd x (_ bv3 8))");
  CHECK(to_string(tm.mk_and(p, tm.mk_not(p))) == "false");
  CHECK(to_string(tm.mk_extract(x, 3, 0)) == "((_ extract 3 0) x)");
  CHECK(to_string(tm.mk_sext(x, 16)) == "((_ sign_extend 8) x)");
  CHECK(to_string(tm.mk_ite(p, x, tm.mk_bv(8, 0))) == "(ite p x (_ bv0 8))");
}
