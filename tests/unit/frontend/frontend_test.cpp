// Unit tests of the C front end: small C snippets are written to a temporary file, translated,
// and the IR shape is checked (instruction kinds, one memory access per instruction, memory
// safety checks, object cells and initial values, diagnostics with exact locations).
#include "frontend/frontend.hpp"
#include "ir/validator.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

using namespace siren;
using frontend::FrontendStatus;
using ir::InstrKind;

namespace {

std::string temp_file(const std::string& name, const std::string& content) {
  auto dir = std::filesystem::temp_directory_path() / ("siren_fe_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto p = dir / name;
  std::ofstream(p, std::ios::binary) << content;
  return p.string();
}

frontend::FrontendResult tr(const std::string& code, const std::string& name = "t.c") {
  return frontend::translate_file(temp_file(name, code));
}

ir::Program ok(const std::string& code) {
  auto r = tr(code);
  for (auto& d : r.diagnostics) INFO(d.str());
  REQUIRE(r.status == FrontendStatus::Ok);
  return std::move(*r.program);
}

const ir::Function& fn(const ir::Program& p, const std::string& name) {
  const ir::Function* f = p.find_function(name);
  REQUIRE(f != nullptr);
  return *f;
}

int count(const ir::Function& f, InstrKind k) {
  int n = 0;
  for (auto& in : f.body) n += in.kind == k;
  return n;
}

std::size_t accesses(const ir::Instr& in) {
  std::size_t n = in.kind == InstrKind::Store ? 1 : 0;
  for (auto e : {in.a, in.b})
    if (e) n += ir::loads_in(e).size();
  for (auto e : in.args) n += ir::loads_in(e).size();
  return n;
}

// A program the front end must reject: the first diagnostic starts with `<file><line>` and
// says `unsupported: ...<what>...`.
struct UnsupportedCase { const char* code; const char* line; const char* what; };
template <std::size_t N>
void check_unsupported(const UnsupportedCase (&cases)[N], const std::string& name) {
  for (const auto& c : cases) {
    auto path = temp_file(name, c.code);
    auto r = frontend::translate_file(path);
    INFO(c.code);
    REQUIRE(r.status == FrontendStatus::Unsupported);
    REQUIRE(!r.diagnostics.empty());
    const std::string d = r.diagnostics[0].str();
    INFO(d);
    CHECK(d.rfind(path + c.line, 0) == 0);
    CHECK(d.find("unsupported: ") != std::string::npos);
    CHECK(d.find(c.what) != std::string::npos);
  }
}

const ir::Object& obj(const ir::Program& p, const std::string& name) {
  for (auto& o : p.objects)
    if (o.name == name) return o;
  FAIL("no object " << name);
  return p.objects[0];
}

// Every function: ends with Return, goto targets in range, <= 1 access per instruction, and
// every access through a non-constant address is preceded by a MemSafety assert on it.
void well_formed(const ir::Program& p) {
  for (auto& f : p.functions) {
    if (!f.has_body) continue;
    INFO("function " << f.name);
    REQUIRE(!f.body.empty());
    CHECK(f.body.back().kind == InstrKind::Return);
    for (std::size_t i = 0; i < f.body.size(); ++i) {
      const auto& in = f.body[i];
      INFO("instr " << i << " " << in.text);
      CHECK(accesses(in) <= 1);
      if (in.kind == InstrKind::Goto) CHECK(in.target < f.body.size());
      std::vector<ir::ExprRef> addrs;
      for (auto e : {in.a, in.b})
        if (e)
          for (auto l : ir::loads_in(e)) addrs.push_back(l->kids[0]);
      if (in.kind == InstrKind::Store) addrs.push_back(in.a);
      for (auto a : addrs) {
        CHECK(ir::loads_in(a).empty());
        const bool safe = a->op == ir::Op::ObjAddr && p.objects[a->obj].cell_at(a->offset()).has_value();
        if (safe) continue;
        REQUIRE(i > 0);
        const auto& prev = f.body[i - 1];
        CHECK(prev.kind == InstrKind::Assert);
        CHECK(prev.assert_kind == ir::AssertKind::MemSafety);
        CHECK(prev.a->op == ir::Op::ValidPtr);
        CHECK(prev.a->kids[0] == a);
      }
    }
  }
}

}  // namespace

TEST_CASE("lazy01-like program: mutex cell, lock/unlock, create/join, reach_error with a body") {
  auto p = ok(R"(
#include <pthread.h>
void reach_error() {}
pthread_mutex_t mutex;
int data = 0;
void *thread1(void *arg) { pthread_mutex_lock(&mutex); data++; pthread_mutex_unlock(&mutex); return 0; }
void *thread3(void *arg) { if (data >= 3) { reach_error(); } return 0; }
int main() {
  pthread_mutex_init(&mutex, 0);
  pthread_t t1, t3;
  pthread_create(&t1, 0, thread1, 0);
  pthread_create(&t3, 0, thread3, 0);
  pthread_join(t1, 0);
  pthread_join(t3, 0);
  return 0;
}
)");
  well_formed(p);
  REQUIRE(p.entry != ir::kNoFunction);
  CHECK(p.functions[p.entry].name == "main");
  const auto& m = obj(p, "mutex");
  REQUIRE(m.cells.size() == 1);
  CHECK(m.cells[0].kind == ir::CellKind::Mutex);
  CHECK(m.cells[0].type == ir::Type::integer(32, true));
  const auto& t1 = obj(p, "t1");
  CHECK(t1.kind == ir::ObjectKind::Local);
  CHECK(t1.cells[0].kind == ir::CellKind::ThreadHandle);
  CHECK(t1.cells[0].type == ir::Type::integer(64, false));
  const auto& main_fn = fn(p, "main");
  CHECK(count(main_fn, InstrKind::ThreadCreate) == 2);
  CHECK(count(main_fn, InstrKind::ThreadJoin) == 2);
  CHECK(main_fn.frame_objects.size() == 2);
  for (auto& in : main_fn.body)
    if (in.kind == InstrKind::ThreadCreate) CHECK(p.functions[in.callee].name.rfind("thread", 0) == 0);
  // pthread_mutex_init stores 0 into the mutex cell
  CHECK(main_fn.body[0].kind == InstrKind::Store);
  const auto& th1 = fn(p, "thread1");
  CHECK(count(th1, InstrKind::Lock) == 1);
  CHECK(count(th1, InstrKind::Unlock) == 1);
  // data++ is a load then a store
  CHECK(count(th1, InstrKind::Store) == 1);
  const auto& th3 = fn(p, "thread3");
  bool found = false;
  for (auto& in : th3.body)
    if (in.kind == InstrKind::Assert && in.assert_kind == ir::AssertKind::Property) {
      found = true;
      CHECK(in.message == "reach_error() called");
      CHECK(in.a->is_const());
      CHECK(in.loc.line == 7);
    }
  CHECK(found);
  CHECK(p.find_function("reach_error") == nullptr);  // the call is the violation; never inlined
}

TEST_CASE("granularity: x = y + z on globals is two loads and a store") {
  auto p = ok("int x, y, z;\nint main() { x = y + z; return 0; }\n");
  well_formed(p);
  const auto& f = fn(p, "main");
  int loads = 0, stores = 0;
  for (auto& in : f.body) {
    if (in.kind == InstrKind::Assign && in.a && in.a->op == ir::Op::Load) ++loads;
    if (in.kind == InstrKind::Store) {
      ++stores;
      CHECK(ir::loads_in(in.b).empty());
      CHECK(in.text == "x = y + z");
    }
  }
  CHECK(loads == 2);
  CHECK(stores == 1);
}

TEST_CASE("granularity: compound assignment, ++ and a condition with one load") {
  auto p = ok("int x, y;\nint main() { x += y; y++; if (x > 0) x = 1; return x; }\n");
  well_formed(p);
  const auto& f = fn(p, "main");
  bool goto_with_load = false;
  for (auto& in : f.body)
    if (in.kind == InstrKind::Goto && !ir::loads_in(in.a).empty()) goto_with_load = true;
  CHECK(goto_with_load);  // `if (x > 0)` may keep its single load
  CHECK(count(f, InstrKind::Store) == 3);
}

TEST_CASE("memory: arrays and structs are flattened, initialisers are constant-evaluated") {
  auto p = ok(R"(
struct S { int a; int *p; };
struct S s[2] = { {1, 0}, {2, 0} };
int arr[3] = {1, 2};
int *q = &arr[1];
struct N { struct S in; char c[2]; } n;
int main() { n.c[1] = s[1].a + arr[0] + *q; return 0; }
)");
  well_formed(p);
  const auto& s = obj(p, "s");
  REQUIRE(s.cells.size() == 4);
  CHECK(s.cells[0].name == "s[0].a");
  CHECK(s.cells[3].name == "s[1].p");
  CHECK(s.cells[2].init == 2);
  CHECK(s.cells[3].type.is_ptr());
  const auto& arr = obj(p, "arr");
  REQUIRE(arr.cells.size() == 3);
  CHECK(arr.cells[0].init == 1);
  CHECK(arr.cells[2].init == 0);
  CHECK(!arr.cells[2].init_nondet);
  const auto& q = obj(p, "q");
  CHECK(q.cells[0].init_obj == arr.id);
  CHECK(q.cells[0].init == 4);  // &arr[1]: byte 4
  // the LP64 layout: S is {int a @0; int *p @8}, 16 bytes
  CHECK(s.cells[1].offset == 8);
  CHECK(s.cells[2].offset == 16);
  CHECK(s.cells[3].size == 8);
  CHECK(s.size == 32);
  CHECK(arr.cells[2].offset == 8);
  const auto& n = obj(p, "n");
  REQUIRE(n.cells.size() == 4);
  CHECK(n.cells[3].name == "n.c[1]");
  CHECK(n.cells[3].type == ir::Type::integer(8, true));
}

TEST_CASE("memory: address-taken locals are frame objects, p->f and p + i are in cells") {
  auto p = ok(R"(
struct S { int a; int b; };
void set(int *p) { *p = 1; }
int get(struct S *p, int i) { return (p + i)->b; }
int main() { int x; int y = 2; struct S s[3]; set(&x); return get(s, 1) + y; }
)");
  well_formed(p);
  const auto& m = fn(p, "main");
  REQUIRE(m.frame_objects.size() == 2);  // x (address taken) and s (array)
  const auto& x = p.objects[m.frame_objects[0]];
  CHECK(x.kind == ir::ObjectKind::Local);
  CHECK(x.owner == m.id);
  CHECK(x.cells[0].init_nondet);
  bool y_is_local = false;
  for (auto& l : m.locals) y_is_local |= l.name == "y";
  CHECK(y_is_local);
  // (p + i)->b : address p + i*2 + 1, checked before the load
  const auto& g = fn(p, "get");
  int checks = 0;
  for (auto& in : g.body) checks += in.kind == InstrKind::Assert && in.assert_kind == ir::AssertKind::MemSafety;
  CHECK(checks == 1);
  CHECK(count(fn(p, "set"), InstrKind::Store) == 1);
}

TEST_CASE("short-circuit: && with a memory access in the second operand becomes branches") {
  auto p = ok(R"(
int *p; int x;
int main() { int r = x > 0 && *p > 1; if (p != 0 && *p == 3) x = 2; return r; }
)");
  well_formed(p);
  const auto& f = fn(p, "main");
  // the dereference of p must sit after a branch on the first operand
  std::size_t first_goto = f.body.size(), first_check = f.body.size();
  for (std::size_t i = 0; i < f.body.size(); ++i) {
    if (f.body[i].kind == InstrKind::Goto && first_goto == f.body.size()) first_goto = i;
    if (f.body[i].kind == InstrKind::Assert && first_check == f.body.size()) first_check = i;
  }
  CHECK(first_goto < first_check);
  CHECK(count(f, InstrKind::Goto) >= 3);
}

TEST_CASE("assertions: assert(e) from assert.h, __VERIFIER_error, __VERIFIER_assume, nondet") {
  auto p = ok(R"(
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
int main() {
  int x = __VERIFIER_nondet_int();
  _Bool b = __VERIFIER_nondet_bool();
  __VERIFIER_assume(x > 0);
  assert(x > 0);
  if (b) __VERIFIER_error();
  return 0;
}
)");
  well_formed(p);
  const auto& f = fn(p, "main");
  CHECK(count(f, InstrKind::Havoc) >= 2);
  CHECK(count(f, InstrKind::Assume) == 1);
  std::vector<std::string> msgs;
  for (auto& in : f.body)
    if (in.kind == InstrKind::Assert) msgs.push_back(in.message);
  REQUIRE(msgs.size() == 2);
  CHECK(msgs[0] == "assert(x > 0)");
  CHECK(msgs[1] == "reach_error() called");
  for (auto& in : f.body)
    if (in.kind == InstrKind::Havoc && f.locals[in.lhs].type.is_bool()) return;
  FAIL("no bool havoc");
}

TEST_CASE("atomic sections and __VERIFIER_atomic_ functions") {
  auto p = ok(R"(
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int g;
void __VERIFIER_atomic_inc(void) { g = g + 1; }
int main() { __VERIFIER_atomic_begin(); g = 2; __VERIFIER_atomic_end(); __VERIFIER_atomic_inc(); return 0; }
)");
  well_formed(p);
  const auto& f = fn(p, "main");
  CHECK(count(f, InstrKind::AtomicBegin) == 1);
  CHECK(count(f, InstrKind::AtomicEnd) == 1);
  CHECK(count(f, InstrKind::Call) == 1);
  CHECK(fn(p, "__VERIFIER_atomic_inc").is_atomic);
  CHECK(!f.is_atomic);
}

// The kinds of f's instructions that matter for an atomic operation, in order: B(egin),
// E(nd), L(oad into a local), S(tore), H(avoc), G(oto).
std::string atomic_shape(const ir::Function& f) {
  std::string s;
  for (const auto& in : f.body) {
    switch (in.kind) {
      case InstrKind::AtomicBegin: s += 'B'; break;
      case InstrKind::AtomicEnd: s += 'E'; break;
      case InstrKind::Store: s += 'S'; break;
      case InstrKind::Havoc: s += 'H'; break;
      case InstrKind::Goto: s += (in.a && !ir::loads_in(in.a).empty()) ? "LG" : "G"; break;
      case InstrKind::Assign: if (in.a && !ir::loads_in(in.a).empty()) s += 'L'; break;
      default: break;
    }
  }
  return s;
}

// Is every load and store of object `o` between an AtomicBegin and the next AtomicEnd?
bool accesses_atomic(const ir::Program& p, const ir::Function& f, const std::string& o) {
  const ir::ObjectId id = obj(p, o).id;
  bool inside = false;
  for (const auto& in : f.body) {
    if (in.kind == InstrKind::AtomicBegin) inside = true;
    if (in.kind == InstrKind::AtomicEnd) inside = false;
    std::vector<ir::ExprRef> addrs;
    for (auto e : {in.a, in.b})
      if (e)
        for (auto l : ir::loads_in(e)) addrs.push_back(l->kids[0]);
    if (in.kind == InstrKind::Store) addrs.push_back(in.a);
    for (auto a : addrs)
      if (a->op == ir::Op::ObjAddr && a->obj == id && !inside) return false;
  }
  return true;
}

TEST_CASE("C11 atomics: atomic_fetch_add is AtomicBegin, Load, Store, AtomicEnd") {
  auto r = tr(R"(
#include <stdatomic.h>
atomic_int x;
int main() { int old = atomic_fetch_add(&x, 2); return old; }
)");
  REQUIRE(r.status == FrontendStatus::Ok);
  CHECK(r.warnings.empty());  // seq_cst
  well_formed(*r.program);
  const auto& f = fn(*r.program, "main");
  CHECK(atomic_shape(f) == "BLSE");
  const auto st = std::find_if(f.body.begin(), f.body.end(), [](auto& in) { return in.kind == InstrKind::Store; });
  REQUIRE(st != f.body.end());
  CHECK(st->b->op == ir::Op::Add);  // x := old + 2
  CHECK(accesses_atomic(*r.program, f, "x"));
}

TEST_CASE("C11 atomics: loads, stores, ++ and += of an _Atomic object are atomic steps") {
  auto p = ok(R"(
_Atomic int x;
int main() { x = 1; int a = x; x++; x += a; _Atomic int local = 3; local++; return a + local; }
)");
  well_formed(p);
  const auto& f = fn(p, "main");
  // store; load; load+store (++); load+store (+=); the register `local` needs no section
  CHECK(atomic_shape(f) == "BSEBLEBLSEBLSE");
  CHECK(accesses_atomic(p, f, "x"));
}

TEST_CASE("C11 atomics: compare-exchange, strong and weak, exchange and the flag") {
  auto p = ok(R"(
#include <stdatomic.h>
atomic_int x;
atomic_flag fl = ATOMIC_FLAG_INIT;
int strong(int *e) { return atomic_compare_exchange_strong(&x, e, 7); }
int weak(int *e) { return atomic_compare_exchange_weak(&x, e, 7); }
int main() { int e = 0; atomic_exchange(&x, 3); atomic_flag_test_and_set(&fl); atomic_flag_clear(&fl);
  return strong(&e) + weak(&e); }
)");
  well_formed(p);
  // *expected is read before the section and written after it on failure
  CHECK(atomic_shape(fn(p, "strong")) == "LBLGSEGS");
  CHECK(atomic_shape(fn(p, "weak")) == "LHBLGSEGS");  // H: the spurious failure
  CHECK(accesses_atomic(p, fn(p, "strong"), "x"));
  const auto& w = fn(p, "weak");
  bool havoc_bool = false;
  for (auto& in : w.body) havoc_bool |= in.kind == InstrKind::Havoc && w.locals[in.lhs].type.is_bool();
  CHECK(havoc_bool);
  CHECK(atomic_shape(fn(p, "main")) == "SBLSEBLSEBSE");  // e = 0 first (e is in memory)
  CHECK(accesses_atomic(p, fn(p, "main"), "fl"));
}

TEST_CASE("GCC atomics: __sync and __atomic builtins, fences are no-ops") {
  auto p = ok(R"(
int g;
int main() {
  int a = __sync_fetch_and_add(&g, 1);
  a += __sync_sub_and_fetch(&g, 1);
  if (__sync_bool_compare_and_swap(&g, 0, 1)) a++;
  a += __sync_val_compare_and_swap(&g, 1, 0);
  a += __sync_lock_test_and_set(&g, 1);
  __sync_lock_release(&g);
  __sync_synchronize();
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  a += __atomic_fetch_nand(&g, 3, __ATOMIC_SEQ_CST);
  int e = 0;
  __atomic_compare_exchange_n(&g, &e, 2, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  __atomic_store(&g, &e, __ATOMIC_SEQ_CST);
  return a + __atomic_load_n(&g, __ATOMIC_SEQ_CST);
}
)");
  well_formed(p);
  const auto& f = fn(p, "main");
  CHECK(count(f, InstrKind::AtomicBegin) == 10);
  CHECK(count(f, InstrKind::AtomicEnd) == 10);
  CHECK(count(f, InstrKind::Havoc) == 0);  // weak = 0: no spurious failure
  CHECK(accesses_atomic(p, f, "g"));
}

TEST_CASE("atomics: memory orders other than seq_cst give one warning per file") {
  auto r = tr("#include <stdatomic.h>\natomic_int x;\nint main() {\n"
              "  atomic_store_explicit(&x, 1, memory_order_release);\n"
              "  int g = atomic_load_explicit(&x, memory_order_relaxed);\n"
              "  return __atomic_load_n(&g, __ATOMIC_ACQUIRE);\n}\n",
              "orders.c");
  REQUIRE(r.status == FrontendStatus::Ok);
  REQUIRE(r.warnings.size() == 1);
  const std::string w = r.warnings[0].str();
  INFO(w);
  CHECK(w.size() > 9);
  CHECK(r.warnings[0].line == 4);
  CHECK(w.find("orders.c:4:") != std::string::npos);
  CHECK(r.warnings[0].message == "warning: memory order 'release' modelled as sequentially consistent");
}

TEST_CASE("atomics: inside __VERIFIER_atomic_ functions no nested section, what would nest is reported") {
  auto p = ok(R"(
#include <stdatomic.h>
atomic_int x;
void __VERIFIER_atomic_add2(void) { atomic_fetch_add(&x, 1); x++; }
int main() { __VERIFIER_atomic_add2(); return 0; }
)");
  well_formed(p);
  CHECK(atomic_shape(fn(p, "__VERIFIER_atomic_add2")) == "LSLS");

  const UnsupportedCase cases[] = {
      {"#include <stdatomic.h>\natomic_int x;\nvoid add(void) {\n  atomic_fetch_add(&x, 1); }\n"
       "void __VERIFIER_atomic_f(void) { add(); }\nint main() { __VERIFIER_atomic_f(); add(); return 0; }\n",
       ":4:", "atomic operation in a function called from a __VERIFIER_atomic_* function"},
      {"#include <stdatomic.h>\nextern void __VERIFIER_atomic_begin(void);\nextern void __VERIFIER_atomic_end(void);\n"
       "atomic_int x;\nint main() { __VERIFIER_atomic_begin();\n  x++; __VERIFIER_atomic_end(); return 0; }\n",
       ":6:", "atomic operation in a program that calls __VERIFIER_atomic_begin()"},
      {"#include <pthread.h>\n_Atomic int x;\nvoid *__VERIFIER_atomic_t(void *a) {\n  x++; return 0; }\n"
       "int main() { pthread_t t; pthread_create(&t, 0, __VERIFIER_atomic_t, 0); return 0; }\n",
       ":4:", "an atomic function used as a thread start routine"},
      {"_Atomic float f;\nint main() {\n  f += 1.0f; return 0; }\n", ":1:", "floating-point type '_Atomic(float)'"},
      {"void h(float *p, float *r) {\n  __atomic_load(p, r, __ATOMIC_SEQ_CST); }\nint main() { h(0, 0); return 0; }\n", ":2:",
       "atomic operation on floating-point type 'float'"},
      {"struct S { int a, b; } s, v;\nint main() {\n  __atomic_load(&s, &v, __ATOMIC_SEQ_CST); return 0; }\n",
       ":3:", "atomic operation on struct or array type 'struct S'"},
      {"#include <stdatomic.h>\n_Atomic(int *) p;\nint main() {\n  atomic_fetch_add(&p, 1); return 0; }\n",
       ":4:", "atomic fetch-and-add on a pointer"},
  };
  check_unsupported(cases, "a.c");
}

TEST_CASE("heap: malloc gets a heap object per call site with cells of the target type") {
  auto p = ok(R"(
#include <stdlib.h>
struct node { int v; struct node *next; };
int main() {
  struct node *n = malloc(sizeof(struct node));
  int *a = (int *)calloc(4, sizeof(int));
  n->v = 1; a[3] = 2;
  free(n);
  return 0;
}
)");
  well_formed(p);
  const auto& f = fn(p, "main");
  CHECK(count(f, InstrKind::Malloc) == 2);
  CHECK(count(f, InstrKind::Free) == 1);
  int heaps = 0;
  for (auto& o : p.objects)
    if (o.kind == ir::ObjectKind::Heap) {
      ++heaps;
      if (o.cells.size() == 2) {
        CHECK(o.cells[0].init_nondet);
        CHECK(o.cells[1].type.is_ptr());
      } else {
        CHECK(o.cells.size() == 4);
        CHECK(!o.cells[0].init_nondet);  // calloc zeroes
      }
    }
  CHECK(heaps == 2);
}

TEST_CASE("statements: switch with fall-through and default, goto, do-while, for, break, continue") {
  auto p = ok(R"(
int g;
int main() {
  int i, s = 0;
  for (i = 0; i < 10; i++) { if (i == 3) continue; if (i == 8) break; s += i; }
  do { s--; } while (s > 5);
  switch (s) { case 1: s = 2; case 2: s = 3; break; default: s = 0; }
  if (s) goto out;
  s = 7;
out:
  while (1) { g++; if (g > 3) break; }
  return s ? 1 : 0;
}
)");
  well_formed(p);
  CHECK(count(fn(p, "main"), InstrKind::Havoc) == 1);  // `int i` without initialiser
}

TEST_CASE("output functions are skipped but their argument side effects are kept") {
  auto p = ok("#include <stdio.h>\nint g;\nint main() { printf(\"%d\\n\", g++); puts(\"x\"); return 0; }\n");
  well_formed(p);
  CHECK(count(fn(p, "main"), InstrKind::Store) == 1);
  CHECK(count(fn(p, "main"), InstrKind::Havoc) == 0);
}

TEST_CASE("pthread: condition variables, rwlocks, trylock, exit") {
  auto p = ok(R"(
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c;
pthread_rwlock_t rw;
int ready;
void *w(void *a) { pthread_rwlock_rdlock(&rw); pthread_rwlock_unlock(&rw); pthread_exit(0); }
int main() {
  pthread_t t;
  pthread_cond_init(&c, 0);
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&m);
  while (!ready) pthread_cond_wait(&c, &m);
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m);
  pthread_rwlock_wrlock(&rw);
  return 0;
}
)");
  well_formed(p);
  const auto& f = fn(p, "main");
  CHECK(count(f, InstrKind::CondWait) == 1);
  CHECK(count(f, InstrKind::CondSignal) == 1);
  CHECK(count(f, InstrKind::TryLock) == 1);
  CHECK(count(f, InstrKind::WrLock) == 1);
  CHECK(count(fn(p, "w"), InstrKind::RdLock) == 1);
  CHECK(count(fn(p, "w"), InstrKind::ThreadExit) == 1);
  CHECK(obj(p, "c").cells[0].kind == ir::CellKind::Cond);
  CHECK(obj(p, "rw").cells[0].kind == ir::CellKind::RwLock);
  CHECK(obj(p, "m").cells[0].init == 0);
}

TEST_CASE("every instruction has a location and a one-line source text") {
  auto p = ok("int g;\nint main() {\n  g = g +\n      1;\n  return 0;\n}\n");
  for (auto& in : fn(p, "main").body) {
    CHECK(in.loc.line > 0);
    CHECK(in.text.find('\n') == std::string::npos);
    CHECK(in.text.size() <= 80);
  }
  CHECK(fn(p, "main").body[0].text == "g = g + 1");
}

// --- string literals, string.h, main's arguments, sscanf, non-constant sizes

namespace {

void valid(const ir::Program& p) {
  for (const auto& msg : ir::validate(p)) CHECK_MESSAGE(false, msg);
  well_formed(p);
}

// The assert messages of f, in order, with the kind's initial (P/M/L).
std::vector<std::string> asserts(const ir::Function& f) {
  std::vector<std::string> out;
  for (auto& in : f.body)
    if (in.kind == InstrKind::Assert)
      out.push_back(std::string(in.assert_kind == ir::AssertKind::Property ? "P " : in.assert_kind == ir::AssertKind::MemSafety ? "M " : "L ") +
                    in.message);
  return out;
}

int count_msg(const ir::Function& f, const std::string& msg) {
  int n = 0;
  for (auto& in : f.body) n += in.kind == InstrKind::Assert && in.message == msg;
  return n;
}

}  // namespace

TEST_CASE("string literals: one constant Global object per distinct literal, terminating 0 included") {
  auto p = ok(R"(
const char *g = "hi" + 1;
const char *f(void) { return __func__; }
int main() {
  const char *a = "hello", *b = "hello", *c = "a\0b";
  return a[4] + b[0] + c[2] + g[0] + f()[0];
}
)");
  valid(p);
  const auto& hello = obj(p, "\"hello\"");
  CHECK(hello.kind == ir::ObjectKind::Global);
  REQUIRE(hello.cells.size() == 6);
  CHECK(hello.cells[0].init == 'h');
  CHECK(hello.cells[4].init == 'o');
  CHECK(hello.cells[5].init == 0);
  CHECK(!hello.cells[5].init_nondet);
  CHECK(hello.cells[0].type == ir::Type::integer(8, true));
  int hellos = 0;
  for (auto& o : p.objects) hellos += o.name == "\"hello\"";
  CHECK(hellos == 1);  // "hello" twice: one object
  const auto& c = obj(p, "\"a\\000b\"");
  REQUIRE(c.cells.size() == 4);  // char[4]: 'a', 0, 'b', 0
  CHECK(c.cells[2].init == 'b');
  const auto& hi = obj(p, "\"hi\"");
  CHECK(obj(p, "g").cells[0].init_obj == hi.id);  // a global initialised with "hi" + 1
  CHECK(obj(p, "g").cells[0].init == 1);
  CHECK(obj(p, "\"f\"").cells.size() == 2);  // __func__ in f
}

TEST_CASE("string literals: a write that may hit a literal is a MemSafety error first") {
  auto p = ok(R"(
char buf[4];
int main() {
  char *s = "abc";
  char *t = buf;
  t[0] = 'x';   // a pointer: guarded
  buf[1] = 'y'; // a constant address of another object: not guarded
  s[0] = 'z';   // guarded (and fails)
  return 0;
}
)");
  valid(p);
  const auto& m = fn(p, "main");
  CHECK(count_msg(m, "write to a string literal") == 2);
  for (std::size_t i = 0; i < m.body.size(); ++i)
    if (m.body[i].kind == InstrKind::Assert && m.body[i].message == "write to a string literal") {
      CHECK(m.body[i].assert_kind == ir::AssertKind::MemSafety);
      REQUIRE(i + 2 < m.body.size());
      CHECK(m.body[i + 1].a->op == ir::Op::ValidPtr);  // the access check stays next to the store
      CHECK(m.body[i + 2].kind == InstrKind::Store);
    }
  // without literals nothing is added
  auto q = ok("char buf[4];\nint main() { char *t = buf; t[1] = 1; return 0; }\n");
  CHECK(count_msg(fn(q, "main"), "write to a string literal") == 0);
}

TEST_CASE("string.h: strcpy from a literal stores its characters, loops access one cell per instruction") {
  auto p = ok(R"(
#include <string.h>
char *v;
char buf[8];
int n;
void *thread2(void *arg) { if (v) strcpy(v, "Big"); return 0; }
int main() {
  strcpy(buf, v);
  n = strlen(buf) + strcmp(buf, v);
  if (strcmp(buf, "x") == 0) n = 1;
  strncpy(buf, v, 3);
  thread2(0);
  return 0;
}
)");
  valid(p);
  const auto& t2 = fn(p, "thread2");
  std::vector<std::uint64_t> stored;
  for (auto& in : t2.body)
    if (in.kind == InstrKind::Store) stored.push_back(in.b->value);
  CHECK(stored == std::vector<std::uint64_t>{'B', 'i', 'g', 0});
  CHECK(count(t2, InstrKind::Goto) == 1);  // only the `if (v)`
  const auto& m = fn(p, "main");
  // strcpy, strlen, 2x strcmp, strncpy: each is a loop (a backward goto)
  int back = 0;
  for (std::size_t i = 0; i < m.body.size(); ++i)
    if (m.body[i].kind == InstrKind::Goto && m.body[i].target <= i) ++back;
  CHECK(back == 6);  // strncpy has two loops (copy, pad)
  CHECK(count(m, InstrKind::Havoc) == 1);  // strcmp's result used as a value; == 0 needs no havoc
  CHECK(count(m, InstrKind::Assume) == 1);
}

TEST_CASE("string.h: memset and memcpy work on the cells of the pointee type") {
  auto p = ok(R"(
#include <string.h>
struct S { int a; int *p; char c; };
struct S s[2], t[2];
int arr[100];
int main() {
  int n = 40;
  memset(s, 0, sizeof s);
  memcpy(t, s, sizeof(struct S));
  memset(arr, 1, sizeof arr);
  memcpy(arr, arr + 50, n);
  return arr[0];
}
)");
  valid(p);
  const auto& m = fn(p, "main");
  // memset(s, 0, ...): unrolled, 6 constant stores of zero/null
  int const_stores = 0;
  for (auto& in : m.body)
    if (in.kind == InstrKind::Store && in.a->op == ir::Op::ObjAddr && in.a->obj == obj(p, "s").id) {
      ++const_stores;
      CHECK(in.b->is_const());
      CHECK(in.b->value == 0);
    }
  CHECK(const_stores == 6);
  // memset(arr, 1, 400): a loop storing 0x01010101
  bool pattern = false;
  for (auto& in : m.body)
    if (in.kind == InstrKind::Store && in.b->is_const() && in.b->value == 0x01010101) pattern = true;
  CHECK(pattern);
  CHECK(count_msg(m, "memcpy of a size that is not whole elements of 'int'") == 0);  // n is fixed: 40
  // memcpy(t, s, sizeof(struct S)): cell k of t from cell k of s, each with its own type
  std::vector<ir::Type> loaded;
  for (auto& in : m.body)
    if (in.kind == InstrKind::Store && in.a->op == ir::Op::ObjAddr && in.a->obj == obj(p, "t").id) {
      REQUIRE(in.b->op == ir::Op::Local);
      loaded.push_back(m.locals[in.b->value].type);
      const auto c = obj(p, "t").cell_at(in.a->offset());
      REQUIRE(c.has_value());
      CHECK(obj(p, "t").cells[*c].type == m.locals[in.b->value].type);
    }
  CHECK(loaded == std::vector<ir::Type>{ir::Type::integer(32, true), ir::Type::pointer(), ir::Type::integer(8, true)});
}

TEST_CASE("string.h: what cannot be modelled exactly is reported") {
  struct Case { const char* code; const char* what; };
  const Case cases[] = {
      {"#include <string.h>\nint *q[2];\nint main() {\n  memset(q, 1, sizeof q); return 0; }\n", "memset of a pointer"},
      {"#include <string.h>\nint a[2]; char b[8];\nint main() {\n  memcpy(a, b, 8); return 0; }\n", "different cell layouts"},
      {"#include <string.h>\nint a[2];\nint main() {\n  memset(a, 0, 6); return 0; }\n", "not whole elements"},
      {"#include <stdio.h>\nint main(int argc, char **argv) { char s[4];\n  sscanf(argv[1], \"%s\", s); return 0; }\n",
       "sscanf conversion '%s'"},
      {"#include <stdio.h>\nint main(int argc, char **argv) { long x;\n  sscanf(argv[1], \"%d\", &x); return 0; }\n",
       "sscanf argument"},
      {"int main(int argc, char **argv,\n  char **envp) { return envp != 0; }\n", "environment"},
  };
  for (const auto& c : cases) {
    auto path = temp_file("u.c", c.code);
    auto r = frontend::translate_file(path);
    INFO(c.code);
    REQUIRE(r.status == FrontendStatus::Unsupported);
    const std::string d = r.diagnostics[0].str();
    INFO(d);
    const bool at_call_line = d.rfind(path + ":4:", 0) == 0 || d.rfind(path + ":3:", 0) == 0 || d.rfind(path + ":2:", 0) == 0;
    CHECK(at_call_line);
    CHECK(d.find(c.what) != std::string::npos);
  }
}

TEST_CASE("string.h: memset through a void pointer is a modelling limit where it is reached") {
  auto p = ok("#include <string.h>\nvoid clear(void *p) {\n  memset(p, 0, 4); }\nint main() { int x; clear(&x); return 0; }\n");
  valid(p);
  const auto& f = fn(p, "clear");
  bool limit = false;
  for (const auto& in : f.body)
    limit = limit || (in.kind == InstrKind::Assert && in.assert_kind == ir::AssertKind::Limit &&
                      in.message.find("element type is unknown") != std::string::npos && in.loc.line == 3);
  CHECK(limit);
}

TEST_CASE("main(argc, argv): nondet argc >= 1, argv[i] null from argc on, strings without cells") {
  auto p = ok(R"(
#include <stdio.h>
int x = 3;
int main(int argc, char *argv[]) {
  if (argc == 2) sscanf(argv[1], "%d", &x);
  return x;
}
)");
  valid(p);
  const auto& m = fn(p, "main");
  REQUIRE(m.num_params == 2);
  CHECK(m.body[0].kind == InstrKind::Havoc);
  CHECK(m.body[0].lhs == 0);
  CHECK(m.body[1].kind == InstrKind::Assume);
  CHECK(m.body[2].kind == InstrKind::Assign);
  CHECK(m.body[2].lhs == 1);
  const auto& argv = obj(p, "argv");
  REQUIRE(argv.cells.size() == 4);
  CHECK(argv.cells[0].init_obj == obj(p, "*argv[0]").id);
  for (int i = 1; i < 4; ++i) {
    CHECK(m.body[2 + i].kind == InstrKind::Store);
    CHECK(m.body[2 + i].b->op == ir::Op::Ite);
  }
  CHECK(obj(p, "*argv[1]").cells.empty());
  // sscanf: Limit unless argv[i], once per string (trylock), r in [-1, 1], store iff r >= 1
  const auto msgs = asserts(m);
  CHECK(std::count(msgs.begin(), msgs.end(), "L sscanf from a string that is not a command-line argument") == 1);
  CHECK(std::count(msgs.begin(), msgs.end(), "L sscanf reads the same command-line argument twice") == 1);
  CHECK(count(m, InstrKind::TryLock) == 1);
  CHECK(count(m, InstrKind::Havoc) == 3);  // argc, r, the value
  // argv unused: only argc
  auto q = ok("int main(int argc, char **argv) { return argc; }\n");
  CHECK(count(fn(q, "main"), InstrKind::Havoc) == 1);
  for (auto& o : q.objects) CHECK(o.name != "argv");
  // main called by the program: its parameters would be overwritten
  auto r = tr("int main(int argc, char **argv) {\n  if (argc > 5) return main(argc - 1, argv);\n  return 0;\n}\n");
  REQUIRE(r.status == FrontendStatus::Unsupported);
  CHECK(r.diagnostics[0].line == 2);
}

TEST_CASE("sizes: fixed values through parameters and unmodified variables, else a capacity") {
  auto p = ok(R"(
#include <stdlib.h>
static const int N = 5;
int m = 2;
void **mk(unsigned long sz) { return calloc(sz, sizeof(void *)); }
int main() {
  int k = N + 1;
  void **a = mk(3);
  int *b = malloc(k * sizeof(int));
  int *c = malloc(m * sizeof(int));
  m++;
  char vla[k];
  int vla2[m];
  return 0;
}
)");
  valid(p);
  std::map<std::string, std::size_t> cells;
  for (auto& o : p.objects) cells[o.name] = o.cells.size();
  CHECK(cells["calloc@5"] == 3);  // every call of mk passes 3
  CHECK(cells["malloc@9"] == 6);  // k = N + 1, never modified
  CHECK(cells["malloc@10"] == 64);  // m is modified: capacity
  CHECK(cells["vla"] == 6);
  CHECK(cells["vla2"] == 64);
  // No check at the allocation: an access past the capacity fails its own ValidPtr check,
  // whose message says so.
  const auto msgs = asserts(fn(p, "main"));
  CHECK(std::count_if(msgs.begin(), msgs.end(), [](const std::string& m) { return m[0] == 'L'; }) == 0);
  CHECK(std::count(msgs.begin(), msgs.end(), "M variable-length array length is not positive") == 1);
  auto q0 = ok("#include <stdlib.h>\nint n;\nint main() { n++; int *a = malloc(n * sizeof(int)); a[n - 1] = 1; return 0; }\n");
  const auto qm = asserts(fn(q0, "main"));
  REQUIRE(qm.size() == 1);
  CHECK(qm[0] == "M invalid pointer dereference (or an access past the modelled capacity of 64 elements of an "
                 "object of a non-constant size: malloc@3)");
  // two different constants, or a call through a pointer: not fixed
  auto q = ok(R"(
#include <stdlib.h>
int *mk(int n) { return malloc(n * sizeof(int)); }
int *(*fp)(int) = 0;
int main() { int *a = mk(2); int *b = mk(3); return 0; }
)");
  for (auto& o : q.objects)
    if (o.kind == ir::ObjectKind::Heap) CHECK(o.cells.size() == 64);
  // The capacity is an option (check grows it): objects and messages follow it, and the
  // result names the objects of a non-constant size (none when every size is fixed).
  const std::string grow =
      "#include <stdlib.h>\nint n;\nint main() { n++; int *a = malloc(n * sizeof(int)); int v[n]; "
      "a[n - 1] = v[0] = 1; return 0; }\n";
  frontend::FrontendOptions big;
  big.capacity = 1024;
  auto g = frontend::translate_file(temp_file("g.c", grow), big);
  REQUIRE(g.status == FrontendStatus::Ok);
  CHECK(g.capped == std::vector<std::string>{"malloc@3", "v"});
  for (auto& o : g.program->objects)
    if (o.name == "malloc@3" || o.name == "v") CHECK(o.cells.size() == 1024);
  const auto gm = asserts(fn(*g.program, "main"));
  CHECK(std::count_if(gm.begin(), gm.end(), [](const std::string& m) {
          return m.find("modelled capacity of 1024 elements of an object of a non-constant size: malloc@3, v)") !=
                 std::string::npos;
        }) == 1);  // a[n - 1] (v[0] needs no check)
  CHECK(tr("#include <stdlib.h>\nint main() { int *a = malloc(4 * sizeof(int)); return a[3]; }\n").capped.empty());
  // Past 100000 cells the object is unsupported (check then keeps its earlier answer).
  big.capacity = 262144;
  CHECK(frontend::translate_file(temp_file("g.c", grow), big).status == FrontendStatus::Unsupported);
}

// --- unsupported constructs: exact file:line prefix
TEST_CASE("unsupported: union, float, undefined function with a writable pointer, pthread_cancel") {
  const UnsupportedCase cases[] = {
      {"union U { int a; char b; };\nunion U u;\nint main() { u.a = 1; return u.b; }\n", ":2:", "union"},
      {"int main() {\n  double d = 1.0;\n  return 0;\n}\n", ":2:", "floating-point"},
      {"void fill(int *p);\nint x;\nint main() {\n  fill(&x);\n  return x;\n}\n", ":4:",
       "call to undefined function 'fill' with a pointer it could write through (argument 1)"},
      {"#include <pthread.h>\nint main() {\n  pthread_cancel(pthread_self());\n  return 0;\n}\n", ":3:",
       "call to unsupported pthread function 'pthread_cancel'"},
      {"union B { unsigned x : 3; int i; } b;\nint main() { b.i = 1; return b.x; }\n", ":1:",
       "(member 'i'; bit-field 'x' is a cell of 1 byte(s))"},
  };
  check_unsupported(cases, "u.c");
}

// --- function pointers (rv_indirect_call)
namespace {
std::vector<std::string> callees(const ir::Program& p, const ir::Function& f, InstrKind k) {
  std::vector<std::string> out;
  for (auto& in : f.body)
    if (in.kind == k) out.push_back(p.functions[in.callee].name);
  return out;
}
bool has_memsafety_assert(const ir::Function& f, const std::string& msg_part) {
  for (auto& in : f.body)
    if (in.kind == InstrKind::Assert && in.assert_kind == ir::AssertKind::MemSafety &&
        in.message.find(msg_part) != std::string::npos)
      return true;
  return false;
}
}  // namespace

TEST_CASE("function pointers: a call dispatches over the address-taken functions of its shape") {
  auto p = ok(R"(
int f1(int a) { return a + 1; }
int f2(int a) { return a + 2; }
void g(int *q) { *q = 0; }
int h(int a) { return a; }          /* never address-taken: not a target */
struct ops { int (*op)(int); void (*clear)(int *); } tab = { f1, g };
int main() { int (*fp)(int) = f2; int x = tab.op(1) + fp(2) + (*fp)(3); tab.clear(&x); return x; }
)");
  const auto& m = fn(p, "main");
  const auto calls = callees(p, m, InstrKind::Call);
  CHECK(std::count(calls.begin(), calls.end(), "f1") == 3);
  CHECK(std::count(calls.begin(), calls.end(), "f2") == 3);
  CHECK(std::count(calls.begin(), calls.end(), "g") == 1);
  CHECK(std::count(calls.begin(), calls.end(), "h") == 0);
  CHECK(has_memsafety_assert(m, "call through a pointer to no function"));
  // the ops table's initialiser points to the functions' objects
  const auto& t = obj(p, "tab");
  REQUIRE(t.cells.size() == 2);
  CHECK(p.objects[t.cells[0].init_obj].name == "f1");
  CHECK(p.objects[t.cells[1].init_obj].name == "g");
  CHECK(p.objects[t.cells[0].init_obj].cells.empty());  // a function is no data
}

TEST_CASE("function pointers: pthread_create with a start routine chosen at run time") {
  auto p = ok("#include <pthread.h>\nvoid *a(void *x) { return x; }\nvoid *b(void *x) { return 0; }\n"
              "int c(int v) { return v; }\nvoid *(*fp)(void *);\n"
              "int main() { pthread_t t; int (*q)(int) = c; fp = q(0) ? a : b;\n  pthread_create(&t, 0, fp, 0); return 0; }\n");
  const auto& m = fn(p, "main");
  CHECK(callees(p, m, InstrKind::ThreadCreate) == std::vector<std::string>{"a", "b"});
  CHECK(has_memsafety_assert(m, "pthread_create with a start routine"));
}

TEST_CASE("undefined functions: an arbitrary result, one warning each, --no-undefined-nondet rejects them") {
  const std::string code = "int nondet_int(void);\nint main() {\n  int a = nondet_int(), b = nondet_int();\n  return a + b;\n}\n";
  auto r = tr(code);
  REQUIRE(r.status == FrontendStatus::Ok);
  CHECK(count(fn(*r.program, "main"), InstrKind::Havoc) >= 2);
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].line == 3);
  CHECK(r.warnings[0].message.find("warning: function 'nondet_int' has no body") == 0);
  frontend::FrontendOptions strict;
  strict.undefined_nondet = false;
  auto s = frontend::translate_file(temp_file("strict.c", code), strict);
  REQUIRE(s.status == FrontendStatus::Unsupported);
  CHECK(s.diagnostics[0].message == "unsupported: call to undefined function 'nondet_int'");
}

// --- bad input
TEST_CASE("bad input: missing file, empty file, binary garbage, syntax error") {
  auto missing = frontend::translate_file("/nonexistent/dir/none.c");
  CHECK(missing.status == FrontendStatus::InputError);
  REQUIRE(!missing.diagnostics.empty());
  CHECK(missing.diagnostics[0].str().find("no such file") != std::string::npos);

  auto empty = tr("", "empty.c");
  CHECK(empty.status == FrontendStatus::InputError);
  REQUIRE(!empty.diagnostics.empty());
  CHECK(empty.diagnostics[0].message.find("no main function") != std::string::npos);

  std::string garbage = "\x7f" "ELF\x02\x01";
  garbage += std::string(1, '\0');
  garbage += "\xff\xfe garbage";
  auto bin = tr(garbage, "bin.c");
  CHECK(bin.status == FrontendStatus::InputError);
  REQUIRE(!bin.diagnostics.empty());

  auto path = temp_file("syntax.c", "int main() {\n  int x = ;\n  return 0;\n}\n");
  auto syn = frontend::translate_file(path);
  CHECK(syn.status == FrontendStatus::InputError);
  REQUIRE(!syn.diagnostics.empty());
  CHECK(syn.diagnostics[0].str().rfind(path + ":2:", 0) == 0);
  CHECK(!syn.program);
}

TEST_CASE("shared inputs: pthread-lit with a local assert.h, lazy01, 25_stack, fig1") {
  const std::string shared = SIREN_SHARED_DIR;
  for (const char* f : {"/benchmarks/svcomp/pthread-lit/qw2004-1.c", "/benchmarks/svcomp/pthread/lazy01.c",
                        "/benchmarks/svcomp/pthread-ext/25_stack.c", "/examples/fig1.c"}) {
    INFO(f);
    auto r = frontend::translate_file(shared + f);
    for (auto& d : r.diagnostics) INFO(d.str());
    REQUIRE(r.status == FrontendStatus::Ok);
    well_formed(*r.program);
  }
}

TEST_CASE("every converted SV-COMP input passes the IR validator and the access checks") {
  const std::filesystem::path root = std::filesystem::path(SIREN_SHARED_DIR) / "benchmarks" / "svcomp";
  int converted = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const auto ext = entry.path().extension();
    if (ext != ".c" && ext != ".i") continue;
    auto r = frontend::translate_file(entry.path().string());
    if (r.status != FrontendStatus::Ok) continue;
    ++converted;
    INFO(entry.path().string());
    for (const auto& msg : ir::validate(*r.program)) CHECK_MESSAGE(false, msg);
    well_formed(*r.program);
  }
  CHECK(converted >= 60);
}

TEST_CASE("frontend: the test-only broken front end drops global pointer initialisers") {
  const std::string code = "int g; int *p = &g; int *q = (int *)8; int main(void) { return *p + (q != 0); }\n";
  const auto good = ok(code);
  CHECK(obj(good, "p").cells[0].init_obj == obj(good, "g").id);
  frontend::FrontendOptions broken;
  broken.test_drop_pointer_initialisers = true;
  auto r = frontend::translate_file(temp_file("broken.c", code), broken);
  REQUIRE(r.status == FrontendStatus::Ok);
  CHECK(obj(*r.program, "p").cells[0].init_obj == 0);  // null
  CHECK(obj(*r.program, "p").cells[0].init == 0);
  CHECK(obj(*r.program, "q").cells[0].init == 8);  // not an address: kept
}

// --- container_of and byte arithmetic: pointers count bytes (semantics.md, "Memory")
TEST_CASE("container_of and byte arithmetic move byte offsets, and a load finds its cell by its first byte") {
  auto p = ok(R"(
#include <stddef.h>
struct dev { int id; };
struct priv { int a; int b[3]; struct dev d; int z; } g;
struct dev *dp = &g.d;
int main() {
  struct priv *q = (struct priv *)((char *)dp - offsetof(struct priv, d));
  struct priv *r = (struct priv *)((void *)dp - offsetof(struct priv, d));
  return q->z + r->a;
}
)");
  well_formed(p);
  int back = 0;
  for (auto& in : fn(p, "main").body)
    if (in.a)
      ir::visit_post_order(in.a, [&](ir::ExprRef e) {
        if (e->op == ir::Op::PtrAdd && e->kids[1]->is_const() && ir::as_signed(e->kids[1]->type, e->kids[1]->value) == -16) ++back;
      });
  CHECK(back == 2);  // d is at byte 16 of struct priv (a @0, b[0..2] @4..12, d.id @16, z @20)
  const auto& g = obj(p, "g");
  CHECK(obj(p, "dp").cells[0].init == 16);
  REQUIRE(g.cell_at(16).has_value());
  CHECK(g.cells[*g.cell_at(16)].name == "g.d.id");
  CHECK(!g.cell_at(2).has_value());  // inside g.a: no cell starts there
  // A pointer into the middle of a cell translates; its access is checked at run time
  // (valid(p, 4)), so it is a MemSafety failure, never a wrong cell.
  auto mid = ok("struct s { int a; char c; int b; } v;\nint main() {\n  struct s *p = (struct s *)((char *)&v.b - 2);\n  return p->a;\n}\n");
  bool sized = false;
  for (auto& in : fn(mid, "main").body)
    if (in.kind == InstrKind::Assert && in.assert_kind == ir::AssertKind::MemSafety && in.a->op == ir::Op::ValidPtr)
      sized = sized || in.a->value == 4;
  CHECK(sized);
  // the same program in the ILP32 data model: 4-byte pointers
  frontend::FrontendOptions m32;
  m32.data_model_bits = 32;
  auto r32 = frontend::translate_file(temp_file("m32.c", "struct S { int a; int *p; long l; } s;\nint main() { return s.a; }\n"), m32);
  REQUIRE(r32.status == FrontendStatus::Ok);
  CHECK(r32.program->pointer_bytes == 4);
  CHECK(obj(*r32.program, "s").cells[1].offset == 4);
  CHECK(obj(*r32.program, "s").cells[2].offset == 8);
  CHECK(obj(*r32.program, "s").size == 12);
}

TEST_CASE("unions: members laid over the same cells, merged where they differ without overlapping, others are unsupported") {
  auto p = ok(R"(
union W { int i; unsigned u; };
union S { char *c; int *p; };
struct M { char k; union W w; union S s; } m = { 1, { .u = 7u } };
int main() { m.s.c = 0; return m.w.i; }
)");
  const auto& o = obj(p, "m");
  REQUIRE(o.cells.size() == 3);
  CHECK(o.cells[1].name == "m.w.i");
  CHECK(o.cells[1].type.width == 32);
  CHECK(o.cells[1].init == 7);
  CHECK(o.cells[2].type.is_ptr());
  auto bad = tr("union U { int i; short h[2]; };\nunion U u;\nint main() { return u.i + u.h[0]; }\n");
  REQUIRE(bad.status == FrontendStatus::Unsupported);
  CHECK(bad.diagnostics[0].message.find("do not share one cell layout (member 'h')") != std::string::npos);
  auto mixed = tr("union L { long n; int *p; };\nunion L l;\nint main() { return l.n + (l.p != 0); }\n");
  REQUIRE(mixed.status == FrontendStatus::Unsupported);
  CHECK(mixed.diagnostics[0].message.find("(member 'p')") != std::string::npos);
  // a member with more cells: a and s.x are one cell, s.y one of its own; the second
  // initialiser's member is not the union's first cells
  auto merged = ok("union U { int a; struct { int x, y; } s; } u = { .s = { 3, 4 } };\nint main() { return u.a; }\n");
  const auto& u = obj(merged, "u");
  REQUIRE(u.cells.size() == 2);
  CHECK(u.cells[0].name == "u.a");
  CHECK(u.cells[0].init == 3);
  CHECK(u.cells[1].name == "u.s.y");
  CHECK(u.cells[1].offset == 4);
  CHECK(u.cells[1].init == 4);
  // only the members named outside sizeof/typeof are laid over each other (the kfifo union)
  auto named = ok("union K { struct { unsigned in, out; } f; unsigned char *type; } k;\n"
                  "int main() { k.f.in = 1; return (int)sizeof(*k.type) + (int)k.f.out; }\n");
  REQUIRE(obj(named, "k").cells.size() == 2);
  CHECK(obj(named, "k").cells[1].name == "k.f.out");
  auto both = tr("union K { struct { unsigned in, out; } f; unsigned char *type; } k;\n"
                 "int main() { k.f.in = 1; return k.type != 0; }\n");
  REQUIRE(both.status == FrontendStatus::Unsupported);
  CHECK(both.diagnostics[0].message.find("(member 'type')") != std::string::npos);
  auto holey = tr("union H { struct { int x; long y; } p; struct { int a, b; long c; } q; } h = { .p = { 1, 2 } };\nint main() { return h.p.x + h.q.b; }\n");
  REQUIRE(holey.status == FrontendStatus::Unsupported);
  CHECK(holey.diagnostics[0].message.find("union member 'p' whose cells are not the union's first cells") != std::string::npos);
}

TEST_CASE("thread-local storage: __thread objects are marked, a pthread key destructor is unsupported") {
  auto p = ok("__thread int a = 3;\n_Thread_local int b;\nint c;\nint main() { return a + b + c; }\n");
  CHECK(obj(p, "a").thread_local_storage);
  CHECK(obj(p, "a").cells[0].init == 3);
  CHECK(obj(p, "b").thread_local_storage);
  CHECK(!obj(p, "c").thread_local_storage);
  auto d = tr("#include <pthread.h>\nvoid del(void *v) {}\npthread_key_t k;\nint main() {\n  pthread_key_create(&k, del);\n  return 0;\n}\n");
  REQUIRE(d.status == FrontendStatus::Unsupported);
  CHECK(d.diagnostics[0].line == 5);
  CHECK(d.diagnostics[0].message == "unsupported: pthread_key_create with a destructor");
}

// Linux drivers (docs/drivers.md): a function whose address only reaches the driver's own
// calls (a field of a struct the driver defines, a parameter of its own function, used only to
// be called or tested) is no entry point; one whose address reaches the kernel is.
TEST_CASE("driver scan: functions only the driver's own code calls are not entry points") {
  temp_file("kops.h", R"(
struct kernel_ops { int (*run)(int); };
void kernel_register(int (*fn)(int));
)");
  const std::string driver = temp_file("internal_driver.c", R"(
#include "kops.h"
struct my_ops { int (*get)(int); int (*put)(int); int (*leak)(int); int (*esc)(int); };
struct my_dev { struct my_ops ops; int (*copy)(int); int (*copy2)(int); };
static struct my_dev dev;
static int get_a(int x) { return x; }
static int put_a(int x) { return x + 1; }
static int leak_a(int x) { return x + 2; }
static int hook(int x) { return x + 3; }
static int delay(int x) { return x; }
static int via_copy(int x) { return x + 4; }
static int wait(int (*d)(int)) { return d ? d(1) : 0; }
static int stash(int (*f)(int)) { kernel_register(f); return 0; }
static int drv_run(int x) {
  dev.ops.get = get_a;
  dev.ops.put = put_a;
  dev.ops.leak = leak_a;
  dev.ops.esc = via_copy;
  dev.copy = dev.ops.get;
  dev.copy2 = dev.ops.esc;
  kernel_register(dev.ops.leak);
  kernel_register(dev.copy2);
  return dev.ops.get(x) + (dev.ops.put ? dev.ops.put(x) : 0) + dev.copy(x) + wait(delay) + stash(hook);
}
static struct kernel_ops kops = { .run = drv_run };
)");
  auto names = [](const frontend::DriverScan& s) {
    std::set<std::string> entries, internal;
    for (const auto& e : s.entries) entries.insert(e.name);
    for (const auto& [n, where] : s.internal) internal.insert(n);
    return std::make_pair(entries, internal);
  };
  const auto [entries, internal] = names(frontend::scan_driver(driver));
  CHECK(entries == std::set<std::string>{"drv_run", "leak_a", "hook", "via_copy"});
  CHECK(internal == std::set<std::string>{"get_a", "put_a", "delay"});
  // The deliberately over-eager rule (every own field internal) loses two entry points the
  // kernel does call: the check above catches it.
  frontend::FrontendOptions broken;
  broken.test_every_own_field_internal = true;
  const auto [bad_entries, bad_internal] = names(frontend::scan_driver(driver, broken));
  CHECK(bad_entries == std::set<std::string>{"drv_run", "hook"});
  CHECK(bad_entries != entries);
}
