// The points-to analysis (ir/points_to.hpp): what it says of small programs, and its
// soundness against concrete executions — in every state a breadth-first search of the
// interpreter reaches, every pointer a local or a cell holds must be in its points-to set —
// on programs with struct fields, container_of, heap objects per thread, function-pointer
// tables, thread arguments and results, and on the shared SV-COMP tasks. A deliberately
// unsound analysis (one target dropped) must fail that check.
#include "frontend/frontend.hpp"
#include "ir/concurrency.hpp"
#include "ir/interpreter.hpp"
#include "ir/points_to.hpp"
#include "ir/thread_model.hpp"
#include "ir/validator.hpp"
#include "tests/unit/shared_tasks.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_set>

using namespace siren;
using ir::PtsSet;
using ir::PtsTarget;

namespace {

std::optional<ir::ThreadModel> load_file(const std::string& path) {
  auto fr = frontend::translate_file(path);
  if (fr.status != frontend::FrontendStatus::Ok || !ir::validate(*fr.program).empty()) return std::nullopt;
  return ir::build_thread_model(*fr.program, {});
}

ir::ThreadModel load(const std::string& code) {
  static int n = 0;
  const auto dir = std::filesystem::temp_directory_path() / ("siren-pts-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / ("p" + std::to_string(n++) + ".c")).string();
  std::ofstream(path) << code;
  auto tm = load_file(path);
  REQUIRE(tm.has_value());
  return std::move(*tm);
}

bool covered(const PtsSet& s, const ir::Value& v) {
  if (v.obj == 0 || s.any) return true;
  return s.targets.count({v.obj, PtsTarget::kAnyOffset}) || s.targets.count({v.obj, static_cast<std::int64_t>(v.bits)});
}

std::string key_of(const ir::State& s) {
  std::ostringstream os;
  for (const auto& m : s.memory)
    for (const auto& v : m) os << v.bits << ':' << v.obj << ',';
  for (bool b : s.live) os << b;
  for (const auto& t : s.threads) {
    os << '|' << t.pc << t.started << t.finished << ':' << t.retval.bits << '/' << t.retval.obj;
    for (const auto& v : t.locals) os << ',' << v.bits << ':' << v.obj;
  }
  os << '|' << s.atomic << s.terminated;
  return os.str();
}

struct Check {
  std::size_t states = 0;
  std::size_t violations = 0;
  std::string first;
};

/// Breadth-first over the interpreter's states (each thread's step, nondet values 0 and 1),
/// up to `max_states`; every pointer in a local or a pointer cell must be covered.
Check check_sound(const ir::ThreadModel& tm, const ir::PointsTo& pt, std::size_t max_states) {
  Check c;
  ir::Interpreter in(tm);
  std::deque<ir::State> work{in.initial_state()};
  std::unordered_set<std::string> seen{key_of(work.front())};
  auto verify = [&](const ir::State& s) {
    for (ir::ThreadId t = 0; t < s.threads.size(); ++t)
      for (ir::LocalId l = 0; l < s.threads[t].locals.size(); ++l)
        if (tm.threads[t].locals[l].type.is_ptr() && !covered(pt.local(t, l), s.threads[t].locals[l])) {
          if (!c.violations++) c.first = tm.threads[t].name + "::" + tm.threads[t].locals[l].name;
        }
    for (ir::ObjectId o = 1; o < s.memory.size(); ++o)
      for (std::uint32_t k = 0; k < s.memory[o].size(); ++k)
        if (tm.objects[o].cells[k].type.is_ptr() && !covered(pt.cell(o, k), s.memory[o][k])) {
          if (!c.violations++) c.first = tm.objects[o].cells[k].name;
        }
  };
  while (!work.empty() && c.states < max_states) {
    ir::State s = std::move(work.front());
    work.pop_front();
    ++c.states;
    verify(s);
    for (ir::ThreadId t = 0; t < s.threads.size(); ++t) {
      if (!in.enabled(s, t)) continue;
      for (std::uint64_t v : {0u, 1u}) {
        ir::Step st;
        st.thread = t;
        st.nondet.assign(8, ir::Value{v, 0});
        ir::State n = s;
        if (in.step(n, st).outcome != ir::StepOutcome::Ok) continue;
        if (seen.insert(key_of(n)).second) work.push_back(std::move(n));
      }
    }
  }
  return c;
}

std::string set_of(const ir::ThreadModel& tm, const ir::PointsTo& pt, const std::string& thread, const std::string& local) {
  for (ir::ThreadId t = 0; t < tm.threads.size(); ++t) {
    if (tm.threads[t].name != thread) continue;
    for (ir::LocalId l = 0; l < tm.threads[t].locals.size(); ++l)
      if (tm.threads[t].locals[l].name == local) {
        const PtsSet& s = pt.local(t, l);
        if (s.any) return "anywhere";
        std::string out;
        for (const PtsTarget& x : s.targets) {
          const auto& o = tm.objects[x.obj];
          const auto c = x.offset == PtsTarget::kAnyOffset ? std::nullopt : o.cell_at(x.offset);
          out += (out.empty() ? "" : " ") + (!c ? o.name + "+any" : o.cells.size() == 1 ? o.name : o.cells[*c].name);
        }
        return out;
      }
  }
  FAIL("no local " << thread << "::" << local);
  return "";
}

// Struct fields, container_of, a heap object per thread instance, an ops table of function
// pointers, thread arguments and results, an array walked by a pointer.
const char* kDriver = R"(
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
struct dev { int id; int *buf; };
struct priv { int count; struct dev dev; int *last; };
struct ops { void (*run)(struct dev *); };
int g, h, arr[3];
struct priv pv;
void bump(struct dev *d) { struct priv *p = container_of(d, struct priv, dev); p->count++; p->last = &p->count; }
struct ops table = { bump };
void *worker(void *arg) {
  struct dev *d = (struct dev *)arg;
  int *mine = malloc(sizeof(int));
  *mine = 1;
  d->buf = mine;
  table.run(d);
  return mine;
}
int main(void) {
  int *p = &g;
  int *q = p;
  q = &h;
  pv.dev.buf = &arr[1];
  for (int *a = arr; a < arr + 3; a++) *a = 1;
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, &pv.dev);
  pthread_create(&t2, 0, worker, &pv.dev);
  void *r;
  pthread_join(t1, &r);
  return *p + *q;
}
)";

}  // namespace

TEST_CASE("points-to: fields, container_of, heap per thread, function pointers, thread arguments") {
  const ir::ThreadModel tm = load(kDriver);
  const ir::PointsTo pt = ir::PointsTo::analyse(tm);
  INFO(pt.print());
  CHECK(set_of(tm, pt, "main", "main::p#1") == "g");
  CHECK(set_of(tm, pt, "main", "main::q#1") == "g h");
  CHECK(set_of(tm, pt, "main", "main::a#1") == "arr+any");  // a++ in a loop: the offset is not constant
  // the thread argument, and container_of back to the struct
  CHECK(set_of(tm, pt, "worker#1", "worker::d#1") == "pv.dev.id");
  CHECK(set_of(tm, pt, "worker#1", "bump::p#1") == "pv.count");
  // one heap object per thread instance
  const std::string m1 = set_of(tm, pt, "worker#1", "worker::mine#1"), m2 = set_of(tm, pt, "worker#2", "worker::mine#6");
  CHECK(m1.rfind("malloc@", 0) == 0);
  CHECK(m2.rfind("malloc@", 0) == 0);
  CHECK(m1 != m2);
  const std::string listing = pt.print();
  CHECK(listing.find("pv.last -> {pv.count}") != std::string::npos);
  CHECK(listing.find("pv.dev.buf -> {arr[1], malloc") != std::string::npos);
  CHECK(listing.find("table.run -> {bump}") != std::string::npos);  // a function's object
}

TEST_CASE("points-to: sound on every reachable state of the driver-style program, and a dropped target is caught") {
  const ir::ThreadModel tm = load(kDriver);
  const Check ok = check_sound(tm, ir::PointsTo::analyse(tm), 200000);
  INFO(ok.first);
  CHECK(ok.states > 1000);
  CHECK(ok.violations == 0);
  ir::PointsToOptions broken;
  broken.test_drop_one_target = true;
  const Check bad = check_sound(tm, ir::PointsTo::analyse(tm, broken), 200000);
  CHECK(bad.violations > 0);
}

TEST_CASE("points-to: nondet and uninitialised pointers point anywhere, integers converted to pointers nowhere") {
  // nondet_ptr's `void *` is arbitrary; ext's `int *` is an object of type int (frontend
  // external_objects.cpp): its call site's own, or the global g
  const ir::ThreadModel tm = load(R"(
#include <stdint.h>
void *nondet_ptr(void);
int *ext(void);
int g;
static int s;
int main(void) {
  int *u = (int *)nondet_ptr();
  int *v;
  int **vp = &v;
  int *w = (int *)(uintptr_t)&g;
  int *x = ext();
  return (u != 0) + (*vp != 0) + (w != 0) + (x != &s);
}
)");
  const ir::PointsTo pt = ir::PointsTo::analyse(tm);
  CHECK(set_of(tm, pt, "main", "main::u#1") == "anywhere");
  CHECK(set_of(tm, pt, "main", "main::x#1") == "g ext()@12");  // never the static s
  CHECK(pt.print().find("\nv -> anywhere\n") != std::string::npos);  // an uninitialised pointer cell
  CHECK(set_of(tm, pt, "main", "main::w#1") == "");  // semantics.md: IntToPtr designates no object
}

TEST_CASE("points-to: sound on the shared SV-COMP tasks (bounded breadth-first states)") {
  const auto inputs = test::shared_inputs();
  REQUIRE(!inputs.empty());
  std::size_t tasks = 0, states = 0;
  for (const auto& [category, path] : inputs) {
    auto tm = load_file(path);
    if (!tm) continue;
    const Check c = check_sound(*tm, ir::PointsTo::analyse(*tm), 3000);
    CAPTURE(path);
    INFO(c.first);
    CHECK(c.violations == 0);
    ++tasks;
    states += c.states;
  }
  MESSAGE("SV-COMP inputs checked: " << tasks << ", states: " << states);
  CHECK(tasks >= 60);
}

TEST_CASE("points-to: a lock through a pointer to one mutex is in the must-lockset, through two it is not") {
  const ir::ThreadModel tm = load(R"(
#include <pthread.h>
struct dev { pthread_mutex_t m; int x; } d1, d2;
int pick;
void *one(void *arg) {
  struct dev *d = arg;
  pthread_mutex_lock(&d->m);
  d->x++;
  pthread_mutex_unlock(&d->m);
  return 0;
}
void *either(void *arg) {
  struct dev *d = pick ? &d1 : &d2;
  pthread_mutex_lock(&d->m);
  d->x++;
  pthread_mutex_unlock(&d->m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, one, &d1);
  pthread_create(&b, 0, either, 0);
  return 0;
}
)");
  const ir::PointsTo pt = ir::PointsTo::analyse(tm);
  const std::uint64_t d1m = std::uint64_t{[&] {
    for (const auto& o : tm.objects)
      if (o.name == "d1") return o.id;
    return ir::ObjectId{0};
  }()} << 32;
  auto locks_at_store = [&](const std::string& thread) {
    for (ir::ThreadId t = 0; t < tm.threads.size(); ++t) {
      if (tm.threads[t].name != thread) continue;
      const auto with = ir::must_locksets(tm, t, &pt), without = ir::must_locksets(tm, t);
      for (std::uint32_t pc = 0; pc < tm.threads[t].code.size(); ++pc)
        if (tm.threads[t].code[pc].kind == ir::InstrKind::Store)
          return std::make_pair(with[pc].value_or(std::set<std::uint64_t>{}), without[pc].value_or(std::set<std::uint64_t>{}));
    }
    FAIL("no store in " << thread);
    return std::make_pair(std::set<std::uint64_t>{}, std::set<std::uint64_t>{});
  };
  const auto [one_with, one_without] = locks_at_store("one#1");
  CHECK(one_with == std::set<std::uint64_t>{d1m});  // d points to d1 only: d1.m (byte 0) is held
  CHECK(one_without.empty());
  const auto [either_with, either_without] = locks_at_store("either#2");
  CHECK(either_with.empty());  // d1.m or d2.m: no lock is certainly held
}
