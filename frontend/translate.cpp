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
//    variables that are never modified (fixed_value); otherwise the object gets
//    FrontendOptions::capacity elements (rv_call, decl_stmt; note_capacity).
// Unsupported constructs throw `Unsupported` (caught per function) and become diagnostics
// `file:line:col: unsupported: <what>`.
//
// The Translator class is declared in translator.hpp and split over files by concern (the
// list is there). This file is its driver: the Clang tool set-up and Clang's diagnostics,
// source locations, and the worklist of the functions reachable from main (Translator::run).
#include "frontend/translator.hpp"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticLex.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Tooling.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace siren::frontend {
namespace {

// ---------------------------------------------------------------------------------------
// Errors and Clang diagnostics

class CollectingConsumer : public DiagnosticConsumer {
 public:
  explicit CollectingConsumer(bool ilp32_) : ilp32(ilp32_) {}
  bool ilp32;
  std::vector<Diagnostic> errors;
  void HandleDiagnostic(DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error) return;
    Diagnostic d;
    llvm::SmallString<128> msg;
    info.FormatDiagnostic(msg);
    d.message = std::string("error: ") + msg.c_str();
    // A missing header (svcomp.h, a kernel header): say how to give it. Under --32 a system
    // header is missing when the i386 C library headers are not installed.
    if (info.getID() == clang::diag::err_pp_file_not_found)
      d.message += ilp32 ? " (add -I DIR; --32 also needs the i386 C library headers, e.g. Debian's "
                           "libc6-dev-i386, or a preprocessed .i file)"
                         : " (add -I DIR)";
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

}  // namespace

// ---------------------------------------------------------------------------------------
// Locations

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

Diagnostic Translator::diag_at(SourceLocation loc, std::string msg) {
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
void Translator::warn(const std::string& subject, SourceLocation loc, std::string msg) {
  if (warned_.insert(subject).second) warnings_.push_back(diag_at(loc, "warning: " + std::move(msg)));
}

ir::SourceLoc Translator::ir_loc(SourceLocation loc) {
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

std::string Translator::source_text(SourceRange r) {
  CharSourceRange cr = sm_.getExpansionRange(r);
  bool invalid = false;
  StringRef s = Lexer::getSourceText(cr, sm_, ctx_.getLangOpts(), &invalid);
  if (invalid) return "";
  return collapse(s.str());
}

// ---------------------------------------------------------------------------------------
// The translation: every function reachable from main, then whole-program checks

// An object of a non-constant size has FrontendOptions::capacity elements: an access past
// them fails the access's ValidPtr check, so every such check says that it may be that
// (UNKNOWN either way).
void Translator::note_capacity() {
  if (capped_.empty()) return;
  std::string names;
  for (std::size_t i = 0; i < capped_.size() && i < 3; ++i) names += (i ? ", " : "") + capped_[i];
  if (capped_.size() > 3) names += ", ...";
  const std::string why = fmt::format(" (or an access past the modelled capacity of {} elements of an object of a "
                                      "non-constant size: {})", options_.capacity, names);
  for (ir::Function& f : prog_.functions)
    for (ir::Instr& in : f.body)
      if (in.kind == InstrKind::Assert && in.assert_kind == ir::AssertKind::MemSafety && in.a && in.a->op == Op::ValidPtr) {
        in.message += why;
        in.limit = ir::LimitKind::Capacity;
      }
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
  if (diags_.empty()) note_capacity();
  res.warnings = std::move(warnings_);
  if (!diags_.empty()) {
    res.status = FrontendStatus::Unsupported;
    res.diagnostics = std::move(diags_);
    return res;
  }
  res.status = FrontendStatus::Ok;
  res.capped = std::move(capped_);
  res.program = std::move(prog_);
  return res;
}

// ---------------------------------------------------------------------------------------
// Entry point

std::unique_ptr<ASTUnit> parse_c_file(const std::string& path, const FrontendOptions& options,
                                      std::vector<Diagnostic>& errors) {
  auto fail = [&](std::string msg) -> std::unique_ptr<ASTUnit> {
    Diagnostic d;
    d.file = path;
    d.message = "error: " + std::move(msg);
    errors.push_back(std::move(d));
    return nullptr;
  };
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail("no such file");
  if (!std::filesystem::is_regular_file(path, ec)) return fail("not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot open file for reading");
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return fail("cannot read file");
  const std::string raw = ss.str();
  if (raw.find('\0') != std::string::npos) return fail("not a C source file (contains binary data)");
  const std::string code = gcc_compatible(raw);
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  std::vector<std::string> args = {"-xc", "-std=gnu11", std::string("-resource-dir=") + CLANG_RESOURCE_DIR,
                                   "-I" + dir, "-w", "-ferror-limit=20",
                                   "-Wno-error=implicit-function-declaration", "-Wno-error=int-conversion",
                                   "-Wno-error=incompatible-function-pointer-types", "-Wno-error=implicit-int",
                                   "-Wno-error=return-type"};
  args.push_back(options.data_model_bits == 32 ? "-m32" : "-m64");
  for (const auto& a : options.extra_args) args.push_back(a);
  CollectingConsumer consumer(options.data_model_bits == 32);
  std::unique_ptr<ASTUnit> ast = tooling::buildASTFromCodeWithArgs(
      code, args, path, "siren", std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), tooling::FileContentMappings(), &consumer);
  if (!ast) return fail("clang could not parse the file");
  if (!consumer.errors.empty() || ast->getDiagnostics().hasErrorOccurred()) {
    if (consumer.errors.empty()) return fail("clang reported errors");
    for (auto& d : consumer.errors) {
      if (d.file.empty()) d.file = path;
      errors.push_back(std::move(d));
    }
    return nullptr;
  }
  return ast;
}

FrontendResult translate_file(const std::string& path, const FrontendOptions& options) {
  FrontendResult res;
  res.status = FrontendStatus::InputError;
  std::unique_ptr<ASTUnit> ast = parse_c_file(path, options, res.diagnostics);
  if (!ast) return res;
  Translator t(ast->getASTContext(), path, options);
  return t.run();
}

}  // namespace siren::frontend
