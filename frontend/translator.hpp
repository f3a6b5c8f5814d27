// The front end's private header (not part of the API, frontend.hpp): the one class that
// translates a Clang AST into an ir::Program, `Translator`, and the few helpers its files share.
// As in CaDiCaL's internal.hpp, the class is split over files by concern and its members are
// declared in groups under a comment naming the file that implements them:
//   translate.cpp    driver: Clang tool setup, the function worklist (run), locations, diagnostics
//   types.cpp        C types -> flattened cells (object layout, unions, byte offsets to cells)
//   objects.cpp      objects of variables, constant initialisers of globals, string literals
//   functions.cpp    one function's body: emission of instructions, labels, temporaries; the
//                    load-fusing peephole
//   expressions.cpp  lvalues, rvalues, arithmetic, jumping code for conditions, byte arithmetic
//   statements.cpp   statements and local declarations
//   pthread_model.cpp  the pthread API as instructions (threads, locks, conditions, barriers, keys)
//   calls.cpp        calls: library functions as instructions (__VERIFIER_*, malloc,
//                    ...), defined functions, function pointers, functions without a body
//   atomics.cpp      C11 / GCC atomic operations as atomic steps
//   fixed_value.cpp  values that are the same at every evaluation (sizes of malloc and VLAs)
//   libc_model.cpp   string.h as loops of single-cell accesses, main's arguments, sscanf
#pragma once

#include "frontend/frontend.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/ASTUnit.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <unordered_set>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace siren::frontend {

using namespace clang;
using ir::CellKind;
using ir::ExprRef;
using ir::InstrKind;
using ir::LocalId;
using ir::ObjectId;
using ir::Op;
using ir::Type;

// ---------------------------------------------------------------------------------------
// Errors (translate.cpp turns them into diagnostics)

struct Unsupported {
  SourceLocation loc;
  std::string what;
};

[[noreturn]] inline void unsupported(SourceLocation loc, std::string what) {
  throw Unsupported{loc, std::move(what)};
}

// ---------------------------------------------------------------------------------------
// Small helpers

inline bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }
inline const Expr* strip(const Expr* e) { return e->IgnoreParenCasts(); }
// Source text on one line, white space collapsed, at most 80 characters (translate.cpp).
std::string collapse(std::string s);
// Parses a C file as the front end does (translate.cpp): the AST, or nullptr with `errors`.
std::unique_ptr<clang::ASTUnit> parse_c_file(const std::string& path, const FrontendOptions& options,
                                             std::vector<Diagnostic>& errors);

// ---------------------------------------------------------------------------------------
// Synchronisation typedefs (glibc defines the pthread types as unions: recognise the names;
// types.cpp)

enum class Sync { None, Mutex, Cond, RwLock, Thread, Opaque };

Sync sync_kind(const ASTContext& ctx, QualType t);

// A maximal run of adjacent bit-fields of nonzero width in a struct (C11 3.14: one memory
// location), or one bit-field member of a union, and the data cell that covers it
// (types.cpp bit_runs; docs/semantics.md "Bit-fields").
struct BitRun {
  std::vector<const FieldDecl*> fields;  // declaration order, unnamed ones included
  std::uint64_t byte = 0;                // the cell's first byte in the record
  std::uint32_t size = 0;                // the cell's bytes (it is an unsigned integer cell)
  std::string name;                      // "{a,b}": its named fields
  bool has_cell() const { return !name.empty(); }  // a run of unnamed fields is padding
};
// Where a bit-field lives: its run's cell and its bits in it (bit 0 = the cell's least
// significant bit: x86 is little-endian).
struct BitPlace {
  std::size_t run = 0;      // index in bit_runs(parent)
  std::uint64_t byte = 0;   // the cell's first byte in the record
  std::uint32_t size = 0;   // the cell's bytes
  unsigned bit = 0, width = 0;
  bool first = false;       // the first field of its run (the cell is counted there)
  bool has_cell = false;
};

/// Whether `t` holds a union (itself, or in a member or element, not behind a pointer): the
/// front end may not model its layout (members that partly overlap). The driver harness makes
/// no object of such a type and the kernel model does not touch one.
bool holds_union(QualType t);

struct CellSpec {
  std::string name;
  Type type;
  CellKind kind = CellKind::Data;
  std::uint64_t offset = 0;  // bytes from the start of the flattened type
  std::uint32_t size = 1;    // bytes
};

/// Appends one cell per spec to `o`, an object of `size` bytes; `init_nondet`: the cells have
/// no initial value (locals, malloc) rather than zero (globals, calloc).
inline void add_cells(ir::Object& o, const std::vector<CellSpec>& specs, std::uint64_t size, bool init_nondet) {
  for (const CellSpec& s : specs) {
    ir::Cell c;
    c.name = s.name;
    c.type = s.type;
    c.kind = s.kind;
    c.offset = s.offset;
    c.size = s.size;
    c.init_nondet = init_nondet;
    o.cells.push_back(std::move(c));
  }
  o.size = size;
}

// ---------------------------------------------------------------------------------------
// Whole-translation-unit facts for fixed_value: which variables are ever written (assigned,
// incremented or decremented, or have their address taken), every direct call of each
// function, and the functions used other than as a direct callee (function pointers, thread
// start routines), whose parameters can take values from calls we do not see.
// (fixed_value.cpp)

class UseScan {
 public:
  std::set<const VarDecl*> modified;
  std::map<const FunctionDecl*, std::vector<const CallExpr*>> calls;
  std::set<const FunctionDecl*> escaping;  // used other than as a direct callee
  /// An enumerator that selects a mutex kind other than the default is named somewhere
  /// (PTHREAD_MUTEX_RECURSIVE[_NP], PTHREAD_MUTEX_ERRORCHECK[_NP], in a settype call or a
  /// static initialiser such as PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP).
  bool names_mutex_kind = false;

  explicit UseScan(const TranslationUnitDecl* tu);

 private:
  void walk(const Stmt* s);
  void mark(const Expr* e);
};

// ---------------------------------------------------------------------------------------
// The translator

class Translator {
 public:
  Translator(ASTContext& ctx, const std::string& path, const FrontendOptions& options)
      : ctx_(ctx), sm_(ctx.getSourceManager()), options_(options) {
    prog_.files.push_back(path);
    prog_.pointer_bytes = static_cast<std::uint32_t>(ctx.getTypeSizeInChars(ctx.VoidPtrTy).getQuantity());
    main_file_ = sm_.getMainFileID();
  }

  FrontendResult run();  // translate.cpp

 private:
  // ---- per-function state
  struct LV {
    bool is_local = false;
    LocalId local = ir::kNoLocal;
    ExprRef addr = nullptr;  // load-free pointer (memory lvalues)
    QualType type;
    // A bit-field: addr is its run's cell, of `cell_bytes` bytes; the field is `bit_width`
    // bits from bit `bit_offset` of it (load / store mask and shift).
    unsigned bit_width = 0, bit_offset = 0;
    std::uint32_t cell_bytes = 0;
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
    LocalId ret_slot = ir::kNoLocal;  // a function returning a struct: its hidden first parameter
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
  ObjectId pthread_self_ = 0;      // thread-local: the thread's id + 1 (ir::Object::thread_self)
  // A mutex cell of a program that uses mutex kinds: kind << 28 | count << 13 | owner, owner
  // the holder's id + 1 (0: free), count its holds (docs/semantics.md "Mutex kinds"). A default
  // mutex has kind 0 and is a Lock/Unlock cell (0 or owner).
  static constexpr unsigned kMutexKindShift = 28, kMutexCountShift = 13;
  static constexpr std::uint64_t kMutexOwnerMask = 0x1fff, kMutexCountMax = 0x7fff;
  std::optional<bool> uses_mutex_kinds_;  // uses_mutex_kinds(), decided once
  std::optional<bool> kernel_environment_;  // kernel_environment(), decided once
  static constexpr std::uint64_t kPthreadKeys = 8;
  std::vector<ObjectId> argv_strings_;  // main's argv[0..kArgvCells-1] strings (no cells)
  ObjectId sscanf_flags_ = 0;           // one cell per argv string: read by sscanf already
  // C11 / GCC atomics (rv_atomic, rv_sync_call, check_atomic_nesting)
  bool in_atomic_step_ = false;                           // between one operation's Begin and End
  std::map<ir::FunctionId, SourceLocation> atomic_steps_;  // a function's first operation's Begin
  std::optional<SourceLocation> explicit_atomic_begin_;  // a __VERIFIER_atomic_begin() call

  // Capacity of an object whose size is not a constant (malloc/calloc, VLA), in elements,
  // and the objects that have it (note_capacity).
  std::vector<std::string> capped_;
  void note_capacity();
  // argv has this many cells: argv[0..argc-1] are strings and argv[argc] is null for
  // argc < kArgvCells; beyond, an access is out of bounds (MemSafety).
  static constexpr std::uint64_t kArgvCells = 4;
  std::map<std::uint64_t, std::uint64_t> string_chars_;  // cell -> value: string chars, mutex kinds

  ir::ExprManager& em() { return prog_.exprs(); }

  // ---- locations and diagnostics (translate.cpp) ----------------------------------------
  Diagnostic diag_at(SourceLocation loc, std::string msg);
  void warn(const std::string& subject, SourceLocation loc, std::string msg);
  ir::SourceLoc ir_loc(SourceLocation loc);
  std::string source_text(SourceRange r);

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

  // ---- types and layout (types.cpp) -----------------------------------------------------
  Type scalar_type(QualType t, SourceLocation loc);
  bool is_aggregate(QualType t);
  std::uint64_t cells_of(QualType t, SourceLocation loc);
  std::vector<CellSpec> union_cells(const RecordDecl* rd, QualType t, SourceLocation loc);
  /// The fields the translation unit names where it is evaluated (member expressions,
  /// designated and union initialisers, offsetof; not inside sizeof, alignof or typeof): a
  /// union member named nowhere is not part of the union's cells (union_cells).
  bool named_field(const FieldDecl* fd);
  std::optional<std::unordered_set<const FieldDecl*>> named_fields_;
  std::uint64_t field_offset(const FieldDecl* fd, SourceLocation loc);  // bytes
  /// The bit-field runs of a struct (or the bit-field members of a union) and their cells,
  /// from Clang's record layout; computed once per record.
  const std::vector<BitRun>& bit_runs(const RecordDecl* rd, SourceLocation loc);
  BitPlace bit_place(const FieldDecl* fd, SourceLocation loc);
  std::map<const RecordDecl*, std::vector<BitRun>> bit_runs_;
  std::map<const FieldDecl*, BitPlace> bit_places_;
  std::uint64_t bytes_of(QualType t, SourceLocation loc);                // sizeof
  /// Appends the cells of an object of type `t` that starts at byte `base` of its object.
  void flatten(QualType t, const std::string& name, SourceLocation loc, std::vector<CellSpec>& out,
               std::uint64_t base = 0);

  // ---- objects (objects.cpp) --------------------------------------------------------------
  ObjectId object_of(const VarDecl* vd);
  /// One leaf of an initialiser: cell `idx` gets `e` (nullptr: zero), or for a bit-field
  /// (width > 0) its bits [bit, bit + width) do.
  struct InitLeaf {
    std::uint64_t idx = 0;
    const Expr* e = nullptr;
    unsigned bit = 0, width = 0;
  };
  void init_leaves(QualType t, const Expr* init, std::uint64_t base, std::vector<InitLeaf>& out);
  void const_init(ObjectId id, std::uint64_t idx, const Expr* e,
                  const std::map<std::uint64_t, std::uint64_t>& chars);
  ObjectId literal_object(const StringLiteral* sl);
  void guard_literal_writes();

  // ---- functions and emission (functions.cpp) ---------------------------------------------
  ir::FunctionId function_id(const FunctionDecl* fd);
  void translate_function(const FunctionDecl* fd);
  void fuse_loads();
  void collect_addr_taken(const Stmt* s);

  std::size_t emit(ir::Instr in);
  std::size_t emit(InstrKind k, ExprRef a = nullptr, ExprRef b = nullptr,
                   LocalId lhs = ir::kNoLocal);
  int new_label();
  void place(int label) { st_->label_pos[label] = static_cast<std::int64_t>(st_->fn->body.size()); }
  void jump(int label, ExprRef cond = nullptr);
  LocalId new_local(const std::string& base, Type t);
  LocalId new_tmp(Type t) { return new_local("__t" + std::to_string(++st_->tmp_count), t); }
  ExprRef tmp_of_copy(ExprRef e);
  ExprRef tmp_of(ExprRef e);
  /// `addr` is a constant address of a cell that an access of `bytes` bytes fits (0: any).
  bool addr_is_safe(ExprRef addr, std::uint32_t bytes);
  /// Assert[MemSafety](ValidPtr(addr, bytes)) unless addr_is_safe: a data access passes its
  /// size (access_size), so that it reads or writes exactly one whole cell.
  void check_ptr(ExprRef addr, std::uint32_t bytes = 0);
  std::uint32_t access_size(Type t) const;
  void assert_limit(ExprRef cond, std::string msg);

  // ---- expressions (expressions.cpp) ------------------------------------------------------
  ExprRef conv(Type to, ExprRef e);
  ExprRef to_bool(ExprRef e) { return conv(Type::boolean(), e); }
  ExprRef int_const(std::int64_t v) { return em().mk_int(Type::integer(64, true), v); }
  ExprRef scale(ExprRef idx, std::uint64_t n);
  ExprRef load(const LV& lv, SourceLocation loc);
  /// Stores v (converted to the lvalue's type) and returns the value the lvalue now holds
  /// (a bit-field's: v truncated to its width and extended again).
  ExprRef store(const LV& lv, ExprRef v, SourceLocation loc);
  ExprRef bitfield_value(const LV& lv, ExprRef bits, unsigned shift);  // (bits >> shift) as the field
  bool is_object_var(const VarDecl* vd);
  bool needs_instrs(const Stmt* s);

  LV lvalue(const Expr* e);
  ExprRef rvalue(const Expr* e, bool want = true);
  ExprRef rvalue_impl(const Expr* e, bool want);
  ExprRef rv_cast(const CastExpr* ce, bool want);
  ExprRef rv_unary(const UnaryOperator* uo, bool want);
  ExprRef rv_binary(const BinaryOperator* bo, bool want);
  ExprRef rv_cond(const ConditionalOperator* co, bool want);
  ExprRef arith(BinaryOperatorKind op, ExprRef l, ExprRef r, QualType lt, QualType rt, QualType res,
                SourceLocation loc);
  void cond_jump(const Expr* e, bool jump_if, int label);
  void copy_cells(ExprRef dst, ExprRef src, QualType t, SourceLocation loc);
  ExprRef cell_ptr(ExprRef base, const CellSpec& c);
  void store_struct(const Expr* src, ExprRef dst, QualType t, SourceLocation loc);
  ExprRef call_defined(const CallExpr* ce, const FunctionDecl* def, bool want, Type ret_t, bool is_void,
                       ExprRef ret_slot);
  ExprRef struct_argument(const Expr* a);

  // ---- statements (statements.cpp) --------------------------------------------------------
  void stmt(const Stmt* s);
  void decl_stmt(const DeclStmt* ds);
  void switch_stmt(const SwitchStmt* ss);

  // ---- calls (calls.cpp) ------------------------------------------------------------------
  /// One call of a library function (rv_call) and what every library model asks of it.
  struct CallSite {
    Translator& tr;
    const CallExpr* ce;
    SourceLocation loc;
    const std::string& name;  // the callee's
    unsigned nargs;
    bool want;     // the result is used
    Type ret_t;    // the result's type (i32 when it has none)
    bool is_void;
    const Expr* arg(unsigned i) const;       // argument i ("too few arguments" if missing)
    ExprRef ptr_arg(unsigned i) const;       // argument i as a pointer
    void side_effects_only(unsigned from) const;  // evaluate arguments from..end for effects
    ExprRef zero() const;                    // the result 0 (nullptr when unused or void)
    ExprRef havoc_result() const;            // an arbitrary result (nullptr when unused)
  };
  ExprRef rv_call(const CallExpr* ce, bool want, QualType malloc_type = QualType());
  void check_sync_object_types(const CallSite& site);
  ObjectId function_object(const FunctionDecl* fd);
  ExprRef function_designator(const Expr* e);
  std::vector<const FunctionDecl*> pointer_targets(const std::vector<QualType>& arg_types,
                                                   QualType ret);
  ExprRef rv_indirect_call(const CallExpr* ce, bool want);
  void dispatch(ExprRef fp, const std::vector<const FunctionDecl*>& targets,
                const std::function<void(const FunctionDecl*)>& one, const std::string& none,
                const std::function<void()>& none_fn = nullptr);
  ExprRef rv_undefined_call(const CallExpr* ce, const FunctionDecl* fd, bool want);
  void call_back(const CallExpr* ce, const std::string& name, unsigned i, ExprRef fp);
  // ---- objects a function without a body returns a pointer to (external_objects.cpp) ----
  /// The pointee of a call's pointer result that is one of these objects (a function without a
  /// body declared in the program, no kernel's, an eligible pointee), or nullopt.
  std::optional<QualType> object_result_type(const FunctionDecl* fd, QualType rt);
  void typed_subobjects(QualType in, QualType t, std::uint64_t base, SourceLocation loc,
                        std::vector<std::uint64_t>& out);
  void make_external_objects();
  ExprRef rv_object_choice(const CallExpr* ce, const std::string& name, QualType pt);
  const std::vector<ExprRef>& global_choices(QualType pt, SourceLocation loc);
  std::map<const clang::Type*, std::vector<ExprRef>> global_choices_;  // per pointee type
  struct ExternalObject {
    const CallExpr* site;
    QualType type;
    ObjectId obj;   // the object outside the program
    ObjectId flag;  // a mutex cell the site's first execution takes
  };
  std::vector<ExternalObject> external_objects_;  // one per call site (make_external_objects)
  bool external_objects_made_ = false;

  // ---- the pthread API (pthread_model.cpp) -------------------------------------------------
  ExprRef pthread_call(const CallSite& site);
  /// The verification conventions (verifier_model.cpp) and the C library (libc_model.cpp):
  /// the call's value (nullptr when it has none), or nullopt when `site` is no such call.
  std::optional<ExprRef> verifier_call(const CallSite& site, bool defined);
  std::optional<ExprRef> libc_call(const CallSite& site, bool defined, QualType malloc_type);
  /// ffs, __builtin_clz/ctz/popcount, abs, <ctype.h> declared without a body: exact IR
  /// expressions (pure_libc.cpp); nullopt for other functions.
  std::optional<ExprRef> pure_libc_call(const CallSite& site);
  ExprRef rv_pthread_key(const std::string& name, const CallExpr* ce, bool want);
  /// Mutex kinds (docs/semantics.md "Mutex kinds"): whether the program can make a mutex that
  /// is not a default one (it calls pthread_mutexattr_settype or names a kind's enumerator).
  /// Only then are mutex operations lowered by kind (mutex_by_kind); otherwise every mutex is a
  /// default one and its operations are the Lock/TryLock/Unlock instructions.
  bool uses_mutex_kinds();
  bool kernel_environment();
  void kernel_through(const CallExpr* ce, const std::string& name, unsigned i, ExprRef p, bool write);
  ExprRef mutex_by_kind(const CallSite& site);  // pthread_mutex_lock/trylock/unlock, lowered
  ExprRef pthread_attr_call(const CallSite& site);  // pthread_*attr_*: modelled, no-op or unsupported
  ExprRef thread_self();                        // this thread's id + 1 (an i32 load)
  /// The kind a brace-list initialiser of a pthread_mutex_t selects, as stored in the mutex
  /// cell (0 default/normal, 1 recursive, 2 error-checking): glibc's __data.__kind; any other
  /// member that is not 0 is unsupported.
  std::uint64_t mutex_initializer_kind(const Expr* init);

  // ---- atomic operations (atomics.cpp) ----------------------------------------------------
  bool begin_atomic_step(SourceLocation loc);
  void end_atomic_step(bool began);
  ExprRef atomic_rmw(ExprRef p, Type t, SourceLocation loc,
                     const std::function<ExprRef(ExprRef)>& update = {});
  void atomic_store(ExprRef p, Type t, ExprRef v, SourceLocation loc);
  std::pair<ExprRef, ExprRef> atomic_cas(ExprRef p, Type t, ExprRef expected, ExprRef desired,
                                         bool weak, SourceLocation loc);
  void memory_order(const Expr* order);
  Type atomic_value_type(QualType t, SourceLocation loc);
  ExprRef rv_atomic(const AtomicExpr* ae, bool want);
  ExprRef rv_sync_call(const std::string& name, const CallExpr* ce, bool want);
  void check_atomic_nesting();

  // ---- fixed values (fixed_value.cpp) -----------------------------------------------------
  UseScan& scan();
  ExprRef fixed_value(const Expr* e, int depth = 0);
  ExprRef fixed_var(const VarDecl* vd, int depth);

  // ---- library models: string.h, main's arguments, sscanf (libc_model.cpp) ---------------
  bool sign_only(const Expr* e);
  QualType untyped_malloc_type(const CallExpr* ce, unsigned first_size_arg, unsigned size_args);
  struct HeapObject {
    ExprRef ptr;           // the object's address
    QualType type;         // its element type
    std::uint64_t count;   // its number of elements
    ExprRef bytes;         // need_size: the size requested, in bytes
  };
  HeapObject heap_object(const CallSite& site, QualType malloc_type, unsigned first_size_arg, unsigned size_args,
                         bool need_size = false);
  ExprRef rv_realloc(const CallSite& site, QualType malloc_type);
  ExprRef rv_string_call(const std::string& name, const CallExpr* ce, bool want);
  void main_arguments(const FunctionDecl* fd);
  ExprRef rv_sscanf(const CallExpr* ce, bool want, bool from_stdin = false);
  void sscanf_source(SourceLocation loc, ExprRef str);
};

}  // namespace siren::frontend
