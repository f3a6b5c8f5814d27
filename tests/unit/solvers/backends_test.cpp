// Every DecisionProcedure backend (cadical bit-blaster, Z3, the boolector program) against ONE
// table of small formulas with known answers — bit-vector edge cases (INT_MIN / -1, division
// and remainder by zero, shifts by >= width, signed vs unsigned order, extract/concat/
// extensions, ite), deep terms, incremental solving under changing assumptions — plus a
// random differential test (all backends agree; every model satisfies the formulas under the
// reference `evaluate`), time limits (Unknown) and boolector's failure modes (missing binary,
// bad exit code, malformed output, a model that does not satisfy: Unknown with a reason).
#include "solvers/decision_procedure.hpp"
#include "solvers/factory.hpp"
#include "random_terms.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>

using namespace siren::solvers;

namespace {

using Factory = std::function<std::unique_ptr<DecisionProcedure>(TermManager&)>;
struct Backend {
  std::string name;
  Factory make;
};

bool have_boolector() { return ::access("/usr/bin/boolector", X_OK) == 0; }

std::vector<Backend> backends() {
  std::vector<Backend> bs{
      {"cadical", [](TermManager& tm) { return make_cadical_bitblaster(tm); }},
      {"z3", [](TermManager& tm) { return make_z3_solver(tm); }},
  };
  if (have_boolector())
    bs.push_back({"boolector", [](TermManager& tm) { return make_boolector_solver(tm); }});
  else
    MESSAGE("/usr/bin/boolector is not installed: boolector backend skipped");
  return bs;
}

std::uint64_t m(std::uint32_t w) { return w == 64 ? ~0ULL : (1ULL << w) - 1; }

// One query of a case: the result and, for Sat, terms whose value is forced.
struct Query {
  std::vector<Term> assumptions;
  SolveResult expect;
  std::vector<std::pair<Term, std::uint64_t>> values;
  std::vector<Term> assert_before;  // asserted permanently before this query
};

struct Spec {
  std::vector<Term> asserts;
  std::vector<Query> queries;
};

struct Case {
  const char* name;
  std::function<Spec(TermManager&)> build;
};

// Helpers to build terms that constant folding cannot see through: v == c as an assertion.
struct B {
  TermManager& tm;
  std::vector<Term> asserts;
  Term var(std::uint32_t w, const char* n) { return tm.mk_var(Sort::bv(w), n); }
  Term bvar(const char* n) { return tm.mk_var(Sort::boolean(), n); }
  Term c(std::uint32_t w, std::uint64_t v) { return tm.mk_bv(w, v); }
  Term fixed(std::uint32_t w, std::uint64_t v, const char* n) {
    Term x = var(w, n);
    asserts.push_back(tm.mk_eq(x, c(w, v)));
    return x;
  }
  Term op(Kind k, Term a, Term b) { return tm.mk_bv_binary(k, a, b); }
  Term eq(Term a, Term b) { return tm.mk_eq(a, b); }
  Term not_(Term a) { return tm.mk_not(a); }
  // A Sat spec in which `t` must take `v`.
  Spec sat(std::vector<std::pair<Term, std::uint64_t>> vals) {
    return {asserts, {{{}, SolveResult::Sat, std::move(vals), {}}}};
  }
  Spec unsat() { return {asserts, {{{}, SolveResult::Unsat, {}, {}}}}; }
};

std::vector<Case> cases() {
  std::vector<Case> cs;
  // Signed division INT_MIN / -1 at several widths: wraps to INT_MIN, remainder 0.
  for (std::uint32_t w : {1u, 8u, 32u, 64u}) {
    cs.push_back({"sdiv INT_MIN / -1", [w](TermManager& tm) {
                    B b{tm};
                    const std::uint64_t int_min = 1ULL << (w - 1);
                    Term x = b.fixed(w, int_min, "x"), y = b.fixed(w, m(w), "y");
                    return b.sat({{b.op(Kind::BvSdiv, x, y), int_min},
                                  {b.op(Kind::BvSrem, x, y), 0},
                                  {b.op(Kind::BvMul, x, y), int_min},
                                  {b.tm.mk_bv_unary(Kind::BvNeg, x), int_min}});
                  }});
  }
  cs.push_back({"sdiv by -1 is negation (valid)", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.var(16, "x");
                  b.asserts.push_back(b.not_(b.eq(b.op(Kind::BvSdiv, x, b.c(16, 0xffff)),
                                                  tm.mk_bv_unary(Kind::BvNeg, x))));
                  return b.unsat();
                }});
  // Division and remainder by zero (SMT-LIB: udiv -> ~0, urem -> x, sdiv -> -1 or 1, srem -> x).
  for (std::uint32_t w : {8u, 13u, 64u}) {
    cs.push_back({"division by zero", [w](TermManager& tm) {
                    B b{tm};
                    Term z = b.fixed(w, 0, "z");
                    Term p = b.fixed(w, 5, "p"), n = b.fixed(w, m(w) - 4, "n");  // 5 and -5
                    return b.sat({{b.op(Kind::BvUdiv, p, z), m(w)},
                                  {b.op(Kind::BvUrem, p, z), 5},
                                  {b.op(Kind::BvSdiv, p, z), m(w)},
                                  {b.op(Kind::BvSdiv, n, z), 1},
                                  {b.op(Kind::BvSrem, n, z), m(w) - 4},
                                  {b.op(Kind::BvUrem, n, z), m(w) - 4},
                                  {b.op(Kind::BvUdiv, z, z), m(w)}});
                  }});
  }
  cs.push_back({"udiv by zero is all ones (valid)", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.var(12, "x"), z = b.fixed(12, 0, "z");
                  b.asserts.push_back(b.not_(b.eq(b.op(Kind::BvUdiv, x, z), b.c(12, 0xfff))));
                  return b.unsat();
                }});
  cs.push_back({"signed division truncates toward zero", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.fixed(8, 0xf9, "x"), y = b.fixed(8, 2, "y");  // -7 / 2
                  return b.sat({{b.op(Kind::BvSdiv, x, y), 0xfd},            // -3
                                {b.op(Kind::BvSrem, x, y), 0xff},            // -1
                                {b.op(Kind::BvUdiv, x, y), 0x7c},
                                {b.op(Kind::BvUrem, x, y), 1}});
                }});
  // Shifts by amounts >= width.
  for (std::uint32_t w : {5u, 8u, 32u, 64u}) {
    cs.push_back({"shifts by >= width", [w](TermManager& tm) {
                    B b{tm};
                    Term x = b.fixed(w, 1ULL << (w - 1) | 1, "x");  // sign bit and bit 0
                    Term sw = b.fixed(w, w, "sw"), sbig = b.fixed(w, m(w), "sbig");
                    Term s1 = b.fixed(w, w - 1, "s1");
                    return b.sat({{b.op(Kind::BvShl, x, sw), 0},
                                  {b.op(Kind::BvLshr, x, sw), 0},
                                  {b.op(Kind::BvAshr, x, sw), m(w)},
                                  {b.op(Kind::BvShl, x, sbig), 0},
                                  {b.op(Kind::BvAshr, x, sbig), m(w)},
                                  {b.op(Kind::BvShl, x, s1), 1ULL << (w - 1)},
                                  {b.op(Kind::BvLshr, x, s1), 1},
                                  {b.op(Kind::BvAshr, x, s1), m(w)}});
                  }});
  }
  cs.push_back({"shl by a variable >= width is zero (valid)", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.var(8, "x"), s = b.var(8, "s");
                  b.asserts.push_back(b.op(Kind::BvUle, b.c(8, 8), s));
                  b.asserts.push_back(b.not_(b.eq(b.op(Kind::BvShl, x, s), b.c(8, 0))));
                  return b.unsat();
                }});
  cs.push_back({"signed vs unsigned comparisons", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.fixed(8, 0xff, "x"), y = b.fixed(8, 1, "y");
                  Term mn = b.fixed(8, 0x80, "mn"), mx = b.fixed(8, 0x7f, "mx");
                  return b.sat({{b.op(Kind::BvUlt, x, y), 0}, {b.op(Kind::BvSlt, x, y), 1},
                                {b.op(Kind::BvUle, x, x), 1}, {b.op(Kind::BvSle, y, x), 0},
                                {b.op(Kind::BvSlt, mn, mx), 1}, {b.op(Kind::BvUlt, mn, mx), 0},
                                {b.op(Kind::BvSle, mn, mn), 1}});
                }});
  cs.push_back({"no 8-bit value is below 0 unsigned", [](TermManager& tm) {
                  B b{tm};
                  b.asserts.push_back(b.op(Kind::BvUlt, b.var(8, "x"), b.c(8, 0)));
                  return b.unsat();
                }});
  cs.push_back({"x slt INT_MIN is unsat", [](TermManager& tm) {
                  B b{tm};
                  b.asserts.push_back(b.op(Kind::BvSlt, b.var(32, "x"), b.c(32, 0x80000000)));
                  return b.unsat();
                }});
  cs.push_back({"2x = 1 has no 8-bit solution", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.var(8, "x");
                  b.asserts.push_back(b.eq(b.op(Kind::BvMul, x, b.c(8, 2)), b.c(8, 1)));
                  return b.unsat();
                }});
  cs.push_back({"x + 1 = 0 at 64 bits", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.var(64, "x");
                  b.asserts.push_back(b.eq(b.op(Kind::BvAdd, x, b.c(64, 1)), b.c(64, 0)));
                  return b.sat({{x, ~0ULL}, {b.op(Kind::BvMul, x, x), 1}});
                }});
  cs.push_back({"3x = 1 at 16 bits (inverse)", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.var(16, "x");
                  b.asserts.push_back(b.eq(b.op(Kind::BvMul, x, b.c(16, 3)), b.c(16, 1)));
                  return b.sat({{x, 0xaaab}});
                }});
  cs.push_back({"extract / concat / extensions", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.fixed(8, 0x96, "x");  // 1001 0110
                  Term y = b.fixed(4, 0x5, "y");
                  return b.sat({{tm.mk_extract(x, 7, 4), 0x9},
                                {tm.mk_extract(x, 0, 0), 0},
                                {tm.mk_extract(x, 7, 7), 1},
                                {tm.mk_concat(y, x), 0x596},
                                {tm.mk_concat(x, y), 0x965},
                                {tm.mk_zext(x, 16), 0x96},
                                {tm.mk_sext(x, 16), 0xff96},
                                {tm.mk_sext(x, 64), 0xffffffffffffff96ULL},
                                {tm.mk_sext(y, 8), 0x05},
                                {tm.mk_resize(x, 3, true), 0x6}});
                }});
  cs.push_back({"concat of the halves is the identity (valid)", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.var(32, "x");
                  Term c = tm.mk_concat(tm.mk_extract(x, 31, 12), tm.mk_extract(x, 11, 0));
                  Term s = tm.mk_extract(tm.mk_sext(x, 40), 31, 0);
                  b.asserts.push_back(tm.mk_or(b.not_(b.eq(c, x)), b.not_(b.eq(s, x))));
                  return b.unsat();
                }});
  cs.push_back({"ite and Boolean connectives", [](TermManager& tm) {
                  B b{tm};
                  Term p = b.bvar("p"), q = b.bvar("q");
                  b.asserts.push_back(tm.mk_xor(p, q));
                  b.asserts.push_back(tm.mk_implies(p, q));
                  Term x = b.fixed(8, 7, "x"), y = b.fixed(8, 9, "y");
                  return b.sat({{p, 0}, {q, 1},
                                {tm.mk_ite(p, x, y), 9}, {tm.mk_ite(q, x, y), 7},
                                {tm.mk_iff(p, q), 0}, {tm.mk_or(p, q), 1},
                                {tm.mk_ite(q, p, q), 0}, {tm.mk_implies(q, p), 0}});
                }});
  cs.push_back({"deep terms (100k-node Bool chain)", [](TermManager& tm) {
                  B b{tm};
                  Term p = b.bvar("p"), q = b.bvar("q");
                  Term t = p;
                  for (int i = 0; i < 100000; ++i) t = tm.mk_xor(t, q);  // even count: t == p
                  b.asserts.push_back(t);
                  return b.sat({{p, 1}});
                }});
  cs.push_back({"deep terms (5k-node bit-vector chain)", [](TermManager& tm) {
                  B b{tm};
                  // A 5k-deep bit-vector chain from a fixed input (propagation decides it).
                  Term x = b.fixed(32, 7, "x");
                  Term u = x;
                  for (int i = 0; i < 5000; ++i)
                    u = b.op(i % 3 == 0 ? Kind::BvMul : i % 3 == 1 ? Kind::BvAdd : Kind::BvXor, u,
                             i % 3 == 0 ? b.c(32, 2 * i + 1) : x);
                  std::vector<std::uint64_t> vals(tm.size(), 0);
                  vals[x->id] = 7;
                  const std::uint64_t expect = evaluate(u, &vals);
                  b.asserts.push_back(b.eq(u, b.c(32, expect)));
                  return b.sat({{u, expect}});
                }});
  cs.push_back({"incremental: assumptions change, assertions accumulate", [](TermManager& tm) {
                  B b{tm};
                  Term x = b.var(8, "x"), y = b.var(8, "y");
                  b.asserts.push_back(b.op(Kind::BvUlt, x, b.c(8, 10)));
                  b.asserts.push_back(b.eq(y, b.op(Kind::BvMul, x, x)));
                  Spec s{b.asserts, {}};
                  Term x5 = b.eq(x, b.c(8, 5)), x12 = b.eq(x, b.c(8, 12));
                  Term big = b.op(Kind::BvUlt, b.c(8, 8), x);  // x > 8
                  Term p = b.bvar("p");
                  s.queries.push_back({{x5}, SolveResult::Sat, {{x, 5}, {y, 25}}, {}});
                  s.queries.push_back({{x12}, SolveResult::Unsat, {}, {}});
                  s.queries.push_back({{}, SolveResult::Sat, {}, {}});
                  s.queries.push_back({{big}, SolveResult::Sat, {{x, 9}, {y, 81}}, {}});
                  s.queries.push_back({{big, x5}, SolveResult::Unsat, {}, {}});
                  s.queries.push_back({{x5}, SolveResult::Sat, {{y, 25}}, {}});  // core reused
                  s.queries.push_back({{p, tm.mk_implies(p, x12)}, SolveResult::Unsat, {}, {}});
                  s.queries.push_back({{b.not_(p), tm.mk_implies(p, x12)}, SolveResult::Sat, {{p, 0}}, {}});
                  s.queries.push_back({{big}, SolveResult::Unsat, {}, {b.not_(b.eq(x, b.c(8, 9)))}});
                  s.queries.push_back({{tm.mk_false()}, SolveResult::Unsat, {}, {}});
                  s.queries.push_back({{tm.mk_true(), b.eq(y, b.c(8, 64))}, SolveResult::Sat, {{x, 8}}, {}});
                  s.queries.push_back({{}, SolveResult::Unsat, {}, {b.eq(x, b.c(8, 200))}});
                  s.queries.push_back({{x5}, SolveResult::Unsat, {}, {}});
                  return s;
                }});
  cs.push_back({"trivial formulas", [](TermManager& tm) {
                  Spec s;
                  Term v = tm.mk_var(Sort::bv(3), "v");
                  s.queries.push_back({{}, SolveResult::Sat, {{tm.mk_bv(3, 6), 6}}, {}});
                  s.queries.push_back({{tm.mk_eq(v, tm.mk_bv(3, 6))}, SolveResult::Sat, {{v, 6}}, {}});
                  s.queries.push_back({{}, SolveResult::Unsat, {}, {tm.mk_false()}});
                  return s;
                }});
  return cs;
}

// Values of every variable below `roots` in the last model (for checking with `evaluate`).
std::vector<std::uint64_t> model_of(DecisionProcedure& dp, TermManager& tm,
                                    const std::vector<Term>& roots) {
  std::vector<std::uint64_t> vals(tm.size(), 0);
  std::vector<char> seen(tm.size(), 0);
  std::vector<Term> stack(roots.begin(), roots.end());
  while (!stack.empty()) {
    Term t = stack.back();
    stack.pop_back();
    if (seen[t->id]) continue;
    seen[t->id] = 1;
    if (t->kind == Kind::Var) vals[t->id] = dp.value(t);
    for (Term k : t->kids) stack.push_back(k);
  }
  return vals;
}

const char* result_name(SolveResult r) {
  return r == SolveResult::Sat ? "sat" : r == SolveResult::Unsat ? "unsat" : "unknown";
}

}  // namespace

TEST_CASE("backends: shared formula table with known answers") {
  int queries = 0;
  for (const Backend& be : backends()) {
    for (const Case& c : cases()) {
      TermManager tm;
      auto dp = be.make(tm);
      const Spec spec = c.build(tm);
      const auto t0 = std::chrono::steady_clock::now();
      struct Report {
        const char *b, *c;
        std::chrono::steady_clock::time_point t0;
        ~Report() {
          if (std::getenv("SIREN_TEST_VERBOSE"))
            std::fprintf(stderr, "%s: %s %.2fs\n", b, c,
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
      } report{be.name.c_str(), c.name, t0};
      std::vector<Term> asserted = spec.asserts;
      for (Term a : spec.asserts) dp->assert_formula(a);
      int qi = 0;
      for (const Query& q : spec.queries) {
        INFO(be.name << ": " << c.name << " query " << qi++);
        for (Term a : q.assert_before) {
          dp->assert_formula(a);
          asserted.push_back(a);
        }
        const SolveResult r = dp->solve(q.assumptions);
        INFO("result " << result_name(r) << " " << dp->last_error());
        REQUIRE(r == q.expect);
        ++queries;
        if (r != SolveResult::Sat) continue;
        for (auto [t, v] : q.values) {
          INFO(to_string(t).substr(0, 200));
          CHECK(dp->value(t) == v);
        }
        // The model satisfies every assertion and assumption under the reference semantics.
        std::vector<Term> roots = asserted;
        roots.insert(roots.end(), q.assumptions.begin(), q.assumptions.end());
        const auto vals = model_of(*dp, tm, roots);
        for (Term t : roots) CHECK(evaluate(t, &vals) == 1);
      }
    }
  }
  CHECK(queries >= 2 * 40);
}

TEST_CASE("backends: random differential (same answers, models satisfy under evaluate)") {
  const auto bes = backends();
  std::mt19937_64 rng(20240611);
  int sat = 0, unsat = 0;
  for (int round = 0; round < 30; ++round) {
    TermManager tm;
    testing::RandomTerms g{tm, rng, {1, 2, 3, 4, 5, 7, 8, 12, 64}};
    for (int i = 0; i < 60; ++i) g.step();
    // A random conjunction of Bool terms, and a few assumption sets on top.
    std::vector<Term> asserted;
    for (int i = 0; i < 3; ++i) asserted.push_back(g.bools[rng() % g.bools.size()]);
    std::vector<std::vector<Term>> queries;
    for (int qn = 0; qn < 3; ++qn) {
      std::vector<Term> as;
      for (int i = 0; i < 1 + qn; ++i) {
        Term b = g.bools[rng() % g.bools.size()];
        as.push_back(rng() % 2 ? b : tm.mk_not(b));
      }
      queries.push_back(as);
    }
    std::vector<std::vector<SolveResult>> answers(bes.size());
    for (std::size_t bi = 0; bi < bes.size(); ++bi) {
      auto dp = bes[bi].make(tm);
      for (Term a : asserted) dp->assert_formula(a);
      for (const auto& as : queries) {
        const SolveResult r = dp->solve(as);
        INFO(bes[bi].name << " round " << round << ": " << dp->last_error());
        REQUIRE(r != SolveResult::Unknown);
        answers[bi].push_back(r);
        if (r != SolveResult::Sat) continue;
        std::vector<Term> roots = asserted;
        roots.insert(roots.end(), as.begin(), as.end());
        auto vals = model_of(*dp, tm, roots);
        for (Term t : roots) CHECK(evaluate(t, &vals) == 1);
        // Every term's value agrees with evaluate over the model's variables.
        vals = model_of(*dp, tm, g.vars);
        for (Term t : g.bvs) CHECK(dp->value(t) == evaluate(t, &vals));
        for (Term t : g.bools) CHECK(dp->value(t) == evaluate(t, &vals));
      }
    }
    for (std::size_t bi = 1; bi < bes.size(); ++bi) {
      INFO(bes[0].name << " vs " << bes[bi].name << " round " << round);
      CHECK(answers[bi] == answers[0]);
    }
    for (SolveResult r : answers[0]) (r == SolveResult::Sat ? sat : unsat)++;
  }
  MESSAGE("random differential: " << sat << " sat, " << unsat << " unsat queries");
  CHECK(sat > 10);
  CHECK(unsat > 5);
}

namespace {

// x * y = p with x, y in 2..2^32-1 and p a 45-bit prime: unsatisfiable, hard for every backend.
std::vector<Term> hard_formula(TermManager& tm) {
  Term x = tm.mk_var(Sort::bv(64), "x"), y = tm.mk_var(Sort::bv(64), "y");
  const std::uint64_t p = 0x100000000007ULL;  // 2^44 + 7, prime
  auto ult = [&](Term a, Term b) { return tm.mk_bv_binary(Kind::BvUlt, a, b); };
  return {tm.mk_eq(tm.mk_bv_binary(Kind::BvMul, x, y), tm.mk_bv(64, p)),
          ult(tm.mk_bv(64, 1), x), ult(tm.mk_bv(64, 1), y),
          ult(x, tm.mk_bv(64, 1ULL << 32)), ult(y, tm.mk_bv(64, 1ULL << 32))};
}

}  // namespace

TEST_CASE("backends: the terminate callback stops a hard query with Unknown") {
  for (const Backend& be : backends()) {
    INFO(be.name);
    TermManager tm;
    auto dp = be.make(tm);
    for (Term a : hard_formula(tm)) dp->assert_formula(a);
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::milliseconds(400);
    dp->set_terminate([&] { return std::chrono::steady_clock::now() >= deadline; });
    CHECK(dp->solve({}) == SolveResult::Unknown);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(took < 3.0);
  }
}

TEST_CASE("backends: boolector's own time limit (-t) gives Unknown") {
  if (!have_boolector()) return;
  TermManager tm;
  auto dp = make_boolector_solver(tm);
  for (Term a : hard_formula(tm)) dp->assert_formula(a);
  dp->set_deadline(std::chrono::steady_clock::now() + std::chrono::milliseconds(500));
  const auto start = std::chrono::steady_clock::now();
  CHECK(dp->solve({}) == SolveResult::Unknown);
  CHECK(dp->last_error().find("time limit") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(4));
}

namespace {

// A fake "boolector" script printing `body` and exiting with `code`.
std::string fake_boolector(const std::string& tag, const std::string& body, int code) {
  const std::string path = "/tmp/siren-fake-boolector-" + std::to_string(::getpid()) + "-" + tag;
  std::ofstream f(path);
  f << "#!/bin/sh\ncat <<'EOF'\n" << body << "EOF\nexit " << code << "\n";
  f.close();
  ::chmod(path.c_str(), 0755);
  return path;
}

}  // namespace

TEST_CASE("backends: boolector failure modes give Unknown with a reason") {
  auto run = [](const std::string& binary) {
    TermManager tm;
    auto dp = make_boolector_solver(tm, binary);
    Term x = tm.mk_var(Sort::bv(8), "x");
    dp->assert_formula(tm.mk_bv_binary(Kind::BvUlt, x, tm.mk_bv(8, 3)));
    const SolveResult r = dp->solve({});
    return std::make_pair(r, dp->last_error());
  };
  SUBCASE("missing binary (absolute path)") {
    auto [r, why] = run("/nonexistent/dir/boolector");
    CHECK(r == SolveResult::Unknown);
    CHECK(why.find("cannot run '/nonexistent/dir/boolector'") != std::string::npos);
  }
  SUBCASE("missing binary (searched in PATH)") {
    auto [r, why] = run("siren-no-such-boolector-program");
    CHECK(r == SolveResult::Unknown);
    CHECK(why.find("cannot run") != std::string::npos);
  }
  SUBCASE("parse error exit code") {
    const std::string b = fake_boolector("parse", "q.smt2:1: unexpected token\n", 1);
    auto [r, why] = run(b);
    CHECK(r == SolveResult::Unknown);
    CHECK(why.find("exit code 1") != std::string::npos);
    ::unlink(b.c_str());
  }
  SUBCASE("malformed model") {
    const std::string b = fake_boolector("malformed", "sat\nv0 banana\n", 10);
    auto [r, why] = run(b);
    CHECK(r == SolveResult::Unknown);
    CHECK(why.find("malformed") != std::string::npos);
    ::unlink(b.c_str());
  }
  SUBCASE("verdict does not match the exit code") {
    const std::string b = fake_boolector("mismatch", "unsat\n", 10);
    auto [r, why] = run(b);
    CHECK(r == SolveResult::Unknown);
    CHECK(why.find("exit code 10") != std::string::npos);
    ::unlink(b.c_str());
  }
  SUBCASE("a model that does not satisfy the formula") {
    const std::string b = fake_boolector("wrong", "sat\nv0 200\nv1 200\nv2 200\nv3 200\nv4 200\nv5 200\n", 10);
    auto [r, why] = run(b);
    CHECK(r == SolveResult::Unknown);
    CHECK(why.find("does not satisfy") != std::string::npos);
    ::unlink(b.c_str());
  }
  SUBCASE("time limit exit code") {
    const std::string b = fake_boolector("timeout", "unknown\n", 14);
    auto [r, why] = run(b);
    CHECK(r == SolveResult::Unknown);
    CHECK(why.find("time limit") != std::string::npos);
    ::unlink(b.c_str());
  }
}

TEST_CASE("backends: the factory knows every backend by name") {
  TermManager tm;
  for (const std::string& n : decision_procedure_names()) {
    auto dp = make_decision_procedure(n, tm);
    REQUIRE(dp);
    CHECK(dp->name() == n);
  }
  CHECK_FALSE(make_decision_procedure("minisat", tm));
}
