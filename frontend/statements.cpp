// Statements as goto code (after CBMC's goto_convert): if, loops and switch become
// conditional Gotos to labels that translate_function resolves, and every instruction carries
// the location and text of its statement (StmtScope). A local declaration makes a LocalVar for
// a scalar whose address is never taken, an object otherwise (variable-length arrays
// included), and emits its initialisation.
#include "frontend/translator.hpp"

#include <algorithm>

namespace siren::frontend {

// ---------------------------------------------------------------------------------------
// Statements

void Translator::decl_stmt(const DeclStmt* ds) {
  for (const Decl* d : ds->decls()) {
    const auto* vd = dyn_cast<VarDecl>(d);
    if (!vd) continue;  // typedefs, struct/enum definitions, local prototypes
    if (vd->hasGlobalStorage() || vd->hasExternalStorage()) {
      object_of(vd);
      continue;
    }
    const SourceLocation loc = vd->getLocation();
    const QualType t = vd->getType();
    if (const VariableArrayType* vat = ctx_.getAsVariableArrayType(t)) {
      // The length is evaluated when the declaration executes. A fixed length (fixed_value)
      // gives an exact object; otherwise the object has FrontendOptions::capacity elements, as a
      // malloc of a non-constant size (an access past them is UNKNOWN; a length <= 0 is undefined
      // behaviour: MemSafety).
      const QualType elem = vat->getElementType();
      if (ctx_.getAsVariableArrayType(elem)) unsupported(loc, "multi-dimensional variable-length array");
      cells_of(elem, loc);
      const Expr* size = vat->getSizeExpr();
      ExprRef n = fixed_value(size);
      std::uint64_t len = options_.capacity;
      if (n && ir::as_signed(n->type, n->value) > 0) {
        len = n->value;
        if (len * cells_of(elem, loc) > 100000) unsupported(loc, "array with more than 100000 cells");
      } else {
        if (!n) n = rvalue(size);
        const bool sgn = n->type.is_int() && n->type.is_signed;
        const Type it = Type::integer(64, sgn);
        n = tmp_of(conv(it, n));
        ir::Instr in;
        in.kind = InstrKind::Assert;
        in.assert_kind = ir::AssertKind::MemSafety;
        in.a = em().mk_binary(sgn ? Op::Slt : Op::Ult, em().mk_const(it, 0), n);
        in.message = "variable-length array length is not positive";
        emit(std::move(in));
        capped_.push_back(vd->getNameAsString());
        if (len * cells_of(elem, loc) > 100000) unsupported(loc, "array with more than 100000 cells");
      }
      vla_length_[vd->getCanonicalDecl()] = len;
      object_of(vd);
      continue;
    }
    const Expr* init = vd->getInit();
    const bool obj = is_aggregate(t) || sync_kind(ctx_, t) != Sync::None || st_->addr_taken.count(vd);
    if (!obj) {
      LocalId id = new_local(vd->getNameAsString(), scalar_type(t, loc));
      st_->locals[vd] = id;
      if (const auto* il = dyn_cast_or_null<InitListExpr>(init))
        init = il->getNumInits() ? il->getInit(0) : nullptr;
      if (init) emit(InstrKind::Assign, conv(st_->fn->locals[id].type, rvalue(init)), nullptr, id);
      else emit(InstrKind::Havoc, nullptr, nullptr, id);
      continue;
    }
    ObjectId id = object_of(vd);
    if (!init) continue;
    if (is_aggregate(t) && !isa<InitListExpr>(init->IgnoreParens()) && !isa<StringLiteral>(init->IgnoreParens())) {
      store_struct(init, em().mk_obj_addr(id, 0), t, loc);
      continue;
    }
    std::vector<InitLeaf> leaves;
    auto saved = std::move(string_chars_);
    string_chars_.clear();
    init_leaves(t, init, 0, leaves);
    auto chars = std::move(string_chars_);
    string_chars_ = std::move(saved);
    // The leaves of one bit-field run are or-ed into one value of its cell, stored once
    // (leaves come in cell order, a run's whole-cell 0 first, then its fields).
    for (std::size_t k = 0; k < leaves.size();) {
      const std::uint64_t idx = leaves[k].idx;
      const ir::Cell& cell = prog_.objects[id].cells[idx];
      Type ct = cell.type;
      ExprRef v;
      if (auto it = chars.find(idx); it != chars.end()) v = em().mk_const(ct, it->second);
      else if (leaves[k].e) v = conv(ct, rvalue(leaves[k].e));
      else v = ct.is_ptr() ? em().mk_null() : em().mk_const(ct, 0);
      for (++k; k < leaves.size() && leaves[k].idx == idx && leaves[k].width > 0; ++k) {
        const InitLeaf& l = leaves[k];
        if (!l.e) continue;
        const std::uint64_t ones = l.width >= 64 ? ~0ULL : (1ULL << l.width) - 1;
        ExprRef bits = em().mk_binary(Op::BitAnd, conv(ct, rvalue(l.e)), em().mk_const(ct, ir::normalize(ct, ones)));
        if (l.bit > 0) bits = em().mk_binary(Op::Shl, bits, em().mk_const(ct, l.bit));
        v = tmp_of(em().mk_binary(Op::BitOr, v, bits));
      }
      emit(InstrKind::Store, em().mk_obj_addr(id, prog_.objects[id].offset_of(static_cast<std::uint32_t>(idx))), v);
    }
  }
}

void Translator::switch_stmt(const SwitchStmt* ss) {
  ExprRef v;
  {
    StmtScope sc(*this, ss->getCond());
    v = tmp_of(rvalue(ss->getCond()));
  }
  int end = new_label();
  int dflt = -1;
  std::vector<const SwitchCase*> cases;
  for (const SwitchCase* c = ss->getSwitchCaseList(); c; c = c->getNextSwitchCase()) cases.push_back(c);
  std::reverse(cases.begin(), cases.end());
  for (const SwitchCase* c : cases) {
    int l = new_label();
    st_->case_labels[c] = l;
    if (isa<DefaultStmt>(c)) {
      dflt = l;
      continue;
    }
    const auto* cs = cast<CaseStmt>(c);
    StmtScope sc(*this, cs->getLHS());
    auto eval = [&](const Expr* e) {
      Expr::EvalResult r;
      if (!e->EvaluateAsInt(r, ctx_)) unsupported(e->getExprLoc(), "non-constant case label");
      return em().mk_const(v->type, ir::normalize(v->type, r.Val.getInt().getZExtValue()));
    };
    ExprRef cond;
    if (cs->getRHS()) {
      const bool sg = v->type.is_signed;
      ExprRef lo = eval(cs->getLHS()), hi = eval(cs->getRHS());
      cond = em().mk_binary(Op::LAnd, em().mk_binary(sg ? Op::Sle : Op::Ule, lo, v),
                            em().mk_binary(sg ? Op::Sle : Op::Ule, v, hi));
    } else {
      cond = em().mk_binary(Op::Eq, v, eval(cs->getLHS()));
    }
    jump(l, cond);
  }
  {
    StmtScope sc(*this, ss->getCond());
    jump(dflt >= 0 ? dflt : end);
  }
  st_->break_stack.push_back(end);
  stmt(ss->getBody());
  st_->break_stack.pop_back();
  place(end);
}

void Translator::stmt(const Stmt* s) {
  if (!s) return;
  if (const auto* cs = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* c : cs->body()) stmt(c);
    return;
  }
  if (isa<NullStmt>(s)) return;
  if (const auto* ds = dyn_cast<DeclStmt>(s)) {
    StmtScope sc(*this, s);
    decl_stmt(ds);
    return;
  }
  if (const auto* e = dyn_cast<Expr>(s)) {
    StmtScope sc(*this, s);
    rvalue(e, false);
    return;
  }
  if (const auto* is = dyn_cast<IfStmt>(s)) {
    int l_else = new_label(), l_end = new_label();
    {
      StmtScope sc(*this, is->getCond());
      cond_jump(is->getCond(), false, l_else);
    }
    stmt(is->getThen());
    if (is->getElse()) {
      {
        StmtScope sc(*this, is->getElse());
        cur_text_ = "else";
        jump(l_end);
      }
      place(l_else);
      stmt(is->getElse());
      place(l_end);
    } else {
      place(l_else);
    }
    return;
  }
  if (const auto* ws = dyn_cast<WhileStmt>(s)) {
    int head = new_label(), end = new_label();
    place(head);
    {
      StmtScope sc(*this, ws->getCond());
      cond_jump(ws->getCond(), false, end);
    }
    st_->break_stack.push_back(end);
    st_->continue_stack.push_back(head);
    stmt(ws->getBody());
    st_->break_stack.pop_back();
    st_->continue_stack.pop_back();
    {
      StmtScope sc(*this, ws->getCond());
      jump(head);
    }
    place(end);
    return;
  }
  if (const auto* dst = dyn_cast<DoStmt>(s)) {
    int head = new_label(), cont = new_label(), end = new_label();
    place(head);
    st_->break_stack.push_back(end);
    st_->continue_stack.push_back(cont);
    stmt(dst->getBody());
    st_->break_stack.pop_back();
    st_->continue_stack.pop_back();
    place(cont);
    {
      StmtScope sc(*this, dst->getCond());
      cond_jump(dst->getCond(), true, head);
    }
    place(end);
    return;
  }
  if (const auto* fs = dyn_cast<ForStmt>(s)) {
    stmt(fs->getInit());
    int head = new_label(), cont = new_label(), end = new_label();
    place(head);
    if (fs->getCond()) {
      StmtScope sc(*this, fs->getCond());
      cond_jump(fs->getCond(), false, end);
    }
    st_->break_stack.push_back(end);
    st_->continue_stack.push_back(cont);
    stmt(fs->getBody());
    st_->break_stack.pop_back();
    st_->continue_stack.pop_back();
    place(cont);
    if (fs->getInc()) {
      StmtScope sc(*this, fs->getInc());
      rvalue(fs->getInc(), false);
    }
    {
      StmtScope sc(*this, fs->getCond() ? static_cast<const Stmt*>(fs->getCond()) : fs);
      if (!fs->getCond()) cur_text_ = "for (;;)";
      jump(head);
    }
    place(end);
    return;
  }
  if (const auto* ss = dyn_cast<SwitchStmt>(s)) {
    switch_stmt(ss);
    return;
  }
  if (const auto* sc = dyn_cast<SwitchCase>(s)) {
    auto it = st_->case_labels.find(sc);
    if (it == st_->case_labels.end()) unsupported(s->getBeginLoc(), "case label outside switch");
    place(it->second);
    stmt(sc->getSubStmt());
    return;
  }
  if (isa<BreakStmt>(s) || isa<ContinueStmt>(s)) {
    StmtScope sc(*this, s);
    auto& stack = isa<BreakStmt>(s) ? st_->break_stack : st_->continue_stack;
    if (stack.empty()) unsupported(s->getBeginLoc(), "break/continue outside a loop");
    jump(stack.back());
    return;
  }
  if (const auto* gs = dyn_cast<GotoStmt>(s)) {
    StmtScope sc(*this, s);
    auto [it, fresh] = st_->user_labels.try_emplace(gs->getLabel(), -1);
    if (fresh) it->second = new_label();
    jump(it->second);
    return;
  }
  if (const auto* ls = dyn_cast<LabelStmt>(s)) {
    auto [it, fresh] = st_->user_labels.try_emplace(ls->getDecl(), -1);
    if (fresh) it->second = new_label();
    place(it->second);
    stmt(ls->getSubStmt());
    return;
  }
  if (const auto* rs = dyn_cast<ReturnStmt>(s)) {
    StmtScope sc(*this, s);
    ExprRef v = nullptr;
    if (const Expr* e = rs->getRetValue()) {
      if (st_->ret_slot != ir::kNoLocal) {
        store_struct(e, em().mk_local(Type::pointer(), st_->ret_slot), e->getType(), e->getExprLoc());
      } else if (st_->fn->return_type) {
        v = conv(*st_->fn->return_type, rvalue(e));
      } else {
        rvalue(e, false);
      }
    } else if (st_->fn->return_type) {
      v = st_->fn->return_type->is_ptr() ? em().mk_null() : em().mk_const(*st_->fn->return_type, 0);
    }
    emit(InstrKind::Return, v);
    return;
  }
  if (const auto* as = dyn_cast<AttributedStmt>(s)) {
    stmt(as->getSubStmt());
    return;
  }
  if (const auto* asmst = dyn_cast<GCCAsmStmt>(s)) {
    if (asmst->getAsmString()->getString().trim().empty() && asmst->getNumOutputs() == 0 &&
        asmst->getNumInputs() == 0)
      return;  // compiler barrier: no effect under sequential consistency
    unsupported(s->getBeginLoc(), "inline assembly");
  }
  unsupported(s->getBeginLoc(), std::string("statement '") + s->getStmtClassName() + "'");
}

}  // namespace siren::frontend
