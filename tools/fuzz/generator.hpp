// Random concurrent C programs for differential testing (issue 4, tools/fuzz/README.md).
//
// A generated program is kept as a small AST (threads of statements) so that the shrinker can
// delete statements and threads and print the result again. Everything is decided by one
// seed (std::mt19937_64): the same seed gives the same C text on every machine.
//
// Programs use: 1-3 worker threads created by main (joined or not), shared ints g0..gN, a
// shared array `arr`, a pointer `p` to a shared int that threads redirect, locals, one mutex
// with lock/unlock pairs, `__VERIFIER_atomic_begin/end` sections, if/else and bounded loops
// over shared values, nondet _Bool choices (a domain the explorer covers fully), and asserts
// (`assert` from <assert.h> or `if (!c) reach_error();`) that fail in some interleavings only.
// Besides the free-form template there are three targeted ones: "chain3" (the error needs a
// 3-link hand-off between three worker threads), "deep" (the error needs many steps) and
// "observe" (the order of two unsynchronised writes is observed through a pointer). With
// GeneratorOptions::parameterized every program is of template "param": main creates a worker
// in `while (__VERIFIER_nondet_bool())`, so any number of its instances may run (issue 22).
// Constructs that front ends get wrong (issue 17) are mixed in, each in >= 10% of the programs:
// global / static pointer initialisers, pointers held in a struct, an array and a nested
// aggregate, a pointer passed as the thread argument, helper calls whose result is discarded
// or used, reads whose value is unused, and __VERIFIER_atomic_* functions against plain
// accesses; `Program::constructs()` says which ones a program uses. Function pointers (a
// callback held in a global, an ops table or a struct passed as the thread argument, redirected
// at run time; a thread start routine held in a pointer) and C11 / GCC atomics (on `_Atomic int`
// globals, GCC builtins on plain globals, spin / try locks from them) are mixed in the same way,
// and so are unions (members of one cell layout, written through one member and read through
// another) and container_of (a thread recovers the container from a pointer to its member).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace siren::fuzz {

struct Stmt {
  enum class Kind {
    Simple,  // `text` is one complete C statement (assignment, assert, ...)
    If,      // if (text) { body } else { els }   (els may be empty)
    Loop,    // for (var = 0; var < n && (text); var++) { body }   (text may be empty)
    Lock,    // pthread_mutex_lock(&m); body; pthread_mutex_unlock(&m);  (or a spin / try lock,
             // Program::lock_style)
    Atomic,  // __VERIFIER_atomic_begin(); body; __VERIFIER_atomic_end();
    Create,  // pthread_create(&h<n>, 0, t<n> or st<n>, 0 or &g<arg_target> or &tk<task> or &pv.dev);
             // (only in main; removed with its thread)
    Join,    // pthread_join(h<n>, 0);
  };
  Kind kind = Kind::Simple;
  std::string text;
  std::string var;  // Loop: counter local
  int n = 0;        // Loop: bound; Create/Join: worker index
  int uid = -1;     // Simple statements: unique within the program (shaping, shrinking)
  std::vector<Stmt> body, els;
};

struct Thread {
  std::vector<Stmt> body;
  bool removed = false;  // deleted by the shrinker (keeps worker indices stable)
  int arg_target = -1;   // created with argument &g<arg_target> (-1: 0); the body may then use
                         // `ap`, declared `int *ap = (int *)arg;`
  int task = -1;         // created with argument &tk<task> instead (a struct task holding a
                         // callback and a pointer); the body may use `tk`, declared
                         // `struct task *tk = (struct task *)arg;`
  bool container_arg = false;  // created with argument &pv.dev (a member of `struct priv pv`, not
                               // at offset 0); the body may use `cp`, declared
                               // `struct priv *cp = container_of((struct dev *)arg, struct priv, dev);`
  int start_ptr = 0;     // started through a pointer: 0 no (t<i>), 1 file-scope
                         // `void *(*st<i>)(void *) = t<i>;`, 2 the same as a local of main
  bool parameterized = false;  // its Create is `while (__VERIFIER_nondet_bool()) pthread_create(...);`
                               // (any number of instances; Program::instances fixes one)
};

// `int cb<i>(int v)`: 0 `return v + 1;`, 1 `return v - 1;`, 2 `g<k> = v; return v;`,
// 3 `g<k> = g<k> + v; return g<k>;`, 4 `return g<k> + v;`
struct Callback {
  int kind = 0;
  int k = 0;
};

struct Program {
  std::uint64_t seed = 0;
  std::string templ;                 // "random", "chain3", "deep", "observe"
  std::vector<int> globals;          // g0.. initial values
  std::vector<int> array;            // arr initial values (empty: no array)
  int pointer_target = -1;           // p = &g<k> initially (-1: no pointer)
  bool mutex = false;
  bool nondet = false;               // declares __VERIFIER_nondet_bool
  // Pointer holders (each element: the index k of the global g<k> it points to initially).
  std::vector<int> global_ptrs;        // int *gp<i> = &g<k>;          (file scope)
  std::vector<int> static_ptrs;        // static int *sp<i> = &g<k>;   (file scope)
  std::vector<int> local_static_ptrs;  // static int *ls<i> = &g<k>;   (in each function using ls<i>)
  int box_target = -1;                 // struct box { int *ptr; int v; } bx = { &g<k>, 0 };
  std::vector<int> ptr_array;          // int *ptrs[n] = { &g<k>, ... };
  std::vector<int> outer;              // struct outer { struct box in[2]; } ob = {{{&g<a>, 0}, {&g<b>, 1}}};
  // Helper functions (each element: the global they access).
  std::vector<int> getters;            // int get_g<k>(void) { return g<k>; }
  std::vector<int> incrementers;       // int inc_g<k>(void) { g<k> = g<k> + 1; return g<k>; }
  std::vector<int> atomic_fns;         // __VERIFIER_atomic_{set,get,inc}_g<k>
  // Function pointers (all of shape int (*)(int); each element: the callback cb<j> held).
  std::vector<Callback> callbacks;     // int cb<i>(int v) { ... }
  std::vector<int> fn_ptrs;            // int (*fp<i>)(int) = cb<j>;                   (file scope)
  std::vector<int> ops;                // struct ops { int (*run)(int); int (*alt)(int); };
                                       // struct ops ops = { .run = cb<a>, .alt = cb<b> };  (0 or 2)
  bool ops_ptr = false;                // struct ops *opp = &ops;  (calls `opp->run(x)`)
  bool designated = true;              // ops / task initialisers with designators
  std::vector<std::pair<int, int>> tasks;  // struct task { int (*fn)(int); int *at; };
                                           // struct task tk<i> = { cb<first>, &g<second> };
  // Atomics. GCC builtins (__sync_*, __atomic_*_n) act on the plain g<k>.
  std::vector<int> atomic_globals;     // _Atomic int a<i> = v;  (atomic_int for odd i)
  int lock_style = 0;                  // Lock statements: 0 pthread mutex m, 1 spin lock with
                                       // __sync_bool_compare_and_swap on `int lk`, 2 try lock with
                                       // it (the body runs only if taken), 3 spin lock with C11
                                       // atomic_exchange on `atomic_int lk`, 4 recursive pthread
                                       // mutex m, each Lock locks it twice, 5 error-checking
                                       // mutex m, the body runs when its relock says EDEADLK
                                       // (GeneratorOptions::mutex_kinds)
  // Unions whose members have the same cell layout (docs/semantics.md): -1 none,
  // 0 `union word { int i; unsigned u; } uw = { 1 };`,
  // 1 `union pair { int a[2]; struct { int x, y; } s; } up = { { 0, 1 } };`,
  // 2 `union slot { int *wp; const int *rp; } us = { &g<union_target> };`
  int union_kind = -1;
  int union_target = 0;
  // container_of (<stddef.h>, offsetof): `struct dev { int id; int flags; };
  // struct priv { int count; struct dev dev; }; struct priv pv = { 0, { 1, 0 } };`
  bool container = false;
  // Bit-fields (GeneratorOptions::bitfields): `struct bits { int lo : 3; unsigned mid : 4;
  // _Bool on : 1; int : 0; int hi : 4; char tag; unsigned : 2; unsigned top : 6; } bf = {..};`
  // (lo, mid, on one memory location that fills its byte; hi another; top a third), its fields
  // written (wrapping, sign-extended) by workers and asserted on in main.
  bool bitfields = false;
  // Balanced critical sections (GeneratorOptions::sections): `int s0, s1; pthread_mutex_t ms;`,
  // s0 and s1 touched only inside `lock(&ms) ... unlock(&ms)` blocks with no other
  // synchronisation: every lock of ms opens a balanced section (ir::Transactions::balanced).
  bool sections = false;
  std::vector<Thread> workers;       // t0.. (created by main's Create statements)
  /// Parameterized workers (template "param"): -1 prints their Create as the nondet loop; k >= 0
  /// as exactly k creates, the program's instance with k of them (siren-fuzz --parameterized).
  int instances = -1;
  /// Template "param" with a ticket worker: the number of its instances the assertion needs to
  /// fail (M + 1; 0: no ticket).
  int ticket_workers = 0;
  std::vector<Stmt> main_body;

  /// The C text; `line_uids[line - 1]` is the uid of the statement printed on that line.
  std::string to_c(std::vector<int>* line_uids = nullptr) const;
  std::size_t size() const;          // number of statements (all levels), for reports
  /// The constructs of `construct_names()` the live statements use (after shrinking too).
  std::vector<std::string> constructs() const;
  const char* union_var() const { return union_kind == 0 ? "uw" : union_kind == 1 ? "up" : "us"; }
  bool stdatomic() const { return !atomic_globals.empty() || (mutex && lock_style == 3); }
};

/// Every construct `Program::constructs()` can report, in report order.
const std::vector<std::string>& construct_names();

struct GeneratorOptions {
  int max_workers = 3;     // worker threads (plus main: 2-4 threads)
  int max_stmts = 4;       // top-level statements per worker: 1 .. max_stmts - workers
  bool parameterized = false;  // template "param" only (see above)
  /// Every program with a mutex makes it recursive (Program::lock_style 4) or error-checking
  /// (5), half and half (issue 40); off, the random stream is the one without this option.
  bool mutex_kinds = false;
  /// Every program also declares a struct of bit-fields (Program::bitfields) that workers
  /// update and main asserts on; off, the random stream is the one without this option.
  bool bitfields = false;
  /// Every program also has a second mutex whose critical sections are balanced (one to two
  /// per worker, possibly one in main; reads, writes and a conditional over s0 and s1, which
  /// main may assert on after the joins); off, the random stream is the one without it.
  bool sections = false;
};

Program generate(std::uint64_t seed, const GeneratorOptions& options = {});

}  // namespace siren::fuzz
