// The verification conventions of SV-COMP, CBMC and assert.h (verifier_call): errors and
// assertions (reach_error, __VERIFIER_error, assert, __assert_fail and its relatives) are
// Property asserts, assumptions (__VERIFIER_assume, assume_abort_if_not) are Assume, abort/exit
// end the program, __VERIFIER_nondet_* are Havocs whose message names the call (traces print
// the value), __VERIFIER_atomic_begin/end delimit an atomic section, and Goblint's test
// annotations (__goblint_assume, __goblint_check, ...) mean what its goblint.h says.
#include "frontend/translator.hpp"

namespace siren::frontend {

std::optional<ExprRef> Translator::verifier_call(const CallSite& site, bool defined) {
  const CallExpr* ce = site.ce;
  const SourceLocation loc = site.loc;
  const std::string& name = site.name;
  const unsigned nargs = site.nargs;
  const bool is_void = site.is_void;
  const Type ret_t = site.ret_t;
  auto arg = [&](unsigned i) { return site.arg(i); };
  auto side_effects_only = [&](unsigned from) { site.side_effects_only(from); };
  auto zero = [&] { return site.zero(); };
  auto property_fail = [&](const std::string& msg, ExprRef cond) {
    ir::Instr in;
    in.kind = InstrKind::Assert;
    in.assert_kind = ir::AssertKind::Property;
    in.a = cond ? cond : em().mk_false();
    in.message = msg;
    emit(std::move(in));
  };
  auto string_arg = [&](unsigned i) -> std::string {
    if (i < nargs)
      if (const auto* sl = dyn_cast<StringLiteral>(strip(ce->getArg(i))))
        if (sl->getCharByteWidth() == 1) return sl->getString().str();
    return "?";
  };

  // --- errors and assertions
  if (name == "reach_error" || name == "__VERIFIER_error") {
    property_fail("reach_error() called", nullptr);
    return zero();
  }
  if (name == "__assert_fail" || name == "__assert_rtn" || name == "__assert" || name == "_assert") {
    unsigned i = name == "__assert_rtn" ? 3 : 0;
    property_fail("assert(" + string_arg(i) + ")", nullptr);
    return zero();
  }
  if (!defined && (name == "assert" || name == "__VERIFIER_assert")) {
    ExprRef c = to_bool(rvalue(arg(0)));
    property_fail("assert(" + source_text(arg(0)->getSourceRange()) + ")", c);
    return zero();
  }
  if (!defined && (name == "__VERIFIER_assume" || name == "assume_abort_if_not" || name == "assume" ||
                   name == "__goblint_assume")) {  // (Goblint's, below)
    emit(InstrKind::Assume, to_bool(rvalue(arg(0))));
    return zero();
  }
  // --- Goblint's annotations (goblint.h of its regression tests, ../shared/benchmarks/
  // goblint-races): __goblint_assume is an assumption (above), __goblint_assume_join a join
  // the analyser may take as done (a join waits until it is), and the others tell the analyser
  // what to check or how and change nothing when the program runs: their arguments are
  // evaluated (a read there is an access), and a failing __goblint_check does not stop the
  // program (an Assert would end the execution there and hide the races after it)
  if (!defined && name == "__goblint_assume_join" && nargs == 1) {
    emit(InstrKind::ThreadJoin, conv(Type::integer(64, false), rvalue(arg(0))), em().mk_const(Type::pointer(), 0));
    return zero();
  }
  if (!defined && (name == "__goblint_check" || name == "__goblint_assert" || name == "__goblint_globalize" ||
                   name == "__goblint_split_begin" || name == "__goblint_split_end" || name == "__goblint_bounded")) {
    for (unsigned k = 0; k < nargs; ++k) tmp_of(rvalue(arg(k)));  // the reads happen
    emit(InstrKind::Skip);
    return zero();
  }
  if (name == "abort" || name == "exit" || name == "_Exit" || name == "_exit" || name == "quick_exit" || name == "__builtin_abort" ||
      name == "__builtin_trap" || name == "__builtin_unreachable") {
    side_effects_only(0);
    emit(InstrKind::Abort);
    return zero();
  }
  if (name == "__builtin_expect") {
    ExprRef v = rvalue(arg(0));
    side_effects_only(1);
    return v;
  }
  // --- nondeterminism and atomicity
  if (starts_with(name, "__VERIFIER_nondet_")) {
    if (is_void) return nullptr;
    if (ce->getType()->isRealFloatingType()) unsupported(loc, "floating-point type");
    LocalId t = new_tmp(ret_t);
    ir::Instr h;
    h.kind = InstrKind::Havoc;
    h.lhs = t;
    h.message = name + "()";  // a __VERIFIER_nondet_* call (traces say its value), also in a macro
    emit(std::move(h));
    return em().mk_local(ret_t, t);
  }
  if (name == "__VERIFIER_atomic_begin") {
    explicit_atomic_begin_ = loc;
    emit(InstrKind::AtomicBegin);
    return zero();
  }
  if (name == "__VERIFIER_atomic_end") { emit(InstrKind::AtomicEnd); return zero(); }

  return std::nullopt;
}

}  // namespace siren::frontend
