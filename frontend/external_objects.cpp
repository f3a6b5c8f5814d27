// Objects a function without a body returns a pointer to (docs/semantics.md "Functions without
// a body that return a pointer"). `extern struct S *getS();` declared in the program itself
// (not in a system header) returns, at each call, a pointer to an object of type struct S:
//   - one outside the program: each call site has one (a Global ir::Object named
//     "getS()@LINE", its data cells arbitrary, its locks free), and a call may return any
//     site's object, or a struct S inside one (the one in another site's struct T);
//   - or a struct S that is a global variable of the program with external linkage, or a
//     member or element of one (the outside can name such a variable);
// chosen by an arbitrary index (a Havoc whose message is "getS() object", traced as an input;
// ir::object_choice_function); never NULL, never the program's heap, locals or static
// variables (the assumption the warning states). A site executed a second time (a loop, or two
// threads running it) is a Limit, UNKNOWN: its first execution takes a flag, a mutex no one
// releases (TryLock, as sscanf's argv flags), so the calls are never more than the sites'
// objects, and every pattern of aliasing among their results and the program's globals is one
// of the choices: a race-free answer covers them all; a race found through one is real for an
// implementation that returns those objects (confirm/library_values.cpp says why it is not
// replayed natively).
//
// Pointees eligible: complete object types that are not void, a character type (a byte
// pointer may point anywhere, a string), a function or a union; anything else keeps the
// arbitrary pointer value of rv_undefined_call (whose dereference is UNKNOWN).
#include "frontend/translator.hpp"

#include <clang/AST/RecordLayout.h>

#include <functional>

namespace siren::frontend {

namespace {

constexpr std::size_t kMaxChoices = 256;  // candidates of one call (else unsupported)

}  // namespace

std::optional<QualType> Translator::object_result_type(const FunctionDecl* fd, QualType rt) {
  if (!options_.undefined_nondet || fd->getDefinition() || kernel_environment()) return std::nullopt;
  if (options_.readonly_functions.count(fd->getNameAsString())) return std::nullopt;
  if (sm_.isInSystemHeader(sm_.getExpansionLoc(fd->getLocation()))) return std::nullopt;
  rt = rt.getCanonicalType();
  if (!rt->isPointerType()) return std::nullopt;
  const QualType pt = rt->getPointeeType().getUnqualifiedType();
  if (pt->isVoidType() || pt->isIncompleteType() || pt->isFunctionType() || pt->isCharType() ||
      pt->isUnionType() || pt->isVariableArrayType())
    return std::nullopt;
  return pt;
}

// The byte offsets (from `base`) of the objects of type `t` within an object of type `in`
// (itself, members of structs, elements of arrays); a union that holds one is unsupported.
void Translator::typed_subobjects(QualType in, QualType t, std::uint64_t base, SourceLocation loc,
                                  std::vector<std::uint64_t>& out) {
  in = in.getCanonicalType().getUnqualifiedType();
  if (ctx_.hasSameUnqualifiedType(in, t)) {
    out.push_back(base);
    return;
  }
  if (const auto* at = ctx_.getAsConstantArrayType(in)) {
    const std::uint64_t n = at->getSize().getZExtValue(), es = bytes_of(at->getElementType(), loc);
    std::vector<std::uint64_t> first;
    typed_subobjects(at->getElementType(), t, 0, loc, first);
    if (first.empty()) return;
    for (std::uint64_t i = 0; i < n && out.size() <= kMaxChoices; ++i)
      for (std::uint64_t off : first) out.push_back(base + i * es + off);
    return;
  }
  const auto* rt = in->getAs<RecordType>();
  if (!rt) return;
  const RecordDecl* rd = rt->getDecl()->getDefinition();
  if (!rd) return;
  for (const FieldDecl* f : rd->fields()) {
    if (f->isBitField()) continue;
    std::vector<std::uint64_t> inner;
    typed_subobjects(f->getType(), t, 0, loc, inner);
    if (inner.empty()) continue;
    if (rd->isUnion())
      unsupported(loc, "a pointer to '" + t.getAsString() + "' returned by a function without a body may point "
                       "into union '" + in.getAsString() + "'");
    const std::uint64_t off = field_offset(f, loc);
    for (std::uint64_t x : inner) out.push_back(base + off + x);
  }
}

// One object outside the program per call site of an eligible function anywhere in the
// translation unit, made before the first such call is translated, so that every call's
// choice can name them all.
void Translator::make_external_objects() {
  if (external_objects_made_) return;
  external_objects_made_ = true;
  std::function<void(const Stmt*)> walk = [&](const Stmt* s) {
    if (!s) return;
    if (const auto* ce = dyn_cast<CallExpr>(s))
      if (const FunctionDecl* fd = ce->getDirectCallee())
        if (const auto pt = object_result_type(fd, ce->getType())) {
          ir::Object o;
          o.kind = ir::ObjectKind::Global;
          o.name = fd->getNameAsString() + "()@" + std::to_string(sm_.getExpansionLineNumber(ce->getBeginLoc()));
          o.loc = ir_loc(ce->getBeginLoc());
          std::vector<CellSpec> specs;
          flatten(*pt, o.name, ce->getExprLoc(), specs);
          add_cells(o, specs, bytes_of(*pt, ce->getExprLoc()), true);
          for (ir::Cell& c : o.cells)
            if (c.kind != ir::CellKind::Data) c.init_nondet = false;  // its locks are free
          ir::Object flag;  // taken at the site's first execution (rv_object_choice)
          flag.kind = ir::ObjectKind::Global;
          flag.name = o.name + " called";
          flag.loc = o.loc;
          ir::Cell c;
          c.name = flag.name;
          c.type = Type::integer(32, true);
          c.kind = ir::CellKind::Mutex;
          c.size = 4;
          flag.cells.push_back(std::move(c));
          const ObjectId obj = prog_.add_object(std::move(o));
          external_objects_.push_back({ce, *pt, obj, prog_.add_object(std::move(flag))});
        }
    for (const Stmt* kid : s->children()) walk(kid);
  };
  for (const Decl* d : ctx_.getTranslationUnitDecl()->decls())
    if (const auto* f = dyn_cast<FunctionDecl>(d); f && f->doesThisDeclarationHaveABody()) walk(f->getBody());
}

// The globals with external linkage of type `pt`, and its members and elements of one: the
// addresses a call may return besides the external objects (computed once per type).
const std::vector<ExprRef>& Translator::global_choices(QualType pt, SourceLocation loc) {
  const clang::Type* key = pt.getCanonicalType().getUnqualifiedType().getTypePtr();
  if (auto it = global_choices_.find(key); it != global_choices_.end()) return it->second;
  std::vector<ExprRef> out;
  for (const Decl* d : ctx_.getTranslationUnitDecl()->decls()) {
    const auto* vd = dyn_cast<VarDecl>(d);
    if (!vd || !vd->hasGlobalStorage() || !vd->isExternallyVisible() || vd->getTLSKind() != VarDecl::TLS_None ||
        vd->getType()->isIncompleteType() || vd != vd->getCanonicalDecl())
      continue;
    std::vector<std::uint64_t> offs;
    typed_subobjects(vd->getType(), pt, 0, loc, offs);
    if (offs.empty()) continue;
    const ObjectId o = object_of(vd);
    for (std::uint64_t off : offs) out.push_back(em().mk_obj_addr(o, static_cast<std::int64_t>(off)));
  }
  return global_choices_.emplace(key, std::move(out)).first->second;
}

ExprRef Translator::rv_object_choice(const CallExpr* ce, const std::string& name, QualType pt) {
  const SourceLocation loc = ce->getExprLoc();
  make_external_objects();
  ObjectId own = 0, flag = 0;
  std::vector<ExprRef> choices;
  for (const ExternalObject& x : external_objects_) {
    if (x.site == ce) own = x.obj, flag = x.flag;
    if (options_.test_external_objects_distinct && x.site != ce) continue;
    std::vector<std::uint64_t> offs;
    typed_subobjects(x.type, pt, 0, loc, offs);
    for (std::uint64_t off : offs) choices.push_back(em().mk_obj_addr(x.obj, static_cast<std::int64_t>(off)));
  }
  if (!own) unsupported(loc, "call to '" + name + "' not seen by the scan of external objects");
  if (!options_.test_external_objects_distinct) {
    const std::vector<ExprRef>& globals = global_choices(pt, loc);
    choices.insert(choices.end(), globals.begin(), globals.end());
  }
  if (choices.size() > kMaxChoices)
    unsupported(loc, "call to '" + name + "' returning '" + pt.getAsString() + " *': more than " +
                         std::to_string(kMaxChoices) + " objects of that type it could point to");
  // the site's first execution only (a second one: more calls than objects, a Limit)
  const Type i32 = Type::integer(32, true);
  const LocalId busy = new_tmp(i32);
  emit(InstrKind::TryLock, em().mk_obj_addr(flag, 0), nullptr, busy);
  assert_limit(em().mk_binary(Op::Eq, em().mk_local(i32, busy), em().mk_const(i32, 0)),
               "external object: call site of '" + name + "' executed more than once");
  ExprRef p = choices.back();
  if (choices.size() > 1) {
    const Type it = Type::integer(32, false);
    ir::Instr h;
    h.kind = InstrKind::Havoc;
    h.lhs = new_tmp(it);
    h.message = name + "() object";  // ir::object_choice_function: traced as an input
    const ExprRef idx = em().mk_local(it, h.lhs);
    emit(std::move(h));
    for (std::size_t i = choices.size() - 1; i-- > 0;)
      p = em().mk_ite(em().mk_binary(Op::Eq, idx, em().mk_const(it, i)), choices[i], p);
  }
  return tmp_of(p);
}

}  // namespace siren::frontend
