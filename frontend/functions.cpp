// Functions, one at a time (after CBMC's goto_convert): function_id numbers every function
// reachable from main and queues the defined ones; translate_function makes the parameters
// locals (objects when their address is taken), translates the body statement by statement
// into one instruction list, resolves the jumps to labels and runs the fuse_loads peephole.
// Also the emission primitives every other file uses: instructions, labels, temporaries, and
// the MemSafety (check_ptr) and Limit (assert_limit) asserts.
#include "frontend/translator.hpp"

namespace siren::frontend {

// ---------------------------------------------------------------------------------------
// Functions

ir::FunctionId Translator::function_id(const FunctionDecl* fd) {
  const FunctionDecl* def = fd->getDefinition();
  if (!def) def = fd;
  def = def->getCanonicalDecl() == fd->getCanonicalDecl() ? def : fd;
  const FunctionDecl* key = fd->getCanonicalDecl();
  if (auto it = fn_ids_.find(key); it != fn_ids_.end()) return it->second;
  ir::Function f;
  f.name = fd->getNameAsString();
  f.has_body = fd->getDefinition() != nullptr;
  f.is_atomic = f.name.rfind("__VERIFIER_atomic_", 0) == 0;
  f.loc = ir_loc((fd->getDefinition() ? fd->getDefinition() : fd)->getLocation());
  ir::FunctionId id = prog_.add_function(std::move(f));
  fn_ids_[key] = id;
  if (fd->getDefinition()) worklist_.push_back(fd->getDefinition());
  return id;
}

void Translator::translate_function(const FunctionDecl* fd) {
  const ir::FunctionId id = fn_ids_.at(fd->getCanonicalDecl());
  ir::Function fn;
  fn.id = id;
  fn.name = prog_.functions[id].name;
  fn.has_body = true;
  fn.is_atomic = prog_.functions[id].is_atomic;
  fn.loc = prog_.functions[id].loc;
  FnState st;
  st.fn = &fn;
  st.decl = fd;
  st_ = &st;
  in_atomic_step_ = false;  // a translation that failed inside an operation left it set
  cur_loc_ = ir_loc(fd->getBeginLoc());
  cur_text_ = collapse(fd->getNameAsString() + "()");
  const QualType rt = fd->getReturnType();
  if (!rt->isVoidType()) {
    // A struct result: written through a hidden first parameter at `return` (store_struct).
    if (rt->isRecordType()) st.ret_slot = new_local("__result", Type::pointer());
    else fn.return_type = scalar_type(rt, fd->getLocation());
  }
  collect_addr_taken(fd->getBody());
  std::vector<std::pair<const ParmVarDecl*, LocalId>> spilled, by_value;
  for (const ParmVarDecl* p : fd->parameters()) {
    std::string pname = p->getNameAsString();
    if (pname.empty()) pname = "__arg" + std::to_string(fn.locals.size());
    if (is_aggregate(p->getType())) {  // a struct by value: its address (Translator::struct_argument)
      by_value.push_back({p, new_local("__byval_" + pname, Type::pointer())});
      continue;
    }
    LocalId l = new_local(pname, scalar_type(p->getType(), p->getLocation()));
    if (st.addr_taken.count(p)) spilled.push_back({p, l});
    else st.locals[p] = l;
  }
  fn.num_params = static_cast<std::uint32_t>(fn.locals.size());
  if (fd->isMain() && fd->getNumParams() > 0) main_arguments(fd);
  for (auto& [p, l] : spilled) {
    ObjectId o = object_of(p);
    emit(InstrKind::Store, em().mk_obj_addr(o, 0), em().mk_local(fn.locals[l].type, l));
  }
  for (auto& [p, l] : by_value) {  // the parameter's object gets a copy of the argument
    cur_loc_ = ir_loc(p->getLocation());
    cur_text_ = collapse(p->getType().getAsString() + " " + p->getNameAsString());
    copy_cells(em().mk_obj_addr(object_of(p), 0), em().mk_local(Type::pointer(), l), p->getType(), p->getLocation());
  }
  stmt(fd->getBody());
  // falling off the end
  cur_loc_ = ir_loc(fd->getEndLoc());
  cur_text_ = "}";
  ExprRef rv = nullptr;
  if (fn.return_type) rv = fn.return_type->is_ptr() ? em().mk_null() : em().mk_const(*fn.return_type, 0);
  emit(InstrKind::Return, rv);
  for (auto& [i, label] : st.fixups) {
    std::int64_t pos = st.label_pos[label];
    fn.body[i].target = static_cast<std::uint32_t>(pos < 0 ? fn.body.size() - 1 : pos);
  }
  fuse_loads();
  prog_.functions[id] = std::move(fn);
  st_ = nullptr;
}

void Translator::collect_addr_taken(const Stmt* s) {
  if (!s) return;
  if (const auto* uo = dyn_cast<UnaryOperator>(s); uo && uo->getOpcode() == UO_AddrOf) {
    if (const auto* dr = dyn_cast<DeclRefExpr>(uo->getSubExpr()->IgnoreParens()))
      if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) st_->addr_taken.insert(vd);
  }
  for (const Stmt* c : s->children()) collect_addr_taken(c);
}

// Peephole: `t := load(p); <instr using t once>` where t is used nowhere else and the second
// instruction is local-only (no other access) becomes one instruction with the load inlined.
// Both are steps of the same thread with no other shared access in between, so merging them
// does not hide interleavings.
void Translator::fuse_loads() {
  ir::Function& fn = *st_->fn;
  auto& body = fn.body;
  std::vector<unsigned> uses(fn.locals.size(), 0);
  auto count = [&](ExprRef e) {
    if (!e) return;
    ir::visit_post_order(e, [&](ExprRef n) {
      if (n->op == Op::Local) ++uses[n->value];
    });
  };
  std::vector<bool> is_target(body.size() + 1, false);
  for (auto& in : body) {
    count(in.a);
    count(in.b);
    for (auto x : in.args) count(x);
    if (in.lhs != ir::kNoLocal && in.kind != InstrKind::Assign && in.kind != InstrKind::Havoc &&
        in.kind != InstrKind::Call && in.kind != InstrKind::Malloc && in.kind != InstrKind::TryLock)
      uses[in.lhs] += 2;
    if (in.kind == InstrKind::Goto) is_target[in.target] = true;
  }
  // hash-consing makes `visit_post_order` count a shared node once; that is fine: a temp
  // that occurs twice inside one expression is still used by a single instruction.
  std::vector<bool> drop(body.size(), false);
  for (std::size_t i = 0; i + 1 < body.size(); ++i) {
    ir::Instr& ld = body[i];
    ir::Instr& use = body[i + 1];
    if (ld.kind != InstrKind::Assign || !ld.a || ld.a->op != Op::Load) continue;
    if (!starts_with(fn.locals[ld.lhs].name, "__t") || uses[ld.lhs] != 1) continue;
    if (is_target[i + 1]) continue;
    if (use.kind != InstrKind::Assign && use.kind != InstrKind::Goto && use.kind != InstrKind::Assume &&
        use.kind != InstrKind::Return &&
        !(use.kind == InstrKind::Assert && use.assert_kind == ir::AssertKind::Property))
      continue;
    if (use.lhs == ld.lhs) continue;
    if (!use.a || !ir::loads_in(use.a).empty() || (use.b && !ir::loads_in(use.b).empty())) continue;
    const ExprRef from = em().mk_local(fn.locals[ld.lhs].type, ld.lhs);
    bool found = false;
    std::unordered_map<ExprRef, ExprRef> memo;
    std::function<ExprRef(ExprRef)> subst = [&](ExprRef e) -> ExprRef {
      if (e == from) {
        found = true;
        return ld.a;
      }
      if (e->kids.empty()) return e;
      if (auto it = memo.find(e); it != memo.end()) return it->second;
      std::vector<ExprRef> k;
      for (auto c : e->kids) k.push_back(subst(c));
      return memo[e] = em().rebuild(e, k);
    };
    ExprRef na = subst(use.a);
    if (!found) continue;
    use.a = na;
    drop[i] = true;
    ++i;  // the fused instruction now has a load: it cannot absorb another one
  }
  std::vector<std::uint32_t> new_index(body.size() + 1);
  std::uint32_t n = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    new_index[i] = n;
    if (!drop[i]) ++n;
  }
  new_index[body.size()] = n;
  std::vector<ir::Instr> out;
  out.reserve(n);
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (drop[i]) continue;
    out.push_back(std::move(body[i]));
    if (out.back().kind == InstrKind::Goto) out.back().target = new_index[out.back().target];
  }
  body = std::move(out);
}

// ---------------------------------------------------------------------------------------
// Emission

std::size_t Translator::emit(ir::Instr in) {
  in.loc = cur_loc_;
  if (in.text.empty()) in.text = cur_text_;
  st_->fn->body.push_back(std::move(in));
  return st_->fn->body.size() - 1;
}

std::size_t Translator::emit(InstrKind k, ExprRef a, ExprRef b, LocalId lhs) {
  ir::Instr in;
  in.kind = k;
  in.a = a;
  in.b = b;
  in.lhs = lhs;
  return emit(std::move(in));
}

int Translator::new_label() {
  st_->label_pos.push_back(-1);
  return static_cast<int>(st_->label_pos.size()) - 1;
}

void Translator::jump(int label, ExprRef cond) {
  if (!cond) cond = em().mk_true();
  if (cond->is_const() && cond->value == 0) return;
  std::size_t i = emit(InstrKind::Goto, cond);
  st_->fixups.push_back({i, label});
}

LocalId Translator::new_local(const std::string& base, Type t) {
  std::string name = base;
  int& n = st_->name_count[base];
  if (n++ > 0) name = base + "." + std::to_string(n - 1);
  st_->fn->locals.push_back({name, t});
  return static_cast<LocalId>(st_->fn->locals.size() - 1);
}

ExprRef Translator::tmp_of_copy(ExprRef e) {
  LocalId t = new_tmp(e->type);
  emit(InstrKind::Assign, e, nullptr, t);
  return em().mk_local(e->type, t);
}

// materialise into a temporary (for operands that must be locals)
ExprRef Translator::tmp_of(ExprRef e) {
  if (e->op == Op::Local || e->is_const() || e->op == Op::ObjAddr) return e;
  LocalId t = new_tmp(e->type);
  emit(InstrKind::Assign, e, nullptr, t);
  return em().mk_local(e->type, t);
}

bool Translator::addr_is_safe(ExprRef addr, std::uint32_t bytes) {
  if (addr->op != Op::ObjAddr || addr->obj == 0) return false;
  const ir::Object& o = prog_.objects[addr->obj];
  const auto c = o.cell_at(addr->offset());
  return c && o.cells[*c].fits(bytes);
}

std::uint32_t Translator::access_size(Type t) const { return ir::access_bytes(t, prog_.pointer_bytes); }

void Translator::check_ptr(ExprRef addr, std::uint32_t bytes) {
  if (addr_is_safe(addr, bytes)) return;
  ir::Instr in;
  in.kind = InstrKind::Assert;
  in.assert_kind = ir::AssertKind::MemSafety;
  in.a = em().mk_valid_ptr(addr, bytes);
  in.message = "invalid pointer dereference";
  emit(std::move(in));
}

void Translator::assert_limit(ExprRef cond, std::string msg) {
  if (cond->is_const() && cond->value != 0) return;
  ir::Instr in;
  in.kind = InstrKind::Assert;
  in.assert_kind = ir::AssertKind::Limit;
  in.a = cond;
  in.message = std::move(msg);
  emit(std::move(in));
}

}  // namespace siren::frontend
