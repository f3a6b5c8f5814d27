// Structural checks of an ir::Program (ir/validator.hpp).
#include "ir/validator.hpp"

namespace siren::ir {

namespace {

class Checker {
 public:
  explicit Checker(const Program& p) : p_(p) {}

  std::vector<std::string> run() {
    if (p_.objects.empty() || p_.objects[0].kind != ObjectKind::Null || !p_.objects[0].cells.empty())
      errors_.push_back("object 0 must be the null object without cells");
    for (std::size_t i = 0; i < p_.objects.size(); ++i)
      if (p_.objects[i].id != i) errors_.push_back("object " + std::to_string(i) + " has id " + std::to_string(p_.objects[i].id));
    for (const Object& o : p_.objects) check_layout(o);
    if (p_.entry == kNoFunction || p_.entry >= p_.functions.size()) {
      errors_.push_back("no entry function (main)");
    } else if (!p_.functions[p_.entry].has_body) {
      errors_.push_back("entry function " + p_.functions[p_.entry].name + " has no body");
    }
    for (const Function& f : p_.functions) check_function(f);
    return std::move(errors_);
  }

 private:
  void err(const Function& f, std::size_t i, const std::string& msg) {
    errors_.push_back(f.name + ":" + std::to_string(i) + ": " + msg);
  }

  // Checks locals/objects referenced by `e`; returns its number of Load nodes (with repeats
  // counted once per distinct node, as the encoder evaluates each node once).
  std::size_t check_expr(const Function& f, std::size_t i, ExprRef e, const char* what) {
    if (!e) return 0;
    std::size_t loads = 0;
    visit_post_order(e, [&](ExprRef n) {
      if (n->op == Op::Local) {
        if (n->value >= f.locals.size())
          err(f, i, std::string(what) + ": local " + std::to_string(n->value) + " out of range");
        else if (!(f.locals[n->value].type == n->type))
          err(f, i, std::string(what) + ": local " + f.locals[n->value].name + " used as " + n->type.str() +
                        " but declared " + f.locals[n->value].type.str());
      } else if (n->op == Op::ObjAddr) {
        if (n->obj >= p_.objects.size()) err(f, i, std::string(what) + ": object " + std::to_string(n->obj) + " out of range");
      } else if (n->op == Op::Load) {
        ++loads;
      }
    });
    return loads;
  }

  // Cells in increasing offset, none overlapping another, all inside the object.
  void check_layout(const Object& o) {
    std::uint64_t end = 0;
    for (std::size_t c = 0; c < o.cells.size(); ++c) {
      const Cell& cell = o.cells[c];
      if (cell.size == 0 || (c > 0 && cell.offset < end) || cell.offset + cell.size > o.size)
        errors_.push_back("object " + o.name + ": cell " + std::to_string(c) + " (" + cell.name + ") at byte " +
                          std::to_string(cell.offset) + " of size " + std::to_string(cell.size) +
                          " overlaps another cell or lies outside the object's " + std::to_string(o.size) + " bytes");
      end = cell.offset + cell.size;
    }
  }

  void need(const Function& f, std::size_t i, ExprRef e, const char* what) {
    if (!e) err(f, i, std::string("missing operand ") + what);
  }
  void need_type(const Function& f, std::size_t i, ExprRef e, bool ok, const char* what) {
    if (e && !ok) err(f, i, std::string(what) + " has type " + e->type.str());
  }
  void need_lhs(const Function& f, std::size_t i, const Instr& in) {
    if (in.lhs == kNoLocal || in.lhs >= f.locals.size()) err(f, i, "lhs local out of range");
  }

  void check_function(const Function& f) {
    if (!f.has_body) {
      if (!f.body.empty()) errors_.push_back(f.name + ": declared without body but has instructions");
      return;
    }
    if (f.num_params > f.locals.size()) errors_.push_back(f.name + ": more parameters than locals");
    if (f.body.empty() || f.body.back().kind != InstrKind::Return) errors_.push_back(f.name + ": body does not end with return");
    for (ObjectId o : f.frame_objects)
      if (o >= p_.objects.size() || p_.objects[o].kind != ObjectKind::Local)
        errors_.push_back(f.name + ": frame object " + std::to_string(o) + " is not a Local object");
    for (std::size_t i = 0; i < f.body.size(); ++i) check_instr(f, i, f.body[i]);
  }

  void check_instr(const Function& f, std::size_t i, const Instr& in) {
    std::size_t loads = check_expr(f, i, in.a, "a") + check_expr(f, i, in.b, "b");
    for (ExprRef a : in.args) loads += check_expr(f, i, a, "argument");
    const bool lhs_ok = in.lhs != kNoLocal && in.lhs < f.locals.size();
    auto load_free = [&](const char* what) {
      if (loads) err(f, i, std::string(instr_kind_name(in.kind)) + ": " + what + " must be load-free");
    };
    switch (in.kind) {
      case InstrKind::Skip:
      case InstrKind::Abort:
      case InstrKind::AtomicBegin:
      case InstrKind::AtomicEnd: break;
      case InstrKind::Assign:
        need_lhs(f, i, in);
        need(f, i, in.a, "a");
        if (lhs_ok && in.a && !(in.a->type == f.locals[in.lhs].type))
          err(f, i, "assign: " + in.a->type.str() + " to " + f.locals[in.lhs].name + " : " + f.locals[in.lhs].type.str());
        break;
      case InstrKind::Store:
        need(f, i, in.a, "a");
        need(f, i, in.b, "b");
        need_type(f, i, in.a, in.a && in.a->type.is_ptr(), "store address");
        ++loads;
        break;
      case InstrKind::Havoc: need_lhs(f, i, in); break;
      case InstrKind::Assume:
      case InstrKind::Assert:
        need(f, i, in.a, "a");
        need_type(f, i, in.a, in.a && in.a->type.is_bool(), "condition");
        break;
      case InstrKind::Goto:
        need_type(f, i, in.a, in.a && in.a->type.is_bool(), "goto condition");
        if (in.target >= f.body.size())
          err(f, i, "goto target " + std::to_string(in.target) + " out of range");
        break;
      case InstrKind::Call: {
        if (in.callee >= p_.functions.size()) {
          err(f, i, "call: callee out of range");
          break;
        }
        const Function& g = p_.functions[in.callee];
        if (!g.has_body) err(f, i, "call: " + g.name + " has no body");
        if (in.args.size() != g.num_params)
          err(f, i, "call: " + g.name + " takes " + std::to_string(g.num_params) + " arguments, given " +
                        std::to_string(in.args.size()));
        if (in.lhs != kNoLocal && !lhs_ok) err(f, i, "call: lhs local out of range");
        if (in.lhs != kNoLocal && !g.return_type) err(f, i, "call: result of void function " + g.name + " used");
        break;
      }
      case InstrKind::Return:
        if (in.a && !f.return_type) err(f, i, "return with a value in a void function");
        if (in.a && f.return_type && !(in.a->type == *f.return_type))
          err(f, i, "return: " + in.a->type.str() + " from a function returning " + f.return_type->str());
        break;
      case InstrKind::Lock: case InstrKind::Unlock: case InstrKind::CondSignal: case InstrKind::CondBroadcast:
      case InstrKind::RdLock: case InstrKind::WrLock: case InstrKind::RwUnlock: case InstrKind::TryLock:
        need(f, i, in.a, "a");
        need_type(f, i, in.a, in.a && in.a->type.is_ptr(), "synchronization operand");
        if (in.kind == InstrKind::TryLock) need_lhs(f, i, in);
        load_free("operand");
        break;
      case InstrKind::CondWait:
        need(f, i, in.a, "a");
        need(f, i, in.b, "b");
        need_type(f, i, in.a, in.a && in.a->type.is_ptr(), "condition variable");
        need_type(f, i, in.b, in.b && in.b->type.is_ptr(), "mutex");
        load_free("operands");
        break;
      case InstrKind::ThreadCreate:
        if (in.callee >= p_.functions.size() || !p_.functions[in.callee].has_body)
          err(f, i, "thread_create: start routine missing or without body");
        need_type(f, i, in.a, in.a && in.a->type.is_ptr(), "thread handle address");
        load_free("operands");
        break;
      case InstrKind::ThreadJoin:
        need(f, i, in.a, "a");
        need_type(f, i, in.b, in.b && in.b->type.is_ptr(), "join result address");
        load_free("operands");
        break;
      case InstrKind::ThreadExit: break;
      case InstrKind::Malloc:
        need_lhs(f, i, in);
        if (lhs_ok && !f.locals[in.lhs].type.is_ptr()) err(f, i, "malloc: lhs is not a pointer");
        if (in.obj == 0 || in.obj >= p_.objects.size() || p_.objects[in.obj].kind != ObjectKind::Heap)
          err(f, i, "malloc: object " + std::to_string(in.obj) + " is not a heap object");
        break;
      case InstrKind::Free:
        need(f, i, in.a, "a");
        need_type(f, i, in.a, in.a && in.a->type.is_ptr(), "free operand");
        break;
    }
    if (loads > 1)
      err(f, i, std::string(instr_kind_name(in.kind)) + ": " + std::to_string(loads) +
                    " memory accesses (at most one per instruction)");
  }

  const Program& p_;
  std::vector<std::string> errors_;
};

}  // namespace

std::vector<std::string> validate(const Program& p) { return Checker(p).run(); }

}  // namespace siren::ir
