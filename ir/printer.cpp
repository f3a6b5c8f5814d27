// Printing of IR programs and thread-model code (ir/printer.hpp).
#include "ir/printer.hpp"

#include "ir/cfg.hpp"

#include <functional>
#include <sstream>

namespace siren::ir {

namespace {

const char* c_op(Op op) {
  switch (op) {
    case Op::Add: case Op::PtrAdd: return "+";
    case Op::Sub: case Op::PtrDiff: return "-";
    case Op::Mul: return "*";
    case Op::UDiv: return "/u";
    case Op::SDiv: return "/";
    case Op::URem: return "%u";
    case Op::SRem: return "%";
    case Op::Shl: return "<<";
    case Op::LShr: return ">>u";
    case Op::AShr: return ">>";
    case Op::BitAnd: return "&";
    case Op::BitOr: return "|";
    case Op::BitXor: return "^";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Ult: return "<u";
    case Op::Ule: return "<=u";
    case Op::Slt: return "<";
    case Op::Sle: return "<=";
    case Op::LAnd: return "&&";
    case Op::LOr: return "||";
    default: return op_name(op);
  }
}

std::string fmt_expr(const std::vector<Object>& objects, const std::vector<LocalVar>& locals,
                     ExprRef root) {
  if (!root) return "<null>";
  std::function<std::string(ExprRef, bool)> rec = [&](ExprRef e, bool top) -> std::string {
    switch (e->op) {
      case Op::Const:
        if (e->type.is_int()) {
          return e->type.is_signed ? std::to_string(as_signed(e->type, e->value))
                                   : std::to_string(e->value) + "u";
        }
        return to_string(e);
      case Op::Local:
        return e->value < locals.size() ? locals[e->value].name : "%" + std::to_string(e->value);
      case Op::ObjAddr: return "&" + cell_name(objects, e->obj, e->offset());
      case Op::Load: {
        ExprRef p = e->kids[0];
        if (p->op == Op::ObjAddr) return cell_name(objects, p->obj, p->offset());
        return "*" + rec(p, false);
      }
      case Op::Ite: {
        std::string s = rec(e->kids[0], false) + " ? " + rec(e->kids[1], false) + " : " +
                        rec(e->kids[2], false);
        return top ? s : "(" + s + ")";
      }
      case Op::Neg: return "-" + rec(e->kids[0], false);
      case Op::BitNot: return "~" + rec(e->kids[0], false);
      case Op::LNot: return "!" + rec(e->kids[0], false);
      case Op::ValidPtr:
        return "valid(" + rec(e->kids[0], true) + (e->value ? ", " + std::to_string(e->value) : std::string()) + ")";
      case Op::IntToBool: return "(bool)" + rec(e->kids[0], false);
      case Op::ZExt: case Op::SExt: case Op::Trunc: case Op::PtrToInt: case Op::IntToPtr:
        return "(" + e->type.str() + ")" + rec(e->kids[0], false);
      default: break;
    }
    std::string s = rec(e->kids[0], false) + " " + c_op(e->op) + " " + rec(e->kids[1], false);
    return top ? s : "(" + s + ")";
  };
  return rec(root, true);
}

const char* kind_tag(AssertKind k) {
  switch (k) {
    case AssertKind::Property: return "";
    case AssertKind::MemSafety: return "[memsafety]";
    case AssertKind::Limit: return "[limit]";
  }
  return "";
}

std::string fmt_instr(const std::vector<Object>& objects, const std::vector<LocalVar>& locals,
                      const Instr& in, std::uint32_t index,
                      const std::function<std::string(FunctionId)>& fname) {
  auto E = [&](ExprRef e) { return fmt_expr(objects, locals, e); };
  auto L = [&](LocalId l) {
    return l < locals.size() ? locals[l].name : l == kNoLocal ? std::string("_") : "%" + std::to_string(l);
  };
  auto store_target = [&](ExprRef p) {
    if (p && p->op == Op::ObjAddr) return cell_name(objects, p->obj, p->offset());
    return "*" + fmt_expr(objects, locals, p);
  };
  std::ostringstream os;
  os << index << ": ";
  switch (in.kind) {
    case InstrKind::Skip: os << "skip"; break;
    case InstrKind::Assign: os << L(in.lhs) << " := " << E(in.a); break;
    case InstrKind::Store: os << store_target(in.a) << " := " << E(in.b); break;
    case InstrKind::Havoc: os << L(in.lhs) << " := nondet"; break;
    case InstrKind::Assume: os << "assume " << E(in.a); break;
    case InstrKind::Assert:
      os << "assert" << kind_tag(in.assert_kind) << ' ' << E(in.a);
      if (!in.message.empty()) os << "  // " << in.message;
      break;
    case InstrKind::Goto:
      if (always_taken(in)) os << "goto " << in.target;
      else os << "if " << E(in.a) << " goto " << in.target;
      break;
    case InstrKind::Call: {
      if (in.lhs != kNoLocal) os << L(in.lhs) << " := ";
      os << fname(in.callee) << '(';
      for (std::size_t i = 0; i < in.args.size(); ++i) os << (i ? ", " : "") << E(in.args[i]);
      os << ')';
      break;
    }
    case InstrKind::Return: os << "return"; if (in.a) os << ' ' << E(in.a); break;
    case InstrKind::Abort: os << "abort"; break;
    case InstrKind::Lock: os << "lock(" << E(in.a) << ')'; break;
    case InstrKind::TryLock: os << L(in.lhs) << " := trylock(" << E(in.a) << ')'; break;
    case InstrKind::Unlock: os << "unlock(" << E(in.a) << ')'; break;
    case InstrKind::CondWait: os << "cond_wait(" << E(in.a) << ", " << E(in.b) << ')'; break;
    case InstrKind::CondSignal: os << "cond_signal(" << E(in.a) << ')'; break;
    case InstrKind::CondBroadcast: os << "cond_broadcast(" << E(in.a) << ')'; break;
    case InstrKind::RdLock: os << "rdlock(" << E(in.a) << ')'; break;
    case InstrKind::WrLock: os << "wrlock(" << E(in.a) << ')'; break;
    case InstrKind::RwUnlock: os << "rwunlock(" << E(in.a) << ')'; break;
    case InstrKind::ThreadCreate:
      os << "create(" << (in.a ? E(in.a) : std::string("null")) << ", " << fname(in.callee) << ", "
         << (in.b ? E(in.b) : std::string("null")) << ')';
      if (in.lhs != kNoLocal) os << " counter " << L(in.lhs);
      if (!in.threads.empty()) {
        os << " slots [";
        for (std::size_t i = 0; i < in.threads.size(); ++i) os << (i ? "," : "") << in.threads[i];
        os << ']';
      }
      break;
    case InstrKind::ThreadJoin:
      os << "join(" << E(in.a) << ", " << (in.b ? E(in.b) : std::string("null")) << ')';
      break;
    case InstrKind::ThreadExit: os << "thread_exit(" << (in.a ? E(in.a) : std::string("null")) << ')'; break;
    case InstrKind::AtomicBegin: os << "atomic_begin"; break;
    case InstrKind::AtomicEnd: os << "atomic_end"; break;
    case InstrKind::Malloc:
      os << L(in.lhs) << " := malloc "
         << (in.obj < objects.size() ? objects[in.obj].name : "@" + std::to_string(in.obj));
      break;
    case InstrKind::Free: os << "free(" << E(in.a) << ')'; break;
  }
  return os.str();
}

std::string init_str(const Cell& c, const std::vector<Object>& objects) {
  if (c.init_nondet) return "nondet";
  if (c.type.is_ptr()) {
    if (c.init_obj == 0) return c.init == 0 ? "null" : "(ptr)" + std::to_string(static_cast<std::int64_t>(c.init));
    return "&" + cell_name(objects, c.init_obj, static_cast<std::int64_t>(c.init));
  }
  if (c.type.is_bool()) return c.init ? "true" : "false";
  if (c.type.is_signed) return std::to_string(as_signed(c.type, c.init));
  return std::to_string(normalize(c.type, c.init));
}

const char* object_kind_name(ObjectKind k) {
  switch (k) {
    case ObjectKind::Null: return "null";
    case ObjectKind::Global: return "global";
    case ObjectKind::Local: return "local";
    case ObjectKind::Heap: return "heap";
    case ObjectKind::Hidden: return "hidden";
  }
  return "?";
}

const char* cell_kind_name(CellKind k) {
  switch (k) {
    case CellKind::Data: return "";
    case CellKind::Mutex: return " mutex";
    case CellKind::Cond: return " cond";
    case CellKind::RwLock: return " rwlock";
    case CellKind::ThreadHandle: return " thread";
  }
  return "";
}

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out;
}

}  // namespace

std::string cell_name(const std::vector<Object>& objects, ObjectId o, std::int64_t off) {
  if (o >= objects.size()) return "@" + std::to_string(o) + "[" + std::to_string(off) + "]";
  const Object& obj = objects[o];
  if (const auto c = obj.cell_at(off)) {
    const std::string& cn = obj.cells[*c].name;
    if (!cn.empty()) return cn;
    if (obj.cells.size() == 1) return obj.name;
  }
  return obj.name + (off >= 0 ? "+" : "") + std::to_string(off);  // a byte offset inside no cell's start
}

std::string format_expr(const std::vector<Object>& objects, const std::vector<LocalVar>& locals,
                        ExprRef e) {
  return fmt_expr(objects, locals, e);
}

std::string format_instr(const std::vector<Object>& objects, const std::vector<LocalVar>& locals,
                         const Instr& in, std::uint32_t index) {
  return fmt_instr(objects, locals, in, index,
                   [](FunctionId f) { return "fn#" + std::to_string(f); });
}

std::string format_expr(const Program& p, const Function& f, ExprRef e) {
  return fmt_expr(p.objects, f.locals, e);
}

std::string format_instr(const Program& p, const Function& f, const Instr& in) {
  std::uint32_t index = 0;
  if (!f.body.empty() && &in >= f.body.data() && &in < f.body.data() + f.body.size())
    index = static_cast<std::uint32_t>(&in - f.body.data());
  return fmt_instr(p.objects, f.locals, in, index, [&p](FunctionId id) {
    return id < p.functions.size() ? p.functions[id].name : "fn#" + std::to_string(id);
  });
}

std::string print_program(const Program& p) {
  std::ostringstream os;
  os << "objects:\n";
  for (const Object& o : p.objects) {
    if (o.id == 0) continue;
    os << "  @" << o.id << ' ' << o.name << " : " << object_kind_name(o.kind);
    if (o.kind == ObjectKind::Local && o.owner < p.functions.size()) os << " of " << p.functions[o.owner].name;
    os << '\n';
    for (std::size_t i = 0; i < o.cells.size(); ++i) {
      const Cell& c = o.cells[i];
      os << "    [" << i << "] " << (c.name.empty() ? o.name : c.name) << " @" << c.offset << " : " << c.type.str()
         << cell_kind_name(c.kind) << " = " << init_str(c, p.objects) << '\n';
    }
  }
  for (const Function& f : p.functions) {
    os << "function " << f.name << '(';
    for (std::uint32_t i = 0; i < f.num_params && i < f.locals.size(); ++i)
      os << (i ? ", " : "") << f.locals[i].name << " : " << f.locals[i].type.str();
    os << ')';
    if (f.return_type) os << " : " << f.return_type->str();
    if (f.is_atomic) os << " atomic";
    if (p.entry == f.id) os << " entry";
    if (!f.has_body) {
      os << " (no body)\n";
      continue;
    }
    os << '\n';
    if (f.locals.size() > f.num_params) {
      os << "  locals:";
      for (std::size_t i = f.num_params; i < f.locals.size(); ++i)
        os << ' ' << f.locals[i].name << ':' << f.locals[i].type.str();
      os << '\n';
    }
    for (const Instr& in : f.body) {
      os << "  " << format_instr(p, f, in);
      if (in.loc.line) os << "    ; " << p.where(in.loc);
      os << '\n';
    }
  }
  return os.str();
}

std::string print_dot(const Program& p) {
  std::ostringstream os;
  os << "digraph siren {\n  node [shape=box, fontname=\"monospace\"];\n";
  for (const Function& f : p.functions) {
    if (!f.has_body) continue;
    os << "  subgraph cluster_" << f.name << " {\n    label=\"" << dot_escape(f.name) << "\";\n";
    auto node = [&](std::size_t i) { return "\"" + f.name + "_" + std::to_string(i) + "\""; };
    for (std::size_t i = 0; i < f.body.size(); ++i)
      os << "    " << node(i) << " [label=\"" << dot_escape(format_instr(p, f, f.body[i])) << "\"];\n";
    for (std::size_t i = 0; i < f.body.size(); ++i) {
      const Instr& in = f.body[i];
      const bool uncond_goto = always_taken(in);
      if (in.kind == InstrKind::Goto)
        os << "    " << node(i) << " -> " << node(in.target) << " [label=\""
           << dot_escape(in.a ? format_expr(p, f, in.a) : "true") << "\"];\n";
      if (in.kind != InstrKind::Return && in.kind != InstrKind::Abort &&
          in.kind != InstrKind::ThreadExit && !uncond_goto && i + 1 < f.body.size())
        os << "    " << node(i) << " -> " << node(i + 1) << ";\n";
    }
    os << "  }\n";
  }
  os << "}\n";
  return os.str();
}

}  // namespace siren::ir
