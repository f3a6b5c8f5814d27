// Hash-consed expressions of siren's IR (after Bitwuzla's node manager).
//
// Every expression is an immutable `Node` owned by an `ExprManager`; structurally equal
// expressions are the same pointer, so `ExprRef` equality is structural equality and nodes can
// be used as map keys. Build nodes only through the manager's `mk_*` functions, which check
// operand types (an ill-typed build is a bug in the caller: it asserts).
//
// Semantics of every operator (wrap-around arithmetic, SMT-LIB division by zero and
// shift semantics, pointers as (object, offset)) are defined in docs/semantics.md; the
// concrete interpreter and the encoder both implement exactly that document.
#pragma once

#include "ir/type.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

namespace siren::ir {

using LocalId = std::uint32_t;   // index into the owning function's (or thread's) locals
using ObjectId = std::uint32_t;  // index into Program::objects; 0 is the null object

enum class Op : std::uint8_t {
  // leaves
  Const,    // value = bits (normalized, see normalize()); for Ptr: obj = 0, value = offset
  Local,    // value = LocalId
  ObjAddr,  // pointer to byte `value` (offset, signed) of object `obj`
  // unary
  Neg, BitNot, LNot,
  ZExt, SExt, Trunc,  // to the node's type (Int -> Int; Bool -> Int via ZExt gives 0/1)
  IntToBool,          // x != 0
  PtrToInt, IntToPtr, // see docs/semantics.md (null object carries integer values)
  ValidPtr,           // bool: pointer designates a cell of a live object (value: access bytes)
  Load,               // value of the cell designated by the pointer operand
  // binary
  Add, Sub, Mul, UDiv, SDiv, URem, SRem, Shl, LShr, AShr, BitAnd, BitOr, BitXor,
  Eq, Ne, Ult, Ule, Slt, Sle,  // comparisons; Eq/Ne also on Bool and Ptr
  LAnd, LOr,                   // Bool x Bool
  PtrAdd,                      // Ptr + Int (offset in bytes, signed)
  PtrDiff,                     // Ptr - Ptr (same object), Int result in bytes
  // ternary
  Ite,  // Bool ? a : a
};

const char* op_name(Op op);

struct Node {
  Op op;
  Type type;
  std::uint64_t value = 0;  // Const bits / LocalId / ObjAddr offset (as two's complement)
  ObjectId obj = 0;         // ObjAddr object
  std::vector<const Node*> kids;
  std::size_t hash = 0;
  std::uint32_t id = 0;  // creation order inside its manager (stable, for printing/sorting)

  bool is_const() const { return op == Op::Const; }
  std::int64_t offset() const { return static_cast<std::int64_t>(value); }  // ObjAddr
};

using ExprRef = const Node*;

class ExprManager {
 public:
  ExprManager();
  ~ExprManager();
  ExprManager(const ExprManager&) = delete;
  ExprManager& operator=(const ExprManager&) = delete;

  ExprRef mk_const(Type t, std::uint64_t bits);  // bits are normalized
  ExprRef mk_bool(bool b) { return mk_const(Type::boolean(), b ? 1 : 0); }
  ExprRef mk_true() { return mk_bool(true); }
  ExprRef mk_false() { return mk_bool(false); }
  ExprRef mk_int(Type t, std::int64_t v) { return mk_const(t, static_cast<std::uint64_t>(v)); }
  ExprRef mk_null() { return mk_const(Type::pointer(), 0); }
  ExprRef mk_local(Type t, LocalId id);
  ExprRef mk_obj_addr(ObjectId obj, std::int64_t offset);

  ExprRef mk_unary(Op op, ExprRef a);            // Neg, BitNot, LNot, ValidPtr, IntToBool
  /// ValidPtr(p) for an access of `bytes` bytes (0: any size): p designates the start of a
  /// cell of a live object that the access fits (ir::Cell::fits).
  ExprRef mk_valid_ptr(ExprRef p, std::uint32_t bytes);
  ExprRef mk_cast(Op op, Type to, ExprRef a);    // ZExt, SExt, Trunc, PtrToInt, IntToPtr
  ExprRef mk_load(Type t, ExprRef ptr);
  ExprRef mk_binary(Op op, ExprRef a, ExprRef b);
  ExprRef mk_ite(ExprRef c, ExprRef a, ExprRef b);
  ExprRef mk_ptr_diff(Type result, ExprRef a, ExprRef b);  // in bytes, same object
  /// Converts between any two scalar types with C's rules: int->int truncates/extends by the
  /// source's signedness, int->bool is != 0, bool->int is 0/1, int<->ptr per IntToPtr/PtrToInt.
  ExprRef mk_convert(Type to, ExprRef a);

  /// Generic builder used when rebuilding a node with new kids (substitution, inlining).
  ExprRef rebuild(ExprRef e, std::span<const ExprRef> kids);

  std::size_t size() const { return nodes_.size(); }

 private:
  ExprRef intern(Node n);
  struct Hash { std::size_t operator()(const Node* n) const { return n->hash; } };
  struct Equal { bool operator()(const Node* a, const Node* b) const; };
  std::unordered_set<const Node*, Hash, Equal> table_;
  std::vector<std::unique_ptr<Node>> nodes_;
};

/// Calls `f` on every node of `e` (each once, children before parents).
template <class F>
void visit_post_order(ExprRef e, F&& f);

/// Every Load node in `e`, outermost first (a Load inside a Load's address is listed after it).
std::vector<ExprRef> loads_in(ExprRef e);

/// Printable form: `x`, `@g[2]`, `load.i32(@a[0] +p i)`, `(x + 1)`.
std::string to_string(ExprRef e);

}  // namespace siren::ir

#include "ir/expr_impl.hpp"
