// The front end's exact models of pure C library functions (frontend/pure_libc.cpp) against
// the host's real functions: for each function, a C program asserts the model's value for
// many inputs equals the host's (computed here), and siren's interpreter runs it to the end.
// A model that differed on any input would fail an assertion. Undefined behaviour (clz(0),
// abs(INT_MIN), isdigit(1000)) must fail a MemSafety assertion, never give a value.
#include "frontend/frontend.hpp"
#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"

#include <doctest/doctest.h>

#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <strings.h>
#include <unistd.h>
#include <vector>

using namespace siren;

namespace {

/// Runs main of `code` in the interpreter to its end: "" or the failing assertion's message
/// (prefixed "property: " or "memsafety: ").
std::string run_main(const std::string& code) {
  const std::string path = std::filesystem::temp_directory_path() / ("siren-pure-libc-" + std::to_string(::getpid()) + ".c");
  std::ofstream(path) << code;
  frontend::FrontendResult fr = frontend::translate_file(path);
  std::filesystem::remove(path);
  REQUIRE(fr.status == frontend::FrontendStatus::Ok);
  REQUIRE(fr.program);
  const ir::ThreadModel tm = ir::build_thread_model(*fr.program, {});
  ir::Interpreter in(tm);
  ir::State s = in.initial_state();
  for (int i = 0; i < 10'000'000; ++i) {
    const ir::StepResult r = in.step(s, {0, {}});
    if (r.outcome == ir::StepOutcome::NotEnabled) return "";
    if (r.outcome == ir::StepOutcome::Error)
      return std::string(r.error_kind == ir::AssertKind::MemSafety ? "memsafety: " : "property: ") + r.error_message;
  }
  return "did not finish";
}

/// A program that checks `call` (e.g. "ffs(in[i])", argument type `arg_t`, result type
/// `ret_t`) against `want` for each input.
template <class T>
std::string literal(T x) {
  if constexpr (std::is_signed_v<T>) {
    if (static_cast<long long>(x) == LLONG_MIN) return "(-9223372036854775807LL - 1)";
    return std::to_string(static_cast<long long>(x)) + "LL";
  } else {
    return std::to_string(static_cast<unsigned long long>(x)) + "ULL";
  }
}

template <class A, class R>
std::string table_program(const std::string& decls, const std::string& arg_t, const std::string& ret_t,
                          const std::string& call, const std::vector<A>& ins, const std::function<R(A)>& want) {
  std::string code = "#include <assert.h>\n" + decls + "\n" + arg_t + " in[] = {";
  std::string out = ret_t + " want[] = {";
  for (std::size_t i = 0; i < ins.size(); ++i) {
    code += (i ? ", " : "") + literal(ins[i]);
    out += (i ? ", " : "") + literal(want(ins[i]));
  }
  code += "};\n" + out + "};\n";
  code += "int main(void) {\n  for (int i = 0; i < " + std::to_string(ins.size()) + "; i++) {\n    " + ret_t +
          " r = " + call + ";\n    assert(r == want[i]);\n  }\n  return 0;\n}\n";
  return code;
}

template <class T>
std::vector<T> inputs(bool nonzero, std::uint64_t seed) {
  std::vector<T> v;
  std::mt19937_64 g(seed);
  for (unsigned b = 0; b < sizeof(T) * 8; ++b) {  // single bits, their neighbours, masks
    const std::uint64_t one = std::uint64_t{1} << b;  // unsigned arithmetic: no overflow
    v.push_back(static_cast<T>(one));
    v.push_back(static_cast<T>(one - 1));
    v.push_back(static_cast<T>(one + 1));
    v.push_back(static_cast<T>(~(one - 1)));
  }
  for (int i = 0; i < 150; ++i) {
    const std::uint64_t r = g();
    v.push_back(static_cast<T>(r >> (r % 64)));
  }
  if (!nonzero) v.push_back(0);
  std::vector<T> out;
  for (T x : v)
    if (!nonzero || x != 0) out.push_back(x);
  return out;
}

}  // namespace

TEST_CASE("pure libc: ffs, ffsl, ffsll and __builtin_ffs* equal the host's over many inputs") {
  const auto i32 = inputs<int>(false, 1);
  const auto i64 = inputs<long long>(false, 2);
  CHECK(run_main(table_program<int, int>("int ffs(int);", "int", "int", "ffs(in[i])", i32, [](int x) { return ffs(x); })) == "");
  CHECK(run_main(table_program<int, int>("", "int", "int", "__builtin_ffs(in[i])", i32,
                                         [](int x) { return __builtin_ffs(x); })) == "");
  CHECK(run_main(table_program<long long, int>("int ffsl(long);", "long", "int", "ffsl(in[i])", i64,
                                               [](long long x) { return ffsl(x); })) == "");
  CHECK(run_main(table_program<long long, int>("int ffsll(long long);", "long long", "int", "ffsll(in[i])", i64,
                                               [](long long x) { return ffsll(x); })) == "");
  CHECK(run_main(table_program<long long, int>("", "long long", "int", "__builtin_ffsll(in[i])", i64,
                                               [](long long x) { return __builtin_ffsll(x); })) == "");
}

TEST_CASE("pure libc: __builtin_clz, ctz, popcount (and l, ll) equal the host's builtins") {
  const auto u32 = inputs<unsigned>(true, 3);
  const auto u64 = inputs<unsigned long long>(true, 4);
  CHECK(run_main(table_program<unsigned, int>("", "unsigned", "int", "__builtin_clz(in[i])", u32,
                                              [](unsigned x) { return __builtin_clz(x); })) == "");
  CHECK(run_main(table_program<unsigned, int>("", "unsigned", "int", "__builtin_ctz(in[i])", u32,
                                              [](unsigned x) { return __builtin_ctz(x); })) == "");
  CHECK(run_main(table_program<unsigned, int>("", "unsigned", "int", "__builtin_popcount(in[i])", u32,
                                              [](unsigned x) { return __builtin_popcount(x); })) == "");
  CHECK(run_main(table_program<unsigned long long, int>("", "unsigned long", "int", "__builtin_clzl(in[i])", u64,
                                                        [](unsigned long long x) { return __builtin_clzl(x); })) == "");
  CHECK(run_main(table_program<unsigned long long, int>("", "unsigned long long", "int", "__builtin_ctzll(in[i])", u64,
                                                        [](unsigned long long x) { return __builtin_ctzll(x); })) == "");
  CHECK(run_main(table_program<unsigned long long, int>("", "unsigned long long", "int", "__builtin_popcountll(in[i])",
                                                        u64, [](unsigned long long x) {
                                                          return __builtin_popcountll(x);
                                                        })) == "");
  // A wrong expectation is caught: the harness can fail (clz off by one on the last input).
  CHECK(run_main(table_program<unsigned, int>("", "unsigned", "int", "__builtin_clz(in[i])", {1u, 12345u},
                                              [](unsigned x) { return __builtin_clz(x) + (x == 12345u ? 1 : 0); }))
            .rfind("property: ", 0) == 0);
}

TEST_CASE("pure libc: abs, labs, llabs equal the host's, abs of the most negative value is undefined") {
  std::vector<int> i32 = inputs<int>(false, 5);
  std::vector<int> no_min;
  for (int x : i32)
    if (x != INT_MIN) no_min.push_back(x);
  std::vector<long long> no_min64;
  for (long long x : inputs<long long>(false, 6))
    if (x != LLONG_MIN) no_min64.push_back(x);
  CHECK(run_main(table_program<int, int>("int abs(int);", "int", "int", "abs(in[i])", no_min, [](int x) { return abs(x); })) == "");
  CHECK(run_main(table_program<long long, long long>("long labs(long);", "long", "long", "labs(in[i])", no_min64,
                                                     [](long long x) { return labs(x); })) == "");
  CHECK(run_main(table_program<long long, long long>("long long llabs(long long);", "long long", "long long",
                                                     "llabs(in[i])", no_min64, [](long long x) { return llabs(x); })) == "");
  const std::string ub = run_main("int abs(int);\nint m = -2147483647 - 1;\nint main(void) { int r = abs(m); return r; }\n");
  CHECK(ub.rfind("memsafety: undefined behaviour: abs", 0) == 0);
  CHECK(run_main("int main(void) { unsigned z = 0; return __builtin_clz(z); }\n").rfind("memsafety: ", 0) == 0);
  CHECK(run_main("int main(void) { unsigned long long z = 0; return __builtin_ctzll(z); }\n").rfind("memsafety: ", 0) == 0);
}

TEST_CASE("pure libc: <ctype.h> functions equal glibc's in the C locale over EOF and every unsigned char") {
  std::vector<int> chars = {EOF};
  for (int c = 0; c < 256; ++c) chars.push_back(c);
  const std::vector<std::pair<const char*, int (*)(int)>> fs = {
      {"isdigit", isdigit}, {"isalpha", isalpha},   {"isalnum", isalnum}, {"isspace", isspace}, {"isupper", isupper},
      {"islower", islower}, {"isxdigit", isxdigit}, {"isprint", isprint}, {"ispunct", ispunct}, {"iscntrl", iscntrl},
      {"isgraph", isgraph}, {"toupper", toupper},   {"tolower", tolower}};
  for (const auto& [name, f] : fs) {
    CAPTURE(name);
    const std::string decl = std::string("int ") + name + "(int);";
    // the function, not glibc's macro: (f)(c) as a program writes it to get the function
    CHECK(run_main(table_program<int, int>(decl, "int", "int", std::string("(") + name + ")(in[i])", chars,
                                           [f = f](int c) { return f(c); })) == "");
  }
  CHECK(run_main("int isdigit(int);\nint c = 1000;\nint main(void) { return isdigit(c); }\n")
            .rfind("memsafety: undefined behaviour: isdigit", 0) == 0);
}
