// Objects. Globals, static locals, and locals that must live in memory (address taken,
// aggregates, synchronisation objects) are ir::Objects of flattened cells, made on first use
// (object_of); a global's initialiser is evaluated by Clang into constant cell values and
// addresses (init_leaves, const_init). String literals are constant Global objects, one per
// distinct literal, and a pass after translation guards every write that could hit one
// (literal_object, guard_literal_writes).
#include "frontend/translator.hpp"

#include <clang/AST/APValue.h>

#include <algorithm>
#include <cstdio>

namespace siren::frontend {

// ---------------------------------------------------------------------------------------
// Objects of variables, initialisers of globals

ObjectId Translator::object_of(const VarDecl* vd) {
  vd = vd->getCanonicalDecl();
  if (auto it = objects_.find(vd); it != objects_.end()) return it->second;
  const VarDecl* def = vd->getDefinition() ? vd->getDefinition() : vd->getActingDefinition();
  if (!def) def = vd;
  for (const VarDecl* r : vd->redecls())
    if (r->getInit()) def = r;
  ir::Object o;
  o.name = vd->getNameAsString();
  o.loc = ir_loc(def->getLocation());
  std::vector<CellSpec> specs;
  std::uint64_t size = 0;
  if (const VariableArrayType* vat = ctx_.getAsVariableArrayType(def->getType())) {
    auto it = vla_length_.find(vd);  // set by decl_stmt before the object is created
    if (it == vla_length_.end()) unsupported(def->getLocation(), "variable-length array");
    const std::uint64_t es = bytes_of(vat->getElementType(), def->getLocation());
    for (std::uint64_t i = 0; i < it->second; ++i)
      flatten(vat->getElementType(), o.name + "[" + std::to_string(i) + "]", def->getLocation(), specs, i * es);
    size = it->second * es;
  } else {
    flatten(def->getType(), o.name, def->getLocation(), specs);
    size = bytes_of(def->getType(), def->getLocation());
  }
  const bool global = vd->hasGlobalStorage();
  o.kind = global ? ir::ObjectKind::Global : ir::ObjectKind::Local;
  o.thread_local_storage = vd->getTLSKind() != VarDecl::TLS_None;  // one copy per thread (thread model)
  add_cells(o, specs, size, !global);
  if (!global && st_) o.owner = st_->fn->id;
  ObjectId id = prog_.add_object(std::move(o));
  objects_[vd] = id;
  if (!global && st_) st_->fn->frame_objects.push_back(id);
  if (global && def->getInit()) {
    std::vector<InitLeaf> leaves;
    auto saved = std::move(string_chars_);
    string_chars_.clear();
    init_leaves(def->getType(), def->getInit(), 0, leaves);
    auto chars = std::move(string_chars_);
    string_chars_ = std::move(saved);
    for (const InitLeaf& l : leaves) {
      if (l.width == 0) {
        const_init(id, l.idx, l.e, chars);
        continue;
      }
      // a bit-field: its bits of the run's cell (the other fields' bits are kept)
      if (!l.e) continue;
      Expr::EvalResult r;
      if (!l.e->EvaluateAsInt(r, ctx_) || r.HasSideEffects)
        unsupported(l.e->getExprLoc(), "non-constant initialiser of a global");
      ir::Cell& cell = prog_.objects[id].cells[l.idx];
      const std::uint64_t ones = l.width >= 64 ? ~0ULL : (1ULL << l.width) - 1;
      const std::uint64_t v = r.Val.getInt().getZExtValue() & ones;
      cell.init = ir::normalize(cell.type, (cell.init & ~(ones << l.bit)) | (v << l.bit));
    }
  }
  return id;
}

// Walks an initialiser in parallel with the flattened type: calls out with (cell, leaf expr);
// leaf nullptr means zero.
void Translator::init_leaves(QualType t, const Expr* init, std::uint64_t base, std::vector<InitLeaf>& out) {
  SourceLocation loc = init ? init->getExprLoc() : SourceLocation();
  if (init) init = init->IgnoreParens();
  if (sync_kind(ctx_, t) != Sync::None) {  // PTHREAD_*_INITIALIZER (a brace list): free / 0
    out.push_back({base, init && !isa<InitListExpr>(init) ? init : nullptr});
    if (init && isa<InitListExpr>(init)) {
      const std::uint64_t kind = mutex_initializer_kind(init);
      if (kind != 0 && sync_kind(ctx_, t) != Sync::Mutex)
        unsupported(loc, "initialiser of '" + t.getAsString() + "' that selects a kind (only mutex kinds are modelled)");
      if (kind != 0 && !options_.test_ignore_mutex_kinds) {
        if (!uses_mutex_kinds()) unsupported(loc, "mutex initialiser with a kind siren's scan did not see");
        string_chars_[base] = kind << kMutexKindShift;
      }
    }
    return;
  }
  if (init && isa<ImplicitValueInitExpr>(init)) init = nullptr;
  QualType c = t.getCanonicalType();
  if (c->isArrayType()) {
    const auto* at = ctx_.getAsConstantArrayType(t);
    if (!at) unsupported(loc, "array of unknown size");
    QualType e = at->getElementType();
    std::uint64_t n = at->getSize().getZExtValue(), ec = cells_of(e, loc);
    if (init && isa<StringLiteral>(init)) {
      const auto* sl = cast<StringLiteral>(init);
      for (std::uint64_t i = 0; i < n; ++i) {
        std::uint64_t v = i < sl->getLength() ? sl->getCodeUnit(i) : 0;
        out.push_back({base + i, nullptr});
        string_chars_[base + i] = v;
      }
      return;
    }
    const auto* il = dyn_cast_or_null<InitListExpr>(init);
    if (init && !il) {
      // aggregate copy from an lvalue: handled by the caller as a struct copy
      unsupported(loc, "array initialised from an expression");
    }
    for (std::uint64_t i = 0; i < n; ++i) {
      const Expr* sub = nullptr;
      if (il && i < il->getNumInits()) sub = il->getInit(i);
      else if (il) sub = il->getArrayFiller();
      init_leaves(e, sub, base + i * ec, out);
    }
    return;
  }
  if (const auto* rt = c->getAs<RecordType>()) {
    const RecordDecl* rd = rt->getDecl()->getDefinition();
    if (!rd || rd->isUnion()) cells_of(t, loc);
    const auto* il = dyn_cast_or_null<InitListExpr>(init);
    if (init && !il) unsupported(loc, "struct initialised from an expression");
    if (rd->isUnion()) {  // the initialised member, over the union's cells (union_cells)
      const std::uint64_t n = cells_of(t, loc);
      const FieldDecl* f = il ? il->getInitializedFieldInUnion() : nullptr;
      std::uint64_t done = 0;
      if (f && il->getNumInits() > 0) {
        // the member's cells must be the union's first ones (cell k of the member = cell k of
        // the union): then the leaves of its initialiser are the union's, and the rest are 0
        std::vector<CellSpec> ucells, m;
        flatten(t, "", loc, ucells);
        flatten(f->getType(), "", loc, m);
        for (std::size_t k = 0; k < m.size(); ++k)
          if (m[k].offset != ucells[k].offset)
            unsupported(loc, "initialiser of union member '" + f->getNameAsString() +
                                 "' whose cells are not the union's first cells");
        if (f->isBitField()) {  // its cell is the union's first (union_cells): bits from 0
          const BitPlace p = bit_place(f, loc);
          const Expr* sub = il->getInit(0);
          if (const auto* sil = dyn_cast<InitListExpr>(sub->IgnoreParens()))
            sub = sil->getNumInits() ? sil->getInit(0) : nullptr;
          out.push_back({base, nullptr});  // the cell's other bits are 0
          out.push_back({base, sub, p.bit, p.width});
          done = 1;
        } else {
          init_leaves(f->getType(), il->getInit(0), base, out);
          done = m.size();
        }
      }
      for (std::uint64_t k = done; k < n; ++k) out.push_back({base + k, nullptr});
      return;
    }
    std::uint64_t off = base;
    unsigned i = 0;  // Clang's initialiser list has no element for an unnamed bit-field
    std::uint64_t run_cell = 0;
    for (const FieldDecl* f : rd->fields()) {
      if (f->isBitField()) {  // its bits of the run's cell, which starts at the run's first field
        const BitPlace p = bit_place(f, loc);
        if (p.first && p.has_cell) {
          run_cell = off++;
          out.push_back({run_cell, nullptr});  // the cell's padding bits are 0
        }
        if (f->isUnnamedBitfield()) continue;
        const Expr* sub = (il && i < il->getNumInits()) ? il->getInit(i) : nullptr;
        ++i;
        if (sub && isa<ImplicitValueInitExpr>(sub->IgnoreParens())) sub = nullptr;
        if (const auto* sil = dyn_cast_or_null<InitListExpr>(sub ? sub->IgnoreParens() : nullptr))
          sub = sil->getNumInits() ? sil->getInit(0) : nullptr;
        if (p.has_cell) out.push_back({run_cell, sub, p.bit, p.width});
        continue;
      }
      const Expr* sub = (il && i < il->getNumInits()) ? il->getInit(i) : nullptr;
      init_leaves(f->getType(), sub, off, out);
      off += cells_of(f->getType(), loc);
      ++i;
    }
    return;
  }
  if (const auto* il = dyn_cast_or_null<InitListExpr>(init))
    init = il->getNumInits() ? il->getInit(0) : nullptr;
  out.push_back({base, init});
}

void Translator::const_init(ObjectId id, std::uint64_t idx, const Expr* e,
                            const std::map<std::uint64_t, std::uint64_t>& chars) {
  ir::Cell& cell = prog_.objects[id].cells[idx];
  if (auto it = chars.find(idx); it != chars.end()) {
    cell.init = ir::normalize(cell.type, it->second);
    return;
  }
  if (!e || cell.kind != CellKind::Data) return;
  Expr::EvalResult r;
  if (!e->EvaluateAsRValue(r, ctx_) || r.HasSideEffects)
    unsupported(e->getExprLoc(), "non-constant initialiser of a global");
  const APValue& v = r.Val;
  if (v.isInt()) {
    cell.init = ir::normalize(cell.type, v.getInt().getZExtValue());
    if (cell.type.is_bool()) cell.init = v.getInt().getBoolValue() ? 1 : 0;
    return;
  }
  if (v.isLValue()) {
    APValue::LValueBase b = v.getLValueBase();
    std::uint64_t bytes = static_cast<std::uint64_t>(v.getLValueOffset().getQuantity());
    if (!b) {
      cell.init = bytes;  // (0, offset): integer cast to pointer / null
      return;
    }
    if (options_.test_drop_pointer_initialisers) return;  // TEST ONLY: the cell stays null

    // The cell points `bytes` into the object that `target_of` returns (it may grow
    // prog_.objects, so the cell is looked up again afterwards).
    auto set_address = [&](auto&& target_of) {
      const ObjectId target = target_of();
      ir::Cell& c = prog_.objects[id].cells[idx];
      c.init_obj = target;
      c.init = bytes;
    };
    const Expr* be = b.dyn_cast<const Expr*>();
    if (const auto* pe = dyn_cast_or_null<PredefinedExpr>(be)) be = pe->getFunctionName();
    if (const auto* sl = dyn_cast_or_null<StringLiteral>(be)) {
      set_address([&] { return literal_object(sl); });
      return;
    }
    if (const auto* fd = dyn_cast_or_null<FunctionDecl>(b.dyn_cast<const ValueDecl*>())) {
      if (bytes != 0) unsupported(e->getExprLoc(), "address constant with an offset from a function");
      const ObjectId target = function_object(fd);
      ir::Cell& c = prog_.objects[id].cells[idx];
      c.init_obj = target;
      c.init = 0;
      return;
    }
    const auto* vd = dyn_cast_or_null<VarDecl>(b.dyn_cast<const ValueDecl*>());
    if (!vd) unsupported(e->getExprLoc(), "global initialised with the address of a compound literal");
    set_address([&] { return object_of(vd); });
    return;
  }
  unsupported(e->getExprLoc(), "unsupported constant initialiser");
}

// ---------------------------------------------------------------------------------------
// String literals

namespace {
std::string literal_name(const StringLiteral* sl) {
  std::string out = "\"";
  for (unsigned i = 0; i < sl->getLength(); ++i) {
    if (out.size() >= 24) {
      out += "...";
      break;
    }
    const std::uint32_t c = sl->getCodeUnit(i);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c >= 32 && c < 127) {
      out += static_cast<char>(c);
    } else {
      char buf[16];
      if (c < 256) std::snprintf(buf, sizeof buf, "\\%03o", c);
      else std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    }
  }
  return out + "\"";
}
}  // namespace

// A string literal is a Global object with one cell per character of its array type (the
// terminating 0 included), initialised to the characters. Equal literals share an object (C
// allows it). C forbids writing to a literal: guard_literal_writes checks it.
ObjectId Translator::literal_object(const StringLiteral* sl) {
  const auto* at = ctx_.getAsConstantArrayType(sl->getType());
  if (!at) unsupported(sl->getBeginLoc(), "string literal of unknown length");
  const QualType elem = at->getElementType();
  std::pair<std::string, std::string> key{sl->getBytes().str(), elem.getCanonicalType().getAsString()};
  if (auto it = literals_.find(key); it != literals_.end()) return it->second;
  const Type t = scalar_type(elem, sl->getBeginLoc());
  const std::uint64_t n = at->getSize().getZExtValue();
  const auto es = static_cast<std::uint32_t>(bytes_of(elem, sl->getBeginLoc()));
  if (n > 100000) unsupported(sl->getBeginLoc(), "string literal longer than 100000 characters");
  ir::Object o;
  o.kind = ir::ObjectKind::Global;
  o.name = literal_name(sl);
  o.loc = ir_loc(sl->getBeginLoc());
  for (std::uint64_t i = 0; i < n; ++i) {
    ir::Cell c;
    c.name = o.name + "[" + std::to_string(i) + "]";
    c.type = t;
    c.init = ir::normalize(t, i < sl->getLength() ? sl->getCodeUnit(static_cast<std::size_t>(i)) : 0);
    c.offset = i * es;
    c.size = es;
    o.cells.push_back(std::move(c));
  }
  o.size = n * es;
  const ObjectId id = prog_.add_object(std::move(o));
  literals_.emplace(std::move(key), id);
  literal_ids_.push_back(id);
  return id;
}

// Runs after every function is translated. Each instruction that writes memory through a
// pointer that may point into a literal gets `Assert[MemSafety](the pointer is outside every
// literal)` right before it, or before its ValidPtr check, which stays next to the access.
// Pointers are ordered by (object, offset): literal objects lo..hi with consecutive ids are
// one range test. A constant address outside the literals needs no guard.
void Translator::guard_literal_writes() {
  if (literal_ids_.empty()) return;
  std::vector<ObjectId> ids = literal_ids_;
  std::sort(ids.begin(), ids.end());
  std::vector<std::pair<ObjectId, ObjectId>> ranges;
  for (ObjectId o : ids) {
    if (!ranges.empty() && ranges.back().second + 1 == o) ranges.back().second = o;
    else ranges.push_back({o, o});
  }
  auto outside = [&](ExprRef p) -> ExprRef {
    if (p->op == Op::ObjAddr)
      return std::binary_search(ids.begin(), ids.end(), p->obj) ? em().mk_false() : nullptr;
    if (p->is_const()) return nullptr;  // the null object
    ExprRef all = em().mk_true();
    for (auto [lo, hi] : ranges) {
      const ir::Object& h = prog_.objects[hi];
      const std::int64_t last = h.cells.empty() ? 0 : h.offset_of(static_cast<std::uint32_t>(h.cells.size() - 1));
      ExprRef in = em().mk_binary(Op::LAnd, em().mk_binary(Op::Ule, em().mk_obj_addr(lo, 0), p),
                                  em().mk_binary(Op::Ule, p, em().mk_obj_addr(hi, last)));
      all = em().mk_binary(Op::LAnd, all, em().mk_unary(Op::LNot, in));
    }
    return all;
  };
  auto written = [](const ir::Instr& in) -> ExprRef {
    switch (in.kind) {
      case InstrKind::Store:
      case InstrKind::Lock:
      case InstrKind::TryLock:
      case InstrKind::Unlock:
      case InstrKind::RdLock:
      case InstrKind::WrLock:
      case InstrKind::RwUnlock:
      case InstrKind::ThreadCreate: return in.a;
      case InstrKind::CondWait:
      case InstrKind::ThreadJoin: return in.b;
      default: return nullptr;
    }
  };
  for (ir::Function& f : prog_.functions) {
    if (!f.has_body) continue;
    auto& body = f.body;
    std::vector<ExprRef> guard(body.size(), nullptr);  // guard to put before instruction i
    std::vector<std::size_t> of(body.size(), 0);       // the write it protects
    for (std::size_t i = 0; i < body.size(); ++i) {
      ExprRef p = written(body[i]);
      ExprRef cond = p ? outside(p) : nullptr;
      if (!cond) continue;
      std::size_t at = i;
      if (i > 0 && body[i - 1].kind == InstrKind::Assert && body[i - 1].assert_kind == ir::AssertKind::MemSafety &&
          body[i - 1].a->op == Op::ValidPtr && body[i - 1].a->kids[0] == p)
        at = i - 1;
      guard[at] = cond;
      of[at] = i;
    }
    std::vector<ir::Instr> out;
    std::vector<std::uint32_t> new_index(body.size() + 1);
    for (std::size_t i = 0; i < body.size(); ++i) {
      new_index[i] = static_cast<std::uint32_t>(out.size());
      if (guard[i]) {
        ir::Instr g;
        g.kind = InstrKind::Assert;
        g.assert_kind = ir::AssertKind::MemSafety;
        g.a = guard[i];
        g.message = "write to a string literal";
        g.loc = body[of[i]].loc;
        g.text = body[of[i]].text;
        out.push_back(std::move(g));
      }
      out.push_back(std::move(body[i]));
    }
    new_index[body.size()] = static_cast<std::uint32_t>(out.size());
    for (auto& in : out)
      if (in.kind == InstrKind::Goto) in.target = new_index[in.target];
    body = std::move(out);
  }
}

}  // namespace siren::frontend
