// The C front end: parses one C file with Clang 16 (LibTooling, gnu11) and translates the
// functions reachable from `main` into siren's goto-style IR (docs/semantics.md).
//
// Shape of the translation (after CBMC's goto_convert):
//  * memory: globals, static locals, address-taken / aggregate locals and malloc sites are
//    ir::Objects of flattened scalar cells (layout.*); other locals are LocalVars;
//  * every memory read is materialised into a temporary (`t := *p`, one access per
//    instruction, the granularity rule of semantics.md) and preceded by a MemSafety assert
//    unless its address is a constant in-range ObjAddr; a peephole pass afterwards folds a
//    single-use load temporary back into a following local-only instruction;
//  * conditions are translated as jumping code, so `&&`, `||`, `!` and `?:` keep C's
//    short-circuit order; value uses of them with memory accesses become branches too;
//  * library calls (pthread, __VERIFIER_*, malloc, assert, ...) map to dedicated
//    instructions (rv_call); the string.h functions strcpy, strncpy, strlen, strcmp, memset
//    and memcpy are emitted in place as small loops of one-access instructions, so that other
//    threads can interleave between their single-cell reads and writes as in a real libc
//    (rv_string_call), and sscanf is modelled on main's arguments (rv_sscanf);
//  * string literals are constant Global objects (literal_object); a pass after translation
//    puts a MemSafety check before every write that could hit one (guard_literal_writes);
//  * main(argc, argv) gets a nondet argc >= 1 and argv pointing to hidden objects
//    (main_arguments);
//  * malloc/calloc sizes and VLA lengths that are not constants are first folded over
//    variables that are never modified (fixed_value); otherwise the object gets a fixed
//    capacity and a Limit assert (rv_call, decl_stmt).
// Unsupported constructs throw `Unsupported` (caught per function) and become diagnostics
// `file:line:col: unsupported: <what>`.
#include "frontend/frontend.hpp"

#include <clang/AST/APValue.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticLex.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Tooling.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace siren::frontend {
namespace {

using namespace clang;
using ir::CellKind;
using ir::ExprRef;
using ir::InstrKind;
using ir::LocalId;
using ir::ObjectId;
using ir::Op;
using ir::Type;

// ---------------------------------------------------------------------------------------
// Errors and Clang diagnostics

struct Unsupported {
  SourceLocation loc;
  std::string what;
};

[[noreturn]] void unsupported(SourceLocation loc, std::string what) {
  throw Unsupported{loc, std::move(what)};
}

class CollectingConsumer : public DiagnosticConsumer {
 public:
  std::vector<Diagnostic> errors;
  void HandleDiagnostic(DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error) return;
    Diagnostic d;
    llvm::SmallString<128> msg;
    info.FormatDiagnostic(msg);
    d.message = std::string("error: ") + msg.c_str();
    // A missing header (svcomp.h, a kernel header): say how to give it.
    if (info.getID() == clang::diag::err_pp_file_not_found) d.message += " (add -I DIR)";
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      const SourceManager& sm = info.getSourceManager();
      PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
      if (p.isValid()) {
        d.file = p.getFilename();
        d.line = p.getLine();
        d.col = p.getColumn();
      }
    }
    if (errors.size() < 20) errors.push_back(std::move(d));
  }
};

// ---------------------------------------------------------------------------------------
// Synchronisation typedefs (glibc defines the pthread types as unions: recognise the names)

enum class Sync { None, Mutex, Cond, RwLock, Thread, Opaque };

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

CellKind cell_kind(Sync s) {
  switch (s) {
    case Sync::Mutex: return CellKind::Mutex;
    case Sync::Cond: return CellKind::Cond;
    case Sync::RwLock: return CellKind::RwLock;
    case Sync::Thread: return CellKind::ThreadHandle;
    default: return CellKind::Data;
  }
}

struct CellSpec {
  std::string name;
  Type type;
  CellKind kind = CellKind::Data;
};

// ---------------------------------------------------------------------------------------
// Whole-translation-unit facts for fixed_value: which variables are ever written (assigned,
// incremented or decremented, or have their address taken), every direct call of each
// function, and the functions used other than as a direct callee (function pointers, thread
// start routines), whose parameters can take values from calls we do not see.

class UseScan {
 public:
  std::set<const VarDecl*> modified;
  std::map<const FunctionDecl*, std::vector<const CallExpr*>> calls;
  std::set<const FunctionDecl*> escaping;  // used other than as a direct callee

  explicit UseScan(const TranslationUnitDecl* tu) {
    for (const Decl* d : tu->decls()) {
      if (const auto* fd = dyn_cast<FunctionDecl>(d); fd && fd->hasBody(fd)) walk(fd->getBody());
      if (const auto* vd = dyn_cast<VarDecl>(d); vd && vd->getInit()) walk(vd->getInit());
    }
  }

 private:
  void walk(const Stmt* s) {  // a DeclStmt's children are its initialisers
    if (!s) return;
    if (const auto* bo = dyn_cast<BinaryOperator>(s); bo && bo->isAssignmentOp()) mark(bo->getLHS());
    if (const auto* uo = dyn_cast<UnaryOperator>(s); uo && (uo->isIncrementDecrementOp() || uo->getOpcode() == UO_AddrOf))
      mark(uo->getSubExpr());
    const Expr* callee = nullptr;
    if (const auto* ce = dyn_cast<CallExpr>(s)) {
      if (const FunctionDecl* fd = ce->getDirectCallee()) {
        calls[fd->getCanonicalDecl()].push_back(ce);
        callee = ce->getCallee();
      }
    }
    if (const auto* dr = dyn_cast<DeclRefExpr>(s))
      if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl())) escaping.insert(fd->getCanonicalDecl());
    for (const Stmt* c : s->children()) {
      if (c && c == callee) continue;  // the direct callee's name: not a use of its address
      walk(c);
    }
  }
  void mark(const Expr* e) {
    if (const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) modified.insert(vd->getCanonicalDecl());
  }
};

// ---------------------------------------------------------------------------------------
// The translator

std::string collapse(std::string s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == '\n' || c == '\t' || c == '\r' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > 80) out = out.substr(0, 77) + "...";
  return out;
}

class Translator {
 public:
  Translator(ASTContext& ctx, const std::string& path, const FrontendOptions& options)
      : ctx_(ctx), sm_(ctx.getSourceManager()), options_(options) {
    prog_.files.push_back(path);
    main_file_ = sm_.getMainFileID();
  }

  FrontendResult run();

 private:
  // ---- per-function state
  struct LV {
    bool is_local = false;
    LocalId local = ir::kNoLocal;
    ExprRef addr = nullptr;  // load-free pointer (memory lvalues)
    QualType type;
  };
  struct FnState {
    ir::Function* fn = nullptr;
    const FunctionDecl* decl = nullptr;
    std::unordered_map<const VarDecl*, LocalId> locals;
    std::set<const VarDecl*> addr_taken;
    std::vector<std::int64_t> label_pos;             // label id -> instruction index
    std::vector<std::pair<std::size_t, int>> fixups;  // goto instr -> label id
    std::map<const LabelDecl*, int> user_labels;
    std::vector<int> break_stack, continue_stack;
    std::map<const SwitchCase*, int> case_labels;
    std::set<std::size_t> targets;
    std::map<std::string, int> name_count;
    unsigned tmp_count = 0;
  };

  ASTContext& ctx_;
  SourceManager& sm_;
  const FrontendOptions& options_;
  FileID main_file_;
  ir::Program prog_;
  std::vector<Diagnostic> diags_;
  std::vector<Diagnostic> warnings_;
  std::set<std::string> warned_;  // one warning per subject (function name, ...)
  std::unordered_map<const FunctionDecl*, ir::FunctionId> fn_ids_;
  std::deque<const FunctionDecl*> worklist_;
  std::unordered_map<const VarDecl*, ObjectId> objects_;
  std::map<FileID, std::uint32_t> file_index_;
  FnState* st_ = nullptr;
  ir::SourceLoc cur_loc_;
  std::string cur_text_;
  std::unique_ptr<UseScan> scan_;                    // built on first use (fixed_value)
  std::map<std::pair<std::string, std::string>, ObjectId> literals_;  // (bytes, char type)
  std::vector<ObjectId> literal_ids_;
  std::map<const VarDecl*, std::uint64_t> vla_length_;  // elements of a VLA's object
  std::map<const FunctionDecl*, ObjectId> function_objects_;  // what a function pointer points to
  ObjectId pthread_keys_ = 0;      // pthread_key_create's counter of keys (one cell)
  ObjectId pthread_specific_ = 0;  // thread-local: each thread's values of the keys
  static constexpr std::uint64_t kPthreadKeys = 8;
  std::vector<ObjectId> argv_strings_;  // main's argv[0..kArgvCells-1] strings (no cells)
  ObjectId sscanf_flags_ = 0;           // one cell per argv string: read by sscanf already
  // C11 / GCC atomics (rv_atomic, rv_sync_call, check_atomic_nesting)
  bool in_atomic_step_ = false;                           // between one operation's Begin and End
  std::map<ir::FunctionId, SourceLocation> atomic_steps_;  // a function's first operation's Begin
  std::optional<SourceLocation> explicit_atomic_begin_;  // a __VERIFIER_atomic_begin() call

  // Capacity of an object whose size is not a constant (malloc/calloc, VLA), in elements.
  static constexpr std::uint64_t kCapacity = 64;
  // argv has this many cells: argv[0..argc-1] are strings and argv[argc] is null for
  // argc < kArgvCells; beyond, an access is out of bounds (MemSafety).
  static constexpr std::uint64_t kArgvCells = 4;

  ir::ExprManager& em() { return prog_.exprs(); }

  // ---- locations ------------------------------------------------------------------------
  Diagnostic diag_at(SourceLocation loc, std::string msg) {
    Diagnostic d;
    d.message = std::move(msg);
    if (loc.isValid()) {
      PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(loc));
      if (p.isValid()) {
        d.file = p.getFilename();
        d.line = p.getLine();
        d.col = p.getColumn();
      }
    }
    if (d.file.empty()) d.file = prog_.files[0];
    return d;
  }

  // A model assumption the user should know of, once per `subject`.
  void warn(const std::string& subject, SourceLocation loc, std::string msg) {
    if (warned_.insert(subject).second) warnings_.push_back(diag_at(loc, "warning: " + std::move(msg)));
  }

  ir::SourceLoc ir_loc(SourceLocation loc) {
    ir::SourceLoc l;
    if (loc.isInvalid()) return l;
    SourceLocation e = sm_.getExpansionLoc(loc);
    FileID fid = sm_.getFileID(e);
    auto it = file_index_.find(fid);
    if (it == file_index_.end()) {
      std::uint32_t idx = 0;
      if (fid != main_file_) {
        PresumedLoc p = sm_.getPresumedLoc(e);
        idx = static_cast<std::uint32_t>(prog_.files.size());
        prog_.files.push_back(p.isValid() ? p.getFilename() : "?");
      }
      it = file_index_.emplace(fid, idx).first;
    }
    l.file = it->second;
    l.line = sm_.getExpansionLineNumber(e);
    l.col = sm_.getExpansionColumnNumber(e);
    return l;
  }

  std::string source_text(SourceRange r) {
    CharSourceRange cr = sm_.getExpansionRange(r);
    bool invalid = false;
    StringRef s = Lexer::getSourceText(cr, sm_, ctx_.getLangOpts(), &invalid);
    if (invalid) return "";
    return collapse(s.str());
  }

  struct StmtScope {
    Translator& t;
    ir::SourceLoc loc;
    std::string text;
    StmtScope(Translator& tr, const Stmt* s) : t(tr), loc(tr.cur_loc_), text(tr.cur_text_) {
      t.cur_loc_ = t.ir_loc(s->getBeginLoc());
      t.cur_text_ = t.source_text(s->getSourceRange());
    }
    ~StmtScope() {
      t.cur_loc_ = loc;
      t.cur_text_ = text;
    }
  };

  // ---- types and layout -----------------------------------------------------------------
  Type scalar_type(QualType t, SourceLocation loc) {
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

  bool is_aggregate(QualType t) {
    if (sync_kind(ctx_, t) != Sync::None) return false;
    QualType c = t.getCanonicalType();
    return c->isArrayType() || c->isRecordType();
  }

  std::uint64_t cells_of(QualType t, SourceLocation loc) {
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
        if (f->isBitField()) unsupported(f->getLocation(), "bit-field '" + f->getNameAsString() + "'");
        n += cells_of(f->getType(), loc);
      }
      return n;
    }
    scalar_type(t, loc);
    return 1;
  }

  // A union is the cells of its members laid over each other: every member must flatten to the
  // same number of cells with the same width at each position (and no bool beside a non-bool,
  // no pointer beside an integer: pointers are not integers here, see PtrToInt; no
  // synchronisation object), so that a value stored through one member and read through
  // another is the same bits (`convert` between equal widths). Names are the first member's
  // (".i" for `union { int i; unsigned u; }`).
  std::vector<CellSpec> union_cells(const RecordDecl* rd, QualType t, SourceLocation loc) {
    std::vector<CellSpec> cells;
    bool first = true;
    for (const FieldDecl* f : rd->fields()) {
      if (f->isBitField()) unsupported(f->getLocation(), "bit-field '" + f->getNameAsString() + "'");
      std::vector<CellSpec> m;
      flatten(f->getType(), "." + f->getNameAsString(), loc, m);
      if (first) {
        cells = std::move(m);
        first = false;
        continue;
      }
      bool same = m.size() == cells.size();
      for (std::size_t i = 0; same && i < m.size(); ++i) {
        const Type a = cells[i].type, b = m[i].type;
        same = cells[i].kind == CellKind::Data && m[i].kind == CellKind::Data && a.is_bool() == b.is_bool() &&
               a.is_ptr() == b.is_ptr() && a.width == b.width;
      }
      if (!same)
        unsupported(loc, "union '" + t.getAsString() + "' whose members do not share one cell layout (member '" +
                             f->getNameAsString() + "')");
    }
    if (cells.empty()) unsupported(loc, "empty union '" + t.getAsString() + "'");
    return cells;
  }

  std::uint64_t field_offset(const FieldDecl* fd, SourceLocation loc) {
    if (fd->getParent()->isUnion()) return 0;  // every member starts at the union's first cell
    std::uint64_t n = 0;
    for (const FieldDecl* f : fd->getParent()->fields()) {
      if (f == fd) return n;
      n += cells_of(f->getType(), loc);
    }
    return n;
  }

  void flatten(QualType t, const std::string& name, SourceLocation loc, std::vector<CellSpec>& out) {
    Sync s = sync_kind(ctx_, t);
    if (s != Sync::None) {
      out.push_back({name, scalar_type(t, loc), cell_kind(s)});
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
      for (std::uint64_t i = 0; i < n; ++i) flatten(elem, name + "[" + std::to_string(i) + "]", loc, out);
      return;
    }
    if (c->isArrayType() || c->isRecordType()) {
      cells_of(t, loc);  // reports VLA/incomplete
      const RecordDecl* rd = c->getAs<RecordType>()->getDecl()->getDefinition();
      if (rd->isUnion()) {
        for (CellSpec cs : union_cells(rd, t, loc)) {
          cs.name = name + cs.name;
          out.push_back(std::move(cs));
        }
        return;
      }
      for (const FieldDecl* f : rd->fields())
        flatten(f->getType(), name + "." + f->getNameAsString(), loc, out);
      return;
    }
    if (c->isVoidType()) {
      out.push_back({name, Type::integer(8, false), CellKind::Data});
      return;
    }
    out.push_back({name, scalar_type(t, loc), CellKind::Data});
  }

  QualType array_elem(QualType t) {
    if (const auto* at = ctx_.getAsArrayType(t)) return at->getElementType();
    return t;
  }

  // byte offset (from a constant evaluation) -> cell offset
  std::optional<std::uint64_t> byte_to_cell(QualType t, std::uint64_t bytes, SourceLocation loc) {
    if (bytes == 0) return 0;
    QualType c = t.getCanonicalType();
    if (c->isIncompleteType() || c->isFunctionType()) return std::nullopt;
    std::uint64_t size = ctx_.getTypeSizeInChars(c).getQuantity();
    if (bytes == size) return cells_of(t, loc);
    if (const auto* at = ctx_.getAsConstantArrayType(t)) {
      QualType e = at->getElementType();
      std::uint64_t es = ctx_.getTypeSizeInChars(e).getQuantity();
      if (es == 0) return std::nullopt;
      auto r = byte_to_cell(e, bytes % es, loc);
      if (!r) return std::nullopt;
      return (bytes / es) * cells_of(e, loc) + *r;
    }
    if (const auto* rt = c->getAs<RecordType>()) {
      const RecordDecl* rd = rt->getDecl()->getDefinition();
      const ASTRecordLayout& layout = ctx_.getASTRecordLayout(rd);
      const FieldDecl* best = nullptr;
      std::uint64_t best_off = 0;
      for (const FieldDecl* f : rd->fields()) {
        std::uint64_t off = layout.getFieldOffset(f->getFieldIndex()) / 8;
        if (off <= bytes) {
          best = f;
          best_off = off;
        }
      }
      if (!best) return std::nullopt;
      auto r = byte_to_cell(best->getType(), bytes - best_off, loc);
      if (!r) return std::nullopt;
      return field_offset(best, loc) + *r;
    }
    return std::nullopt;
  }

  // ---- objects --------------------------------------------------------------------------
  ObjectId object_of(const VarDecl* vd) {
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
    if (const VariableArrayType* vat = ctx_.getAsVariableArrayType(def->getType())) {
      auto it = vla_length_.find(vd);  // set by decl_stmt before the object is created
      if (it == vla_length_.end()) unsupported(def->getLocation(), "variable-length array");
      for (std::uint64_t i = 0; i < it->second; ++i)
        flatten(vat->getElementType(), o.name + "[" + std::to_string(i) + "]", def->getLocation(), specs);
    } else {
      flatten(def->getType(), o.name, def->getLocation(), specs);
    }
    const bool global = vd->hasGlobalStorage();
    o.kind = global ? ir::ObjectKind::Global : ir::ObjectKind::Local;
    o.thread_local_storage = vd->getTLSKind() != VarDecl::TLS_None;  // one copy per thread (thread model)
    for (auto& s : specs) {
      ir::Cell c;
      c.name = s.name;
      c.type = s.type;
      c.kind = s.kind;
      c.init_nondet = !global;
      o.cells.push_back(std::move(c));
    }
    if (!global && st_) o.owner = st_->fn->id;
    ObjectId id = prog_.add_object(std::move(o));
    objects_[vd] = id;
    if (!global && st_) st_->fn->frame_objects.push_back(id);
    if (global && def->getInit()) {
      std::vector<std::pair<std::uint64_t, const Expr*>> leaves;
      auto saved = std::move(string_chars_);
      string_chars_.clear();
      init_leaves(def->getType(), def->getInit(), 0, leaves);
      auto chars = std::move(string_chars_);
      string_chars_ = std::move(saved);
      for (auto& [idx, e] : leaves) const_init(id, idx, e, chars);
    }
    return id;
  }

  // Walks an initialiser in parallel with the flattened type: calls out with (cell, leaf expr);
  // leaf nullptr means zero.
  void init_leaves(QualType t, const Expr* init, std::uint64_t base,
                   std::vector<std::pair<std::uint64_t, const Expr*>>& out) {
    SourceLocation loc = init ? init->getExprLoc() : SourceLocation();
    if (init) init = init->IgnoreParens();
    if (sync_kind(ctx_, t) != Sync::None) {  // PTHREAD_*_INITIALIZER (a brace list): free / 0
      out.push_back({base, init && !isa<InitListExpr>(init) ? init : nullptr});
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
        const FieldDecl* f = il ? il->getInitializedFieldInUnion() : nullptr;
        if (f && il->getNumInits() > 0) {
          init_leaves(f->getType(), il->getInit(0), base, out);
        } else {
          for (std::uint64_t k = 0, n = cells_of(t, loc); k < n; ++k) out.push_back({base + k, nullptr});
        }
        return;
      }
      std::uint64_t off = base;
      unsigned i = 0;
      for (const FieldDecl* f : rd->fields()) {
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
  std::map<std::uint64_t, std::uint64_t> string_chars_;  // cell -> char for string inits

  void const_init(ObjectId id, std::uint64_t idx, const Expr* e,
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

      // The cell points `bytes` into the object of type `t` that `target_of` returns (it may
      // grow prog_.objects, so the cell is looked up again afterwards).
      auto set_address = [&](QualType t, auto&& target_of) {
        auto off = byte_to_cell(t, bytes, e->getExprLoc());
        if (!off) unsupported(e->getExprLoc(), "address constant with an unrepresentable offset");
        const ObjectId target = target_of();
        ir::Cell& c = prog_.objects[id].cells[idx];
        c.init_obj = target;
        c.init = *off;
      };
      const Expr* be = b.dyn_cast<const Expr*>();
      if (const auto* pe = dyn_cast_or_null<PredefinedExpr>(be)) be = pe->getFunctionName();
      if (const auto* sl = dyn_cast_or_null<StringLiteral>(be)) {
        set_address(sl->getType(), [&] { return literal_object(sl); });
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
      set_address(vd->getType(), [&] { return object_of(vd); });
      return;
    }
    unsupported(e->getExprLoc(), "unsupported constant initialiser");
  }

  // ---- functions ------------------------------------------------------------------------
  ir::FunctionId function_id(const FunctionDecl* fd) {
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

  void translate_function(const FunctionDecl* fd);
  void finish_function();
  void fuse_loads();

  // ---- emission -------------------------------------------------------------------------
  std::size_t emit(ir::Instr in) {
    in.loc = cur_loc_;
    if (in.text.empty()) in.text = cur_text_;
    st_->fn->body.push_back(std::move(in));
    return st_->fn->body.size() - 1;
  }
  std::size_t emit(InstrKind k, ExprRef a = nullptr, ExprRef b = nullptr, LocalId lhs = ir::kNoLocal) {
    ir::Instr in;
    in.kind = k;
    in.a = a;
    in.b = b;
    in.lhs = lhs;
    return emit(std::move(in));
  }
  int new_label() {
    st_->label_pos.push_back(-1);
    return static_cast<int>(st_->label_pos.size()) - 1;
  }
  void place(int label) { st_->label_pos[label] = static_cast<std::int64_t>(st_->fn->body.size()); }
  void jump(int label, ExprRef cond = nullptr) {
    if (!cond) cond = em().mk_true();
    if (cond->is_const() && cond->value == 0) return;
    std::size_t i = emit(InstrKind::Goto, cond);
    st_->fixups.push_back({i, label});
  }

  LocalId new_local(const std::string& base, Type t) {
    std::string name = base;
    int& n = st_->name_count[base];
    if (n++ > 0) name = base + "." + std::to_string(n - 1);
    st_->fn->locals.push_back({name, t});
    return static_cast<LocalId>(st_->fn->locals.size() - 1);
  }
  LocalId new_tmp(Type t) { return new_local("__t" + std::to_string(++st_->tmp_count), t); }
  ExprRef tmp_of_copy(ExprRef e) {
    LocalId t = new_tmp(e->type);
    emit(InstrKind::Assign, e, nullptr, t);
    return em().mk_local(e->type, t);
  }
  ExprRef tmp_of(ExprRef e) {  // materialise into a temporary (for operands that must be locals)
    if (e->op == Op::Local || e->is_const() || e->op == Op::ObjAddr) return e;
    LocalId t = new_tmp(e->type);
    emit(InstrKind::Assign, e, nullptr, t);
    return em().mk_local(e->type, t);
  }

  bool addr_is_safe(ExprRef addr) {
    if (addr->op != Op::ObjAddr) return false;
    std::int64_t off = addr->offset();
    return addr->obj != 0 && off >= 0 && static_cast<std::uint64_t>(off) < prog_.objects[addr->obj].cells.size();
  }
  void check_ptr(ExprRef addr) {
    if (addr_is_safe(addr)) return;
    ir::Instr in;
    in.kind = InstrKind::Assert;
    in.assert_kind = ir::AssertKind::MemSafety;
    in.a = em().mk_unary(Op::ValidPtr, addr);
    in.message = "invalid pointer dereference";
    emit(std::move(in));
  }

  // ---- expressions ----------------------------------------------------------------------
  ExprRef conv(Type to, ExprRef e) {
    if (to.is_bool() && e->op == Op::ZExt && e->kids[0]->type.is_bool()) return e->kids[0];
    if (to.is_ptr() && e->is_const() && e->type.is_int()) return em().mk_const(to, e->value);
    return em().mk_convert(to, e);
  }
  ExprRef to_bool(ExprRef e) { return conv(Type::boolean(), e); }
  ExprRef int_const(std::int64_t v) { return em().mk_int(Type::integer(64, true), v); }

  ExprRef scale(ExprRef idx, std::uint64_t n) {
    ExprRef i = conv(Type::integer(64, true), idx);
    if (n == 1) return i;
    return em().mk_binary(Op::Mul, i, int_const(static_cast<std::int64_t>(n)));
  }

  // A load or store of an _Atomic object is an atomic operation of its own (C11 6.2.6.1p9).
  ExprRef load(const LV& lv, SourceLocation loc) {
    if (lv.is_local) return em().mk_local(st_->fn->locals[lv.local].type, lv.local);
    Type t = scalar_type(lv.type, loc);
    const bool began = lv.type->isAtomicType() && begin_atomic_step(loc);
    check_ptr(lv.addr);
    LocalId tmp = new_tmp(t);
    emit(InstrKind::Assign, em().mk_load(t, lv.addr), nullptr, tmp);
    end_atomic_step(began);
    return em().mk_local(t, tmp);
  }
  void store(const LV& lv, ExprRef v, SourceLocation loc) {
    if (lv.is_local) {
      emit(InstrKind::Assign, conv(st_->fn->locals[lv.local].type, v), nullptr, lv.local);
      return;
    }
    Type t = scalar_type(lv.type, loc);
    const bool began = lv.type->isAtomicType() && begin_atomic_step(loc);
    check_ptr(lv.addr);
    emit(InstrKind::Store, lv.addr, conv(t, v));
    end_atomic_step(began);
  }

  // ---- atomic operations ------------------------------------------------------------------
  // A C11/GCC atomic operation is one step for every other thread: AtomicBegin, its accesses
  // of the atomic object, AtomicEnd (semantics.md, "Atomic operations"). Its other operands
  // are evaluated before, and C11's write to *expected after, as plain accesses. The body of a
  // __VERIFIER_atomic_* function is a section already (the thread model wraps every call of
  // it), so there the accesses are emitted without a pair of their own.
  bool begin_atomic_step(SourceLocation loc) {
    if (in_atomic_step_) return false;
    if (st_->fn->is_atomic) {
      // A start routine's body is not wrapped: its operations would not be atomic.
      if (scan().escaping.count(st_->decl->getCanonicalDecl()))
        unsupported(loc, "atomic operation in '" + st_->fn->name + "', an atomic function used as a thread start routine");
      return false;
    }
    atomic_steps_.emplace(st_->fn->id, loc);
    emit(InstrKind::AtomicBegin);
    in_atomic_step_ = true;
    return true;
  }
  void end_atomic_step(bool began) {
    if (!began) return;
    emit(InstrKind::AtomicEnd);
    in_atomic_step_ = false;
  }
  // old := *p as one atomic step; `update(old)`, when given, is stored back in the same step.
  ExprRef atomic_rmw(ExprRef p, Type t, SourceLocation loc, const std::function<ExprRef(ExprRef)>& update = {}) {
    const bool began = begin_atomic_step(loc);
    check_ptr(p);
    const LocalId old = new_tmp(t);
    emit(InstrKind::Assign, em().mk_load(t, p), nullptr, old);
    const ExprRef o = em().mk_local(t, old);
    if (update) {
      check_ptr(p);
      emit(InstrKind::Store, p, conv(t, update(o)));
    }
    end_atomic_step(began);
    return o;
  }
  void atomic_store(ExprRef p, Type t, ExprRef v, SourceLocation loc) {
    const bool began = begin_atomic_step(loc);
    check_ptr(p);
    emit(InstrKind::Store, p, conv(t, v));
    end_atomic_step(began);
  }
  // Compare-and-swap as one atomic step: ok := *p == expected, and then *p := desired. A weak
  // one may also fail although the values are equal (C11 7.17.7.4p4): `ok` is false then
  // whenever a Havoc'd bool says so, which keeps every behaviour of a real weak CAS.
  // Returns {old value, ok}.
  std::pair<ExprRef, ExprRef> atomic_cas(ExprRef p, Type t, ExprRef expected, ExprRef desired, bool weak,
                                         SourceLocation loc) {
    ExprRef spurious = nullptr;
    if (weak) {
      ir::Instr h;
      h.kind = InstrKind::Havoc;
      h.lhs = new_local("spurious_failure", Type::boolean());  // named so that traces say why
      spurious = em().mk_local(Type::boolean(), h.lhs);
      emit(std::move(h));
    }
    expected = tmp_of(conv(t, expected));
    desired = tmp_of(conv(t, desired));
    const bool began = begin_atomic_step(loc);
    check_ptr(p);
    const LocalId old = new_tmp(t);
    emit(InstrKind::Assign, em().mk_load(t, p), nullptr, old);
    ExprRef eq = em().mk_binary(Op::Eq, em().mk_local(t, old), expected);
    if (spurious) eq = em().mk_binary(Op::LAnd, eq, em().mk_unary(Op::LNot, spurious));
    const LocalId ok = new_tmp(Type::boolean());
    emit(InstrKind::Assign, eq, nullptr, ok);
    const ExprRef okv = em().mk_local(Type::boolean(), ok);
    const int done = new_label();
    jump(done, em().mk_unary(Op::LNot, okv));
    check_ptr(p);
    emit(InstrKind::Store, p, desired);
    place(done);
    end_atomic_step(began);
    return {em().mk_local(t, old), okv};
  }
  // Every memory order is modelled as seq_cst; the first weaker one gets the file's warning.
  void memory_order(const Expr* order) {
    if (needs_instrs(order)) rvalue(order, false);
    if (warned_.count("memory order")) return;
    static const char* const kNames[] = {"relaxed", "consume", "acquire", "release", "acq_rel"};
    Expr::EvalResult r;
    std::string name = source_text(order->getSourceRange());
    if (!order->HasSideEffects(ctx_) && order->EvaluateAsInt(r, ctx_)) {
      const llvm::APSInt& v = r.Val.getInt();
      if (v == 5) return;  // __ATOMIC_SEQ_CST
      if (v >= 0 && v < 5) name = kNames[v.getExtValue()];
    }
    warn("memory order", order->getExprLoc(), "memory order '" + name + "' modelled as sequentially consistent");
  }

  bool is_object_var(const VarDecl* vd) {
    if (vd->hasGlobalStorage()) return true;
    if (st_->locals.count(vd)) return false;
    return true;
  }

  LV lvalue(const Expr* e);
  ExprRef rvalue(const Expr* e, bool want = true);
  ExprRef rvalue_impl(const Expr* e, bool want);
  ExprRef rv_cast(const CastExpr* ce, bool want);
  ExprRef rv_unary(const UnaryOperator* uo, bool want);
  ExprRef rv_binary(const BinaryOperator* bo, bool want);
  ExprRef rv_call(const CallExpr* ce, bool want, QualType malloc_type = QualType());
  ExprRef rv_undefined_call(const CallExpr* ce, const FunctionDecl* fd, bool want);
  ExprRef rv_indirect_call(const CallExpr* ce, bool want);
  void dispatch(ExprRef fp, const std::vector<const FunctionDecl*>& targets,
                const std::function<void(const FunctionDecl*)>& one, const std::string& none);
  ExprRef rv_pthread_key(const std::string& name, const CallExpr* ce, bool want);
  std::vector<const FunctionDecl*> pointer_targets(const std::vector<QualType>& arg_types, QualType ret);
  ObjectId function_object(const FunctionDecl* fd);
  ExprRef function_designator(const Expr* e);
  ExprRef container_of(const CastExpr* ce);
  void check_byte_arith(const Expr* ptr, SourceLocation loc);
  ExprRef rv_atomic(const AtomicExpr* ae, bool want);
  ExprRef rv_sync_call(const std::string& name, const CallExpr* ce, bool want);
  Type atomic_value_type(QualType t, SourceLocation loc);
  void check_atomic_nesting();
  ExprRef rv_cond(const ConditionalOperator* co, bool want);
  ExprRef arith(BinaryOperatorKind op, ExprRef l, ExprRef r, QualType lt, QualType rt, QualType res,
                SourceLocation loc);
  void cond_jump(const Expr* e, bool jump_if, int label);
  ExprRef rv_string_call(const std::string& name, const CallExpr* ce, bool want);
  bool sign_only(const Expr* e);
  ExprRef rv_sscanf(const CallExpr* ce, bool want);
  void main_arguments(const FunctionDecl* fd);
  ObjectId literal_object(const StringLiteral* sl);
  void guard_literal_writes();
  UseScan& scan();
  ExprRef fixed_value(const Expr* e, int depth = 0);
  ExprRef fixed_var(const VarDecl* vd, int depth);
  void assert_limit(ExprRef cond, std::string msg);
  bool needs_instrs(const Stmt* s);
  void copy_cells(ExprRef dst, ExprRef src, QualType t, SourceLocation loc);

  // ---- statements -----------------------------------------------------------------------
  void stmt(const Stmt* s);
  void decl_stmt(const DeclStmt* ds);
  void switch_stmt(const SwitchStmt* ss);
  void collect_addr_taken(const Stmt* s);
};

// ---------------------------------------------------------------------------------------
// Analysis helpers

void Translator::collect_addr_taken(const Stmt* s) {
  if (!s) return;
  if (const auto* uo = dyn_cast<UnaryOperator>(s); uo && uo->getOpcode() == UO_AddrOf) {
    if (const auto* dr = dyn_cast<DeclRefExpr>(uo->getSubExpr()->IgnoreParens()))
      if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) st_->addr_taken.insert(vd);
  }
  for (const Stmt* c : s->children()) collect_addr_taken(c);
}

bool Translator::needs_instrs(const Stmt* s) {
  if (!s) return false;
  if (const auto* e = dyn_cast<Expr>(s)) {
    if (e->HasSideEffects(ctx_)) return true;
  }
  if (isa<CallExpr>(s) || isa<ArraySubscriptExpr>(s) || isa<ConditionalOperator>(s)) return true;
  if (const auto* me = dyn_cast<MemberExpr>(s); me && me->isArrow()) return true;
  if (const auto* uo = dyn_cast<UnaryOperator>(s); uo && uo->getOpcode() == UO_Deref) return true;
  if (const auto* bo = dyn_cast<BinaryOperator>(s); bo && (bo->getOpcode() == BO_LAnd || bo->getOpcode() == BO_LOr))
    return needs_instrs(bo->getLHS()) || needs_instrs(bo->getRHS());
  if (const auto* dr = dyn_cast<DeclRefExpr>(s))
    if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) return is_object_var(vd);
  for (const Stmt* c : s->children())
    if (needs_instrs(c)) return true;
  return false;
}

// ---------------------------------------------------------------------------------------
// Lvalues

Translator::LV Translator::lvalue(const Expr* e) {
  e = e->IgnoreParens();
  LV lv;
  lv.type = e->getType();
  if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
    const auto* vd = dyn_cast<VarDecl>(dr->getDecl());
    if (!vd) unsupported(e->getExprLoc(), "reference to a non-variable as an lvalue");
    if (auto it = st_->locals.find(vd); it != st_->locals.end()) {
      lv.is_local = true;
      lv.local = it->second;
      return lv;
    }
    lv.addr = em().mk_obj_addr(object_of(vd), 0);
    return lv;
  }
  if (const auto* uo = dyn_cast<UnaryOperator>(e)) {
    if (uo->getOpcode() == UO_Deref) {
      lv.addr = tmp_of(conv(Type::pointer(), rvalue(uo->getSubExpr())));
      return lv;
    }
    if (uo->getOpcode() == UO_Extension) return lvalue(uo->getSubExpr());
  }
  if (const auto* as = dyn_cast<ArraySubscriptExpr>(e)) {
    check_byte_arith(as->getBase(), e->getExprLoc());
    ExprRef base = rvalue(as->getBase());
    ExprRef idx = rvalue(as->getIdx());
    if (!base->type.is_ptr()) unsupported(e->getExprLoc(), "subscript of a non-pointer");
    lv.addr = tmp_of(em().mk_binary(Op::PtrAdd, base, scale(idx, cells_of(e->getType(), e->getExprLoc()))));
    return lv;
  }
  if (const auto* me = dyn_cast<MemberExpr>(e)) {
    const auto* fd = dyn_cast<FieldDecl>(me->getMemberDecl());
    if (!fd) unsupported(e->getExprLoc(), "member is not a field");
    ExprRef base;
    if (me->isArrow()) {
      base = conv(Type::pointer(), rvalue(me->getBase()));
    } else {
      LV b = lvalue(me->getBase());  // reports an unsupported variable at its declaration
      if (b.is_local) unsupported(e->getExprLoc(), "member of a non-memory struct");
      base = b.addr;
    }
    if (fd->isBitField()) unsupported(e->getExprLoc(), "bit-field '" + fd->getNameAsString() + "'");
    lv.addr = tmp_of(em().mk_binary(Op::PtrAdd, base, int_const(static_cast<std::int64_t>(field_offset(fd, e->getExprLoc())))));
    return lv;
  }
  if (const auto* pe = dyn_cast<PredefinedExpr>(e)) {  // __func__
    if (!pe->getFunctionName()) unsupported(e->getExprLoc(), "predefined identifier without a value");
    e = pe->getFunctionName();
  }
  if (const auto* sl = dyn_cast<StringLiteral>(e)) {
    lv.addr = em().mk_obj_addr(literal_object(sl), 0);
    return lv;
  }
  if (isa<CompoundLiteralExpr>(e)) unsupported(e->getExprLoc(), "compound literal");
  unsupported(e->getExprLoc(), std::string("lvalue expression '") + e->getStmtClassName() + "'");
}

// ---------------------------------------------------------------------------------------
// Rvalues. Results are load-free; want=false discards the value (statement context).

ExprRef Translator::rvalue(const Expr* e, bool want) {
  ExprRef v = rvalue_impl(e, want);
  if (want && !v) unsupported(e->getExprLoc(), "use of a void value");
  return v;
}

ExprRef Translator::rvalue_impl(const Expr* e, bool want) {
  e = e->IgnoreParens();
  const SourceLocation loc = e->getExprLoc();
  // constant folding (sizeof, enum constants, literal arithmetic)
  if ((e->getType()->isIntegerType() && !e->isValueDependent() && !isa<DeclRefExpr>(e)) ||
      isa<UnaryExprOrTypeTraitExpr>(e)) {
    Expr::EvalResult r;
    if (!e->HasSideEffects(ctx_) && e->EvaluateAsInt(r, ctx_) && r.Val.isInt()) {
      Type t = scalar_type(e->getType(), loc);
      return em().mk_const(t, ir::normalize(t, r.Val.getInt().getZExtValue()));
    }
  }
  if (const auto* ce = dyn_cast<ConstantExpr>(e)) return rvalue(ce->getSubExpr(), want);
  if (const auto* il = dyn_cast<IntegerLiteral>(e)) {
    Type t = scalar_type(e->getType(), loc);
    return em().mk_const(t, ir::normalize(t, il->getValue().getZExtValue()));
  }
  if (const auto* cl = dyn_cast<CharacterLiteral>(e)) {
    Type t = scalar_type(e->getType(), loc);
    return em().mk_const(t, ir::normalize(t, cl->getValue()));
  }
  if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
    if (const auto* ec = dyn_cast<EnumConstantDecl>(dr->getDecl())) {
      Type t = scalar_type(e->getType(), loc);
      return em().mk_const(t, ir::normalize(t, ec->getInitVal().getZExtValue()));
    }
    if (isa<FunctionDecl>(dr->getDecl())) return function_designator(e);
    LV lv = lvalue(e);
    if (is_aggregate(lv.type)) unsupported(loc, "aggregate used as a value");
    return load(lv, loc);
  }
  if (const auto* cast = dyn_cast<CastExpr>(e)) return rv_cast(cast, want);
  if (const auto* uo = dyn_cast<UnaryOperator>(e)) return rv_unary(uo, want);
  if (const auto* bo = dyn_cast<BinaryOperator>(e)) return rv_binary(bo, want);
  if (const auto* co = dyn_cast<ConditionalOperator>(e)) return rv_cond(co, want);
  if (const auto* call = dyn_cast<CallExpr>(e)) return rv_call(call, want);
  if (const auto* ae = dyn_cast<AtomicExpr>(e)) return rv_atomic(ae, want);
  if (isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e)) {
    LV lv = lvalue(e);
    if (is_aggregate(lv.type)) unsupported(loc, "aggregate used as a value");
    return load(lv, loc);
  }
  if (isa<ImplicitValueInitExpr>(e)) {
    Type t = scalar_type(e->getType(), loc);
    return em().mk_const(t, 0);
  }
  if (const auto* se = dyn_cast<StmtExpr>(e)) {
    const CompoundStmt* cs = se->getSubStmt();
    if (cs->body_empty()) return nullptr;
    for (auto it = cs->body_begin(); it + 1 != cs->body_end(); ++it) stmt(*it);
    const Stmt* last = cs->body_back();
    if (const auto* le = dyn_cast<Expr>(last)) return rvalue(le, want);
    stmt(last);
    return nullptr;
  }
  if (isa<StringLiteral>(e) || isa<PredefinedExpr>(e)) unsupported(loc, "string literal used as a value");
  if (isa<FloatingLiteral>(e)) unsupported(loc, "floating-point type 'double'");
  if (isa<BinaryConditionalOperator>(e)) unsupported(loc, "GNU '?:' with omitted operand");
  if (isa<CompoundLiteralExpr>(e)) unsupported(loc, "compound literal");
  if (isa<VAArgExpr>(e)) unsupported(loc, "va_arg");
  unsupported(loc, std::string("expression '") + e->getStmtClassName() + "'");
}

ExprRef Translator::rv_cast(const CastExpr* ce, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  const Expr* sub = ce->getSubExpr();
  switch (ce->getCastKind()) {
    case CK_LValueToRValue: {
      LV lv = lvalue(sub);
      if (is_aggregate(lv.type)) unsupported(loc, "struct or array copied by value");
      return load(lv, loc);
    }
    case CK_ArrayToPointerDecay: {
      LV lv = lvalue(sub);
      if (lv.is_local) unsupported(loc, "array in a register");
      return lv.addr;
    }
    case CK_FunctionToPointerDecay: return function_designator(sub);
    case CK_ToVoid: rvalue(sub, false); return nullptr;
    case CK_NullToPointer: return em().mk_null();
    case CK_NoOp:
    case CK_LValueToRValueBitCast:
      return rvalue(sub, want);
    case CK_AtomicToNonAtomic:  // the value of an _Atomic object (its load is atomic) and back
    case CK_NonAtomicToAtomic: {
      ExprRef v = rvalue(sub, want);
      return v ? conv(scalar_type(ce->getType(), loc), v) : v;
    }
    case CK_BitCast: {
      // pointer -> pointer: no-op; a cast of malloc's result tells the allocated type
      if (const auto* call = dyn_cast<CallExpr>(sub->IgnoreParenImpCasts()); call && ce->getType()->isPointerType())
        return rv_call(call, want, ce->getType()->getPointeeType());
      if (ExprRef c = container_of(ce)) return c;
      ExprRef v = rvalue(sub, want);
      return v ? conv(scalar_type(ce->getType(), loc), v) : v;
    }
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
    case CK_PointerToBoolean:
    case CK_IntegralToPointer:
    case CK_PointerToIntegral:
    case CK_BooleanToSignedIntegral: {
      ExprRef v = rvalue(sub);
      Type t = scalar_type(ce->getType(), loc);
      if (ce->getCastKind() == CK_BooleanToSignedIntegral)
        return em().mk_binary(Op::Sub, em().mk_const(t, 0), conv(t, v));
      return conv(t, v);
    }
    case CK_IntegralToFloating:
    case CK_FloatingToIntegral:
    case CK_FloatingCast:
    case CK_FloatingToBoolean:
      unsupported(loc, "floating-point type");
    default:
      unsupported(loc, std::string("cast '") + ce->getCastKindName() + "'");
  }
}

ExprRef Translator::rv_unary(const UnaryOperator* uo, bool want) {
  const SourceLocation loc = uo->getExprLoc();
  const Expr* sub = uo->getSubExpr();
  switch (uo->getOpcode()) {
    case UO_Plus:
    case UO_Extension: return rvalue(sub, want);
    case UO_Minus: return em().mk_unary(Op::Neg, rvalue(sub));
    case UO_Not: return em().mk_unary(Op::BitNot, rvalue(sub));
    case UO_LNot: {
      ExprRef b = em().mk_unary(Op::LNot, to_bool(rvalue(sub)));
      return conv(scalar_type(uo->getType(), loc), b);
    }
    case UO_Deref: {
      LV lv = lvalue(uo);
      if (is_aggregate(lv.type)) unsupported(loc, "aggregate used as a value");
      return load(lv, loc);
    }
    case UO_AddrOf: {
      const Expr* s = sub->IgnoreParens();
      if (s->getType()->isFunctionType()) return function_designator(s);
      LV lv = lvalue(sub);
      if (lv.is_local) unsupported(loc, "address of a register variable");
      return lv.addr;
    }
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      LV lv = lvalue(sub);
      // ++/-- of an _Atomic object is one atomic read-modify-write (C11 6.5.2.4p2)
      const bool began = !lv.is_local && lv.type->isAtomicType() && begin_atomic_step(loc);
      ExprRef old = load(lv, loc);
      const bool inc = uo->isIncrementOp();
      ExprRef nv;
      if (old->type.is_ptr()) {
        QualType pt = sub->getType();
        if (const auto* at = pt->getAs<AtomicType>()) pt = at->getValueType();
        std::int64_t n = static_cast<std::int64_t>(cells_of(pt->getPointeeType(), loc));
        nv = em().mk_binary(Op::PtrAdd, old, int_const(inc ? n : -n));
      } else if (old->type.is_bool()) {
        nv = inc ? em().mk_true() : em().mk_unary(Op::LNot, old);
      } else {
        nv = em().mk_binary(inc ? Op::Add : Op::Sub, old, em().mk_const(old->type, 1));
      }
      if (lv.is_local && uo->isPostfix() && want) old = tmp_of_copy(old);
      store(lv, nv, loc);
      end_atomic_step(began);
      if (!want) return nullptr;
      return uo->isPrefix() ? (lv.is_local ? em().mk_local(old->type, lv.local) : nv) : old;
    }
    default:
      unsupported(loc, std::string("unary operator '") + UnaryOperator::getOpcodeStr(uo->getOpcode()).str() + "'");
  }
}

ExprRef Translator::arith(BinaryOperatorKind op, ExprRef l, ExprRef r, QualType lt, QualType rt,
                          QualType res, SourceLocation loc) {
  auto& m = em();
  if (op == BO_Add || op == BO_Sub) {
    if (l->type.is_ptr() && r->type.is_int()) {
      std::uint64_t n = cells_of(lt->getPointeeType(), loc);
      ExprRef off = scale(r, n);
      if (op == BO_Sub) off = m.mk_unary(Op::Neg, off);
      return m.mk_binary(Op::PtrAdd, l, off);
    }
    if (op == BO_Add && l->type.is_int() && r->type.is_ptr())
      return m.mk_binary(Op::PtrAdd, r, scale(l, cells_of(rt->getPointeeType(), loc)));
    if (op == BO_Sub && l->type.is_ptr() && r->type.is_ptr()) {
      Type t = scalar_type(res, loc);
      ExprRef d = m.mk_ptr_diff(t, l, r);
      std::uint64_t n = cells_of(lt->getPointeeType(), loc);
      if (n > 1) d = m.mk_binary(Op::SDiv, d, m.mk_const(t, n));
      return d;
    }
  }
  const bool cmp = BinaryOperator::isComparisonOp(op);
  if (!cmp && (l->type.is_ptr() || r->type.is_ptr()))
    unsupported(loc, "arithmetic on pointers other than + and -");
  if (l->type != r->type) {
    if (l->type.is_ptr() || r->type.is_ptr()) {
      l = conv(Type::pointer(), l);
      r = conv(Type::pointer(), r);
    } else {
      r = conv(l->type, r);
    }
  }
  const bool sgn = l->type.is_int() && l->type.is_signed;
  if (l->type.is_bool() && !cmp) {
    Type i = Type::integer(32, true);
    l = conv(i, l);
    r = conv(i, r);
  }
  ExprRef v;
  switch (op) {
    case BO_Mul: v = m.mk_binary(Op::Mul, l, r); break;
    case BO_Div: v = m.mk_binary(sgn ? Op::SDiv : Op::UDiv, l, r); break;
    case BO_Rem: v = m.mk_binary(sgn ? Op::SRem : Op::URem, l, r); break;
    case BO_Add: v = m.mk_binary(Op::Add, l, r); break;
    case BO_Sub: v = m.mk_binary(Op::Sub, l, r); break;
    case BO_Shl: v = m.mk_binary(Op::Shl, l, r); break;
    case BO_Shr: v = m.mk_binary(sgn ? Op::AShr : Op::LShr, l, r); break;
    case BO_And: v = m.mk_binary(Op::BitAnd, l, r); break;
    case BO_Or: v = m.mk_binary(Op::BitOr, l, r); break;
    case BO_Xor: v = m.mk_binary(Op::BitXor, l, r); break;
    case BO_EQ: v = m.mk_binary(Op::Eq, l, r); break;
    case BO_NE: v = m.mk_binary(Op::Ne, l, r); break;
    case BO_LT: v = m.mk_binary(sgn ? Op::Slt : Op::Ult, l, r); break;
    case BO_LE: v = m.mk_binary(sgn ? Op::Sle : Op::Ule, l, r); break;
    case BO_GT: v = m.mk_binary(sgn ? Op::Slt : Op::Ult, r, l); break;
    case BO_GE: v = m.mk_binary(sgn ? Op::Sle : Op::Ule, r, l); break;
    default: unsupported(loc, "binary operator");
  }
  return conv(scalar_type(res, loc), v);
}

void Translator::copy_cells(ExprRef dst, ExprRef src, QualType t, SourceLocation loc) {
  std::vector<CellSpec> specs;
  flatten(t, "", loc, specs);
  for (std::size_t k = 0; k < specs.size(); ++k) {
    ExprRef s = tmp_of(em().mk_binary(Op::PtrAdd, src, int_const(static_cast<std::int64_t>(k))));
    check_ptr(s);
    LocalId tmp = new_tmp(specs[k].type);
    emit(InstrKind::Assign, em().mk_load(specs[k].type, s), nullptr, tmp);
    ExprRef d = tmp_of(em().mk_binary(Op::PtrAdd, dst, int_const(static_cast<std::int64_t>(k))));
    check_ptr(d);
    emit(InstrKind::Store, d, em().mk_local(specs[k].type, tmp));
  }
}

ExprRef Translator::rv_binary(const BinaryOperator* bo, bool want) {
  const SourceLocation loc = bo->getExprLoc();
  const BinaryOperatorKind op = bo->getOpcode();
  if (op == BO_Comma) {
    rvalue(bo->getLHS(), false);
    return rvalue(bo->getRHS(), want);
  }
  if (op == BO_LAnd || op == BO_LOr) {
    Type t = scalar_type(bo->getType(), loc);
    if (!needs_instrs(bo->getRHS())) {
      ExprRef a = to_bool(rvalue(bo->getLHS()));
      ExprRef b = to_bool(rvalue(bo->getRHS()));
      return conv(t, em().mk_binary(op == BO_LAnd ? Op::LAnd : Op::LOr, a, b));
    }
    int end = new_label();
    if (!want) {
      cond_jump(bo, false, end);
      place(end);
      return nullptr;
    }
    LocalId res = new_tmp(t);
    emit(InstrKind::Assign, em().mk_const(t, 0), nullptr, res);
    cond_jump(bo, false, end);
    emit(InstrKind::Assign, em().mk_const(t, 1), nullptr, res);
    place(end);
    return em().mk_local(t, res);
  }
  if (op == BO_Assign) {
    if (is_aggregate(bo->getLHS()->getType())) {
      LV d = lvalue(bo->getLHS());
      LV s = lvalue(bo->getRHS()->IgnoreParenImpCasts());
      if (d.is_local || s.is_local) unsupported(loc, "struct copy");
      copy_cells(d.addr, s.addr, bo->getLHS()->getType(), loc);
      if (want) unsupported(loc, "value of a struct assignment");
      return nullptr;
    }
    LV lv = lvalue(bo->getLHS());
    ExprRef v = rvalue(bo->getRHS());
    Type t = scalar_type(bo->getLHS()->getType(), loc);
    v = conv(t, v);
    store(lv, v, loc);
    if (lv.is_local) return em().mk_local(t, lv.local);
    return v;
  }
  if (const auto* ca = dyn_cast<CompoundAssignOperator>(bo)) {
    LV lv = lvalue(bo->getLHS());
    ExprRef r = rvalue(bo->getRHS());
    // on an _Atomic object: one atomic read-modify-write (C11 6.5.16.2p3)
    const bool began = !lv.is_local && lv.type->isAtomicType() && begin_atomic_step(loc);
    ExprRef old = load(lv, loc);
    Type ct = scalar_type(ca->getComputationLHSType(), loc);
    ExprRef l = conv(ct, old);
    BinaryOperatorKind base = BinaryOperator::getOpForCompoundAssignment(op);
    ExprRef nv = arith(base, l, r, ca->getComputationLHSType(), bo->getRHS()->getType(),
                       ca->getComputationResultType(), loc);
    Type t = scalar_type(bo->getLHS()->getType(), loc);
    nv = conv(t, nv);
    store(lv, nv, loc);
    end_atomic_step(began);
    if (lv.is_local) return em().mk_local(t, lv.local);
    return nv;
  }
  if (op == BO_Add || op == BO_Sub) {
    check_byte_arith(bo->getLHS(), loc);
    if (op == BO_Add) check_byte_arith(bo->getRHS(), loc);
  }
  ExprRef l = rvalue(bo->getLHS());
  ExprRef r = rvalue(bo->getRHS());
  return arith(op, l, r, bo->getLHS()->getType(), bo->getRHS()->getType(), bo->getType(), loc);
}

ExprRef Translator::rv_cond(const ConditionalOperator* co, bool want) {
  const SourceLocation loc = co->getExprLoc();
  const bool is_void = co->getType()->isVoidType();
  if (!is_void && want && !needs_instrs(co->getTrueExpr()) && !needs_instrs(co->getFalseExpr())) {
    Type t = scalar_type(co->getType(), loc);
    ExprRef c = to_bool(rvalue(co->getCond()));
    ExprRef a = conv(t, rvalue(co->getTrueExpr()));
    ExprRef b = conv(t, rvalue(co->getFalseExpr()));
    return em().mk_ite(c, a, b);
  }
  int l_else = new_label(), l_end = new_label();
  LocalId res = ir::kNoLocal;
  Type t;
  if (!is_void && want) {
    t = scalar_type(co->getType(), loc);
    res = new_tmp(t);
  }
  cond_jump(co->getCond(), false, l_else);
  ExprRef a = rvalue(co->getTrueExpr(), res != ir::kNoLocal);
  if (res != ir::kNoLocal) emit(InstrKind::Assign, conv(t, a), nullptr, res);
  jump(l_end);
  place(l_else);
  ExprRef b = rvalue(co->getFalseExpr(), res != ir::kNoLocal);
  if (res != ir::kNoLocal) emit(InstrKind::Assign, conv(t, b), nullptr, res);
  place(l_end);
  return res == ir::kNoLocal ? nullptr : em().mk_local(t, res);
}

void Translator::cond_jump(const Expr* e, bool jump_if, int label) {
  e = e->IgnoreParens();
  if (const auto* bo = dyn_cast<BinaryOperator>(e)) {
    const bool is_and = bo->getOpcode() == BO_LAnd;
    if (is_and || bo->getOpcode() == BO_LOr) {
      if (is_and != jump_if) {  // (a && b) false-jump / (a || b) true-jump: both to label
        cond_jump(bo->getLHS(), jump_if, label);
        cond_jump(bo->getRHS(), jump_if, label);
      } else {
        int skip = new_label();
        cond_jump(bo->getLHS(), !jump_if, skip);
        cond_jump(bo->getRHS(), jump_if, label);
        place(skip);
      }
      return;
    }
  }
  if (const auto* uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_LNot) {
    cond_jump(uo->getSubExpr(), !jump_if, label);
    return;
  }
  if (const auto* ic = dyn_cast<ImplicitCastExpr>(e);
      ic && (ic->getCastKind() == CK_IntegralToBoolean || ic->getCastKind() == CK_PointerToBoolean ||
             ic->getCastKind() == CK_IntegralCast)) {
    const Expr* s = ic->getSubExpr()->IgnoreParens();
    if (isa<BinaryOperator>(s) || isa<UnaryOperator>(s)) {
      if (const auto* b = dyn_cast<BinaryOperator>(s); b && (b->getOpcode() == BO_LAnd || b->getOpcode() == BO_LOr)) {
        cond_jump(s, jump_if, label);
        return;
      }
      if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_LNot) {
        cond_jump(s, jump_if, label);
        return;
      }
    }
  }
  ExprRef c = to_bool(rvalue(e));
  if (!jump_if) {
    if (c->is_const()) c = em().mk_bool(c->value == 0);
    else if (c->op == Op::LNot) c = c->kids[0];
    else c = em().mk_unary(Op::LNot, c);
  }
  jump(label, c);
}

// ---------------------------------------------------------------------------------------
// Calls: library functions map to instructions, defined functions to Call

namespace {
bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }
const Expr* strip(const Expr* e) { return e->IgnoreParenCasts(); }
}  // namespace

ExprRef Translator::rv_call(const CallExpr* ce, bool want, QualType malloc_type) {
  const SourceLocation loc = ce->getExprLoc();
  const FunctionDecl* fd = ce->getDirectCallee();
  if (!fd) return rv_indirect_call(ce, want);
  const std::string name = fd->getNameAsString();
  const bool defined = fd->getDefinition() != nullptr;
  const unsigned nargs = ce->getNumArgs();
  auto arg = [&](unsigned i) -> const Expr* {
    if (i >= nargs) unsupported(loc, "too few arguments in call to '" + name + "'");
    return ce->getArg(i);
  };
  auto ptr_arg = [&](unsigned i) { return conv(Type::pointer(), rvalue(arg(i))); };
  auto side_effects_only = [&](unsigned from) {
    for (unsigned i = from; i < nargs; ++i)
      if (needs_instrs(ce->getArg(i))) rvalue(ce->getArg(i), false);
  };
  Type ret_t = Type::integer(32, true);
  const bool is_void = ce->getType()->isVoidType();
  if (!is_void && !ce->getType()->isStructureOrClassType()) {
    if (!ce->getType()->isRealFloatingType()) ret_t = scalar_type(ce->getType(), loc);
  }
  auto zero = [&]() -> ExprRef { return want && !is_void ? em().mk_const(ret_t, 0) : nullptr; };
  auto havoc_result = [&]() -> ExprRef {
    if (!want || is_void) return nullptr;
    LocalId t = new_tmp(ret_t);
    emit(InstrKind::Havoc, nullptr, nullptr, t);
    return em().mk_local(ret_t, t);
  };
  auto property_fail = [&](const std::string& msg, ExprRef cond) {
    ir::Instr in;
    in.kind = InstrKind::Assert;
    in.assert_kind = ir::AssertKind::Property;
    in.a = cond ? cond : em().mk_false();
    in.message = msg;
    emit(std::move(in));
  };
  auto string_arg = [&](unsigned i) -> std::string {
    if (i < nargs)
      if (const auto* sl = dyn_cast<StringLiteral>(strip(ce->getArg(i))))
        if (sl->getCharByteWidth() == 1) return sl->getString().str();
    return "?";
  };

  // --- errors and assertions
  if (name == "reach_error" || name == "__VERIFIER_error") {
    property_fail("reach_error() called", nullptr);
    return zero();
  }
  if (name == "__assert_fail" || name == "__assert_rtn" || name == "__assert" || name == "_assert") {
    unsigned i = name == "__assert_rtn" ? 3 : 0;
    property_fail("assert(" + string_arg(i) + ")", nullptr);
    return zero();
  }
  if (!defined && (name == "assert" || name == "__VERIFIER_assert")) {
    ExprRef c = to_bool(rvalue(arg(0)));
    property_fail("assert(" + source_text(arg(0)->getSourceRange()) + ")", c);
    return zero();
  }
  if (!defined && (name == "__VERIFIER_assume" || name == "assume_abort_if_not" || name == "assume")) {
    emit(InstrKind::Assume, to_bool(rvalue(arg(0))));
    return zero();
  }
  if (name == "abort" || name == "exit" || name == "_Exit" || name == "__builtin_abort" ||
      name == "__builtin_trap" || name == "__builtin_unreachable") {
    side_effects_only(0);
    emit(InstrKind::Abort);
    return zero();
  }
  if (name == "__builtin_expect") {
    ExprRef v = rvalue(arg(0));
    side_effects_only(1);
    return v;
  }
  // --- nondeterminism and atomicity
  if (starts_with(name, "__VERIFIER_nondet_")) {
    if (is_void) return nullptr;
    if (ce->getType()->isRealFloatingType()) unsupported(loc, "floating-point type");
    LocalId t = new_tmp(ret_t);
    ir::Instr h;
    h.kind = InstrKind::Havoc;
    h.lhs = t;
    h.message = name + "()";  // a __VERIFIER_nondet_* call (traces say its value), also in a macro
    emit(std::move(h));
    return em().mk_local(ret_t, t);
  }
  if (name == "__VERIFIER_atomic_begin") {
    explicit_atomic_begin_ = loc;
    emit(InstrKind::AtomicBegin);
    return zero();
  }
  if (name == "__VERIFIER_atomic_end") { emit(InstrKind::AtomicEnd); return zero(); }

  if (!defined && (starts_with(name, "__sync_") || starts_with(name, "__c11_atomic_") || starts_with(name, "__atomic_")))
    return rv_sync_call(name, ce, want);

  // --- pthreads
  if (starts_with(name, "pthread_") || name == "sched_yield") {
    auto sync1 = [&](InstrKind k) {
      ExprRef a = ptr_arg(0);
      check_ptr(a);
      emit(k, a);
      return zero();
    };
    if (name == "pthread_create") {
      ExprRef a = ptr_arg(0);
      if (!(a->is_const() && a->value == 0)) check_ptr(a);
      if (needs_instrs(arg(1))) rvalue(arg(1), false);
      const Expr* f = strip(arg(2));
      if (const auto* uo = dyn_cast<UnaryOperator>(f); uo && uo->getOpcode() == UO_AddrOf) f = strip(uo->getSubExpr());
      const FunctionDecl* start = nullptr;
      if (const auto* dr = dyn_cast<DeclRefExpr>(f)) start = dyn_cast<FunctionDecl>(dr->getDecl());
      if (start && !start->getDefinition())
        unsupported(arg(2)->getExprLoc(), "thread start routine '" + start->getNameAsString() + "' has no body");
      auto create = [&](ExprRef b, const FunctionDecl* routine) {
        ir::Instr in;
        in.kind = InstrKind::ThreadCreate;
        in.a = a;
        in.b = b;
        in.callee = function_id(routine);
        emit(std::move(in));
      };
      if (start) {
        create(ptr_arg(3), start);
        return zero();
      }
      // A start routine chosen at run time: one create per possible target (see
      // rv_indirect_call), a pointer to none of them is a MemSafety error.
      const ExprRef fp = tmp_of(ptr_arg(2));
      const ExprRef b = tmp_of(ptr_arg(3));
      dispatch(fp, pointer_targets({ctx_.VoidPtrTy}, ctx_.VoidPtrTy), [&](const FunctionDecl* def) { create(b, def); },
               "pthread_create with a start routine that is no one-parameter function of the program");
      return zero();
    }
    if (name == "pthread_join") {
      ExprRef a = conv(Type::integer(64, false), rvalue(arg(0)));
      ExprRef b = ptr_arg(1);
      if (!(b->is_const() && b->value == 0)) check_ptr(b);
      emit(InstrKind::ThreadJoin, a, b);
      return zero();
    }
    if (name == "pthread_exit") {
      emit(InstrKind::ThreadExit, ptr_arg(0));
      return zero();
    }
    if (name == "pthread_mutex_lock" || name == "pthread_spin_lock") return sync1(InstrKind::Lock);
    if (name == "pthread_mutex_unlock" || name == "pthread_spin_unlock") return sync1(InstrKind::Unlock);
    if (name == "pthread_mutex_trylock" || name == "pthread_spin_trylock") {
      ExprRef a = ptr_arg(0);
      check_ptr(a);
      LocalId t = new_tmp(Type::integer(32, true));
      emit(InstrKind::TryLock, a, nullptr, t);
      return want ? conv(ret_t, em().mk_local(Type::integer(32, true), t)) : nullptr;
    }
    if (name == "pthread_cond_wait" || name == "pthread_cond_timedwait") {
      ExprRef a = ptr_arg(0);
      check_ptr(a);
      ExprRef b = ptr_arg(1);
      check_ptr(b);
      side_effects_only(2);
      emit(InstrKind::CondWait, a, b);
      return name == "pthread_cond_wait" ? zero() : havoc_result();
    }
    if (name == "pthread_cond_signal") return sync1(InstrKind::CondSignal);
    if (name == "pthread_cond_broadcast") return sync1(InstrKind::CondBroadcast);
    if (name == "pthread_rwlock_tryrdlock" || name == "pthread_rwlock_trywrlock") {
      // One atomic step over the lock cell (RdLock/WrLock's encoding: readers count up, a
      // writer holds -1): busy when a writer holds it (rd) or anyone does (wr); else take it.
      // The result is 0 or EBUSY (16).
      ExprRef a = ptr_arg(0);
      const Type i32 = Type::integer(32, true);
      const bool rd = name == "pthread_rwlock_tryrdlock";
      const bool began = begin_atomic_step(loc);
      check_ptr(a);
      const LocalId cur = new_tmp(i32);
      emit(InstrKind::Assign, em().mk_load(i32, a), nullptr, cur);
      const ExprRef c = em().mk_local(i32, cur);
      const ExprRef busy = rd ? em().mk_binary(Op::Slt, c, em().mk_const(i32, 0))
                              : em().mk_binary(Op::Ne, c, em().mk_const(i32, 0));
      const int done = new_label();
      jump(done, busy);
      emit(InstrKind::Store, a, rd ? em().mk_binary(Op::Add, c, em().mk_const(i32, 1)) : em().mk_const(i32, -1));
      place(done);
      end_atomic_step(began);
      return want ? conv(ret_t, em().mk_ite(busy, em().mk_const(i32, 16), em().mk_const(i32, 0))) : nullptr;
    }
    if (name == "pthread_key_create" || name == "pthread_getspecific" || name == "pthread_setspecific" ||
        name == "pthread_key_delete")
      return rv_pthread_key(name, ce, want);
    if (name == "pthread_barrier_init" || name == "pthread_barrier_wait") {
      // The barrier's cell: count << 20 | generation << 16 | arrived. A waiter arrives in one
      // atomic step; the last one resets `arrived`, flips the generation and returns
      // PTHREAD_BARRIER_SERIAL_THREAD (-1); the others wait for the flip (0).
      const Type i32 = Type::integer(32, true);
      const ExprRef b = tmp_of(ptr_arg(0));
      auto k = [&](std::int64_t v) { return em().mk_const(i32, ir::normalize(i32, static_cast<std::uint64_t>(v))); };
      if (name == "pthread_barrier_init") {
        if (needs_instrs(arg(1))) rvalue(arg(1), false);
        const ExprRef n = tmp_of(conv(i32, rvalue(arg(2))));
        assert_limit(em().mk_binary(Op::LAnd, em().mk_binary(Op::Sle, k(1), n), em().mk_binary(Op::Slt, n, k(2048))),
                     "pthread_barrier_init with a count outside 1..2047");
        check_ptr(b);
        emit(InstrKind::Store, b, em().mk_binary(Op::Shl, n, k(20)));
        return want ? em().mk_const(ret_t, 0) : nullptr;
      }
      auto is_last = [&](ExprRef v) {
        const ExprRef arrived = em().mk_binary(Op::Add, em().mk_binary(Op::BitAnd, v, k(0xffff)), k(1));
        return em().mk_binary(Op::Eq, arrived, em().mk_binary(Op::LShr, v, k(20)));
      };
      const ExprRef vv = atomic_rmw(b, i32, loc, [&](ExprRef v) {
        const ExprRef next_gen = em().mk_binary(Op::BitXor, em().mk_binary(Op::BitAnd, v, k(~0xffffLL)), k(0x10000));
        return em().mk_ite(is_last(v), next_gen, em().mk_binary(Op::Add, v, k(1)));
      });
      const LocalId last = new_tmp(Type::boolean());
      emit(InstrKind::Assign, is_last(vv), nullptr, last);
      const ExprRef lv = em().mk_local(Type::boolean(), last);
      const int out = new_label();
      jump(out, lv);
      const ExprRef gen = em().mk_binary(Op::BitAnd, vv, k(0x10000));
      emit(InstrKind::Assume,
           em().mk_binary(Op::Ne, em().mk_binary(Op::BitAnd, em().mk_load(i32, b), k(0x10000)), gen));
      place(out);
      return want ? conv(ret_t, em().mk_ite(lv, k(-1), k(0))) : nullptr;
    }
    if (name == "pthread_once") {
      // The first caller (control 0 -> 1, one atomic step) runs the routine and then sets 2;
      // every other caller waits until it is 2 (an Assume over the control's cell).
      ExprRef oc = ptr_arg(0);
      const Expr* f = strip(arg(1));
      if (const auto* uo = dyn_cast<UnaryOperator>(f); uo && uo->getOpcode() == UO_AddrOf) f = strip(uo->getSubExpr());
      const auto* dr = dyn_cast<DeclRefExpr>(f);
      const auto* routine = dr ? dyn_cast<FunctionDecl>(dr->getDecl()) : nullptr;
      if (!routine || !routine->getDefinition() || routine->getNumParams() != 0)
        unsupported(arg(1)->getExprLoc(), "pthread_once with a routine that is not a function without parameters");
      const Type i32 = Type::integer(32, true);
      oc = tmp_of(oc);
      const bool began = begin_atomic_step(loc);
      check_ptr(oc);
      const LocalId was = new_tmp(i32);
      emit(InstrKind::Assign, em().mk_load(i32, oc), nullptr, was);
      const ExprRef first = em().mk_binary(Op::Eq, em().mk_local(i32, was), em().mk_const(i32, 0));
      const int not_first = new_label(), end = new_label();
      jump(not_first, em().mk_unary(Op::LNot, first));
      emit(InstrKind::Store, oc, em().mk_const(i32, 1));
      place(not_first);
      end_atomic_step(began);
      jump(end, em().mk_unary(Op::LNot, first));
      ir::Instr call;
      call.kind = InstrKind::Call;
      call.callee = function_id(routine);
      emit(std::move(call));
      emit(InstrKind::Store, oc, em().mk_const(i32, 2));
      const int out = new_label();
      jump(out);
      place(end);
      emit(InstrKind::Assume, em().mk_binary(Op::Eq, em().mk_load(i32, oc), em().mk_const(i32, 2)));
      place(out);
      return want ? em().mk_const(ret_t, 0) : nullptr;
    }
    if (name == "pthread_rwlock_rdlock") return sync1(InstrKind::RdLock);
    if (name == "pthread_rwlock_wrlock") return sync1(InstrKind::WrLock);
    if (name == "pthread_rwlock_unlock") return sync1(InstrKind::RwUnlock);
    if (name == "pthread_mutex_init" || name == "pthread_cond_init" || name == "pthread_rwlock_init" ||
        name == "pthread_spin_init") {
      ExprRef a = ptr_arg(0);
      check_ptr(a);
      side_effects_only(1);
      emit(InstrKind::Store, a, em().mk_const(Type::integer(32, true), 0));
      return zero();
    }
    if (name == "pthread_mutex_destroy" || name == "pthread_cond_destroy" || name == "pthread_spin_destroy" ||
        name == "pthread_barrier_destroy" || starts_with(name, "pthread_barrierattr_") ||
        name == "pthread_rwlock_destroy" || starts_with(name, "pthread_attr_") ||
        starts_with(name, "pthread_mutexattr_") || starts_with(name, "pthread_condattr_") ||
        starts_with(name, "pthread_rwlockattr_") || name == "pthread_yield" || name == "sched_yield") {
      side_effects_only(0);
      emit(InstrKind::Skip);
      return zero();
    }
    if (name == "pthread_self") unsupported(loc, "pthread_self() is not supported yet");
    unsupported(loc, "call to unsupported pthread function '" + name + "'");
  }

  // --- heap
  if (name == "malloc" || name == "calloc" || name == "__builtin_malloc" || name == "alloca" ||
      name == "__builtin_alloca") {
    const bool is_calloc = name == "calloc";
    if (malloc_type.isNull() || malloc_type->isVoidType())
      unsupported(loc, name + "() whose result is not converted to a typed pointer");
    if (malloc_type->isIncompleteType() || malloc_type->isFunctionType())
      unsupported(loc, name + "() of an incomplete type '" + malloc_type.getAsString() + "'");
    // The size: a fixed value (fixed_value: constants, never-modified variables) gives an
    // exact object; otherwise the object has kCapacity elements and a larger request is a
    // Limit error (cells past a smaller request are then addressable: an out-of-bounds access
    // there, undefined in C, is not reported).
    const Type size_t_ty = Type::integer(64, false);
    const std::uint64_t esize = std::max<std::uint64_t>(1, ctx_.getTypeSizeInChars(malloc_type).getQuantity());
    std::vector<ExprRef> sizes;
    bool fixed = true;
    for (unsigned i = 0; i < (is_calloc ? 2u : 1u); ++i) {
      ExprRef v = fixed_value(arg(i));
      if (!v) fixed = false;
      sizes.push_back(v ? conv(size_t_ty, v) : nullptr);
    }
    std::uint64_t count = kCapacity;
    if (fixed) {
      std::uint64_t bytes = 1;
      for (ExprRef v : sizes)
        if (__builtin_mul_overflow(bytes, v->value, &bytes)) unsupported(loc, name + "() size overflows");
      count = std::max<std::uint64_t>(1, bytes / esize + (bytes % esize != 0));
    } else {
      for (unsigned i = 0; i < sizes.size(); ++i)
        if (!sizes[i]) sizes[i] = tmp_of(conv(size_t_ty, rvalue(arg(i))));
      const ExprRef cap = em().mk_const(size_t_ty, kCapacity * esize);
      ExprRef ok = em().mk_binary(Op::Ule, sizes[0], cap);
      if (is_calloc) {  // both factors <= cap < 2^32: the product does not wrap
        ok = em().mk_binary(Op::LAnd, ok, em().mk_binary(Op::Ule, sizes[1], cap));
        ok = em().mk_binary(Op::LAnd, ok,
                            em().mk_binary(Op::Ule, em().mk_binary(Op::Mul, sizes[0], sizes[1]), cap));
      }
      assert_limit(ok, name + "() of more than " + std::to_string(kCapacity) +
                           " elements (the modelled capacity of a non-constant size)");
    }
    if (count > 100000 || count * cells_of(malloc_type, loc) > 100000)
      unsupported(loc, name + "() of more than 100000 cells");
    ir::Object o;
    o.kind = ir::ObjectKind::Heap;
    o.name = name + "@" + std::to_string(sm_.getExpansionLineNumber(ce->getBeginLoc()));
    o.loc = ir_loc(ce->getBeginLoc());
    std::vector<CellSpec> specs;
    for (std::uint64_t i = 0; i < count; ++i)
      flatten(malloc_type, count == 1 ? o.name : o.name + "[" + std::to_string(i) + "]", loc, specs);
    for (auto& s : specs) {
      ir::Cell c;
      c.name = s.name;
      c.type = s.type;
      c.kind = s.kind;
      c.init_nondet = !is_calloc;
      o.cells.push_back(std::move(c));
    }
    ir::Instr in;
    in.kind = InstrKind::Malloc;
    in.obj = prog_.add_object(std::move(o));
    in.lhs = new_tmp(Type::pointer());
    LocalId lhs = in.lhs;
    emit(std::move(in));
    return em().mk_local(Type::pointer(), lhs);
  }
  if (name == "free") {
    emit(InstrKind::Free, ptr_arg(0));
    return zero();
  }
  // --- string.h and sscanf (models below rv_call)
  if (!defined) {
    const std::string base = starts_with(name, "__builtin_") ? name.substr(10) : name;
    if (base == "strcpy" || base == "strncpy" || base == "strlen" || base == "strcmp" || base == "memset" ||
        base == "memcpy")
      return rv_string_call(base, ce, want);
    if (name == "sscanf" || name == "__isoc99_sscanf") return rv_sscanf(ce, want);
  }
  // --- output
  if (name == "printf" || name == "puts" || name == "putchar" || name == "fprintf" || name == "fflush" ||
      name == "fputs" || name == "sprintf" || name == "snprintf" || name == "perror" || name == "usleep" ||
      name == "sleep") {
    if (name == "sprintf" || name == "snprintf") unsupported(loc, "call to undefined function '" + name + "'");
    side_effects_only(0);
    return havoc_result();
  }

  // --- functions without a body
  if (!defined) return rv_undefined_call(ce, fd, want);

  // --- defined functions
  const FunctionDecl* def = fd->getDefinition();
  if (def->isVariadic()) unsupported(loc, "call to variadic function '" + name + "'");
  if (ce->getType()->isRecordType()) unsupported(loc, "function returning a struct");
  if (nargs < def->getNumParams()) unsupported(loc, "too few arguments in call to '" + name + "'");
  ir::Instr in;
  in.kind = InstrKind::Call;
  for (unsigned i = 0; i < nargs; ++i) {
    if (i >= def->getNumParams()) {
      rvalue(ce->getArg(i), false);
      continue;
    }
    QualType pt = def->getParamDecl(i)->getType();
    if (is_aggregate(pt)) unsupported(ce->getArg(i)->getExprLoc(), "struct passed by value");
    in.args.push_back(conv(scalar_type(pt, ce->getArg(i)->getExprLoc()), rvalue(ce->getArg(i))));
  }
  in.callee = function_id(fd);
  LocalId lhs = ir::kNoLocal;
  if (want && !is_void) {
    lhs = new_tmp(ret_t);
    in.lhs = lhs;
  }
  emit(std::move(in));
  return lhs == ir::kNoLocal ? nullptr : em().mk_local(ret_t, lhs);
}

// ---------------------------------------------------------------------------------------
// Thread-specific data: a key is an index below kPthreadKeys handed out by a counter (one
// atomic step), and each thread's values live in a thread-local object of that many pointer
// cells (null at first, as POSIX says). Destructors would run at thread exit: a key with one
// is unsupported rather than modelled without it.
ExprRef Translator::rv_pthread_key(const std::string& name, const CallExpr* ce, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  const Type u32 = Type::integer(32, false);
  auto hidden = [&](ObjectId& id, const char* oname, Type t, std::uint64_t n, bool tls) {
    if (id) return;
    ir::Object o;
    o.kind = ir::ObjectKind::Global;
    o.name = oname;
    o.loc = ir_loc(loc);
    o.thread_local_storage = tls;
    for (std::uint64_t i = 0; i < n; ++i) {
      ir::Cell c;
      c.name = n == 1 ? std::string(oname) : std::string(oname) + "[" + std::to_string(i) + "]";
      c.type = t;
      o.cells.push_back(std::move(c));
    }
    id = prog_.add_object(std::move(o));
  };
  hidden(pthread_keys_, "pthread keys", u32, 1, false);
  hidden(pthread_specific_, "pthread specific", Type::pointer(), kPthreadKeys, true);
  const unsigned nargs = ce->getNumArgs();
  if ((name == "pthread_key_create" || name == "pthread_setspecific") && nargs < 2)
    unsupported(loc, "too few arguments in call to '" + name + "'");
  if (nargs < 1) unsupported(loc, "too few arguments in call to '" + name + "'");
  auto result0 = [&]() -> ExprRef { return want ? em().mk_const(scalar_type(ce->getType(), loc), 0) : nullptr; };
  if (name == "pthread_key_create") {
    if (!ce->getArg(1)->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull))
      unsupported(ce->getArg(1)->getExprLoc(), "pthread_key_create with a destructor");
    const ExprRef kp = tmp_of(conv(Type::pointer(), rvalue(ce->getArg(0))));
    const ExprRef counter = em().mk_obj_addr(pthread_keys_, 0);
    const bool began = begin_atomic_step(loc);
    const LocalId k = new_tmp(u32);
    emit(InstrKind::Assign, em().mk_load(u32, counter), nullptr, k);
    const ExprRef kv = em().mk_local(u32, k);
    assert_limit(em().mk_binary(Op::Ult, kv, em().mk_const(u32, kPthreadKeys)),
                 "more than " + std::to_string(kPthreadKeys) + " pthread keys");
    emit(InstrKind::Store, counter, em().mk_binary(Op::Add, kv, em().mk_const(u32, 1)));
    end_atomic_step(began);
    check_ptr(kp);
    emit(InstrKind::Store, kp, kv);
    return result0();
  }
  if (name == "pthread_key_delete") {
    rvalue(ce->getArg(0), false);
    return result0();
  }
  const ExprRef key = conv(Type::integer(64, false), rvalue(ce->getArg(0)));
  const ExprRef slot = tmp_of(em().mk_binary(Op::PtrAdd, em().mk_obj_addr(pthread_specific_, 0), key));
  check_ptr(slot);  // a key that pthread_key_create did not hand out: out of the object
  if (name == "pthread_getspecific") {
    const LocalId v = new_tmp(Type::pointer());
    emit(InstrKind::Assign, em().mk_load(Type::pointer(), slot), nullptr, v);
    return want ? em().mk_local(Type::pointer(), v) : nullptr;
  }
  emit(InstrKind::Store, slot, conv(Type::pointer(), rvalue(ce->getArg(1))));
  return result0();
}

// ---------------------------------------------------------------------------------------
// Byte arithmetic. Pointers are (object, cell) pairs (semantics.md), so `p + k` moves k cells
// of p's element type. For a byte pointer (char, void) made from a pointer to a larger type,
// k bytes are not k cells: such arithmetic is unsupported, except the container_of idiom,
// whose byte offset the layout of its struct turns into cells exactly.

// The Linux / LDV container_of: `(T *)((char *)p - C)` (also `(void *)p - C`, and `+ -C`),
// with C a constant that is the byte offset of a cell boundary of T (offsetof(T, member)):
// p points to that member of a T, so the result is p moved back by the member's cell index.
// nullptr when `ce` is not that shape.
ExprRef Translator::container_of(const CastExpr* ce) {
  if (!ce->getType()->isPointerType()) return nullptr;
  const QualType t = ce->getType()->getPointeeType();
  if (!t->isRecordType()) return nullptr;
  const auto* bo = dyn_cast<BinaryOperator>(ce->getSubExpr()->IgnoreParens());
  if (!bo || (bo->getOpcode() != BO_Sub && bo->getOpcode() != BO_Add)) return nullptr;
  const Expr* base = bo->getLHS();
  QualType bt = base->getType();
  if (!bt->isPointerType()) return nullptr;
  const QualType pointee = bt->getPointeeType().getCanonicalType();
  if (!pointee->isVoidType() && !pointee->isCharType()) return nullptr;
  Expr::EvalResult r;
  if (!bo->getRHS()->EvaluateAsInt(r, ctx_)) return nullptr;
  std::int64_t c = r.Val.getInt().getSExtValue();
  if (bo->getOpcode() == BO_Add) c = -c;
  if (c < 0) return nullptr;
  const auto cell = byte_to_cell(t, static_cast<std::uint64_t>(c), ce->getExprLoc());
  if (!cell) unsupported(ce->getExprLoc(), "container_of with a byte offset " + std::to_string(c) +
                                               " that is not a member of '" + t.getAsString() + "'");
  // the byte pointer's operand: `(char *)__mptr` is __mptr's value, the same (object, cell)
  const ExprRef p = rvalue(base);
  const Type i64 = Type::integer(64, true);
  return em().mk_binary(Op::PtrAdd, p, em().mk_const(i64, ir::normalize(i64, 0 - *cell)));
}

// `ptr` is an operand of pointer arithmetic or a subscript base: unsupported when it converts
// a pointer to a type of more than one byte into a byte pointer right there.
void Translator::check_byte_arith(const Expr* ptr, SourceLocation loc) {
  const QualType pt = ptr->getType();
  if (!pt->isPointerType()) return;
  const QualType to = pt->getPointeeType().getCanonicalType();
  if (!to->isVoidType() && !to->isCharType()) return;
  const Expr* e = ptr->IgnoreParens();
  while (const auto* c = dyn_cast<CastExpr>(e)) {
    const QualType from = c->getSubExpr()->getType();
    if (from->isPointerType()) {
      const QualType fe = from->getPointeeType().getCanonicalType();
      if (!fe->isVoidType() && !fe->isCharType() && !fe->isIncompleteType() && !fe->isFunctionType() &&
          ctx_.getTypeSizeInChars(fe).getQuantity() != 1)
        unsupported(loc, "byte arithmetic on a pointer to '" + from->getPointeeType().getAsString() +
                             "' converted to '" + pt.getAsString() + "' (byte-precise pointers are not modelled)");
    }
    e = c->getSubExpr()->IgnoreParens();
  }
}

// ---------------------------------------------------------------------------------------
// Function pointers: a function's address is (o, 0) for an object `o` without cells (one per
// function, named after it), so a dereference of it as data is a MemSafety error and `==`
// compares functions. A call through a pointer dispatches over every function whose address
// the program uses (UseScan::escaping) with a body and as many parameters as the call has
// arguments: `if (fp == &f1) f1(args); else if (fp == &f2) f2(args); ...`, and a pointer to
// none of them (null, a function without a body, garbage) fails a MemSafety assert — UNKNOWN,
// never a skipped call.

ObjectId Translator::function_object(const FunctionDecl* fd) {
  fd = fd->getCanonicalDecl();
  if (auto it = function_objects_.find(fd); it != function_objects_.end()) return it->second;
  ir::Object o;
  o.kind = ir::ObjectKind::Global;
  o.name = fd->getNameAsString();
  o.loc = ir_loc(fd->getLocation());
  const ObjectId id = prog_.add_object(std::move(o));
  function_objects_[fd] = id;
  return id;
}

// The address a function designator denotes: `f`, `*fp`, `**fp`, `(&f)`.
ExprRef Translator::function_designator(const Expr* e) {
  e = e->IgnoreParens();
  if (const auto* dr = dyn_cast<DeclRefExpr>(e))
    if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl())) return em().mk_obj_addr(function_object(fd), 0);
  if (const auto* uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_Deref) return rvalue(uo->getSubExpr());
  unsupported(e->getExprLoc(), std::string("function designator '") + e->getStmtClassName() + "'");
}

// The functions a pointer call with these argument types and this result type (null: unused)
// can reach: same number of parameters, each a pointer where the argument is one, and a result
// of the same kind (void, pointer, integer). A function that a call reaches only through a
// more exotic cast is left out, which makes that call a MemSafety error (UNKNOWN).
std::vector<const FunctionDecl*> Translator::pointer_targets(const std::vector<QualType>& arg_types, QualType ret) {
  auto kind = [](QualType t) {
    t = t.getCanonicalType();
    return t->isVoidType() ? 0 : (t->isPointerType() || t->isArrayType() || t->isFunctionType()) ? 1 : 2;
  };
  std::vector<const FunctionDecl*> out;
  for (const FunctionDecl* fd : scan().escaping) {
    const FunctionDecl* def = fd->getDefinition();
    if (!def || def->isVariadic() || def->isMain() || def->getNumParams() != arg_types.size()) continue;
    if (!ret.isNull() && kind(ret) != kind(def->getReturnType())) continue;
    bool ok = true;
    for (unsigned i = 0; i < arg_types.size(); ++i) ok = ok && kind(arg_types[i]) == kind(def->getParamDecl(i)->getType());
    if (ok) out.push_back(def);
  }
  std::sort(out.begin(), out.end(), [&](const FunctionDecl* x, const FunctionDecl* y) {
    return sm_.isBeforeInTranslationUnit(x->getLocation(), y->getLocation());
  });
  return out;
}

ExprRef Translator::rv_indirect_call(const CallExpr* ce, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  if (ce->getType()->isRecordType()) unsupported(loc, "function returning a struct");
  if (ce->getType()->isRealFloatingType()) unsupported(loc, "floating-point type '" + ce->getType().getAsString() + "'");
  const ExprRef fp = tmp_of(conv(Type::pointer(), rvalue(ce->getCallee())));
  // C evaluates the arguments once, before the call: into temporaries shared by every branch.
  std::vector<ExprRef> args;
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    if (is_aggregate(ce->getArg(i)->getType())) unsupported(ce->getArg(i)->getExprLoc(), "struct passed by value");
    args.push_back(tmp_of(rvalue(ce->getArg(i))));
  }
  const bool is_void = ce->getType()->isVoidType();
  const bool value = want && !is_void;
  const Type ret_t = is_void ? Type::integer(32, true) : scalar_type(ce->getType(), loc);
  const LocalId result = value ? new_tmp(ret_t) : ir::kNoLocal;
  std::vector<QualType> arg_types;
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) arg_types.push_back(ce->getArg(i)->getType());
  auto call = [&](const FunctionDecl* def) {
    ir::Instr in;
    in.kind = InstrKind::Call;
    for (unsigned i = 0; i < args.size(); ++i) {
      const QualType pt = def->getParamDecl(i)->getType();
      if (is_aggregate(pt)) unsupported(def->getParamDecl(i)->getLocation(), "struct passed by value");
      in.args.push_back(conv(scalar_type(pt, loc), args[i]));
    }
    in.callee = function_id(def);
    if (value) {
      const Type rt = scalar_type(def->getReturnType(), def->getLocation());
      in.lhs = new_tmp(rt);
      const LocalId r = in.lhs;
      emit(std::move(in));
      emit(InstrKind::Assign, conv(ret_t, em().mk_local(rt, r)), nullptr, result);
    } else {
      emit(std::move(in));
    }
  };
  dispatch(fp, pointer_targets(arg_types, value ? ce->getType() : QualType()), call,
           "call through a pointer to no function of the program with " + std::to_string(ce->getNumArgs()) +
               " parameters (null, invalid, or without a body)");
  return value ? em().mk_local(ret_t, result) : nullptr;
}

// `if (fp == &t1) one(t1); else if (fp == &t2) one(t2); ... else Assert[MemSafety](false)`.
void Translator::dispatch(ExprRef fp, const std::vector<const FunctionDecl*>& targets,
                          const std::function<void(const FunctionDecl*)>& one, const std::string& none) {
  const int end = new_label();
  for (const FunctionDecl* def : targets) {
    const int next = new_label();
    jump(next, em().mk_binary(Op::Ne, fp, em().mk_obj_addr(function_object(def), 0)));
    one(def);
    jump(end);
    place(next);
  }
  ir::Instr fail;
  fail.kind = InstrKind::Assert;
  fail.assert_kind = ir::AssertKind::MemSafety;
  fail.a = em().mk_false();
  fail.message = none;
  emit(std::move(fail));
  place(end);
}

// A function without a body (`nondet_int()`, `time(0)`): after CBMC, the call returns an
// arbitrary value of its return type and changes nothing else, and the file gets one warning
// per such function. A call that passes a pointer the function could write through (a
// non-const pointer parameter, or any pointer argument without a prototype) is unsupported
// instead: "changes nothing" would then drop writes a real definition makes (`time(&t)`).
ExprRef Translator::rv_undefined_call(const CallExpr* ce, const FunctionDecl* fd, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  const std::string name = fd->getNameAsString();
  if (!options_.undefined_nondet) unsupported(loc, "call to undefined function '" + name + "'");
  if (fd->isVariadic()) unsupported(loc, "call to undefined variadic function '" + name + "'");
  const QualType rt = ce->getType();
  if (rt->isRecordType()) unsupported(loc, "undefined function '" + name + "' returning a struct");
  if (rt->isRealFloatingType()) unsupported(loc, "floating-point type '" + rt.getAsString() + "'");
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    const Expr* a = ce->getArg(i);
    if (a->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNull)) continue;
    QualType pt = i < fd->getNumParams() ? fd->getParamDecl(i)->getType() : a->IgnoreParenImpCasts()->getType();
    pt = pt.getCanonicalType();
    if (pt->isArrayType() || (pt->isPointerType() && !pt->getPointeeType().isConstQualified()))
      unsupported(a->getExprLoc(), "call to undefined function '" + name +
                                       "' with a pointer it could write through (argument " +
                                       std::to_string(i + 1) + ")");
  }
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) rvalue(ce->getArg(i), false);  // reads stay accesses
  warn("undefined:" + name, loc,
       "function '" + name + "' has no body: each call returns an arbitrary value and changes nothing "
       "else (--no-undefined-nondet rejects it)");
  if (rt->isVoidType() || !want) return nullptr;
  const Type t = scalar_type(rt, loc);
  ir::Instr h;
  h.kind = InstrKind::Havoc;
  h.lhs = new_tmp(t);
  h.message = name + "()";  // traces print the value, as for __VERIFIER_nondet_*
  const LocalId lhs = h.lhs;
  emit(std::move(h));
  return em().mk_local(t, lhs);
}

// ---------------------------------------------------------------------------------------
// C11 <stdatomic.h> (Clang's __c11_atomic_* AtomicExprs), GCC __atomic_* and __sync_*
// builtins: each operation is one atomic step (begin_atomic_step); memory orders other than
// seq_cst are modelled as seq_cst with one warning per file (memory_order).

Type Translator::atomic_value_type(QualType t, SourceLocation loc) {
  if (const auto* at = t->getAs<AtomicType>()) t = at->getValueType();
  if (t->isRealFloatingType() || t->isComplexType())
    unsupported(loc, "atomic operation on floating-point type '" + t.getAsString() + "'");
  if (t->isRecordType() || t->isArrayType())
    unsupported(loc, "atomic operation on struct or array type '" + t.getAsString() + "'");
  return scalar_type(t, loc);
}

namespace {
// The value stored by an atomic fetch-and-<op> / <op>-and-fetch; null for an unknown op.
ExprRef fetch_update(ir::ExprManager& m, const std::string& op, ExprRef old, ExprRef v) {
  const bool sgn = old->type.is_signed;
  if (op == "add") return m.mk_binary(Op::Add, old, v);
  if (op == "sub") return m.mk_binary(Op::Sub, old, v);
  if (op == "and") return m.mk_binary(Op::BitAnd, old, v);
  if (op == "or") return m.mk_binary(Op::BitOr, old, v);
  if (op == "xor") return m.mk_binary(Op::BitXor, old, v);
  if (op == "nand") return m.mk_unary(Op::BitNot, m.mk_binary(Op::BitAnd, old, v));  // GCC >= 4.4
  if (op == "max") return m.mk_ite(m.mk_binary(sgn ? Op::Slt : Op::Ult, old, v), v, old);
  if (op == "min") return m.mk_ite(m.mk_binary(sgn ? Op::Slt : Op::Ult, v, old), v, old);
  return nullptr;
}

// "fetch_add" / "fetch_and_add" -> {"add", false}; "add_fetch" / "add_and_fetch" -> {"add",
// true} (returns the new value); an op fetch_update does not know -> {"", false}.
std::pair<std::string, bool> fetch_op(const std::string& s) {
  std::pair<std::string, bool> r{"", false};
  if (s.rfind("fetch_and_", 0) == 0) r = {s.substr(10), false};
  else if (s.rfind("fetch_", 0) == 0) r = {s.substr(6), false};
  else
    for (const char* suffix : {"_and_fetch", "_fetch"}) {
      const std::size_t n = std::strlen(suffix);
      if (s.size() > n && s.compare(s.size() - n, n, suffix) == 0) {
        r = {s.substr(0, s.size() - n), true};
        break;
      }
    }
  static const std::set<std::string> known = {"add", "sub", "and", "or", "xor", "nand", "max", "min"};
  return known.count(r.first) ? r : std::pair<std::string, bool>{"", false};
}

std::string atomic_builtin_name(AtomicExpr::AtomicOp op) {
  switch (op) {
#define BUILTIN(ID, TYPE, ATTRS)
#define ATOMIC_BUILTIN(ID, TYPE, ATTRS) \
  case AtomicExpr::AO##ID:              \
    return #ID;
#include "clang/Basic/Builtins.def"
    default: return "?";
  }
}
}  // namespace

ExprRef Translator::rv_atomic(const AtomicExpr* ae, bool want) {
  const SourceLocation loc = ae->getExprLoc();
  const AtomicExpr::AtomicOp op = ae->getOp();
  if (AtomicExpr::getScopeModel(op)) unsupported(loc, "OpenCL/HIP atomic builtin");
  const Type t = atomic_value_type(ae->getValueType(), loc);
  const ExprRef p = tmp_of(conv(Type::pointer(), rvalue(ae->getPtr())));
  auto value = [&](const Expr* e) { return tmp_of(conv(t, rvalue(e))); };
  auto pointer = [&](const Expr* e) { return tmp_of(conv(Type::pointer(), rvalue(e))); };
  auto load_from = [&](ExprRef q) {  // the generic GNU forms pass values by address
    check_ptr(q);
    const LocalId v = new_tmp(t);
    emit(InstrKind::Assign, em().mk_load(t, q), nullptr, v);
    return em().mk_local(t, v);
  };
  auto store_to = [&](ExprRef q, ExprRef v) {
    check_ptr(q);
    emit(InstrKind::Store, q, v);
  };
  if (op == AtomicExpr::AO__c11_atomic_init) {  // initialisation is not atomic (C11 7.17.2.2p2)
    store_to(p, value(ae->getVal1()));
    return nullptr;
  }
  memory_order(ae->getOrder());
  ExprRef result = nullptr;
  switch (op) {
    case AtomicExpr::AO__c11_atomic_load:
    case AtomicExpr::AO__atomic_load_n:
      result = atomic_rmw(p, t, loc);
      break;
    case AtomicExpr::AO__atomic_load: {
      const ExprRef ret = pointer(ae->getVal1());
      store_to(ret, atomic_rmw(p, t, loc));
      break;
    }
    case AtomicExpr::AO__c11_atomic_store:
    case AtomicExpr::AO__atomic_store_n:
      atomic_store(p, t, value(ae->getVal1()), loc);
      break;
    case AtomicExpr::AO__atomic_store:
      atomic_store(p, t, load_from(pointer(ae->getVal1())), loc);
      break;
    case AtomicExpr::AO__c11_atomic_exchange:
    case AtomicExpr::AO__atomic_exchange_n: {
      const ExprRef v = value(ae->getVal1());
      result = atomic_rmw(p, t, loc, [&](ExprRef) { return v; });
      break;
    }
    case AtomicExpr::AO__atomic_exchange: {
      const ExprRef v = load_from(pointer(ae->getVal1()));
      const ExprRef ret = pointer(ae->getVal2());
      store_to(ret, atomic_rmw(p, t, loc, [&](ExprRef) { return v; }));
      break;
    }
    case AtomicExpr::AO__c11_atomic_compare_exchange_strong:
    case AtomicExpr::AO__c11_atomic_compare_exchange_weak:
    case AtomicExpr::AO__atomic_compare_exchange:
    case AtomicExpr::AO__atomic_compare_exchange_n: {
      const ExprRef expected_ptr = pointer(ae->getVal1());
      const ExprRef desired = op == AtomicExpr::AO__atomic_compare_exchange ? load_from(pointer(ae->getVal2()))
                                                                            : value(ae->getVal2());
      bool weak = op == AtomicExpr::AO__c11_atomic_compare_exchange_weak;
      if (op == AtomicExpr::AO__atomic_compare_exchange || op == AtomicExpr::AO__atomic_compare_exchange_n) {
        // GCC's `weak` argument: unless it is the constant 0 the CAS may fail spuriously
        const Expr* w = ae->getWeak();
        Expr::EvalResult r;
        const bool strong = !w->HasSideEffects(ctx_) && w->EvaluateAsInt(r, ctx_) && r.Val.getInt() == 0;
        weak = !strong;
        if (needs_instrs(w)) rvalue(w, false);
      }
      memory_order(ae->getOrderFail());
      const auto [old, ok] = atomic_cas(p, t, load_from(expected_ptr), desired, weak, loc);
      // on failure *expected gets the value seen (C11 7.17.7.4p2), a plain write
      const int done = new_label();
      jump(done, ok);
      store_to(expected_ptr, old);
      place(done);
      result = ok;
      break;
    }
    default: {
      // __c11_atomic_fetch_<op>, __atomic_fetch_<op>, __atomic_<op>_fetch
      std::string name = atomic_builtin_name(op);
      for (const char* prefix : {"__c11_atomic_", "__atomic_"})
        if (starts_with(name, prefix)) name = name.substr(std::strlen(prefix));
      const auto [kind, returns_new] = fetch_op(name);
      if (kind.empty()) unsupported(loc, "atomic builtin '" + atomic_builtin_name(op) + "'");
      if (!t.is_int()) unsupported(loc, "atomic fetch-and-" + kind + " on a " + (t.is_ptr() ? "pointer" : "_Bool"));
      const ExprRef v = value(ae->getVal1());
      const ExprRef old = atomic_rmw(p, t, loc, [&](ExprRef o) { return fetch_update(em(), kind, o, v); });
      result = returns_new ? fetch_update(em(), kind, old, v) : old;
    }
  }
  if (!want || !result || ae->getType()->isVoidType()) return nullptr;
  return conv(scalar_type(ae->getType(), loc), result);
}

ExprRef Translator::rv_sync_call(const std::string& name, const CallExpr* ce, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  const unsigned nargs = ce->getNumArgs();
  auto arg = [&](unsigned i) -> const Expr* {
    if (i >= nargs) unsupported(loc, "too few arguments in call to '" + name + "'");
    return ce->getArg(i);
  };
  auto result = [&](ExprRef v) -> ExprRef {
    if (!want || ce->getType()->isVoidType()) return nullptr;
    return conv(scalar_type(ce->getType(), loc), v);
  };
  // fences order nothing more under sequential consistency
  if (name == "__sync_synchronize") return nullptr;
  if (name == "__c11_atomic_thread_fence" || name == "__c11_atomic_signal_fence" ||
      name == "__atomic_thread_fence" || name == "__atomic_signal_fence") {
    memory_order(arg(0));
    return nullptr;
  }
  const ExprRef p = tmp_of(conv(Type::pointer(), rvalue(arg(0))));
  if (name == "__atomic_test_and_set" || name == "__atomic_clear") {
    // on a byte (bool or char): test_and_set stores 1 and says whether it was set
    QualType pt = strip(arg(0))->getType()->getPointeeType();
    if (pt.isNull() || !pt->isIntegerType() || ctx_.getTypeSize(pt) != 8)
      unsupported(loc, name + " on an object that is not a bool or char");
    const Type t = scalar_type(pt, loc);
    memory_order(arg(1));
    if (name == "__atomic_clear") {
      atomic_store(p, t, em().mk_const(t, 0), loc);
      return nullptr;
    }
    const ExprRef old = atomic_rmw(p, t, loc, [&](ExprRef) { return em().mk_const(t, 1); });
    return result(to_bool(old));
  }
  if (!starts_with(name, "__sync_")) unsupported(loc, "atomic builtin '" + name + "'");
  // Clang names the overload by size: __sync_fetch_and_add_4 (the value type is its pointee)
  std::string base = name.substr(7);
  if (const std::size_t u = base.find_last_of('_'); u != std::string::npos &&
      std::all_of(base.begin() + u + 1, base.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    base.resize(u);
  const FunctionDecl* fd = ce->getDirectCallee();
  QualType vt = fd->getNumParams() > 0 ? fd->getParamDecl(0)->getType()->getPointeeType() : QualType();
  if (vt.isNull()) unsupported(loc, "atomic builtin '" + name + "' without a typed pointer");
  const Type t = atomic_value_type(vt, loc);
  auto value = [&](unsigned i) { return tmp_of(conv(t, rvalue(arg(i)))); };
  if (base == "lock_release") {
    atomic_store(p, t, em().mk_const(t, 0), loc);
    return nullptr;
  }
  if (base == "lock_test_and_set" || base == "swap") {
    const ExprRef v = value(1);
    return result(atomic_rmw(p, t, loc, [&](ExprRef) { return v; }));
  }
  if (base == "val_compare_and_swap" || base == "bool_compare_and_swap") {
    const ExprRef expected = value(1);
    const ExprRef desired = value(2);
    const auto [old, ok] = atomic_cas(p, t, expected, desired, false, loc);
    return result(base == "bool_compare_and_swap" ? ok : old);
  }
  const auto [kind, returns_new] = fetch_op(base);
  if (kind.empty()) unsupported(loc, "atomic builtin '" + name + "'");
  if (!t.is_int()) unsupported(loc, "atomic fetch-and-" + kind + " on a " + (t.is_ptr() ? "pointer" : "_Bool"));
  const ExprRef v = value(1);
  const ExprRef old = atomic_rmw(p, t, loc, [&](ExprRef o) { return fetch_update(em(), kind, o, v); });
  return result(returns_new ? fetch_update(em(), kind, old, v) : old);
}

// An operation's AtomicBegin inside a section that is already running would block its thread
// for good (semantics.md: AtomicBegin waits for `atomic == 0`) and lose behaviours. That can
// happen in a function called from a __VERIFIER_atomic_* function (its own body has no pairs,
// begin_atomic_step) and between __VERIFIER_atomic_begin() and _end(): such programs are
// reported.
void Translator::check_atomic_nesting() {
  if (atomic_steps_.empty()) return;
  if (explicit_atomic_begin_) {
    diags_.push_back(diag_at(atomic_steps_.begin()->second,
                             "unsupported: atomic operation in a program that calls __VERIFIER_atomic_begin()"));
    return;
  }
  std::vector<bool> inside(prog_.functions.size(), false);  // called from an atomic function
  std::vector<std::size_t> work;
  for (std::size_t f = 0; f < prog_.functions.size(); ++f)
    if (prog_.functions[f].is_atomic) work.push_back(f);
  while (!work.empty()) {
    const std::size_t f = work.back();
    work.pop_back();
    for (const ir::Instr& in : prog_.functions[f].body)
      if (in.kind == InstrKind::Call && in.callee < inside.size() && !inside[in.callee]) {
        inside[in.callee] = true;
        work.push_back(in.callee);
      }
  }
  for (const auto& [f, loc] : atomic_steps_)
    if (inside[f])
      diags_.push_back(diag_at(loc, "unsupported: atomic operation in a function called from a __VERIFIER_atomic_* function"));
}

// ---------------------------------------------------------------------------------------
// Library models: fixed values, string literals, string.h, main's arguments, sscanf

void Translator::assert_limit(ExprRef cond, std::string msg) {
  if (cond->is_const() && cond->value != 0) return;
  ir::Instr in;
  in.kind = InstrKind::Assert;
  in.assert_kind = ir::AssertKind::Limit;
  in.a = cond;
  in.message = std::move(msg);
  emit(std::move(in));
}

UseScan& Translator::scan() {
  if (!scan_) {
    scan_ = std::make_unique<UseScan>(ctx_.getTranslationUnitDecl());
  }
  return *scan_;
}

// The value of integer expression `e` if it is the same whenever `e` is evaluated: a constant
// expression, or integer operators and casts over constants and variables that hold a fixed
// value (fixed_var). A Const of e's type, or nullptr.
ExprRef Translator::fixed_value(const Expr* e, int depth) {
  e = e->IgnoreParens();
  if (depth > 16 || !e->getType()->isIntegerType() || e->HasSideEffects(ctx_)) return nullptr;
  const SourceLocation loc = e->getExprLoc();
  const Type t = scalar_type(e->getType(), loc);
  Expr::EvalResult r;
  if (e->EvaluateAsInt(r, ctx_) && r.Val.isInt())
    return em().mk_const(t, ir::normalize(t, r.Val.getInt().getZExtValue()));
  ExprRef v = nullptr;
  if (const auto* ce = dyn_cast<CastExpr>(e)) {
    const Expr* sub = ce->getSubExpr();
    switch (ce->getCastKind()) {
      case CK_LValueToRValue:
        if (const auto* dr = dyn_cast<DeclRefExpr>(sub->IgnoreParens()))
          if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) v = fixed_var(vd, depth + 1);
        break;
      case CK_NoOp:
      case CK_IntegralCast:
      case CK_IntegralToBoolean: v = fixed_value(sub, depth + 1); break;
      default: break;
    }
    if (v) v = conv(t, v);
  } else if (const auto* bo = dyn_cast<BinaryOperator>(e)) {
    if (bo->isAdditiveOp() || bo->isMultiplicativeOp() || bo->isShiftOp() || bo->isBitwiseOp() ||
        bo->isComparisonOp()) {
      ExprRef l = fixed_value(bo->getLHS(), depth + 1);
      ExprRef rr = l ? fixed_value(bo->getRHS(), depth + 1) : nullptr;
      if (rr)
        v = arith(bo->getOpcode(), l, rr, bo->getLHS()->getType(), bo->getRHS()->getType(), bo->getType(), loc);
    }
  } else if (const auto* uo = dyn_cast<UnaryOperator>(e)) {
    if (ExprRef s = fixed_value(uo->getSubExpr(), depth + 1)) {
      switch (uo->getOpcode()) {
        case UO_Plus: v = conv(t, s); break;
        case UO_Minus: v = em().mk_unary(Op::Neg, conv(t, s)); break;
        case UO_Not: v = em().mk_unary(Op::BitNot, conv(t, s)); break;
        case UO_LNot: v = conv(t, em().mk_unary(Op::LNot, to_bool(s))); break;
        default: break;
      }
    }
  } else if (const auto* co = dyn_cast<ConditionalOperator>(e)) {
    if (ExprRef c = fixed_value(co->getCond(), depth + 1))
      if (ExprRef x = fixed_value(c->value != 0 ? co->getTrueExpr() : co->getFalseExpr(), depth + 1)) v = conv(t, x);
  }
  return v && v->is_const() ? v : nullptr;
}

// A variable holds a fixed value if nothing writes it after its initialisation (UseScan: no
// assignment, ++/-- or address-of anywhere in the translation unit), it is not volatile, and
// it is a local or static/global variable with a fixed initialiser (a global without one is
// 0), or a parameter of a function that is only called directly (not main) and that every
// call passes the same fixed value.
ExprRef Translator::fixed_var(const VarDecl* vd, int depth) {
  vd = vd->getCanonicalDecl();
  const QualType qt = vd->getType();
  if (!qt->isIntegerType() || qt.isVolatileQualified() || scan().modified.count(vd)) return nullptr;
  const Type t = scalar_type(qt, vd->getLocation());
  if (const auto* pv = dyn_cast<ParmVarDecl>(vd)) {
    const auto* fd = dyn_cast<FunctionDecl>(pv->getDeclContext());
    if (!fd || fd->isMain() || scan().escaping.count(fd->getCanonicalDecl())) return nullptr;
    auto it = scan().calls.find(fd->getCanonicalDecl());
    if (it == scan().calls.end()) return nullptr;
    const unsigned idx = pv->getFunctionScopeIndex();
    ExprRef v = nullptr;
    for (const CallExpr* call : it->second) {
      if (idx >= call->getNumArgs()) return nullptr;
      ExprRef a = fixed_value(call->getArg(idx), depth + 1);
      if (!a) return nullptr;
      a = conv(t, a);
      if (v && v != a) return nullptr;
      v = a;
    }
    return v;
  }
  const Expr* init = nullptr;
  for (const VarDecl* r : vd->redecls())
    if (r->getInit()) init = r->getInit();
  if (vd->hasGlobalStorage() && !init)
    return vd->getDefinition() || vd->getActingDefinition() ? em().mk_const(t, 0) : nullptr;
  if (!init) return nullptr;
  ExprRef v = fixed_value(init, depth + 1);
  return v ? conv(t, v) : nullptr;
}

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
    o.cells.push_back(std::move(c));
  }
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
      const auto last = static_cast<std::int64_t>(prog_.objects[hi].cells.size()) - 1;
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
    check_ptr(addr);
    LocalId l = new_tmp(t);
    emit(InstrKind::Assign, em().mk_load(t, addr), nullptr, l);
    return em().mk_local(t, l);
  };
  auto store_at = [&](ExprRef addr, ExprRef v) {
    check_ptr(addr);
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
      for (std::size_t k = 0; same && k < a.size(); ++k) same = a[k].type == b[k].type && a[k].kind == b[k].kind;
      if (!same)
        unsupported(loc, "memcpy from '" + ts.getAsString() + "' to '" + t.getAsString() + "' (different cell layouts)");
    }
  }
  if (t.isNull() || t->isVoidType() || t->isIncompleteType() || t->isFunctionType())
    unsupported(loc, name + " through a pointer whose element type is unknown");
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
  auto element_cell = [&](ExprRef base, std::uint64_t j) {  // cell j of the element at cell offset `base`
    ExprRef o = j == 0 ? base : em().mk_binary(Op::Add, base, int_const(static_cast<std::int64_t>(j)));
    if (is_set) {
      store_at(at(d, o), values[j]);
    } else {
      ExprRef v = load_at(cells[j].type, at(s, o));
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
        for (std::uint64_t j = 0; j < k; ++j) element_cell(int_const(static_cast<std::int64_t>(e * k)), j);
      return result(d);
    }
    n = int_const(static_cast<std::int64_t>(count * k));
  } else {
    ExprRef nb = tmp_of(conv(u64, rvalue(ce->getArg(2))));
    if (es == 0) unsupported(loc, name + " of a zero-size element type");
    assert_limit(em().mk_binary(Op::Eq, em().mk_binary(Op::URem, nb, em().mk_const(u64, es)), em().mk_const(u64, 0)),
                 name + " of a size that is not whole elements of '" + t.getAsString() + "'");
    n = tmp_of(em().mk_binary(Op::Mul, conv(i64, em().mk_binary(Op::UDiv, nb, em().mk_const(u64, es))),
                              int_const(static_cast<std::int64_t>(k))));
  }
  ExprRef i = counter();
  int head = new_label(), end = new_label();
  place(head);
  jump(end, em().mk_binary(Op::Eq, i, n));
  for (std::uint64_t j = 0; j < k; ++j) element_cell(i, j);
  incr(i, k);
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
    for (std::uint64_t i = 0; i < kArgvCells; ++i) {
      ir::Cell c;
      c.name = "argv[" + std::to_string(i) + "]";
      c.type = Type::pointer();
      if (i == 0) c.init_obj = argv_strings_[0];  // argc >= 1
      o.cells.push_back(std::move(c));
    }
    const ObjectId obj = prog_.add_object(std::move(o));
    emit(InstrKind::Assign, em().mk_obj_addr(obj, 0), nullptr, argv);
    for (std::uint64_t i = 1; i < kArgvCells; ++i)
      emit(InstrKind::Store, em().mk_obj_addr(obj, static_cast<std::int64_t>(i)),
           em().mk_ite(em().mk_binary(at.is_signed ? Op::Slt : Op::Ult, em().mk_const(at, i), argc_v),
                       em().mk_obj_addr(argv_strings_[i], 0), em().mk_null()));
  }
  cur_text_ = saved_text;
}

// sscanf(str, fmt, p1, ..., pk) where str is one of main's argument strings (any other string is
// a Limit error): its contents are arbitrary, so every outcome is possible. The result r is
// any int in [-1 (EOF), k] and p1..pr get arbitrary values of their types (the others keep
// theirs). This is exact for the conversions allowed (integers and single chars: every value
// has a spelling) and for one read of each string: a second read must agree with the first,
// so it is a Limit error (a flag per string, set with a test-and-set so that two threads
// cannot both pass). str itself is not read.
ExprRef Translator::rv_sscanf(const CallExpr* ce, bool want) {
  const SourceLocation loc = ce->getExprLoc();
  if (ce->getNumArgs() < 2) unsupported(loc, "sscanf without a format");
  const auto* fl = dyn_cast<StringLiteral>(ce->getArg(1)->IgnoreParenCasts());
  if (!fl || fl->getCharByteWidth() != 1) unsupported(loc, "sscanf with a format that is not a string literal");
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
    if (i >= f.size()) unsupported(loc, "sscanf format ends inside a conversion");
    const char c = f[i];
    if (c == '[') {  // skip the scan set: ']' first is a member
      if (++i < f.size() && f[i] == '^') ++i;
      if (i < f.size() && f[i] == ']') ++i;
      while (i < f.size() && f[i] != ']') ++i;
    }
    if (suppress && c != 'n') continue;  // consumes input, assigns nothing, not counted
    if (std::strchr("diouxX", c)) bits.push_back(w);
    else if (c == 'c' && !has_len && (!has_width || width == 1)) bits.push_back(8);
    else unsupported(loc, std::string("sscanf conversion '%") + c + "' (only integers and single chars)");
  }
  const unsigned k = static_cast<unsigned>(bits.size());
  if (ce->getNumArgs() < 2 + k) unsupported(loc, "sscanf with fewer arguments than conversions");
  std::vector<Type> types;
  for (unsigned j = 0; j < k; ++j) {
    const Expr* a = ce->getArg(2 + j);
    const QualType pt = a->getType()->isPointerType() ? a->getType()->getPointeeType() : QualType();
    if (pt.isNull() || !pt->isIntegerType() || pt->isBooleanType() || ctx_.getTypeSize(pt) != bits[j])
      unsupported(a->getExprLoc(), "sscanf argument of type '" + a->getType().getAsString() +
                                       "' for a conversion of " + std::to_string(bits[j]) + " bits");
    types.push_back(scalar_type(pt, a->getExprLoc()));
  }
  ExprRef str = tmp_of(conv(Type::pointer(), rvalue(ce->getArg(0))));
  std::vector<ExprRef> ptrs;
  for (unsigned j = 2; j < ce->getNumArgs(); ++j) {
    if (j < 2 + k) ptrs.push_back(tmp_of(conv(Type::pointer(), rvalue(ce->getArg(j)))));
    else rvalue(ce->getArg(j), false);  // excess arguments are evaluated and ignored
  }
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
    check_ptr(ptrs[j]);
    emit(InstrKind::Store, ptrs[j], em().mk_local(types[j], v));
    place(skip);
  }
  return want ? conv(scalar_type(ce->getType(), loc), rv) : nullptr;
}

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
      // gives an exact object; otherwise the object has kCapacity elements and a longer array
      // is a Limit error (a length <= 0 is undefined behaviour: MemSafety).
      const QualType elem = vat->getElementType();
      if (ctx_.getAsVariableArrayType(elem)) unsupported(loc, "multi-dimensional variable-length array");
      cells_of(elem, loc);
      const Expr* size = vat->getSizeExpr();
      ExprRef n = fixed_value(size);
      std::uint64_t len = kCapacity;
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
        assert_limit(em().mk_binary(sgn ? Op::Sle : Op::Ule, n, em().mk_const(it, kCapacity)),
                     "variable-length array longer than " + std::to_string(kCapacity) +
                         " elements (the modelled capacity)");
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
      LV s = lvalue(init->IgnoreParenImpCasts());
      if (s.is_local) unsupported(loc, "struct copy");
      copy_cells(em().mk_obj_addr(id, 0), s.addr, t, loc);
      continue;
    }
    std::vector<std::pair<std::uint64_t, const Expr*>> leaves;
    auto saved = std::move(string_chars_);
    string_chars_.clear();
    init_leaves(t, init, 0, leaves);
    auto chars = std::move(string_chars_);
    string_chars_ = std::move(saved);
    for (auto& [idx, e] : leaves) {
      const ir::Cell& cell = prog_.objects[id].cells[idx];
      Type ct = cell.type;
      ExprRef v;
      if (auto it = chars.find(idx); it != chars.end()) v = em().mk_const(ct, it->second);
      else if (e) v = conv(ct, rvalue(e));
      else v = ct.is_ptr() ? em().mk_null() : em().mk_const(ct, 0);
      emit(InstrKind::Store, em().mk_obj_addr(id, static_cast<std::int64_t>(idx)), v);
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
      if (st_->fn->return_type) {
        if (e->getType()->isRecordType()) unsupported(e->getExprLoc(), "function returning a struct");
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

// ---------------------------------------------------------------------------------------
// Functions

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
    if (rt->isRecordType()) unsupported(fd->getLocation(), "function returning a struct");
    fn.return_type = scalar_type(rt, fd->getLocation());
  }
  collect_addr_taken(fd->getBody());
  std::vector<std::pair<const ParmVarDecl*, LocalId>> spilled;
  for (const ParmVarDecl* p : fd->parameters()) {
    if (is_aggregate(p->getType())) unsupported(p->getLocation(), "struct passed by value");
    std::string pname = p->getNameAsString();
    if (pname.empty()) pname = "__arg" + std::to_string(fn.locals.size());
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

FrontendResult Translator::run() {
  FrontendResult res;
  const FunctionDecl* main_fn = nullptr;
  for (const Decl* d : ctx_.getTranslationUnitDecl()->decls())
    if (const auto* fd = dyn_cast<FunctionDecl>(d); fd && fd->getName() == "main" && fd->hasBody())
      main_fn = fd->getDefinition();
  if (!main_fn) {
    res.status = FrontendStatus::InputError;
    Diagnostic d;
    d.file = prog_.files[0];
    d.message = "error: no main function";
    res.diagnostics.push_back(d);
    return res;
  }
  try {
    prog_.entry = function_id(main_fn);
  } catch (const Unsupported& u) {
    diags_.push_back(diag_at(u.loc, "unsupported: " + u.what));
  }
  std::set<const FunctionDecl*> done;
  while (!worklist_.empty()) {
    const FunctionDecl* fd = worklist_.front();
    worklist_.pop_front();
    if (!done.insert(fd).second) continue;
    try {
      translate_function(fd);
    } catch (const Unsupported& u) {
      st_ = nullptr;
      diags_.push_back(diag_at(u.loc, "unsupported: " + u.what));
    }
  }
  if (diags_.empty()) check_atomic_nesting();
  if (diags_.empty()) guard_literal_writes();
  res.warnings = std::move(warnings_);
  if (!diags_.empty()) {
    res.status = FrontendStatus::Unsupported;
    res.diagnostics = std::move(diags_);
    return res;
  }
  res.status = FrontendStatus::Ok;
  res.program = std::move(prog_);
  return res;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Entry point

FrontendResult translate_file(const std::string& path, const FrontendOptions& options) {
  FrontendResult res;
  res.status = FrontendStatus::InputError;
  auto fail = [&](std::string msg) -> FrontendResult {
    Diagnostic d;
    d.file = path;
    d.message = "error: " + std::move(msg);
    res.diagnostics.push_back(std::move(d));
    return std::move(res);
  };
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail("no such file");
  if (!std::filesystem::is_regular_file(path, ec)) return fail("not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot open file for reading");
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return fail("cannot read file");
  const std::string code = ss.str();
  if (code.find('\0') != std::string::npos) return fail("not a C source file (contains binary data)");
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  std::vector<std::string> args = {"-xc", "-std=gnu11", std::string("-resource-dir=") + CLANG_RESOURCE_DIR,
                                   "-I" + dir, "-w", "-ferror-limit=20",
                                   "-Wno-error=implicit-function-declaration", "-Wno-error=int-conversion",
                                   "-Wno-error=incompatible-function-pointer-types", "-Wno-error=implicit-int",
                                   "-Wno-error=return-type"};
  for (const auto& a : options.extra_args) args.push_back(a);
  CollectingConsumer consumer;
  std::unique_ptr<ASTUnit> ast = tooling::buildASTFromCodeWithArgs(
      code, args, path, "siren", std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), tooling::FileContentMappings(), &consumer);
  if (!ast) return fail("clang could not parse the file");
  if (!consumer.errors.empty() || ast->getDiagnostics().hasErrorOccurred()) {
    res.diagnostics = consumer.errors;
    if (res.diagnostics.empty()) return fail("clang reported errors");
    for (auto& d : res.diagnostics)
      if (d.file.empty()) d.file = path;
    return res;
  }
  Translator t(ast->getASTContext(), path, options);
  return t.run();
}

}  // namespace siren::frontend
