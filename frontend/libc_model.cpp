// Models of the C library: malloc, calloc, alloca and free (a heap object per call site,
// typed by the pointer the result is converted to, else at its first use:
// untyped_malloc_type), output functions, and those that are more
// than one instruction (libc_call): strcpy, strncpy,
// strlen, strcmp, memset and memcpy are emitted in place as loops of one-access instructions,
// so that other threads interleave between their single-cell reads and writes as with a
// byte-by-byte libc (rv_string_call); main's argc and argv are nondeterministic input
// (main_arguments), and sscanf reads main's argument strings as arbitrary strings (rv_sscanf).
#include "frontend/translator.hpp"

#include <clang/AST/ParentMapContext.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace siren::frontend {

// ---------------------------------------------------------------------------------------
// Library models: string.h, main's arguments, sscanf

namespace {
QualType pointee_of(ASTContext& ctx, const Expr* e) {  // of the argument before any cast
  const QualType t = e->IgnoreParenCasts()->getType();
  if (const auto* at = ctx.getAsArrayType(t)) return at->getElementType();
  if (t->isPointerType()) return t->getPointeeType();
  return QualType();
}
}  // namespace

// Whether only the sign of integer expression `e` is observable: it is only compared with 0
// (`e == 0`, `e < 0`, ...), negated, used as a condition or an operand of && / ||, possibly
// through parentheses and widening casts to a signed type or to bool.
bool Translator::sign_only(const Expr* e) {
  for (int depth = 0; depth < 16; ++depth) {
    const auto parents = ctx_.getParents(*e);
    if (parents.size() != 1) return false;
    const DynTypedNode& p = parents[0];
    if (const auto* pe = p.get<ParenExpr>()) {
      e = pe;
      continue;
    }
    if (const auto* ic = p.get<ImplicitCastExpr>()) {
      const bool widen = ic->getCastKind() == CK_IntegralCast && ic->getType()->isSignedIntegerType() &&
                         ctx_.getTypeSize(ic->getType()) >= ctx_.getTypeSize(e->getType());
      if (!widen && ic->getCastKind() != CK_IntegralToBoolean) return false;
      e = ic;
      continue;
    }
    if (const auto* uo = p.get<UnaryOperator>()) return uo->getOpcode() == UO_LNot;
    if (const auto* bo = p.get<BinaryOperator>()) {
      if (bo->getOpcode() == BO_LAnd || bo->getOpcode() == BO_LOr) return true;
      if (!bo->isComparisonOp()) return false;
      const Expr* other = bo->getLHS()->IgnoreParenImpCasts() == e->IgnoreParenImpCasts() ? bo->getRHS() : bo->getLHS();
      Expr::EvalResult r;
      return other->EvaluateAsInt(r, ctx_) && r.Val.isInt() && r.Val.getInt() == 0;
    }
    if (const auto* is = p.get<IfStmt>()) return is->getCond() == e;
    if (const auto* ws = p.get<WhileStmt>()) return ws->getCond() == e;
    if (const auto* ds = p.get<DoStmt>()) return ds->getCond() == e;
    if (const auto* fs = p.get<ForStmt>()) return fs->getCond() == e;
    if (const auto* co = p.get<ConditionalOperator>()) return co->getCond() == e;
    return false;
  }
  return false;
}

// The type of an allocation whose result is not converted at the call (`void *p =
// malloc(n)`, `f(malloc(n))`), typed at its first use: (1) the pointer type that the
// variable holding the result is first converted to in its scope, in source order
// (`struct foo *f = p;`, `((int *)p)[i]`; a local's function, a global's whole file); else
// (2) T of a `sizeof(T)` factor of the size (`malloc(sizeof(T))`, `n * sizeof(T)`, calloc's
// `sizeof(T)`); else (3) bytes (`unsigned char`). Any choice is sound: an access finds its cell by its first byte and must
// fit it (docs/semantics.md, "Memory"), so an access that does not match the chosen layout is
// a memory-safety UNKNOWN, never a wrong cell.
QualType Translator::untyped_malloc_type(const CallExpr* ce, unsigned first_size_arg, unsigned size_args) {
  // (1) the variable the result is stored in: `void *p = malloc(..)` or `p = malloc(..)`
  const VarDecl* var = nullptr;
  const Expr* e = ce;
  for (int depth = 0; depth < 8 && !var; ++depth) {
    const auto parents = ctx_.getParents(*e);
    if (parents.size() != 1) break;
    if (const auto* pe = parents[0].get<ParenExpr>()) {
      e = pe;
    } else if (const auto* ic = parents[0].get<ImplicitCastExpr>()) {
      e = ic;
    } else if (const auto* vd = parents[0].get<VarDecl>()) {
      if (vd->getInit() && vd->getInit()->IgnoreParenImpCasts() == ce) var = vd;
      break;
    } else if (const auto* bo = parents[0].get<BinaryOperator>()) {
      if (bo->getOpcode() == BO_Assign && bo->getRHS()->IgnoreParenImpCasts() == ce)
        if (const auto* dr = dyn_cast<DeclRefExpr>(bo->getLHS()->IgnoreParenImpCasts()))
          var = dyn_cast<VarDecl>(dr->getDecl());
      break;
    } else {
      break;
    }
  }
  if (var) {
    QualType first;
    std::function<void(const Stmt*)> walk = [&](const Stmt* st) {
      if (!st) return;
      if (const auto* c = dyn_cast<CastExpr>(st);
          c && c->getCastKind() == CK_BitCast && c->getType()->isPointerType())
        if (const auto* dr = dyn_cast<DeclRefExpr>(c->getSubExpr()->IgnoreParenImpCasts());
            dr && dr->getDecl() == var) {
          const QualType t = c->getType()->getPointeeType().getUnqualifiedType();
          if (first.isNull() && !t->isVoidType() && !t->isIncompleteType() && !t->isFunctionType())
            first = t;
        }
      for (const Stmt* kid : st->children()) walk(kid);
    };
    const DeclContext* scope = var->getParentFunctionOrMethod();
    if (const auto* fd = scope ? dyn_cast<FunctionDecl>(scope) : nullptr) {
      walk(fd->getBody());
    } else {  // a global: every function body and initialiser of the translation unit
      for (const Decl* d : ctx_.getTranslationUnitDecl()->decls()) {
        if (const auto* f = dyn_cast<FunctionDecl>(d)) walk(f->getBody());
        if (const auto* vd = dyn_cast<VarDecl>(d)) walk(vd->getInit());
      }
    }
    if (!first.isNull()) return first;
  }
  // (2) a sizeof(T) factor of the size
  std::function<QualType(const Expr*)> sizeof_factor = [&](const Expr* x) -> QualType {
    x = x->IgnoreParenImpCasts();
    if (const auto* u = dyn_cast<UnaryExprOrTypeTraitExpr>(x); u && u->getKind() == UETT_SizeOf)
      return u->getTypeOfArgument();
    if (const auto* bo = dyn_cast<BinaryOperator>(x); bo && bo->getOpcode() == BO_Mul) {
      if (QualType t = sizeof_factor(bo->getLHS()); !t.isNull()) return t;
      return sizeof_factor(bo->getRHS());
    }
    return QualType();
  };
  for (unsigned i = first_size_arg; i < first_size_arg + size_args && i < ce->getNumArgs(); ++i) {
    const QualType t = sizeof_factor(ce->getArg(i));
    if (!t.isNull() && !t->isVoidType() && !t->isIncompleteType() && !t->isFunctionType())
      return t.getUnqualifiedType();
  }
  return ctx_.UnsignedCharTy;
}

// A heap object for the allocation at `site` (malloc, calloc, alloca, realloc), its size the
// product of the `size_args` arguments from `first_size_arg`: typed by the pointer the result
// is converted to (`type`), else at its first use (untyped_malloc_type). Returns the pointer to
// it, its element type, its number of elements and (need_size) the size requested in bytes.
Translator::HeapObject Translator::heap_object(const CallSite& site, QualType malloc_type, unsigned first_size_arg,
                                               unsigned size_args, bool need_size) {
  const CallExpr* ce = site.ce;
  const SourceLocation loc = site.loc;
  const std::string& name = site.name;
  auto arg = [&](unsigned i) { return site.arg(first_size_arg + i); };
  const bool is_calloc = name == "calloc";
  if (malloc_type.isNull() || malloc_type->isVoidType())
    malloc_type = untyped_malloc_type(ce, first_size_arg, size_args);
  if (malloc_type->isIncompleteType() || malloc_type->isFunctionType())
    unsupported(loc, name + "() of an incomplete type '" + malloc_type.getAsString() + "'");
  // The size: a fixed value (fixed_value: constants, never-modified variables) gives an
  // exact object; otherwise the object has FrontendOptions::capacity elements, whatever the
  // request: an access past them fails its ValidPtr check (UNKNOWN, never a verdict;
  // note_capacity says why in the message), an access below them is exact. Cells past a smaller request are
  // addressable: an out-of-bounds access there, undefined in C, is not reported.
  const Type size_t_ty = Type::integer(64, false);
  const std::uint64_t esize = std::max<std::uint64_t>(1, ctx_.getTypeSizeInChars(malloc_type).getQuantity());
  std::vector<ExprRef> sizes;
  bool fixed = true;
  for (unsigned i = 0; i < size_args; ++i) {
    ExprRef v = fixed_value(arg(i));
    if (!v) fixed = false;
    sizes.push_back(v ? conv(size_t_ty, v) : nullptr);
  }
  std::uint64_t count = options_.capacity;
  if (fixed) {
    std::uint64_t bytes = 1;
    for (ExprRef v : sizes)
      if (__builtin_mul_overflow(bytes, v->value, &bytes)) unsupported(loc, name + "() size overflows");
    count = std::max<std::uint64_t>(1, bytes / esize + (bytes % esize != 0));
  } else {
    for (unsigned i = 0; i < sizes.size(); ++i) {  // evaluated; the object has the capacity
      if (sizes[i]) continue;
      if (need_size) sizes[i] = tmp_of(conv(size_t_ty, rvalue(arg(i))));
      else if (needs_instrs(arg(i))) rvalue(arg(i), false);
    }
  }
  ExprRef requested = nullptr;  // the product of the sizes (need_size)
  for (ExprRef v : sizes)
    if (need_size) requested = requested ? em().mk_binary(Op::Mul, requested, v) : v;
  if (count > 100000 || count * cells_of(malloc_type, loc) > 100000)
    unsupported(loc, name + "() of more than 100000 cells");
  ir::Object o;
  o.kind = ir::ObjectKind::Heap;
  o.name = name + "@" + std::to_string(sm_.getExpansionLineNumber(ce->getBeginLoc()));
  o.loc = ir_loc(ce->getBeginLoc());
  std::vector<CellSpec> specs;
  for (std::uint64_t i = 0; i < count; ++i)
    flatten(malloc_type, count == 1 ? o.name : o.name + "[" + std::to_string(i) + "]", loc, specs, i * esize);
  add_cells(o, specs, count * esize, !is_calloc);
  if (!fixed) capped_.push_back(o.name);
  ir::Instr in;
  in.kind = InstrKind::Malloc;
  in.obj = prog_.add_object(std::move(o));
  in.lhs = new_tmp(Type::pointer());
  LocalId lhs = in.lhs;
  emit(std::move(in));
  return {em().mk_local(Type::pointer(), lhs), malloc_type, count, requested};
}

// realloc(p, n) (C11 7.22.3.5): a new object of n bytes at this call site, typed as malloc's
// (by the pointer the result is converted to, else by p's type before its conversion to
// void *); when p is not null, p's elements are copied into it while the new object has room
// and p's object has them (a ValidPtr test of each element's first cell: a smaller p leaves
// the rest of the new object indeterminate, as C says), then p is freed: Free's memory-safety
// check (p null or the start of a live heap object) and, for data races, a write of p's whole
// object; the copy reads each of its cells. It never fails, as malloc never returns null. A size
// of 0 is not modelled (implementation-defined, C11 7.22.3p1: glibc frees p and returns null):
// unsupported when fixed, else a Limit where it is 0.
ExprRef Translator::rv_realloc(const CallSite& site, QualType malloc_type) {
  const SourceLocation loc = site.loc;
  if (site.nargs != 2) unsupported(loc, "call to 'realloc' with " + std::to_string(site.nargs) + " arguments");
  ExprRef old = tmp_of(site.ptr_arg(0));
  if (malloc_type.isNull() || malloc_type->isVoidType()) malloc_type = pointee_of(ctx_, site.ce->getArg(0));
  if (ExprRef n = fixed_value(site.arg(1)); n && n->value == 0)
    unsupported(loc, "realloc to size 0 (implementation-defined: glibc frees the object and returns null)");
  const HeapObject fresh = heap_object(site, malloc_type, 1, 1, true);
  if (!fresh.bytes->is_const())
    assert_limit(em().mk_binary(Op::Ne, fresh.bytes, em().mk_const(fresh.bytes->type, 0)),
                 "realloc to size 0 (implementation-defined: glibc frees the object and returns null)");
  const Type i64 = Type::integer(64, true);
  const std::uint64_t es = std::max<std::int64_t>(1, ctx_.getTypeSizeInChars(fresh.type).getQuantity());
  std::vector<CellSpec> cells;
  flatten(fresh.type, "", loc, cells);
  for (const CellSpec& c : cells)
    if (c.kind != CellKind::Data) unsupported(loc, "realloc of an object that holds a synchronization object");
  auto at = [&](ExprRef p, ExprRef off) { return em().mk_binary(Op::PtrAdd, p, off); };
  const int done = new_label(), head = new_label(), copied = new_label();
  jump(done, em().mk_binary(Op::Eq, old, em().mk_null()));
  LocalId i = new_tmp(i64);  // the byte offset of the element
  emit(InstrKind::Assign, int_const(0), nullptr, i);
  ExprRef iv = em().mk_local(i64, i);
  place(head);
  jump(copied, em().mk_binary(Op::Eq, iv, int_const(static_cast<std::int64_t>(fresh.count * es))));
  if (!cells.empty()) {
    ExprRef first = at(old, cells[0].offset == 0 ? iv : em().mk_binary(Op::Add, iv, int_const(static_cast<std::int64_t>(cells[0].offset))));
    jump(copied, em().mk_unary(Op::LNot, em().mk_valid_ptr(first, access_size(cells[0].type))));
  }
  for (const CellSpec& c : cells) {
    ExprRef off = c.offset == 0 ? iv : em().mk_binary(Op::Add, iv, int_const(static_cast<std::int64_t>(c.offset)));
    ExprRef from = at(old, off), to = at(fresh.ptr, off);
    check_ptr(from, access_size(c.type));
    LocalId v = new_tmp(c.type);
    emit(InstrKind::Assign, em().mk_load(c.type, from), nullptr, v);
    check_ptr(to, access_size(c.type));
    emit(InstrKind::Store, to, em().mk_local(c.type, v));
  }
  emit(InstrKind::Assign, em().mk_binary(Op::Add, iv, int_const(static_cast<std::int64_t>(es))), nullptr, i);
  jump(head);
  place(copied);
  emit(InstrKind::Free, old);
  place(done);
  return site.want && !site.is_void ? fresh.ptr : nullptr;
}

// ---------------------------------------------------------------------------------------
// The C library calls modelled here or in rv_string_call / rv_sscanf (libc_call): malloc,
// calloc, alloca and free, string.h, sscanf, and output functions (their arguments are
// evaluated, their result is arbitrary).

std::optional<ExprRef> Translator::libc_call(const CallSite& site, bool defined, QualType malloc_type) {
  const CallExpr* ce = site.ce;
  const SourceLocation loc = site.loc;
  const std::string& name = site.name;
  const bool want = site.want;
  auto arg = [&](unsigned i) { return site.arg(i); };
  auto ptr_arg = [&](unsigned i) { return site.ptr_arg(i); };
  auto side_effects_only = [&](unsigned from) { site.side_effects_only(from); };
  auto zero = [&] { return site.zero(); };
  // --- heap
  if (name == "malloc" || name == "calloc" || name == "__builtin_malloc" || name == "alloca" ||
      name == "__builtin_alloca")
    return heap_object(site, malloc_type, 0, name == "calloc" ? 2 : 1).ptr;
  if (name == "realloc" && !defined) return rv_realloc(site, malloc_type);
  if (name == "free") {
    emit(InstrKind::Free, ptr_arg(0));
    return zero();
  }
  // --- string.h and sscanf (below)
  if (!defined) {
    const std::string base = starts_with(name, "__builtin_") ? name.substr(10) : name;
    if (base == "strcpy" || base == "strncpy" || base == "strlen" || base == "strcmp" || base == "memset" ||
        base == "memcpy")
      return rv_string_call(base, ce, want);
    if (name == "sscanf" || name == "__isoc99_sscanf") return rv_sscanf(ce, want);
    if (name == "scanf" || name == "__isoc99_scanf") return rv_sscanf(ce, want, true);
  }
  // --- output
  if (name == "printf" || name == "puts" || name == "putchar" || name == "fprintf" || name == "fflush" ||
      name == "fputs" || name == "sprintf" || name == "snprintf" || name == "perror" || name == "usleep" ||
      name == "sleep") {
    if (name == "sprintf" || name == "snprintf") {
      // The kernel's: writes arbitrary bytes to an array argument (rv_undefined_call).
      if (kernel_environment()) return std::nullopt;
      unsupported(loc, "call to undefined function '" + name + "'");
    }
    // printf's %n writes the count through a pointer: a format that is not a literal may hold it.
    if (name == "printf" || name == "fprintf") {
      const unsigned fi = name == "printf" ? 0 : 1;
      const auto* lit = fi < site.nargs ? dyn_cast<StringLiteral>(arg(fi)->IgnoreParenImpCasts()) : nullptr;
      if (!lit) unsupported(loc, "call to '" + name + "' with a format that is not a string literal (a %n in it "
                                 "would write through a pointer)");
      const std::string f = lit->getBytes().str();
      for (std::size_t i = 0; i + 1 < f.size(); ++i)
        if (f[i] == '%') {
          std::size_t j = i + 1;
          if (f[j] == '%') {
            i = j;
            continue;
          }
          while (j < f.size() && std::strchr("-+ #0123456789.*hlLqjzt'", f[j])) ++j;
          if (j < f.size() && f[j] == 'n') unsupported(loc, "'" + name + "' with %n (writes through a pointer)");
          i = j;
        }
    }
    side_effects_only(0);
    // The result (characters written, or a negative error) is an arbitrary int, as for a
    // function without a body: a counterexample that uses it is confirmed natively.
    if (!want || site.is_void) return nullptr;
    LocalId t = new_tmp(site.ret_t);
    ir::Instr h;
    h.kind = InstrKind::Havoc;
    h.lhs = t;
    h.message = name + "()";
    emit(std::move(h));
    return em().mk_local(site.ret_t, t);
  }

  return std::nullopt;
}

// strcpy, strncpy, strlen, strcmp, memset, memcpy (declared, not defined by the program),
// emitted in place as loops over single cells: each read and each write is one instruction
// with its ValidPtr check, as in a byte-by-byte libc, so other threads can interleave between
// them. Characters are `char` cells. strcmp's result is any int of the right sign (C fixes
// only the sign; -1/0/1 when only the sign is observed). memset and memcpy work on the cells of the pointee type T of their pointer
// argument before its conversion to void*: n bytes must be whole elements of T (a constant n
// that is not is unsupported, another n a Limit error), and memset's byte must be one that
// every cell can hold (pointers: 0 only). strcpy from a literal writes the literal's
// characters directly: a literal never changes (guard_literal_writes).
ExprRef Translator::rv_string_call(const std::string& name, const CallExpr* ce, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  const unsigned nargs = ce->getNumArgs();
  const unsigned need = name == "strlen" ? 1u : (name == "strcpy" || name == "strcmp") ? 2u : 3u;
  if (nargs != need) unsupported(loc, "call to '" + name + "' with " + std::to_string(nargs) + " arguments");
  const Type i64 = Type::integer(64, true), u64 = Type::integer(64, false), chr = Type::integer(8, true),
             uchr = Type::integer(8, false);
  auto ptr_arg = [&](unsigned i) { return tmp_of(conv(Type::pointer(), rvalue(ce->getArg(i)))); };
  auto at = [&](ExprRef p, ExprRef off) { return em().mk_binary(Op::PtrAdd, p, off); };
  auto load_at = [&](Type t, ExprRef addr) {
    check_ptr(addr, access_size(t));
    LocalId l = new_tmp(t);
    emit(InstrKind::Assign, em().mk_load(t, addr), nullptr, l);
    return em().mk_local(t, l);
  };
  auto store_at = [&](ExprRef addr, ExprRef v) {
    check_ptr(addr, access_size(v->type));
    emit(InstrKind::Store, addr, v);
  };
  auto counter = [&]() {
    LocalId i = new_tmp(i64);
    emit(InstrKind::Assign, int_const(0), nullptr, i);
    return em().mk_local(i64, i);
  };
  auto incr = [&](ExprRef i, std::uint64_t k) {
    emit(InstrKind::Assign, em().mk_binary(Op::Add, i, int_const(static_cast<std::int64_t>(k))), nullptr,
         static_cast<LocalId>(i->value));
  };
  auto result = [&](ExprRef v) -> ExprRef {
    if (!want || ce->getType()->isVoidType()) return nullptr;
    return conv(scalar_type(ce->getType(), loc), v);
  };
  const ExprRef zero_chr = em().mk_const(chr, 0);

  if (name == "strlen") {
    ExprRef s = ptr_arg(0);
    ExprRef i = counter();
    int head = new_label(), end = new_label();
    place(head);
    ExprRef c = load_at(chr, at(s, i));
    jump(end, em().mk_binary(Op::Eq, c, zero_chr));
    incr(i, 1);
    jump(head);
    place(end);
    return result(i);
  }
  if (name == "strcmp") {
    ExprRef a = ptr_arg(0), b = ptr_arg(1);
    ExprRef i = counter();
    int head = new_label(), out = new_label();
    place(head);
    ExprRef c1 = load_at(uchr, at(a, i));
    ExprRef c2 = load_at(uchr, at(b, i));
    jump(out, em().mk_binary(Op::Ne, c1, c2));
    incr(i, 1);
    jump(head, em().mk_binary(Op::Ne, c1, em().mk_const(uchr, 0)));
    place(out);
    if (!want) return nullptr;
    const Type rt = scalar_type(ce->getType(), loc);
    if (sign_only(ce))  // every value of the right sign behaves the same
      return em().mk_ite(em().mk_binary(Op::Eq, c1, c2), em().mk_const(rt, 0),
                         em().mk_ite(em().mk_binary(Op::Ult, c1, c2), em().mk_int(rt, -1), em().mk_int(rt, 1)));
    LocalId r = new_tmp(rt);
    emit(InstrKind::Havoc, nullptr, nullptr, r);
    ExprRef rv = em().mk_local(rt, r), z = em().mk_const(rt, 0);
    emit(InstrKind::Assume,
         em().mk_ite(em().mk_binary(Op::Eq, c1, c2), em().mk_binary(Op::Eq, rv, z),
                     em().mk_ite(em().mk_binary(Op::Ult, c1, c2), em().mk_binary(Op::Slt, rv, z),
                                 em().mk_binary(Op::Slt, z, rv))));
    return rv;
  }
  if (name == "strcpy") {
    ExprRef d = ptr_arg(0);
    const Expr* src = ce->getArg(1)->IgnoreParenCasts();
    if (const auto* pe = dyn_cast<PredefinedExpr>(src); pe && pe->getFunctionName()) src = pe->getFunctionName();
    if (const auto* sl = dyn_cast<StringLiteral>(src); sl && sl->getCharByteWidth() == 1) {
      const std::string str = sl->getString().str();
      const std::size_t len = std::min(str.size(), str.find('\0'));
      for (std::size_t k = 0; k <= len; ++k)
        store_at(at(d, int_const(static_cast<std::int64_t>(k))),
                 em().mk_const(chr, ir::normalize(chr, k < len ? static_cast<unsigned char>(str[k]) : 0)));
      return result(d);
    }
    ExprRef s = ptr_arg(1);
    ExprRef i = counter();
    int head = new_label();
    place(head);
    ExprRef c = load_at(chr, at(s, i));
    store_at(at(d, i), c);
    incr(i, 1);
    jump(head, em().mk_binary(Op::Ne, c, zero_chr));
    return result(d);
  }
  if (name == "strncpy") {
    ExprRef d = ptr_arg(0), s = ptr_arg(1);
    ExprRef n = tmp_of(conv(i64, rvalue(ce->getArg(2))));
    ExprRef i = counter();
    int copy = new_label(), pad = new_label(), end = new_label();
    place(copy);
    jump(end, em().mk_binary(Op::Eq, i, n));
    ExprRef c = load_at(chr, at(s, i));
    store_at(at(d, i), c);
    incr(i, 1);
    jump(copy, em().mk_binary(Op::Ne, c, zero_chr));
    place(pad);  // the rest of the n characters are 0
    jump(end, em().mk_binary(Op::Eq, i, n));
    store_at(at(d, i), zero_chr);
    incr(i, 1);
    jump(pad);
    place(end);
    return result(d);
  }

  // memset / memcpy
  const bool is_set = name == "memset";
  ExprRef d = ptr_arg(0);
  QualType t = pointee_of(ctx_, ce->getArg(0));
  ExprRef s = nullptr, byte = nullptr;
  std::vector<CellSpec> from;  // memcpy between layouts that differ only in signedness: the source's cells
  if (is_set) {
    ExprRef c = fixed_value(ce->getArg(1));
    byte = c ? em().mk_const(uchr, c->value & 0xff) : tmp_of(conv(uchr, rvalue(ce->getArg(1))));
  } else {
    s = ptr_arg(1);
    const QualType ts = pointee_of(ctx_, ce->getArg(1));
    if (t.isNull() || t->isVoidType()) {
      t = ts;
    } else if (!ts.isNull() && !ts->isVoidType()) {
      std::vector<CellSpec> a, b;
      flatten(t, "", loc, a);
      flatten(ts, "", loc, b);
      bool same = a.size() == b.size() && ctx_.getTypeSizeInChars(t) == ctx_.getTypeSizeInChars(ts);
      // Integers of one width are the same bytes whatever their signedness (char and u8).
      auto bytes_alike = [](ir::Type x, ir::Type y) { return x == y || (x.is_int() && y.is_int() && x.width == y.width); };
      for (std::size_t k = 0; same && k < a.size(); ++k)
        same = bytes_alike(a[k].type, b[k].type) && a[k].kind == b[k].kind && a[k].offset == b[k].offset;
      if (same) from = std::move(b);
      if (!same)
        unsupported(loc, "memcpy from '" + ts.getAsString() + "' to '" + t.getAsString() + "' (different cell layouts)");
    }
  }
  if (t.isNull() || t->isVoidType() || t->isIncompleteType() || t->isFunctionType()) {
    // No cells to work on: a modelling limit where the call is reached (zstd's custom
    // allocator path, which a program without one never takes), not a refusal of the program.
    rvalue(ce->getArg(2), false);  // the destination (and source or byte) are evaluated above
    assert_limit(em().mk_bool(false), name + " through a pointer whose element type is unknown");
    return result(d);
  }
  std::vector<CellSpec> cells;
  flatten(t, "", loc, cells);
  const std::uint64_t k = cells.size();
  const std::uint64_t es = static_cast<std::uint64_t>(ctx_.getTypeSizeInChars(t).getQuantity());
  std::vector<ExprRef> values;  // memset: the value of each cell of an element
  if (is_set) {
    const bool zero = byte->is_const() && byte->value == 0;
    for (const CellSpec& c : cells) {
      if (zero) {
        values.push_back(c.type.is_ptr() ? em().mk_null() : em().mk_const(c.type, 0));
        continue;
      }
      if (c.type.is_ptr()) unsupported(loc, "memset of a pointer to a nonzero byte");
      if (c.kind != CellKind::Data) unsupported(loc, "memset of a synchronization object to a nonzero byte");
      if (c.type.is_bool()) {
        if (!byte->is_const() || byte->value > 1) unsupported(loc, "memset of a _Bool to a byte other than 0 or 1");
        values.push_back(em().mk_bool(byte->value != 0));
        continue;
      }
      std::uint64_t rep = 0;
      for (unsigned b = 0; b < c.type.width; b += 8) rep |= 1ULL << b;
      ExprRef v = conv(c.type, byte);  // the byte in every byte of the cell
      values.push_back(rep == 1 ? v : em().mk_binary(Op::Mul, v, em().mk_const(c.type, ir::normalize(c.type, rep))));
    }
  }
  auto element_cell = [&](ExprRef base, std::uint64_t j) {  // cell j of the element at byte `base`
    const auto off = static_cast<std::int64_t>(cells[j].offset);
    ExprRef o = off == 0 ? base : em().mk_binary(Op::Add, base, int_const(off));
    if (is_set) {
      store_at(at(d, o), values[j]);
    } else {
      ExprRef v = from.empty() ? load_at(cells[j].type, at(s, o)) : conv(cells[j].type, load_at(from[j].type, at(s, o)));
      store_at(at(d, o), v);
    }
  };
  ExprRef n = fixed_value(ce->getArg(2));
  if (n) {
    const std::uint64_t bytes = conv(u64, n)->value;
    if (es == 0 || bytes % es != 0)
      unsupported(loc, name + " of " + std::to_string(bytes) + " bytes: not whole elements of '" + t.getAsString() + "'");
    const std::uint64_t count = bytes / es;
    if (count * k <= 32) {  // unrolled
      for (std::uint64_t e = 0; e < count; ++e)
        for (std::uint64_t j = 0; j < k; ++j) element_cell(int_const(static_cast<std::int64_t>(e * es)), j);
      return result(d);
    }
    n = int_const(static_cast<std::int64_t>(count * es));
  } else {
    ExprRef nb = tmp_of(conv(u64, rvalue(ce->getArg(2))));
    if (es == 0) unsupported(loc, name + " of a zero-size element type");
    assert_limit(em().mk_binary(Op::Eq, em().mk_binary(Op::URem, nb, em().mk_const(u64, es)), em().mk_const(u64, 0)),
                 name + " of a size that is not whole elements of '" + t.getAsString() + "'");
    n = tmp_of(conv(i64, nb));
  }
  ExprRef i = counter();  // the byte offset of the element
  int head = new_label(), end = new_label();
  place(head);
  jump(end, em().mk_binary(Op::Eq, i, n));
  for (std::uint64_t j = 0; j < k; ++j) element_cell(i, j);
  incr(i, es);
  jump(head);
  place(end);
  return result(d);
}

// main(int argc, char *argv[]): argc is any int >= 1 (C also allows 0; CBMC and SV-COMP assume
// >= 1) and argv points to a hidden Global object of kArgvCells pointer cells: argv[i] is the
// i-th argument string for i < argc and null otherwise. So argv[argc] is null while
// argc < kArgvCells; an access past the object is out of bounds (MemSafety), which covers
// longer argument lists soundly. The strings are objects without cells: their contents are
// unknown input, reading them is out of bounds (MemSafety), and only sscanf uses them, as
// arbitrary strings (rv_sscanf).
void Translator::main_arguments(const FunctionDecl* fd) {
  bool used = false;
  for (const ParmVarDecl* p : fd->parameters()) used |= p->isReferenced();
  if (!used) return;  // unobservable
  if (fd->getNumParams() > 2) unsupported(fd->getParamDecl(2)->getLocation(), "main with an environment parameter");
  if (auto it = scan().calls.find(fd->getCanonicalDecl()); it != scan().calls.end())
    unsupported(it->second.front()->getExprLoc(), "call to main, whose parameters are the command line");
  const bool use_argv = fd->getNumParams() == 2 && fd->getParamDecl(1)->isReferenced();
  const std::string saved_text = cur_text_;
  cur_text_ = "main's arguments";
  const Type at = st_->fn->locals[0].type;
  if (!at.is_int()) unsupported(fd->getParamDecl(0)->getLocation(), "main's first parameter is not an integer");
  const LocalId argc = 0, argv = 1;
  const ExprRef argc_v = em().mk_local(at, argc);
  emit(InstrKind::Havoc, nullptr, nullptr, argc);
  emit(InstrKind::Assume, em().mk_binary(at.is_signed ? Op::Sle : Op::Ule, em().mk_const(at, 1), argc_v));
  if (use_argv) {
    if (!st_->fn->locals[argv].type.is_ptr())
      unsupported(fd->getParamDecl(1)->getLocation(), "main's second parameter is not a pointer");
    for (std::uint64_t i = 0; i < kArgvCells; ++i) {
      ir::Object s;
      s.kind = ir::ObjectKind::Global;
      s.name = "*argv[" + std::to_string(i) + "]";
      s.loc = ir_loc(fd->getParamDecl(1)->getLocation());
      argv_strings_.push_back(prog_.add_object(std::move(s)));
    }
    ir::Object o;
    o.kind = ir::ObjectKind::Global;
    o.name = "argv";
    o.loc = ir_loc(fd->getParamDecl(1)->getLocation());
    const std::uint32_t pb = prog_.pointer_bytes;
    for (std::uint64_t i = 0; i < kArgvCells; ++i) {
      ir::Cell c;
      c.name = "argv[" + std::to_string(i) + "]";
      c.type = Type::pointer();
      c.offset = i * pb;  // C indexes argv in pointers
      c.size = pb;
      if (i == 0) c.init_obj = argv_strings_[0];  // argc >= 1
      o.cells.push_back(std::move(c));
    }
    o.size = kArgvCells * pb;
    const ObjectId obj = prog_.add_object(std::move(o));
    emit(InstrKind::Assign, em().mk_obj_addr(obj, 0), nullptr, argv);
    for (std::uint64_t i = 1; i < kArgvCells; ++i)
      emit(InstrKind::Store, em().mk_obj_addr(obj, static_cast<std::int64_t>(i * pb)),
           em().mk_ite(em().mk_binary(at.is_signed ? Op::Slt : Op::Ult, em().mk_const(at, i), argc_v),
                       em().mk_obj_addr(argv_strings_[i], 0), em().mk_null()));
  }
  cur_text_ = saved_text;
}

// sscanf's string must be one of main's argument strings, read once (see rv_sscanf).
void Translator::sscanf_source(SourceLocation loc, ExprRef str) {
  ExprRef is_arg = em().mk_false();
  for (ObjectId s : argv_strings_)
    is_arg = em().mk_binary(Op::LOr, is_arg, em().mk_binary(Op::Eq, str, em().mk_obj_addr(s, 0)));
  assert_limit(is_arg, "sscanf from a string that is not a command-line argument");
  if (!argv_strings_.empty()) {
    if (!sscanf_flags_) {
      ir::Object o;
      o.kind = ir::ObjectKind::Global;
      o.name = "sscanf read argv";
      o.loc = ir_loc(loc);
      for (std::size_t i = 0; i < argv_strings_.size(); ++i) {
        ir::Cell c;
        c.name = "sscanf read argv[" + std::to_string(i) + "]";
        c.type = Type::integer(32, true);
        c.kind = CellKind::Mutex;
        o.cells.push_back(std::move(c));
      }
      sscanf_flags_ = prog_.add_object(std::move(o));
    }
    ExprRef flag = em().mk_obj_addr(sscanf_flags_, static_cast<std::int64_t>(argv_strings_.size() - 1));
    for (std::size_t i = argv_strings_.size() - 1; i-- > 0;)
      flag = em().mk_ite(em().mk_binary(Op::Eq, str, em().mk_obj_addr(argv_strings_[i], 0)),
                         em().mk_obj_addr(sscanf_flags_, static_cast<std::int64_t>(i)), flag);
    flag = tmp_of(flag);
    check_ptr(flag);
    const Type i32 = Type::integer(32, true);
    LocalId busy = new_tmp(i32);
    emit(InstrKind::TryLock, flag, nullptr, busy);
    assert_limit(em().mk_binary(Op::Eq, em().mk_local(i32, busy), em().mk_const(i32, 0)),
                 "sscanf reads the same command-line argument twice");
  }
}

// sscanf(str, fmt, p1, ..., pk) where str is one of main's argument strings (any other string is
// a Limit error): its contents are arbitrary, so every outcome is possible. The result r is
// any int in [-1 (EOF), k] and p1..pr get arbitrary values of their types (the others keep
// theirs). This is exact for the conversions allowed (integers and single chars: every value
// has a spelling) and for one read of each string: a second read must agree with the first,
// so it is a Limit error (a flag per string, set with a test-and-set so that two threads
// cannot both pass). str itself is not read.
// scanf(fmt, p1, ..., pk) (`from_stdin`): the same outcomes, from standard input, which is
// arbitrary and read on by every call (no second read of the same text, so no flag).
ExprRef Translator::rv_sscanf(const CallExpr* ce, bool want, bool from_stdin) {
  const SourceLocation loc = ce->getExprLoc();
  const unsigned fa = from_stdin ? 0 : 1;  // the format's argument
  const char* fn = from_stdin ? "scanf" : "sscanf";
  if (ce->getNumArgs() < fa + 1) unsupported(loc, std::string(fn) + " without a format");
  const auto* fl = dyn_cast<StringLiteral>(ce->getArg(fa)->IgnoreParenCasts());
  if (!fl || fl->getCharByteWidth() != 1) unsupported(loc, std::string(fn) + " with a format that is not a string literal");
  const std::string f = fl->getString().str();
  std::vector<unsigned> bits;  // per assigning conversion: the pointee's width
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') continue;
    if (++i < f.size() && f[i] == '%') continue;
    const bool suppress = i < f.size() && f[i] == '*';
    if (suppress) ++i;
    std::uint64_t width = 0;
    bool has_width = false;
    while (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i]))) {
      width = width * 10 + static_cast<std::uint64_t>(f[i++] - '0');
      has_width = true;
    }
    unsigned w = 32;
    bool has_len = true;
    if (f.compare(i, 2, "hh") == 0) w = 8, i += 2;
    else if (f.compare(i, 2, "ll") == 0) w = 64, i += 2;
    else if (i < f.size() && f[i] == 'h') w = 16, ++i;
    else if (i < f.size() && (f[i] == 'l' || f[i] == 'j' || f[i] == 'z' || f[i] == 't')) w = 64, ++i;
    else has_len = false;
    if (i >= f.size()) unsupported(loc, std::string(fn) + " format ends inside a conversion");
    const char c = f[i];
    if (c == '[') {  // skip the scan set: ']' first is a member
      if (++i < f.size() && f[i] == '^') ++i;
      if (i < f.size() && f[i] == ']') ++i;
      while (i < f.size() && f[i] != ']') ++i;
    }
    if (suppress && c != 'n') continue;  // consumes input, assigns nothing, not counted
    if (std::strchr("diouxX", c)) bits.push_back(w);
    else if (c == 'c' && !has_len && (!has_width || width == 1)) bits.push_back(8);
    else unsupported(loc, std::string(fn) + " conversion '%" + c + "' (only integers and single chars)");
  }
  const unsigned k = static_cast<unsigned>(bits.size());
  const unsigned first = fa + 1;  // the first pointer argument
  if (ce->getNumArgs() < first + k) unsupported(loc, std::string(fn) + " with fewer arguments than conversions");
  std::vector<Type> types;
  for (unsigned j = 0; j < k; ++j) {
    const Expr* a = ce->getArg(first + j);
    const QualType pt = a->getType()->isPointerType() ? a->getType()->getPointeeType() : QualType();
    if (pt.isNull() || !pt->isIntegerType() || pt->isBooleanType() || ctx_.getTypeSize(pt) != bits[j])
      unsupported(a->getExprLoc(), std::string(fn) + " argument of type '" + a->getType().getAsString() +
                                       "' for a conversion of " + std::to_string(bits[j]) + " bits");
    types.push_back(scalar_type(pt, a->getExprLoc()));
  }
  ExprRef str = from_stdin ? nullptr : tmp_of(conv(Type::pointer(), rvalue(ce->getArg(0))));
  std::vector<ExprRef> ptrs;
  for (unsigned j = first; j < ce->getNumArgs(); ++j) {
    if (j < first + k) ptrs.push_back(tmp_of(conv(Type::pointer(), rvalue(ce->getArg(j)))));
    else rvalue(ce->getArg(j), false);  // excess arguments are evaluated and ignored
  }
  if (!from_stdin) sscanf_source(loc, str);
  const Type rt = Type::integer(32, true);
  LocalId r = new_tmp(rt);
  emit(InstrKind::Havoc, nullptr, nullptr, r);
  ExprRef rv = em().mk_local(rt, r);
  emit(InstrKind::Assume, em().mk_binary(Op::LAnd, em().mk_binary(Op::Sle, em().mk_int(rt, -1), rv),
                                         em().mk_binary(Op::Sle, rv, em().mk_int(rt, k))));
  for (unsigned j = 0; j < k; ++j) {
    int skip = new_label();
    jump(skip, em().mk_binary(Op::Slt, rv, em().mk_int(rt, j + 1)));
    LocalId v = new_tmp(types[j]);
    emit(InstrKind::Havoc, nullptr, nullptr, v);
    check_ptr(ptrs[j], access_size(types[j]));
    emit(InstrKind::Store, ptrs[j], em().mk_local(types[j], v));
    place(skip);
  }
  return want ? conv(scalar_type(ce->getType(), loc), rv) : nullptr;
}

}  // namespace siren::frontend
