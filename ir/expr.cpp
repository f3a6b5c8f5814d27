// Hash-consing expression manager (see ir/expr.hpp).
#include "ir/expr.hpp"

#include "ir/arith.hpp"

#include <cassert>
#include <algorithm>
#include <functional>
#include <sstream>

namespace siren::ir {

const char* op_name(Op op) {
  switch (op) {
    case Op::Const: return "const";
    case Op::Local: return "local";
    case Op::ObjAddr: return "addr";
    case Op::Neg: return "-";
    case Op::BitNot: return "~";
    case Op::LNot: return "!";
    case Op::ZExt: return "zext";
    case Op::SExt: return "sext";
    case Op::Trunc: return "trunc";
    case Op::IntToBool: return "tobool";
    case Op::PtrToInt: return "ptrtoint";
    case Op::IntToPtr: return "inttoptr";
    case Op::ValidPtr: return "valid";
    case Op::Load: return "load";
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::UDiv: return "/u";
    case Op::SDiv: return "/s";
    case Op::URem: return "%u";
    case Op::SRem: return "%s";
    case Op::Shl: return "<<";
    case Op::LShr: return ">>u";
    case Op::AShr: return ">>s";
    case Op::BitAnd: return "&";
    case Op::BitOr: return "|";
    case Op::BitXor: return "^";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Ult: return "<u";
    case Op::Ule: return "<=u";
    case Op::Slt: return "<s";
    case Op::Sle: return "<=s";
    case Op::LAnd: return "&&";
    case Op::LOr: return "||";
    case Op::PtrAdd: return "+p";
    case Op::PtrDiff: return "-p";
    case Op::Ite: return "ite";
  }
  return "?";
}

namespace {
std::size_t combine(std::size_t h, std::size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

std::size_t hash_node(const Node& n) {
  std::size_t h = static_cast<std::size_t>(n.op);
  h = combine(h, static_cast<std::size_t>(n.type.kind));
  h = combine(h, n.type.width);
  h = combine(h, n.type.is_signed);
  h = combine(h, std::hash<std::uint64_t>{}(n.value));
  h = combine(h, n.obj);
  for (auto* k : n.kids) h = combine(h, std::hash<const void*>{}(k));
  return h;
}
}  // namespace

bool ExprManager::Equal::operator()(const Node* a, const Node* b) const {
  return a->op == b->op && a->type == b->type && a->value == b->value && a->obj == b->obj &&
         a->kids == b->kids;
}

ExprManager::ExprManager() = default;
ExprManager::~ExprManager() = default;

ExprRef ExprManager::intern(Node n) {
  n.hash = hash_node(n);
  if (auto it = table_.find(&n); it != table_.end()) return *it;
  n.id = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back(std::make_unique<Node>(std::move(n)));
  table_.insert(nodes_.back().get());
  return nodes_.back().get();
}

ExprRef ExprManager::mk_const(Type t, std::uint64_t bits) {
  Node n{Op::Const, t};
  n.value = normalize(t, bits);
  return intern(std::move(n));
}

ExprRef ExprManager::mk_local(Type t, LocalId id) {
  Node n{Op::Local, t};
  n.value = id;
  return intern(std::move(n));
}

ExprRef ExprManager::mk_obj_addr(ObjectId obj, std::int64_t offset) {
  if (obj == 0) return mk_const(Type::pointer(), static_cast<std::uint64_t>(offset));
  Node n{Op::ObjAddr, Type::pointer()};
  n.obj = obj;
  n.value = static_cast<std::uint64_t>(offset);
  return intern(std::move(n));
}

ExprRef ExprManager::mk_unary(Op op, ExprRef a) {
  Node n{op, a->type};
  switch (op) {
    case Op::Neg:
    case Op::BitNot:
      assert(a->type.is_int() && "Neg/BitNot need an integer");
      break;
    case Op::LNot:
      assert(a->type.is_bool() && "LNot needs bool");
      if (a->op == Op::LNot) return a->kids[0];
      break;
    case Op::ValidPtr:
      assert(a->type.is_ptr() && "ValidPtr needs a pointer");
      n.type = Type::boolean();
      break;
    case Op::IntToBool:
      assert(a->type.is_int() && "IntToBool needs an integer");
      n.type = Type::boolean();
      break;
    default: assert(false && "mk_unary: not a unary operator");
  }
  if (a->is_const()) {
    const std::uint64_t v = a->value;
    switch (op) {
      case Op::Neg: return mk_const(a->type, ~v + 1);
      case Op::BitNot: return mk_const(a->type, ~v);
      case Op::LNot: return mk_bool(v == 0);
      case Op::IntToBool: return mk_bool(v != 0);
      case Op::ValidPtr: return mk_false();  // constants live in the null object
      default: break;
    }
  }
  n.kids = {a};
  return intern(std::move(n));
}

ExprRef ExprManager::mk_valid_ptr(ExprRef p, std::uint32_t bytes) {
  assert(p->type.is_ptr() && "ValidPtr needs a pointer");
  if (p->is_const()) return mk_false();  // constants live in the null object
  Node n{Op::ValidPtr, Type::boolean()};
  n.value = bytes;
  n.kids = {p};
  return intern(std::move(n));
}

ExprRef ExprManager::mk_cast(Op op, Type to, ExprRef a) {
  switch (op) {
    case Op::ZExt:
    case Op::SExt:
      assert((a->type.is_int() || a->type.is_bool()) && to.is_int() && to.width >= a->type.width);
      break;
    case Op::Trunc: assert(a->type.is_int() && to.is_int() && to.width <= a->type.width); break;
    case Op::PtrToInt: assert(a->type.is_ptr() && to.is_int()); break;
    case Op::IntToPtr: assert(a->type.is_int() && to.is_ptr()); break;
    default: assert(false && "mk_cast: not a conversion");
  }
  if (a->type == to && op != Op::PtrToInt && op != Op::IntToPtr) return a;
  if (a->is_const()) {
    switch (op) {
      case Op::ZExt: return mk_const(to, a->type.is_bool() ? a->value
                                                              : a->value & (a->type.width >= 64 ? ~0ULL : ((1ULL << a->type.width) - 1)));
      case Op::SExt:  // sign-extends from the source width whatever the source's signedness
        return mk_const(to, a->type.is_bool() ? (a->value ? ~0ULL : 0)
                                               : static_cast<std::uint64_t>(as_signed(
                                                     Type::integer(a->type.width, true), a->value)));
      case Op::Trunc: return mk_const(to, a->value);
      case Op::IntToPtr: return mk_const(to, static_cast<std::uint64_t>(as_signed(a->type, a->value)));
      case Op::PtrToInt: return mk_const(to, a->value);  // null object: the integer itself
      default: break;
    }
  }
  Node n{op, to};
  n.kids = {a};
  return intern(std::move(n));
}

ExprRef ExprManager::mk_load(Type t, ExprRef ptr) {
  assert(ptr->type.is_ptr() && "Load needs a pointer");
  Node n{Op::Load, t};
  n.kids = {ptr};
  return intern(std::move(n));
}

namespace {
bool is_cmp(Op op) {
  switch (op) {
    case Op::Eq: case Op::Ne: case Op::Ult: case Op::Ule: case Op::Slt: case Op::Sle: return true;
    default: return false;
  }
}

}  // namespace

std::uint64_t eval_int_binary(Op op, unsigned w, std::uint64_t a, std::uint64_t b) {
  const std::uint64_t mask = w >= 64 ? ~0ULL : ((1ULL << w) - 1);
  const std::uint64_t ua = a & mask, ub = b & mask;
  const std::int64_t sa = as_signed(Type::integer(w, true), a), sb = as_signed(Type::integer(w, true), b);
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::UDiv: return ub == 0 ? ~0ULL : ua / ub;
    case Op::URem: return ub == 0 ? ua : ua % ub;
    case Op::SDiv:
      if (sb == 0) return sa < 0 ? 1 : ~0ULL;
      if (sb == -1) return ~static_cast<std::uint64_t>(sa) + 1;  // INT_MIN / -1 wraps to INT_MIN
      return static_cast<std::uint64_t>(sa / sb);
    case Op::SRem:
      if (sb == 0) return static_cast<std::uint64_t>(sa);
      if (sb == -1) return 0;
      return static_cast<std::uint64_t>(sa % sb);
    case Op::Shl: return ub >= w ? 0 : a << ub;
    case Op::LShr: return ub >= w ? 0 : ua >> ub;
    case Op::AShr: return ub >= w ? (sa < 0 ? ~0ULL : 0) : static_cast<std::uint64_t>(sa >> ub);
    case Op::BitAnd: return a & b;
    case Op::BitOr: return a | b;
    case Op::BitXor: return a ^ b;
    case Op::Eq: return ua == ub;
    case Op::Ne: return ua != ub;
    case Op::Ult: return ua < ub;
    case Op::Ule: return ua <= ub;
    case Op::Slt: return sa < sb;
    case Op::Sle: return sa <= sb;
    case Op::LAnd: return (ua != 0) && (ub != 0);
    case Op::LOr: return (ua != 0) || (ub != 0);
    default: assert(false && "eval_int_binary: not an integer binary operator"); return 0;
  }
}

ExprRef ExprManager::mk_binary(Op op, ExprRef a, ExprRef b) {
  Type result = a->type;
  if (op == Op::PtrAdd) {
    assert(a->type.is_ptr() && b->type.is_int() && "PtrAdd needs ptr + int");
    if (b->is_const()) {
      const std::int64_t d = as_signed(b->type, b->value);
      if (d == 0) return a;
      if (a->op == Op::ObjAddr) return mk_obj_addr(a->obj, a->offset() + d);
      if (a->is_const()) return mk_const(Type::pointer(), a->value + static_cast<std::uint64_t>(d));
    }
  } else {
    assert(op != Op::PtrDiff && "use mk_ptr_diff");
    assert(a->type == b->type && "binary operands must have equal types");
    if (is_cmp(op)) {
      result = Type::boolean();
      assert((op == Op::Eq || op == Op::Ne || !a->type.is_bool()) && "ordering on bool");
    } else if (op == Op::LAnd || op == Op::LOr) {
      assert(a->type.is_bool());
      const bool is_and = op == Op::LAnd;
      if (a->is_const()) return (a->value != 0) == is_and ? b : a;
      if (b->is_const()) return (b->value != 0) == is_and ? a : b;
      if (a == b) return a;
    } else {
      assert(a->type.is_int() && "arithmetic needs integers");
    }
    if (a->is_const() && b->is_const() && !a->type.is_ptr())
      return mk_const(result, eval_int_binary(op, a->type.width, a->value, b->value));
    if (a == b && (op == Op::Eq || op == Op::Ule || op == Op::Sle)) return mk_true();
    if (a == b && (op == Op::Ne || op == Op::Ult || op == Op::Slt)) return mk_false();
    if (a->is_const() && b->is_const() && a->type.is_ptr() && (op == Op::Eq || op == Op::Ne))
      return mk_bool((a->value == b->value) == (op == Op::Eq));
  }
  Node n{op, result};
  n.kids = {a, b};
  return intern(std::move(n));
}

ExprRef ExprManager::mk_ptr_diff(Type t, ExprRef a, ExprRef b) {
  assert(a->type.is_ptr() && b->type.is_ptr() && t.is_int() && "PtrDiff typing");
  if (a->op == Op::ObjAddr && b->op == Op::ObjAddr && a->obj == b->obj)
    return mk_const(t, static_cast<std::uint64_t>(a->offset() - b->offset()));
  Node n{Op::PtrDiff, t};
  n.kids = {a, b};
  return intern(std::move(n));
}

ExprRef ExprManager::mk_ite(ExprRef c, ExprRef a, ExprRef b) {
  assert(c->type.is_bool() && a->type == b->type && "ite typing");
  if (c->is_const()) return c->value ? a : b;
  if (a == b) return a;
  Node n{Op::Ite, a->type};
  n.kids = {c, a, b};
  return intern(std::move(n));
}

ExprRef ExprManager::mk_convert(Type to, ExprRef a) {
  const Type from = a->type;
  if (from == to) return a;
  if (to.is_bool()) {
    if (from.is_int()) return mk_unary(Op::IntToBool, a);
    return mk_binary(Op::Ne, a, mk_null());
  }
  if (to.is_ptr()) {
    if (from.is_bool()) return mk_cast(Op::IntToPtr, to, mk_cast(Op::ZExt, Type::integer(64, true), a));
    return mk_cast(Op::IntToPtr, to, a);
  }
  // to is Int
  if (from.is_bool()) return mk_cast(Op::ZExt, to, a);
  if (from.is_ptr()) return mk_cast(Op::PtrToInt, to, a);
  if (to.width == from.width) {
    // same width, different signedness: reinterpret
    if (a->is_const()) return mk_const(to, a->value);
    return mk_cast(from.is_signed ? Op::SExt : Op::ZExt, to, a);
  }
  if (to.width < from.width) return mk_cast(Op::Trunc, to, a);
  return mk_cast(from.is_signed ? Op::SExt : Op::ZExt, to, a);
}

ExprRef ExprManager::rebuild(ExprRef e, std::span<const ExprRef> k) {
  switch (e->op) {
    case Op::Const:
    case Op::Local:
    case Op::ObjAddr: return e;
    case Op::ValidPtr: return mk_valid_ptr(k[0], static_cast<std::uint32_t>(e->value));
    case Op::Neg: case Op::BitNot: case Op::LNot: case Op::IntToBool:
      return mk_unary(e->op, k[0]);
    case Op::ZExt: case Op::SExt: case Op::Trunc: case Op::PtrToInt: case Op::IntToPtr:
      return mk_cast(e->op, e->type, k[0]);
    case Op::Load: return mk_load(e->type, k[0]);
    case Op::Ite: return mk_ite(k[0], k[1], k[2]);
    case Op::PtrDiff: return mk_ptr_diff(e->type, k[0], k[1]);
    default: return mk_binary(e->op, k[0], k[1]);
  }
}

std::vector<ExprRef> loads_in(ExprRef e) {
  std::vector<ExprRef> out;
  visit_post_order(e, [&](ExprRef n) {
    if (n->op == Op::Load) out.push_back(n);
  });
  std::reverse(out.begin(), out.end());
  return out;
}

std::string to_string(ExprRef e) {
  std::ostringstream os;
  std::function<void(ExprRef)> rec = [&](ExprRef n) {
    switch (n->op) {
      case Op::Const:
        if (n->type.is_bool()) os << (n->value ? "true" : "false");
        else if (n->type.is_ptr()) os << (n->value == 0 ? std::string("null") : "(ptr)" + std::to_string(static_cast<std::int64_t>(n->value)));
        else if (n->type.is_signed) os << as_signed(n->type, n->value);
        else os << n->value << 'u';
        return;
      case Op::Local: os << '%' << n->value; return;
      case Op::ValidPtr:
        os << "valid" << (n->value ? std::to_string(n->value) : std::string()) << '(';
        rec(n->kids[0]);
        os << ')';
        return;
      case Op::ObjAddr: os << "@" << n->obj << '[' << n->offset() << ']'; return;
      case Op::Load: os << '*'; rec(n->kids[0]); return;
      case Op::Ite: os << '('; rec(n->kids[0]); os << " ? "; rec(n->kids[1]); os << " : "; rec(n->kids[2]); os << ')'; return;
      default: break;
    }
    if (n->kids.size() == 1) {
      os << op_name(n->op);
      if (n->op == Op::ZExt || n->op == Op::SExt || n->op == Op::Trunc || n->op == Op::PtrToInt || n->op == Op::IntToPtr) os << '.' << n->type.str();
      os << '(';
      rec(n->kids[0]);
      os << ')';
      return;
    }
    os << '(';
    rec(n->kids[0]);
    os << ' ' << op_name(n->op) << ' ';
    rec(n->kids[1]);
    os << ')';
  };
  rec(e);
  return os.str();
}

}  // namespace siren::ir
