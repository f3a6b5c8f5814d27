// Types and object layout. Memory is objects of scalar cells (semantics.md, "Memory"): a C
// scalar type maps to an ir::Type (scalar_type); arrays and structs are flattened element by
// element and field by field (flatten, cells_of), each cell at its byte offset in Clang's
// layout of the target's data model (field_offset, bytes_of), so that pointer arithmetic in
// bytes finds the cells; a union is its members' cells laid over each other (union_cells);
// the pthread typedefs, unions in glibc, are single synchronisation cells (sync_kind) of
// their whole size.
#include "frontend/translator.hpp"

#include <clang/AST/RecordLayout.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>

namespace siren::frontend {

// ---------------------------------------------------------------------------------------
// Synchronisation typedefs (glibc defines the pthread types as unions: recognise the names)

Sync sync_kind(const ASTContext& ctx, QualType t) {
  for (int guard = 0; guard < 64; ++guard) {
    const clang::Type* ty = t.getTypePtr();
    if (const auto* td = dyn_cast<TypedefType>(ty)) {
      const std::string n = td->getDecl()->getName().str();
      if (n == "pthread_mutex_t" || n == "pthread_spinlock_t") return Sync::Mutex;  // a spin lock is a mutex
      // pthread_once_t and pthread_barrier_t: synchronisation cells (rv_call encodes their
      // state) that hold no data, like a condition variable's: no races on them
      if (n == "pthread_cond_t" || n == "pthread_once_t" || n == "pthread_barrier_t") return Sync::Cond;
      if (n == "pthread_rwlock_t") return Sync::RwLock;
      if (n == "pthread_t") return Sync::Thread;
      if (n == "pthread_attr_t" || n == "pthread_mutexattr_t" || n == "pthread_condattr_t" ||
          n == "pthread_rwlockattr_t" || n == "pthread_barrierattr_t")
        return Sync::Opaque;
    }
    QualType next = t.getSingleStepDesugaredType(ctx);
    if (next == t) return Sync::None;
    t = next;
  }
  return Sync::None;
}

namespace {
CellKind cell_kind(Sync s) {
  switch (s) {
    case Sync::Mutex: return CellKind::Mutex;
    case Sync::Cond: return CellKind::Cond;
    case Sync::RwLock: return CellKind::RwLock;
    case Sync::Thread: return CellKind::ThreadHandle;
    default: return CellKind::Data;
  }
}
}  // namespace

// ---------------------------------------------------------------------------------------
// Types and layout

Type Translator::scalar_type(QualType t, SourceLocation loc) {
  Sync s = sync_kind(ctx_, t);
  if (s == Sync::Thread) return Type::integer(64, false);
  if (s != Sync::None) return Type::integer(32, true);
  QualType c = t.getCanonicalType();
  if (const auto* at = c->getAs<AtomicType>()) {  // _Atomic T: a cell of T (atomicity: load/store)
    c = at->getValueType().getCanonicalType();
    if (c->isRecordType() || c->isArrayType()) unsupported(loc, "atomic struct or union type '" + t.getAsString() + "'");
  }
  if (c->isBooleanType()) return Type::boolean();
  if (c->isPointerType()) return Type::pointer();
  if (const auto* et = c->getAs<EnumType>()) {
    if (!et->getDecl()->isComplete()) return Type::integer(32, true);
    c = et->getDecl()->getIntegerType().getCanonicalType();
  }
  if (c->isIntegerType()) {
    unsigned w = static_cast<unsigned>(ctx_.getTypeSize(c));
    if (w > 64) unsupported(loc, "integer type wider than 64 bits '" + t.getAsString() + "'");
    return Type::integer(w, c->isSignedIntegerOrEnumerationType());
  }
  if (c->isRealFloatingType() || c->isComplexType())
    unsupported(loc, "floating-point type '" + t.getAsString() + "'");
  if (c->isFunctionType()) unsupported(loc, "function pointer");
  unsupported(loc, "non-scalar value of type '" + t.getAsString() + "'");
}

bool Translator::is_aggregate(QualType t) {
  if (sync_kind(ctx_, t) != Sync::None) return false;
  QualType c = t.getCanonicalType();
  return c->isArrayType() || c->isRecordType();
}

std::uint64_t Translator::cells_of(QualType t, SourceLocation loc) {
  if (sync_kind(ctx_, t) != Sync::None) return 1;
  QualType c = t.getCanonicalType();
  if (c->isVoidType()) return 1;
  if (const auto* at = dyn_cast<ConstantArrayType>(c.getTypePtr()))
    return at->getSize().getZExtValue() * cells_of(at->getElementType(), loc);
  if (isa<VariableArrayType>(c.getTypePtr())) unsupported(loc, "variable-length array");
  if (c->isArrayType()) unsupported(loc, "array of unknown size");
  if (const auto* rt = c->getAs<RecordType>()) {
    const RecordDecl* rd = rt->getDecl()->getDefinition();
    if (!rd) unsupported(loc, "incomplete struct type '" + t.getAsString() + "'");
    if (rd->isUnion()) return union_cells(rd, t, loc).size();
    std::uint64_t n = 0;
    for (const FieldDecl* f : rd->fields()) {
      if (f->isBitField()) {
        const BitPlace p = bit_place(f, loc);
        n += p.first && p.has_cell;  // one cell per run
        continue;
      }
      n += cells_of(f->getType(), loc);
    }
    return n;
  }
  scalar_type(t, loc);
  return 1;
}

// A union is the cells of its members laid over each other: each member's cells at their
// byte offsets, merged. Two cells that start at the same byte must be the same cell — the
// same size and width, both data, no bool beside a non-bool, no pointer beside an integer
// (pointers are not integers here, see PtrToInt) —, so that a value stored through one member
// and read through another is the same bits (`convert` between equal widths); a cell that
// only one member has is the union's too (`union { int a; struct { int x, y; } s; }` is two
// cells, a and s.x being the first); cells that overlap without starting at the same byte
// (an int over four chars) are not representable. Names are the first member's that has the
// cell (".a", ".s.y"). A synchronisation object only as the first member's.
//
// Only the members the program names count (named_field): a member named nowhere, or only in
// sizeof/typeof (the kernel's kfifo union of a struct and pointers used for their types), is
// never read or written as such, so its layout need not fit the others'; its bytes are then
// not cells of the union (an access to them through a pointer is one to no cell, as to
// padding). A union none of whose members is named has its first member's cells.
namespace {
class NamedFields : public RecursiveASTVisitor<NamedFields> {
 public:
  explicit NamedFields(std::unordered_set<const FieldDecl*>& out) : out_(out) {}
  bool VisitMemberExpr(MemberExpr* e) {
    if (const auto* f = dyn_cast<FieldDecl>(e->getMemberDecl())) out_.insert(f);
    return true;
  }
  bool VisitDesignatedInitExpr(DesignatedInitExpr* e) {
    for (const auto& d : e->designators())
      if (d.isFieldDesignator() && d.getField()) out_.insert(d.getField());
    return true;
  }
  bool VisitInitListExpr(InitListExpr* e) {
    if (const FieldDecl* f = e->getInitializedFieldInUnion()) out_.insert(f);
    return true;
  }
  bool VisitOffsetOfExpr(OffsetOfExpr* e) {
    for (unsigned i = 0; i < e->getNumComponents(); ++i)
      if (e->getComponent(i).getKind() == OffsetOfNode::Field) out_.insert(e->getComponent(i).getField());
    return true;
  }
  // Unevaluated operands: sizeof / alignof (of an expression), typeof.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr* e) {
    if (e->isArgumentType() || !e->getTypeOfArgument()->isVariableArrayType()) return true;
    return RecursiveASTVisitor::TraverseUnaryExprOrTypeTraitExpr(e);
  }
  bool TraverseTypeOfExprTypeLoc(TypeOfExprTypeLoc) { return true; }
  bool TraverseTypeOfExprType(TypeOfExprType*) { return true; }

 private:
  std::unordered_set<const FieldDecl*>& out_;
};
}  // namespace

bool Translator::named_field(const FieldDecl* fd) {
  if (!named_fields_) {
    named_fields_.emplace();
    NamedFields v(*named_fields_);
    v.TraverseDecl(ctx_.getTranslationUnitDecl());
  }
  return named_fields_->count(fd) > 0;
}

std::vector<CellSpec> Translator::union_cells(const RecordDecl* rd, QualType t,
                                              SourceLocation loc) {
  std::vector<CellSpec> cells;  // in increasing offset
  bool first = true;
  std::string bits;  // the bit-field members' cells (bit_runs), for the message
  bool any_named = false;
  for (const FieldDecl* f : rd->fields()) any_named = any_named || named_field(f);
  for (const FieldDecl* f : rd->fields()) {
    if (any_named ? !named_field(f) : !first) continue;
    std::vector<CellSpec> m;
    if (f->isBitField()) {
      const BitPlace p = bit_place(f, loc);
      if (!p.has_cell) continue;  // unnamed or zero-width: padding
      m.push_back({"." + f->getNameAsString(), Type::integer(8 * p.size, false), CellKind::Data, 0, p.size});
      bits += "; bit-field '" + f->getNameAsString() + "' is a cell of " + std::to_string(p.size) + " byte(s)";
    } else {
      flatten(f->getType(), "." + f->getNameAsString(), loc, m);
    }
    for (CellSpec& c : m) {
      auto it = std::lower_bound(cells.begin(), cells.end(), c.offset,
                                 [](const CellSpec& x, std::uint64_t off) { return x.offset < off; });
      if (it != cells.end() && it->offset == c.offset) {
        const Type a = it->type, b = c.type;
        const bool same = it->kind == CellKind::Data && c.kind == CellKind::Data && a.is_bool() == b.is_bool() &&
                          a.is_ptr() == b.is_ptr() && a.width == b.width && it->size == c.size;
        if (!same)
          unsupported(loc, "union '" + t.getAsString() + "' whose members do not share one cell layout (member '" +
                               f->getNameAsString() + "'" + bits + ")");
        continue;
      }
      const bool overlaps = (it != cells.begin() && std::prev(it)->offset + std::prev(it)->size > c.offset) ||
                            (it != cells.end() && c.offset + c.size > it->offset);
      if (overlaps || (!first && c.kind != CellKind::Data))  // a synchronisation object: one member's
        unsupported(loc, "union '" + t.getAsString() + "' whose members do not share one cell layout (member '" +
                             f->getNameAsString() + "'" + bits + ")");
      cells.insert(it, std::move(c));
    }
    first = false;
  }
  if (cells.empty()) unsupported(loc, "empty union '" + t.getAsString() + "'");
  return cells;
}

// sizeof(t) in the target's data model; 1 for void (GNU C's arithmetic on void *) and for
// function types.
std::uint64_t Translator::bytes_of(QualType t, SourceLocation loc) {
  QualType c = t.getCanonicalType();
  if (c->isVoidType() || c->isFunctionType()) return 1;
  if (isa<VariableArrayType>(c.getTypePtr())) unsupported(loc, "variable-length array");
  if (c->isIncompleteType()) unsupported(loc, "incomplete type '" + t.getAsString() + "'");
  return static_cast<std::uint64_t>(ctx_.getTypeSizeInChars(c).getQuantity());
}

// The byte offset of a field in its struct (Clang's record layout); 0 in a union.
std::uint64_t Translator::field_offset(const FieldDecl* fd, SourceLocation) {
  if (fd->getParent()->isUnion()) return 0;
  const ASTRecordLayout& layout = ctx_.getASTRecordLayout(fd->getParent());
  return layout.getFieldOffset(fd->getFieldIndex()) / 8;
}

// Bit-fields (docs/semantics.md "Bit-fields"). Clang's record layout gives each field's
// offset in bits (packed structs, zero-width fields, a field that does not fit in its unit:
// all follow from it). A maximal run of adjacent bit-fields of nonzero width is one memory
// location (C11 3.14), so it is one unsigned data cell: a write to one field is a
// read-modify-write of the cell, which races with a write to any other field of the run, as
// in C. The cell covers the run's bytes [b, e): its size is the smallest power of two >= e - b
// when that many bytes from b stay before the next member (or run) and the end of the record,
// else exactly e - b (a u24, u40, u48 or u56 cell). A zero-width field ends a run and has no
// cell; a run of unnamed fields only is padding and has no cell either. Two runs that share a
// byte (a zero-width field in a packed struct) are merged: one cell, conservatively one
// location. A run of more than 8 bytes is unsupported. In a union every bit-field member is
// a run of its own at byte 0 (union_cells lays it over the other members).
const std::vector<BitRun>& Translator::bit_runs(const RecordDecl* rd, SourceLocation loc) {
  if (auto it = bit_runs_.find(rd); it != bit_runs_.end()) return it->second;
  const ASTRecordLayout& layout = ctx_.getASTRecordLayout(rd);
  const std::uint64_t record_bytes = static_cast<std::uint64_t>(layout.getSize().getQuantity());
  struct Raw {
    std::vector<const FieldDecl*> fields;
    std::uint64_t begin = 0, end = 0;  // bits
  };
  std::vector<Raw> raw;
  bool open = false;  // the previous field was a bit-field of nonzero width
  for (const FieldDecl* f : rd->fields()) {
    const std::uint64_t off = rd->isUnion() ? 0 : layout.getFieldOffset(f->getFieldIndex());
    if (!f->isBitField()) {
      open = false;
      continue;
    }
    const unsigned w = f->getBitWidthValue(ctx_);
    if (w == 0) {
      open = false;
      continue;
    }
    if (open && !rd->isUnion()) {
      raw.back().fields.push_back(f);
      raw.back().end = std::max(raw.back().end, off + w);
      continue;
    }
    if (!rd->isUnion() && !raw.empty() && raw.back().end > off / 8 * 8) {  // shares a byte: merge
      raw.back().fields.push_back(f);
      raw.back().end = std::max(raw.back().end, off + w);
      open = true;
      continue;
    }
    raw.push_back({{f}, off, off + w});
    open = !rd->isUnion();
  }
  std::vector<BitRun> runs;
  for (const Raw& r : raw) {
    BitRun run;
    run.fields = r.fields;
    run.byte = r.begin / 8;
    const std::uint64_t span = (r.end + 7) / 8 - run.byte;
    std::uint64_t limit = record_bytes;  // the first byte of the next member, if any
    if (!rd->isUnion())
      for (const FieldDecl* f : rd->fields()) {
        const std::uint64_t off = layout.getFieldOffset(f->getFieldIndex());
        if (off >= r.end && !(f->isBitField() && f->getBitWidthValue(ctx_) == 0)) limit = std::min(limit, off / 8);
      }
    std::uint64_t size = 1;
    while (size < span) size *= 2;
    if (run.byte + size > limit) size = span;
    if (size > 8) {
      const FieldDecl* f = r.fields.front();
      unsupported(f->getLocation(), "bit-fields from '" + f->getNameAsString() + "' to '" +
                                        r.fields.back()->getNameAsString() + "' are one memory location of " +
                                        std::to_string(span) + " bytes (more than 8)");
    }
    run.size = static_cast<std::uint32_t>(size);
    std::string names;
    for (const FieldDecl* f : r.fields)
      if (!f->isUnnamedBitfield()) names += (names.empty() ? "" : ",") + f->getNameAsString();
    if (!names.empty()) run.name = r.fields.size() == 1 ? names : "{" + names + "}";
    for (const FieldDecl* f : r.fields) {
      BitPlace p;
      p.run = runs.size();
      p.byte = run.byte;
      p.size = run.size;
      p.bit = static_cast<unsigned>((rd->isUnion() ? 0 : layout.getFieldOffset(f->getFieldIndex())) - 8 * run.byte);
      p.width = f->getBitWidthValue(ctx_);
      if (options_.test_wrong_bitfield_layout && p.bit + p.width < 8 * p.size) ++p.bit;  // TEST ONLY: one bit off
      p.first = f == r.fields.front();
      p.has_cell = run.has_cell();
      bit_places_[f] = p;
    }
    runs.push_back(std::move(run));
  }
  (void)loc;
  return bit_runs_[rd] = std::move(runs);
}

// A bit-field's run and bits; a zero-width one has no cell.
BitPlace Translator::bit_place(const FieldDecl* fd, SourceLocation loc) {
  bit_runs(fd->getParent(), loc);
  if (auto it = bit_places_.find(fd); it != bit_places_.end()) return it->second;
  return BitPlace{};  // zero width
}

void Translator::flatten(QualType t, const std::string& name, SourceLocation loc,
                         std::vector<CellSpec>& out, std::uint64_t base) {
  Sync s = sync_kind(ctx_, t);
  if (s != Sync::None) {
    out.push_back({name, scalar_type(t, loc), cell_kind(s), base, static_cast<std::uint32_t>(bytes_of(t, loc))});
    return;
  }
  QualType c = t.getCanonicalType();
  if (const auto* at = dyn_cast<ConstantArrayType>(c.getTypePtr())) {
    // keep the element's sugar (pthread_t arrays)
    QualType elem = at->getElementType();
    if (const auto* sat = dyn_cast<ConstantArrayType>(t.getDesugaredType(ctx_).getTypePtr()))
      elem = sat->getElementType();
    if (const auto* sat2 = ctx_.getAsConstantArrayType(t)) elem = sat2->getElementType();
    std::uint64_t n = at->getSize().getZExtValue();
    if (n * cells_of(elem, loc) > 100000) unsupported(loc, "array with more than 100000 cells");
    const std::uint64_t es = bytes_of(elem, loc);
    for (std::uint64_t i = 0; i < n; ++i)
      flatten(elem, name + "[" + std::to_string(i) + "]", loc, out, base + i * es);
    return;
  }
  if (c->isArrayType() || c->isRecordType()) {
    cells_of(t, loc);  // reports VLA/incomplete
    const RecordDecl* rd = c->getAs<RecordType>()->getDecl()->getDefinition();
    if (rd->isUnion()) {
      for (CellSpec cs : union_cells(rd, t, loc)) {
        cs.name = name + cs.name;
        cs.offset += base;
        out.push_back(std::move(cs));
      }
      return;
    }
    for (const FieldDecl* f : rd->fields()) {
      if (f->isBitField()) {  // the run's cell, at its first field
        const BitPlace p = bit_place(f, loc);
        if (p.first && p.has_cell)
          out.push_back({name + "." + bit_runs(rd, loc)[p.run].name, Type::integer(8 * p.size, false), CellKind::Data,
                         base + p.byte, p.size});
        continue;
      }
      flatten(f->getType(), name + "." + f->getNameAsString(), loc, out, base + field_offset(f, loc));
    }
    return;
  }
  if (c->isVoidType()) {
    out.push_back({name, Type::integer(8, false), CellKind::Data, base, 1});
    return;
  }
  out.push_back({name, scalar_type(t, loc), CellKind::Data, base, static_cast<std::uint32_t>(bytes_of(t, loc))});
}

// A union inside `t` (not behind a pointer): translator.hpp.
bool holds_union(QualType t) {
  const QualType c = t.getCanonicalType();
  if (const auto* at = dyn_cast<ArrayType>(c.getTypePtr())) return holds_union(at->getElementType());
  const auto* rt = c->getAs<RecordType>();
  if (!rt) return false;
  const RecordDecl* rd = rt->getDecl()->getDefinition();
  if (!rd) return false;
  if (rd->isUnion()) return true;
  for (const FieldDecl* f : rd->fields())
    if (holds_union(f->getType())) return true;
  return false;
}

}  // namespace siren::frontend
