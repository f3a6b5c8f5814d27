// Transaction frames (ir/transactions.hpp, CheckOptions::granularity "transaction"): where
// transactions start, the same verdicts as instruction frames, a bound that counts
// transactions, errors in the middle of a transaction (replayed), and schedule counts.
#include "check/check.hpp"
#include "frontend/frontend.hpp"
#include "ir/thread_model.hpp"
#include "ir/transactions.hpp"
#include "race/race.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace siren;
using check::Verdict;

namespace {

std::string temp_c(const std::string& src) {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path() / ("siren-tx-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / ("prog" + std::to_string(counter++) + ".c");
  std::ofstream(path) << src;
  return path.string();
}

ir::ThreadModel model(const std::string& src) {
  frontend::FrontendResult fr = frontend::translate_file(temp_c(src));
  REQUIRE_MESSAGE(fr.status == frontend::FrontendStatus::Ok,
                  (fr.diagnostics.empty() ? std::string("front end failed") : fr.diagnostics.front().str()));
  return ir::build_thread_model(*fr.program, {});
}

check::CheckResult run(const ir::ThreadModel& tm, const std::string& granularity, unsigned bound,
                       const std::string& reduction = "none", bool count = false) {
  check::CheckOptions co;
  co.engine = "bmc";
  co.reduction = reduction;
  co.bound = bound;
  co.granularity = granularity;
  co.count_schedules = count;
  return check::check(tm, co);
}

const char* kPrelude =
    "#include <pthread.h>\n"
    "extern void reach_error(void);\n"
    "extern int __VERIFIER_nondet_int(void);\n"
    "extern void __VERIFIER_assume(int);\n";

std::string prog(const std::string& body) { return std::string(kPrelude) + body; }

}  // namespace

TEST_CASE("transactions: visible instructions start transactions, local runs do not") {
  const ir::ThreadModel tm = model(prog(R"(
int x;
void *t(void *a) {
  int i = 0, s = 0;
  s = s + x;
  while (i < 3) { s = s + i; i = i + 1; }
  x = s;
  return 0;
}
int main(void) { pthread_t id; pthread_create(&id, 0, t, 0); return 0; })"));
  // Only t touches x, so its accesses are protected steps; without that merge every visible
  // instruction starts a transaction.
  ir::TransactionOptions unprotected;
  unprotected.merge_protected = false;
  const ir::Transactions tx(tm, unprotected);
  REQUIRE(tm.threads.size() == 2);
  const auto& code = tm.threads[1].code;
  std::size_t visible = 0, local = 0, local_boundaries = 0;
  for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
    if (!ir::local_step(code[pc])) {
      ++visible;
      CHECK_MESSAGE(tx.boundary(1, pc), code[pc].text);
    } else {
      ++local;
      local_boundaries += tx.boundary(1, pc) && pc != 0;
    }
  }
  CHECK(tx.boundary(1, static_cast<std::uint32_t>(code.size())));  // finished
  CHECK(visible >= 3);   // the load of x, x = s, the thread's exit
  CHECK(local >= 5);     // the loop
  // The local loop needs one cut point (its head); the rest of the local steps merge.
  CHECK(local_boundaries == 1);
  CHECK(tx.boundaries(1) < code.size());
  CHECK(tx.longest(1) >= 3);
  // The deliberately wrong variant merges a visible instruction into its predecessor.
  ir::TransactionOptions broken = unprotected;
  broken.test_merge_visible = true;
  const ir::Transactions bad(tm, broken);
  std::size_t merged = 0;
  for (std::uint32_t pc = 0; pc < code.size(); ++pc) merged += !ir::local_step(code[pc]) && !bad.boundary(1, pc);
  CHECK(merged >= 1);
}

TEST_CASE("transactions: protected steps are carried by the transaction they are reached in") {
  // count is only touched under m (or after both joins): its load and store are protected
  // steps, carried by the transaction of the lock; flags is written by both workers without a
  // lock, so its store stays a boundary.
  const std::string locked = prog(R"(
int count, flags;
pthread_mutex_t m;
void *w(void *a) {
  pthread_mutex_lock(&m);
  int c = count;
  count = c + 1;
  pthread_mutex_unlock(&m);
  flags = 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (count != 2) reach_error();
  return 0;
})");
  const ir::ThreadModel tm = model(locked);
  REQUIRE(tm.threads.size() == 3);
  const ir::Transactions tx(tm);
  const auto& code = tm.threads[1].code;
  std::size_t carried = 0, lock_pc = code.size();
  for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
    const ir::Instr& in = code[pc];
    CAPTURE(in.text);
    if (in.kind == ir::InstrKind::Lock) {
      CHECK(tx.boundary(1, pc));
      lock_pc = pc;
    }
    // m is only locked and unlocked: its unlock is carried (ir::carried_unlocks), the whole
    // critical section is the lock's transaction
    if (in.kind == ir::InstrKind::Unlock) CHECK_FALSE(tx.boundary(1, pc));
    if (ir::local_step(in) || in.kind == ir::InstrKind::Lock || in.kind == ir::InstrKind::Unlock) continue;
    if (in.text.find("count") != std::string::npos && in.kind != ir::InstrKind::ThreadExit) {
      CHECK_FALSE(tx.boundary(1, pc));
      ++carried;
    }
    if (in.text.find("flags") != std::string::npos) CHECK(tx.boundary(1, pc));
  }
  CHECK(carried >= 2);  // the load and the store of count
  REQUIRE(tx.carried(1).count(static_cast<std::uint32_t>(lock_pc)) == 1);
  CHECK(tx.carried(1).at(static_cast<std::uint32_t>(lock_pc)).size() >= 3);  // and the unlock
  CHECK(tx.protected_steps() >= 4);
  for (const char* reduction : {"none", "mpor", "sir"}) {
    CAPTURE(reduction);
    const auto t = run(tm, "transaction", 100, reduction);
    CHECK_MESSAGE(t.verdict == Verdict::Safe, t.reason);
    const auto i = run(tm, "instruction", 200, reduction);
    CHECK_MESSAGE(i.verdict == Verdict::Safe, i.reason);
    CHECK(t.stats.frames < i.stats.frames);
  }
  // The same without the lock in the second worker: a lost update, and nothing protected.
  std::string racy = locked;
  racy.replace(racy.find("void *w(void *a) {"), 0,
               "void *u(void *a) { int c = count; count = c + 1; flags = 1; return 0; }\n");
  racy.replace(racy.find("pthread_create(&b, 0, w, 0)"), std::string("pthread_create(&b, 0, w, 0)").size(),
               "pthread_create(&b, 0, u, 0)");
  const ir::ThreadModel rtm = model(racy);
  const ir::Transactions rtx(rtm);
  for (ir::ThreadId t = 1; t < rtm.threads.size(); ++t)
    for (std::uint32_t pc = 0; pc < rtm.threads[t].code.size(); ++pc) {
      const ir::Instr& in = rtm.threads[t].code[pc];
      CAPTURE(in.text);
      if (!ir::local_step(in) && in.text.find("count") != std::string::npos) CHECK(rtx.boundary(t, pc));
    }
  for (const char* reduction : {"none", "mpor", "sir"}) {
    CAPTURE(reduction);
    const auto t = run(rtm, "transaction", 100, reduction);
    CHECK_MESSAGE(t.verdict == Verdict::Unsafe, t.reason);
    CHECK_FALSE(t.internal_error);
  }
}

TEST_CASE("transactions: an unlock is carried unless its mutex is also tried (the broken variant is caught)") {
  // Two workers each run three critical sections on m. m is only locked and unlocked, so each
  // unlock is carried by its lock's transaction: a critical section is one frame, and SAFE
  // (every execution within the bound) needs fewer frames than with the unlocks as boundaries.
  const ir::ThreadModel tm = model(prog(R"(
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) {
  for (int i = 0; i < 3; i++) { pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
  pthread_join(a, 0); pthread_join(b, 0);
  if (x != 6) reach_error();
  return 0;
})"));
  const auto unlocks = ir::carried_unlocks(tm);
  std::size_t n_unlocks = 0;
  for (std::uint32_t pc = 0; pc < tm.threads[1].code.size(); ++pc)
    if (tm.threads[1].code[pc].kind == ir::InstrKind::Unlock) {
      ++n_unlocks;
      CHECK(unlocks[1][pc]);
      CHECK_FALSE(ir::Transactions(tm).boundary(1, pc));
    }
  CHECK(n_unlocks == 1);
  CHECK(ir::Transactions(tm).carried_unlock_steps() == 2);  // one in each worker thread
  ir::TransactionOptions kept;
  kept.carry_unlocks = false;
  CHECK(ir::Transactions(tm).boundaries(1) + 1 == ir::Transactions(tm, kept).boundaries(1));
  for (const char* reduction : {"none", "mpor", "sir"}) {
    CAPTURE(reduction);
    const auto t = run(tm, "transaction", 100, reduction);
    CHECK_MESSAGE(t.verdict == Verdict::Safe, t.reason);
    CHECK(t.bound == 16);  // complete after 16 frames (measured: 24 with every unlock a boundary)
  }
  // A trylock of m in main: it fails while a worker holds m, between the lock and the unlock.
  // The unlock is no left mover then (the trylock fails before it and succeeds after it), so
  // it stays a boundary; carrying it anyway (test_carry_any_unlock) hides the failing trylock
  // and answers a wrong SAFE.
  const ir::ThreadModel tried = model(prog(R"(
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, w, 0);
  if (pthread_mutex_trylock(&m) != 0) reach_error();
  return 0;
})"));
  for (std::uint32_t pc = 0; pc < tried.threads[1].code.size(); ++pc)
    if (tried.threads[1].code[pc].kind == ir::InstrKind::Unlock) {
      CHECK_FALSE(ir::carried_unlocks(tried)[1][pc]);
      CHECK(ir::carried_unlocks(tried, true)[1][pc]);
    }
  for (const char* reduction : {"none", "mpor", "sir"}) {
    CAPTURE(reduction);
    const auto t = run(tried, "transaction", 50, reduction);
    CHECK_MESSAGE(t.verdict == Verdict::Unsafe, t.reason);
    CHECK_FALSE(t.internal_error);
    const auto b = run(tried, "test-carry-any-unlock", 50, reduction);
    CHECK_MESSAGE(b.verdict == Verdict::Safe, b.reason);  // wrong, as intended
  }
}

TEST_CASE("transactions: a lock that only one side holds protects nothing (the broken variant is caught)") {
  // w1 writes 1 then 2 under m; w2 reads count without the lock and can see the 1. With the
  // deliberately wrong test_one_sided_lock both stores are carried by w1's lock transaction,
  // the 1 is never seen, and the answer is a wrong SAFE.
  const ir::ThreadModel tm = model(prog(R"(
int count;
pthread_mutex_t m;
void *w1(void *a) { pthread_mutex_lock(&m); count = 1; count = 2; pthread_mutex_unlock(&m); return 0; }
void *w2(void *a) { if (count == 1) reach_error(); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w1, 0);
  pthread_create(&b, 0, w2, 0);
  return 0;
})"));
  CHECK(ir::Transactions(tm).protected_steps() == 0);
  ir::TransactionOptions broken;
  broken.test_one_sided_lock = true;
  CHECK(ir::Transactions(tm, broken).protected_steps() >= 2);
  for (const char* reduction : {"none", "mpor", "sir"}) {
    CAPTURE(reduction);
    const auto t = run(tm, "transaction", 50, reduction);
    CHECK_MESSAGE(t.verdict == Verdict::Unsafe, t.reason);
    const auto b = run(tm, "test-one-sided-lock", 50, reduction);
    CHECK_MESSAGE(b.verdict == Verdict::Safe, b.reason);  // wrong, as intended
  }
}

TEST_CASE("transaction frames: the verdicts of instruction frames") {
  struct Case {
    const char* name;
    std::string src;
    Verdict expected;
  };
  const std::vector<Case> cases{
      {"lost update", prog(R"(
int x = 0;
void *t(void *a) { int tmp = x; x = tmp + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  pthread_join(a, 0); pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
})"),
       Verdict::Unsafe},
      {"update under a mutex", prog(R"(
int x = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *a) { pthread_mutex_lock(&m); int tmp = x; x = tmp + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  pthread_join(a, 0); pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
})"),
       Verdict::Safe},
      {"assume prunes", prog(R"(
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 5);
  if (x < 3) reach_error();
  return 0;
})"),
       Verdict::Safe},
      {"nondet reaches", prog(R"(
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 5);
  if (x + y == 1000) reach_error();
  return 0;
})"),
       Verdict::Unsafe},
      {"atomic functions", prog(R"(
int x = 0;
void __VERIFIER_atomic_inc(void) { int t = x; x = t + 1; }
void *t(void *a) { __VERIFIER_atomic_inc(); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  pthread_join(a, 0); pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
})"),
       Verdict::Safe},
      {"join passes the return value", prog(R"(
void *t(void *arg) { long v = (long)arg; return (void *)(v + 1); }
int main(void) {
  pthread_t id; void *ret;
  pthread_create(&id, 0, t, (void *)41);
  pthread_join(id, &ret);
  if ((long)ret == 42) reach_error();
  return 0;
})"),
       Verdict::Unsafe},
      {"heap", R"(
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
struct msg { int ready; int data; };
struct msg *box;
void *producer(void *arg) { box->ready = 1; box->data = 42; return 0; }
int main(void) {
  pthread_t id;
  box = (struct msg *)malloc(sizeof(struct msg));
  box->ready = 0; box->data = 0;
  pthread_create(&id, 0, producer, 0);
  if (box->ready) { if (box->data != 42) reach_error(); }
  return 0;
})",
       Verdict::Unsafe},
      {"fig1", "", Verdict::Safe},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    ir::ThreadModel tm;
    if (c.src.empty()) {
      frontend::FrontendResult fr = frontend::translate_file(SIREN_SHARED_DIR "/examples/fig1.c");
      REQUIRE(fr.status == frontend::FrontendStatus::Ok);
      tm = ir::build_thread_model(*fr.program, {});
    } else {
      tm = model(c.src);
    }
    for (const char* reduction : {"none", "mpor", "sir"}) {
      CAPTURE(reduction);
      const auto ins = run(tm, "instruction", 200, reduction);
      const auto tx = run(tm, "transaction", 200, reduction);
      CHECK_MESSAGE(ins.verdict == c.expected, ins.reason);
      CHECK_MESSAGE(tx.verdict == c.expected, tx.reason);
      CHECK_FALSE(tx.internal_error);
      CHECK(tx.stats.granularity == "transaction");
      if (c.expected == Verdict::Unsafe) {
        CHECK(!tx.trace.empty());
        CHECK(tx.bound == tx.trace.size());  // UNSAFE: the steps of the (replayed) trace
      }
      if (c.expected == Verdict::Safe) CHECK(tx.bound <= ins.bound);  // fewer frames to completeness
    }
  }
}

TEST_CASE("transaction frames: the bound counts transactions") {
  // The violation needs ~40 instructions of local work in one thread before its write: out of
  // reach of 20 instruction frames, within 20 transaction frames (a local loop's iteration is
  // one transaction, everything else after a visible instruction joins it).
  const ir::ThreadModel tm = model(prog(R"(
int x;
void *t(void *a) {
  int s = 0, i;
  for (i = 0; i < 6; i++) s = s + i * i;
  x = s;
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_join(id, 0);
  if (x == 55) reach_error();
  return 0;
})"));
  const auto ins = run(tm, "instruction", 20);
  CHECK_MESSAGE(ins.verdict == Verdict::SafeUpToBound, ins.reason);
  const auto tx = run(tm, "transaction", 20);
  REQUIRE_MESSAGE(tx.verdict == Verdict::Unsafe, tx.reason);
  CHECK_FALSE(tx.internal_error);
  CHECK(tx.trace.size() > 20);       // more instructions than frames
  CHECK(tx.stats.frames <= 20);
  const auto deep = run(tm, "instruction", 200);
  CHECK(deep.verdict == Verdict::Unsafe);
  CHECK(tx.trace.size() >= deep.trace.size());
}

TEST_CASE("transaction frames: a transaction runs on through the head of a loop it carries") {
  // The worker's loop body is protected steps (g only under m, on both sides): with
  // tx_unwind 0 every iteration is a frame; with tx_unwind 4 one transaction runs up to 5
  // iterations. The failing check is in the loop, reached in a later pass of a frame: the
  // counterexample must replay; the SAFE variant must be proven in fewer frames.
  const std::string src = R"(
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
void *t(void *a) {
  pthread_mutex_lock(&m);
  for (int i = 0; i < 8; i++) {
    g = g + 1;
    if (g == LIMIT) reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_mutex_lock(&m);
  g = g + 10;
  pthread_mutex_unlock(&m);
  pthread_join(id, 0);
  return 0;
})";
  auto with_limit = [&](int limit) {
    std::string s = src;
    s.replace(s.find("LIMIT"), 5, std::to_string(limit));
    return model(prog(s));
  };
  const ir::ThreadModel bad = with_limit(7), good = with_limit(30);
  {
    const ir::Transactions none(bad, ir::transaction_options("transaction", 0));
    const ir::Transactions four(bad, ir::transaction_options("transaction", 4));
    std::size_t passable0 = 0, passable4 = 0, unwinding = 0;
    for (std::uint32_t pc = 0; pc < bad.threads[1].code.size(); ++pc) {
      passable0 += none.passable(1, pc);
      passable4 += four.passable(1, pc);
      unwinding += four.boundary(1, pc) && four.unwinds_from(1, pc);
      if (four.passable(1, pc)) CHECK(four.boundary(1, pc));  // still where a transaction may start
    }
    CHECK(passable0 == 0);
    CHECK(passable4 >= 1);
    CHECK(unwinding >= 1);
    CHECK(four.unwind() == 4);
  }
  auto run_unwind = [&](const ir::ThreadModel& tm, unsigned unwind) {
    check::CheckOptions co;
    co.engine = "bmc";
    co.reduction = "none";
    co.bound = 60;
    co.tx_unwind = unwind;
    return check::check(tm, co);
  };
  const auto bad0 = run_unwind(bad, 0), bad4 = run_unwind(bad, 4);
  REQUIRE_MESSAGE(bad0.verdict == Verdict::Unsafe, bad0.reason);
  REQUIRE_MESSAGE(bad4.verdict == Verdict::Unsafe, bad4.reason);
  CHECK_FALSE(bad4.internal_error);
  CHECK(bad4.stats.frames < bad0.stats.frames);
  CHECK(bad4.trace.size() == bad0.trace.size());  // the same shortest execution, in fewer frames
  const auto good0 = run_unwind(good, 0), good4 = run_unwind(good, 4);
  REQUIRE_MESSAGE(good0.verdict == Verdict::Safe, good0.reason);
  REQUIRE_MESSAGE(good4.verdict == Verdict::Safe, good4.reason);
  CHECK(good4.bound < good0.bound);
}

TEST_CASE("transaction frames: an assertion in the middle of a transaction") {
  // The failing check follows local steps after the load of x: its transaction's first
  // instruction is the load; the error is reached inside the frame and replayed.
  const ir::ThreadModel tm = model(prog(R"(
int x;
void *t(void *a) { x = 3; return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  int v = x;
  int w = v * 2;
  int u = w + 1;
  if (u == 7) reach_error();
  return 0;
})"));
  const auto tx = run(tm, "transaction", 10);
  REQUIRE_MESSAGE(tx.verdict == Verdict::Unsafe, tx.reason);
  CHECK_FALSE(tx.internal_error);
  CHECK(tx.stats.frames < tx.trace.size());
}

TEST_CASE("transaction frames: fewer schedules, and the reductions still reduce") {
  const ir::ThreadModel tm = model(prog(R"(
int x, y;
void *t1(void *a) { int l = 1; l = l + 1; x = l; int m = y; m = m * 2; y = m; return 0; }
void *t2(void *a) { int l = 5; l = l - 1; y = l; int m = x; m = m + 3; x = m; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  return 0;
})"));
  const auto ins = run(tm, "instruction", 60, "none", true);
  const auto tx = run(tm, "transaction", 60, "none", true);
  const auto tx_mpor = run(tm, "transaction", 60, "mpor", true);
  REQUIRE(ins.schedules.has_value());
  REQUIRE(tx.schedules.has_value());
  REQUIRE(tx_mpor.schedules.has_value());
  CHECK(*tx.schedules < *ins.schedules);
  CHECK(*tx_mpor.schedules < *tx.schedules);
  CHECK(*tx_mpor.schedules >= 1);
}

TEST_CASE("transaction frames: a merged atomic block is one frame") {
  // fib_bench in small: every iteration's atomic block is one transaction (with the loop
  // step after it), so the violation needs a few frames per iteration instead of eight.
  const std::string src = prog(R"(
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int i = 1, j = 1;
void *t1(void *a) {
  for (int k = 0; k < 3; k++) { __VERIFIER_atomic_begin(); i = i + j; __VERIFIER_atomic_end(); }
  return 0;
}
void *t2(void *a) {
  for (int k = 0; k < 3; k++) { __VERIFIER_atomic_begin(); j = j + i; __VERIFIER_atomic_end(); }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (j == 21) reach_error();
  return 0;
})");
  const ir::ThreadModel tm = model(src);
  const ir::Transactions tx(tm);
  REQUIRE(tm.threads.size() == 3);
  CHECK(tx.atomic_regions(1).size() == 1);
  CHECK(tx.atomic_regions(2).size() == 1);
  for (const auto& [b, pcs] : tx.atomic_regions(1)) {
    CHECK(tm.threads[1].code[b].kind == ir::InstrKind::AtomicBegin);
    CHECK(tx.boundary(1, b));
    for (std::uint32_t pc : pcs) CHECK_FALSE(tx.boundary(1, pc));  // the load, the store, the end
    CHECK(pcs.size() >= 3);
  }
  for (const char* reduction : {"none", "mpor", "sir"}) {
    CAPTURE(reduction);
    const auto ins = run(tm, "instruction", 24, reduction);
    CHECK_MESSAGE(ins.verdict == Verdict::SafeUpToBound, ins.reason);
    const auto t = run(tm, "transaction", 24, reduction);
    REQUIRE_MESSAGE(t.verdict == Verdict::Unsafe, t.reason);
    CHECK_FALSE(t.internal_error);
    CHECK(t.trace.size() > 24);
  }
  // A block with a loop inside stays instruction frames inside (still correct).
  const ir::ThreadModel looped = model(prog(R"(
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x;
void *t(void *a) { __VERIFIER_atomic_begin(); for (int k = 0; k < 2; k++) x = x + 1; __VERIFIER_atomic_end(); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  pthread_join(a, 0); pthread_join(b, 0);
  if (x != 4) reach_error();
  return 0;
})"));
  CHECK(ir::Transactions(looped).atomic_regions(1).empty());
  for (const char* reduction : {"none", "mpor", "sir"}) {
    CAPTURE(reduction);
    const auto t = run(looped, "transaction", 200, reduction);
    CHECK_MESSAGE(t.verdict == Verdict::Safe, t.reason);
  }
}

TEST_CASE("transaction frames: race checking keeps atomic blocks' accesses as boundaries") {
  // A plain write races with a read inside an atomic block: the race query's accesses must be
  // transaction starts, so race checking does not merge the block (and keeps transactions).
  const ir::ThreadModel tm = model(prog(R"(
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x, y;
void *t(void *a) { __VERIFIER_atomic_begin(); int v = x; y = v + 1; __VERIFIER_atomic_end(); return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  x = 1;
  pthread_join(id, 0);
  return 0;
})"));
  CHECK_FALSE(ir::Transactions(tm).atomic_regions(1).empty());
  check::CheckOptions co;
  co.bound = 40;
  co.engine = "bmc";  // the transaction frames are what is tested
  check::CheckStats stats;
  const race::RaceAnswer a = race::check_race(tm, co, &stats);
  CHECK_MESSAGE(a.verdict == Verdict::Unsafe, a.reason);
  CHECK_FALSE(a.internal_error);
  CHECK(stats.granularity == "transaction");
  CHECK(a.first.variable == "x");
}
