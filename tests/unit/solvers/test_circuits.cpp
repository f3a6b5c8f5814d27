// The bit-vector circuits of solvers/bv_circuits.hpp instantiated on `bool`, checked against
// concrete C-like arithmetic (reference.hpp) and against `evaluate`: exhaustively for widths
// 1-4, on random corner-biased operands for widths 8, 32 and 64.
#include "solvers/bv_circuits.hpp"
#include "solvers/term.hpp"

#include "reference.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace siren::solvers;
using namespace siren::solvers::testing;
using B = std::vector<bool>;

namespace {

// The circuit for a binary kind on BoolOps; comparisons give a 1-bit result.
std::uint64_t circuit(Kind k, std::uint64_t av, std::uint64_t bv_, std::uint32_t w) {
  bv::BoolOps o;
  const B a = bv::constant(o, w, av), b = bv::constant(o, w, bv_);
  switch (k) {
    case Kind::BvAnd: return bv::to_uint(bv::bvand(o, a, b));
    case Kind::BvOr: return bv::to_uint(bv::bvor(o, a, b));
    case Kind::BvXor: return bv::to_uint(bv::bvxor(o, a, b));
    case Kind::BvAdd: return bv::to_uint(bv::add(o, a, b));
    case Kind::BvSub: return bv::to_uint(bv::sub(o, a, b));
    case Kind::BvMul: return bv::to_uint(bv::mul(o, a, b));
    case Kind::BvUdiv: return bv::to_uint(bv::udiv(o, a, b));
    case Kind::BvUrem: return bv::to_uint(bv::urem(o, a, b));
    case Kind::BvSdiv: return bv::to_uint(bv::sdiv(o, a, b));
    case Kind::BvSrem: return bv::to_uint(bv::srem(o, a, b));
    case Kind::BvShl: return bv::to_uint(bv::shl(o, a, b));
    case Kind::BvLshr: return bv::to_uint(bv::lshr(o, a, b));
    case Kind::BvAshr: return bv::to_uint(bv::ashr(o, a, b));
    case Kind::BvUlt: return bv::ult(o, a, b);
    case Kind::BvUle: return bv::ule(o, a, b);
    case Kind::BvSlt: return bv::slt(o, a, b);
    case Kind::BvSle: return bv::sle(o, a, b);
    default: FAIL("no circuit"); return 0;
  }
}

struct Evaluator {
  // op(x, y) over variables, evaluated with var values — exercises evaluate() without folding.
  TermManager tm;
  std::uint32_t w;
  Term x, y;
  std::vector<Term> terms;
  explicit Evaluator(std::uint32_t width) : w(width) {
    x = tm.mk_var(Sort::bv(w), "x");
    y = tm.mk_var(Sort::bv(w), "y");
    for (Kind k : binary_kinds()) terms.push_back(tm.mk_bv_binary(k, x, y));
  }
  std::uint64_t eval(std::size_t i, std::uint64_t a, std::uint64_t b) {
    std::vector<std::uint64_t> vals(tm.size(), 0);
    vals[x->id] = a;
    vals[y->id] = b;
    return evaluate(terms[i], &vals);
  }
};

void check_pair(Evaluator& ev, std::uint64_t a, std::uint64_t b) {
  const std::uint32_t w = ev.w;
  const auto& ks = binary_kinds();
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const std::uint64_t want = reference(ks[i], a, b, w);
    const std::uint64_t got = circuit(ks[i], a, b, w);
    const std::uint64_t ev_got = ev.eval(i, a, b);
    INFO("kind " << static_cast<int>(ks[i]) << " w=" << w << " a=" << a << " b=" << b);
    CHECK(got == want);
    CHECK(ev_got == want);
  }
}

}  // namespace

TEST_CASE("circuits on bool: all binary ops, exhaustive for widths 1-4") {
  std::uint64_t pairs = 0;
  for (std::uint32_t w = 1; w <= 4; ++w) {
    Evaluator ev(w);
    for (std::uint64_t a = 0; a <= mask(w); ++a)
      for (std::uint64_t b = 0; b <= mask(w); ++b, ++pairs) check_pair(ev, a, b);
  }
  CHECK(pairs == 4 + 16 + 64 + 256);
}

TEST_CASE("circuits on bool: all binary ops, random operands for widths 8, 32, 64") {
  std::mt19937_64 rng(20240517);
  for (std::uint32_t w : {8u, 32u, 64u}) {
    Evaluator ev(w);
    const int n = w == 8 ? 3000 : w == 32 ? 2000 : 1000;
    for (int i = 0; i < n; ++i) check_pair(ev, interesting(rng, w), interesting(rng, w));
  }
}

TEST_CASE("circuits on bool: unary and structural ops, exhaustive for widths 1-4") {
  bv::BoolOps o;
  TermManager tm;
  for (std::uint32_t w = 1; w <= 4; ++w) {
    for (std::uint64_t a = 0; a <= mask(w); ++a) {
      const B ab = bv::constant(o, w, a);
      CHECK(bv::to_uint(bv::neg(o, ab)) == ((0 - a) & mask(w)));
      CHECK(bv::to_uint(bv::bvnot(o, ab)) == (~a & mask(w)));
      CHECK(bv::to_uint(bv::abs(o, ab)) ==
            (static_cast<std::uint64_t>(sgn(a, w) < 0 ? -sgn(a, w) : sgn(a, w)) & mask(w)));
      for (std::uint32_t to = w; to <= 8; ++to) {
        CHECK(bv::to_uint(bv::zext(o, ab, to)) == a);
        CHECK(bv::to_uint(bv::sext(o, ab, to)) == (static_cast<std::uint64_t>(sgn(a, w)) & mask(to)));
        CHECK(evaluate(tm.mk_sext(tm.mk_bv(w, a), to)) == (static_cast<std::uint64_t>(sgn(a, w)) & mask(to)));
      }
      for (std::uint32_t hi = 0; hi < w; ++hi)
        for (std::uint32_t lo = 0; lo <= hi; ++lo) {
          const std::uint64_t want = (a >> lo) & mask(hi - lo + 1);
          CHECK(bv::to_uint(bv::extract(o, ab, hi, lo)) == want);
          Term v = tm.mk_var(Sort::bv(w), "v");
          std::vector<std::uint64_t> vals(tm.size(), 0);
          vals[v->id] = a;
          CHECK(evaluate(tm.mk_extract(v, hi, lo), &vals) == want);
        }
      for (std::uint32_t w2 = 1; w2 <= 4; ++w2)
        for (std::uint64_t b = 0; b <= mask(w2); ++b) {
          const B bb = bv::constant(o, w2, b);
          CHECK(bv::to_uint(bv::concat(o, ab, bb)) == ((a << w2) | b));
          CHECK(evaluate(tm.mk_concat(tm.mk_bv(w, a), tm.mk_bv(w2, b))) == ((a << w2) | b));
        }
      for (std::uint64_t b = 0; b <= mask(w); ++b) {
        const B bb = bv::constant(o, w, b);
        CHECK(bv::eq(o, ab, bb) == (a == b));
        CHECK(bv::to_uint(bv::ite(o, true, ab, bb)) == a);
        CHECK(bv::to_uint(bv::ite(o, false, ab, bb)) == b);
      }
    }
  }
}

TEST_CASE("circuits on bool: carry out of add and sub") {
  bv::BoolOps o;
  for (std::uint32_t w = 1; w <= 4; ++w)
    for (std::uint64_t a = 0; a <= mask(w); ++a)
      for (std::uint64_t b = 0; b <= mask(w); ++b) {
        bool c = false;
        bv::add(o, bv::constant(o, w, a), bv::constant(o, w, b), false, &c);
        CHECK(c == (a + b > mask(w)));
        bv::sub(o, bv::constant(o, w, a), bv::constant(o, w, b), &c);
        CHECK(c == (a >= b));
      }
}
