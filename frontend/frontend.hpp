// The C front end: Clang 16 LibTooling -> ir::Program. The only part of siren that sees Clang.
#pragma once

#include "ir/program.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace siren::frontend {

struct Diagnostic {
  std::string file;
  unsigned line = 0, col = 0;
  std::string message;           // "unsupported: union type 'union U'"
  std::string str() const;       // "file:line:col: message" (file:line: when col is 0)
};

enum class FrontendStatus {
  Ok,           // program is set
  InputError,   // missing/unreadable file, not C, syntax/semantic errors (Clang diagnostics)
  Unsupported,  // valid C the IR cannot represent faithfully: diagnostics say what and where
};

struct FrontendResult {
  FrontendStatus status = FrontendStatus::InputError;
  std::optional<ir::Program> program;   // set iff status == Ok
  std::vector<Diagnostic> diagnostics;  // errors (InputError) or unsupported constructs
  /// Modelling choices the user should know of, at most one line of each kind per file
  /// ("file:line: warning: memory order 'relaxed' modelled as sequentially consistent",
  /// "warning: function 'f' has no body: ..."), whatever the status.
  std::vector<Diagnostic> warnings;
  /// The objects of a non-constant size (malloc/calloc/VLA), each modelled with
  /// FrontendOptions::capacity elements; empty when every size is fixed.
  std::vector<std::string> capped;
};

struct FrontendOptions {
  std::vector<std::string> extra_args;  // passed to clang (-D, -I, ...)
  /// The target's data model: 64 (LP64, x86-64; SV-COMP's default) or 32 (ILP32, i386). It
  /// decides every size and offset of the object layout (ir::Cell::offset).
  unsigned data_model_bits = 64;
  /// The elements of an object whose size is not fixed (a malloc/calloc of a nondet or
  /// computed size, a VLA): an access past them fails its ValidPtr check, whose message says
  /// it may be the capacity (UNKNOWN, never a verdict); `siren check` and `siren race` try
  /// again with a larger capacity after such an UNKNOWN (docs/semantics.md).
  std::uint64_t capacity = 64;
  /// A call to a function without a body returns an arbitrary value of its return type and
  /// changes nothing else (CBMC's convention; each such function gets one warning). False:
  /// such a call is `unsupported` (siren's --no-undefined-nondet).
  bool undefined_nondet = true;
  /// Functions without a body that are assumed to only read through their pointer arguments
  /// (and variadic arguments): a call then returns an arbitrary value and changes nothing, as
  /// any other function without a body, instead of being unsupported. siren's kernel model
  /// lists the kernel API functions of this kind (kernel/readonly.txt, used by triage --driver;
  /// siren's --assume-readonly FILE).
  std::set<std::string> readonly_functions;
  /// TEST ONLY: a deliberately broken front end that drops every address initialiser of a
  /// global pointer cell (`int *p = &g;` starts as null), so that a test can show the native
  /// oracle catches a wrong front end. No `siren` flag sets it.
  bool test_drop_pointer_initialisers = false;
  /// TEST ONLY (`siren check --test-ignore-mutex-kinds`, siren-fuzz): a deliberately broken
  /// front end for which every mutex is a default one whatever its attribute or initialiser
  /// says (the wrong verdicts of issue 40), so that tests can show they catch it.
  bool test_ignore_mutex_kinds = false;
  /// TEST ONLY (`--test-kernel-functions-touch-nothing`): a deliberately broken front end for
  /// which a kernel function without a body neither reads nor writes through its pointer
  /// arguments (rv_undefined_call in a kernel environment), so that tests can show they catch it.
  bool test_kernel_functions_touch_nothing = false;
  /// TEST ONLY (`siren check --test-wrong-bitfield-layout`, siren-fuzz): a deliberately broken
  /// front end that places every bit-field one bit above where Clang's layout puts it, so that
  /// tests can show they catch a wrong bit-field layout.
  bool test_wrong_bitfield_layout = false;
  /// TEST ONLY: a deliberately broken driver scan for which a function stored in a field of
  /// the driver's own struct is internal (no entry point) even where that field's value
  /// reaches the kernel, so that a test can show it catches an over-eager rule.
  bool test_every_own_field_internal = false;
  /// TEST ONLY (`--test-external-objects-distinct`): a deliberately broken front end for which
  /// a function without a body that returns a pointer returns its call site's own object only
  /// (never one another call returned, never a global), so that tests can show they catch it.
  bool test_external_objects_distinct = false;
};

FrontendResult translate_file(const std::string& path, const FrontendOptions& options = {});

/// The source text with the GCC forms Clang 16 rejects rewritten to Clang's (gcc_compat.cpp:
/// `__malloc__ (dealloc, n)` and `_Float128`, from GCC's view of glibc's headers in `.i`
/// files); every line stays where it was. `rewrites`: how many places changed.
std::string gcc_compatible(const std::string& code, std::size_t* rewrites = nullptr);

/// For a compiler run on `path` outside the front end (the native oracle): `path` itself when
/// nothing changes, else a copy in `dir` rewritten by gcc_compatible and without the line
/// markers of a preprocessed file (siren's places are the file's own lines, so the binary's
/// must be; a `#line` directive keeps the file's name), and the `-iquote` argument its quoted
/// includes need.
struct CompatibleFile {
  std::string path;
  std::vector<std::string> extra_args;
};
CompatibleFile gcc_compatible_file(const std::string& path, const std::string& dir);

// ---------------------------------------------------------------------------------------
// Linux drivers (DESIGN.md §B10, docs/drivers.md): a driver has no main; the kernel runs its
// module init function, then the functions it registered (in operations structs, timers, work
// items, interrupt handlers: every function of the driver's file whose address is taken) from
// any number of threads, then its exit function. scan_driver finds them; driver_harness writes
// the C program that closes the driver for one pair of entry points (Whoop's harness), and
// driver_harness_all the one for every pair at once (each thread chooses its entry point).

struct DriverEntry {
  std::string name;               // the C function
  std::string where;              // how it is registered: ".read in 'fops' (file:line)" or "address taken at file:line"
  std::vector<std::string> args;  // one C expression per parameter: a fresh value of its type
  std::vector<std::string> decls; // file-scope declarations of the fresh objects' pointers (siren_t@_...)
  std::vector<std::string> setup; // C statements that make them (main runs them before init)
  /// Per parameter: the struct type of the argument's own object, which the other thread's
  /// argument of that type may be too ("" for other arguments and the device's data).
  std::vector<std::string> shares;
  std::string unsupported;        // non-empty: a parameter the harness cannot make (the entry is left out)
  std::string serial;             // non-empty: why the kernel never runs it beside itself (no self pair)
  bool rtnl = false;              // the kernel calls it with rtnl_lock held (the harness takes it around the call)
};

/// A function with a body in the driver's translation unit (the driver's, the kernel model's),
/// for the call graph: which entry points reach the place of an unsupported construct.
struct DriverFunction {
  std::string name, file;     // file as diagnostics spell it
  unsigned first = 0, last = 0;  // lines of its definition
  std::vector<std::string> callees;  // called directly
  std::set<std::string> indirect;    // the shapes of its calls through a pointer (a letter per argument: void, pointer, other)
};

struct DriverScan {
  std::vector<Diagnostic> errors;  // the file could not be parsed (InputError)
  std::string init, exit;          // module init / exit functions ("" when the driver has none)
  bool init_returns_int = false;   // a non-zero result means the module did not load
  std::vector<DriverEntry> entries;  // in source order of their definitions
  /// Functions whose address only reaches the driver's own calls (a field of a struct the
  /// driver's file defines, a parameter of its own function, only ever called): not entry
  /// points, they run inside the entry points that call them. Name and where it is taken.
  std::vector<std::pair<std::string, std::string>> internal;
  /// The driver data's type of the one device (what the driver converts dev_get_drvdata() and
  /// the like to; "" when none is known), and the declarations and statements that make its
  /// object (siren_device_0) in main before init.
  std::string device;
  std::vector<std::string> device_decls, device_setup;
  /// The struct of a fresh `struct net_device` and the room behind it that netdev_priv()
  /// gives ("" when the driver calls no netdev_priv).
  std::string netdev_decl;
  std::vector<DriverFunction> functions;
  /// Functions whose address is taken -> the shape of their parameters: a call through a
  /// pointer with arguments of that shape may reach them (Translator::pointer_targets).
  std::map<std::string, std::string> address_taken;
};

DriverScan scan_driver(const std::string& path, const FrontendOptions& options = {});

/// The harness for entries `a` and `b` of `s` (a == b: one function run by two threads): includes
/// `driver_path` (an absolute path), runs init (stops when it fails), starts the two threads with
/// fresh arguments, joins them and runs exit.
std::string driver_harness(const std::string& driver_path, const DriverScan& s, std::size_t a, std::size_t b);

/// The harness for every pair of `entries` (indices into s.entries) at once: main chooses
/// thread 1's entry point siren_ep1 and thread 2's siren_ep2 (positions in `entries`, ep1 <=
/// ep2, a serial entry not beside itself), makes the fresh arguments of those two, runs init,
/// the two threads and exit. Its executions are those of the pairs' harnesses together.
std::string driver_harness_all(const std::string& driver_path, const DriverScan& s,
                               const std::vector<std::size_t>& entries);

/// The entries (indices into s.entries) that call, directly or not, the function whose
/// definition holds file:line (none when no function of the scan holds it); a call through a
/// function pointer may reach every function whose address is taken with parameters of its shape.
std::vector<std::size_t> entries_reaching(const DriverScan& s, const std::string& file, unsigned line);

}  // namespace siren::frontend
