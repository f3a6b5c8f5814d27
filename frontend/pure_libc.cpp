// Exact models of pure C library functions declared without a body (issue 40): ffs, ffsl,
// ffsll and the GCC builtins __builtin_ffs*, __builtin_clz* / ctz* / popcount*, abs, labs,
// llabs, and the <ctype.h> functions of the "C" locale with glibc's results (isdigit(c) is
// glibc's class bit, 2048, not just "nonzero"). Each is an IR expression over the argument
// (a chain of Ite over bit positions), so a counterexample can never use a value the real
// function does not return. Undefined behaviour — __builtin_clz/ctz of 0, abs of the most
// negative value, a <ctype.h> argument that is neither EOF nor an unsigned char — fails a
// MemSafety assertion (UNKNOWN), as the front end reports other undefined behaviour.
// glibc's <ctype.h> macros (`(*__ctype_b_loc())[c] & _ISdigit`) read a table siren does not
// model: __ctype_b_loc / __ctype_toupper_loc / __ctype_tolower_loc are unsupported.
#include "frontend/translator.hpp"

namespace siren::frontend {

namespace {

// glibc's <ctype.h> class bits on a little-endian machine (_ISbit).
constexpr std::int64_t kUpper = 1 << 8, kLower = 1 << 9, kAlpha = 1 << 10, kDigit = 1 << 11, kXdigit = 1 << 12,
                       kSpace = 1 << 13, kPrint = 1 << 14, kGraph = 1 << 15, kCntrl = 1 << 1, kPunct = 1 << 2,
                       kAlnum = 1 << 3;

}  // namespace

std::optional<ExprRef> Translator::pure_libc_call(const CallSite& site) {
  const std::string& name = site.name;
  const SourceLocation loc = site.loc;
  if (name == "__ctype_b_loc" || name == "__ctype_toupper_loc" || name == "__ctype_tolower_loc")
    unsupported(loc, "call to '" + name + "' (glibc's <ctype.h> macros read its character table, which siren does "
                     "not model; call the function, e.g. `(isdigit)(c)`, or compile with -D__NO_CTYPE)");
  const std::string base = starts_with(name, "__builtin_") ? name.substr(10) : name;
  const bool builtin = base != name;
  const unsigned long_bits = prog_.pointer_bytes * 8;
  // The family and the argument's width from the name: ffs / ffsl / ffsll, clz / clzl / clzll, ...
  std::string fam;
  unsigned w = 32;
  auto family = [&](const std::string& f) {
    if (base == f) fam = f, w = 32;
    else if (base == f + "l") fam = f, w = long_bits;
    else if (base == f + "ll") fam = f, w = 64;
    return !fam.empty();
  };
  const bool bits_fn = family("ffs") || (builtin && (family("clz") || family("ctz") || family("popcount")));
  bool abs_fn = false;
  if (!bits_fn && (base == "abs" || base == "labs" || base == "llabs")) {
    abs_fn = true;
    fam = "abs";
    w = base == "abs" ? 32 : base == "labs" ? long_bits : 64;
  }
  static const char* const kCtype[] = {"isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "isxdigit",
                                       "isprint", "ispunct", "iscntrl", "isgraph", "toupper", "tolower"};
  bool ctype_fn = false;
  if (!bits_fn && !abs_fn && !builtin)
    for (const char* c : kCtype) ctype_fn = ctype_fn || name == c;
  if (!bits_fn && !abs_fn && !ctype_fn) return std::nullopt;
  if (site.nargs != 1) unsupported(loc, "call to '" + name + "' with " + std::to_string(site.nargs) + " arguments");

  auto& E = em();
  const bool is_signed = fam == "ffs" || abs_fn || ctype_fn;
  const Type t = Type::integer(w, is_signed);
  const ExprRef x = tmp_of(conv(t, rvalue(site.arg(0))));
  auto c = [&](std::int64_t v) { return E.mk_int(t, v); };
  auto bit_set = [&](unsigned i) { return E.mk_binary(Op::Ne, E.mk_binary(Op::BitAnd, x, E.mk_const(t, 1ULL << i)), c(0)); };
  auto ub = [&](ExprRef ok, const std::string& what) {
    if (ok->is_const() && ok->value != 0) return;
    ir::Instr in;
    in.kind = InstrKind::Assert;
    in.assert_kind = ir::AssertKind::MemSafety;
    in.a = ok;
    in.message = "undefined behaviour: " + what;
    emit(std::move(in));
  };
  ExprRef r = nullptr;
  if (fam == "ffs") {  // 1 + the index of the lowest set bit, 0 for 0
    r = c(0);
    for (unsigned i = w; i-- > 0;) r = E.mk_ite(bit_set(i), c(i + 1), r);
  } else if (fam == "ctz") {
    ub(E.mk_binary(Op::Ne, x, c(0)), name + "(0)");
    r = c(0);
    for (unsigned i = w; i-- > 0;) r = E.mk_ite(bit_set(i), c(i), r);
  } else if (fam == "clz") {
    ub(E.mk_binary(Op::Ne, x, c(0)), name + "(0)");
    r = c(0);
    for (unsigned i = 0; i < w; ++i) r = E.mk_ite(bit_set(i), c(w - 1 - i), r);
  } else if (fam == "popcount") {
    r = c(0);
    for (unsigned i = 0; i < w; ++i) r = E.mk_binary(Op::Add, r, E.mk_ite(bit_set(i), c(1), c(0)));
  } else if (abs_fn) {
    const ExprRef min = E.mk_const(t, 1ULL << (w - 1));
    ub(E.mk_binary(Op::Ne, x, min), name + " of the most negative value");
    r = E.mk_ite(E.mk_binary(Op::Slt, x, c(0)), E.mk_unary(Op::Neg, x), x);
  } else {  // <ctype.h>, "C" locale
    ub(E.mk_binary(Op::LOr, E.mk_binary(Op::Eq, x, c(-1)),
                   E.mk_binary(Op::LAnd, E.mk_binary(Op::Sle, c(0), x), E.mk_binary(Op::Sle, x, c(255)))),
       name + " of a value that is neither EOF nor an unsigned char");
    auto in = [&](std::int64_t lo, std::int64_t hi) {
      return E.mk_binary(Op::LAnd, E.mk_binary(Op::Sle, c(lo), x), E.mk_binary(Op::Sle, x, c(hi)));
    };
    auto any = [&](ExprRef a, ExprRef b) { return E.mk_binary(Op::LOr, a, b); };
    const ExprRef upper = in('A', 'Z'), lower = in('a', 'z'), digit = in('0', '9');
    const ExprRef alpha = any(upper, lower), alnum = any(alpha, digit), graph = in(33, 126);
    auto cls = [&](ExprRef cond, std::int64_t bit) { return E.mk_ite(cond, c(bit), c(0)); };
    if (name == "isdigit") r = cls(digit, kDigit);
    else if (name == "isalpha") r = cls(alpha, kAlpha);
    else if (name == "isalnum") r = cls(alnum, kAlnum);
    else if (name == "isspace") r = cls(any(E.mk_binary(Op::Eq, x, c(' ')), in(9, 13)), kSpace);
    else if (name == "isupper") r = cls(upper, kUpper);
    else if (name == "islower") r = cls(lower, kLower);
    else if (name == "isxdigit") r = cls(any(digit, any(in('a', 'f'), in('A', 'F'))), kXdigit);
    else if (name == "isprint") r = cls(in(32, 126), kPrint);
    else if (name == "isgraph") r = cls(graph, kGraph);
    else if (name == "ispunct") r = cls(E.mk_binary(Op::LAnd, graph, E.mk_unary(Op::LNot, alnum)), kPunct);
    else if (name == "iscntrl") r = cls(any(in(0, 31), E.mk_binary(Op::Eq, x, c(127))), kCntrl);
    else if (name == "toupper") r = E.mk_ite(lower, E.mk_binary(Op::Sub, x, c(32)), x);
    else r = E.mk_ite(upper, E.mk_binary(Op::Add, x, c(32)), x);  // tolower
  }
  if (!site.want || site.is_void) return nullptr;
  return conv(site.ret_t, r);
}

}  // namespace siren::frontend
