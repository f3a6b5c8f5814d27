// Shortening counterexamples (issue 23 item 2: ir::minimize_schedule,
// check::shorten_counterexample) on programs whose shortest counterexample is known: the statements
// of a schedule built by hand to be the shortest, against a long schedule that wastes steps (a
// spinning thread's loop iterations, a thread that need not run at all). Whatever comes out must
// still replay to the violation; a shortener that does not judge its candidates by replay (the TEST
// ONLY CheckOptions::test_shorten_unjudged) is caught by that.
#include "check/check.hpp"
#include "ir/interpreter.hpp"
#include "ir/trace.hpp"
#include "tests/unit/encoder/count_helpers.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <string>

using namespace siren;

namespace {

// `waiter` spins until `setter` sets the flag; `busy` only burns steps. Shortest violation:
// main creates the three threads, setter sets the flag, waiter leaves its loop at once and
// sets x, main joins waiter and fails. Spinning iterations and every step of busy can go.
const char* const kSpinner = R"(#include <pthread.h>
extern void reach_error(void);
int flag = 0, x = 0, junk = 0;
void *busy(void *arg) { for (int i = 0; i < 6; i++) junk = junk + 1; return 0; }
void *waiter(void *arg) { while (flag == 0) { junk = junk + 2; } x = 1; return 0; }
void *setter(void *arg) { flag = 1; return 0; }
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, busy, 0);
  pthread_create(&b, 0, waiter, 0);
  pthread_create(&c, 0, setter, 0);
  pthread_join(b, 0);
  if (x == 1) reach_error();
  return 0;
}
)";

ir::ThreadId thread_named(const ir::ThreadModel& tm, const std::string& prefix) {
  for (ir::ThreadId t = 0; t < tm.threads.size(); ++t)
    if (tm.threads[t].name.rfind(prefix, 0) == 0) return t;
  FAIL("no thread " << prefix);
  return 0;
}

// Runs `t` for at most `n` steps (until it cannot move, or fails), appending them to `s`.
// Returns whether its last step was a property violation.
bool run(const ir::Interpreter& interp, ir::State& state, std::vector<ir::Step>& s, ir::ThreadId t,
         std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const ir::StepResult r = interp.step(state, ir::Step{t, {}});
    if (r.outcome == ir::StepOutcome::NotEnabled) return false;
    s.push_back(ir::Step{t, {}});
    if (r.outcome == ir::StepOutcome::Error) return r.error_kind == ir::AssertKind::Property;
  }
  return false;
}

// The spinner's schedule: main up to its join, then (when `spins`) busy to its end and waiter
// spinning `spins` times round its loop, setter up to its return, waiter to its end, main to
// the violation.
std::vector<ir::Step> spinner_schedule(const ir::ThreadModel& tm, unsigned spins) {
  const ir::Interpreter interp(tm);
  ir::State state = interp.initial_state();
  std::vector<ir::Step> s;
  auto run_up_to = [&](ir::ThreadId t, const std::string& stmt) {
    while (tm.threads[t].code[state.threads[t].pc].text.find(stmt) == std::string::npos)
      REQUIRE_FALSE(run(interp, state, s, t, 1));
  };
  run_up_to(0, "pthread_join");
  if (spins) {
    run(interp, state, s, thread_named(tm, "busy"), 1000);
    // one round of the loop: the test, the body's steps, the jump back (whatever their number,
    // `spins` rounds' worth of steps while flag is 0 keep the waiter in its loop)
    run(interp, state, s, thread_named(tm, "waiter"), 5 * spins);
  }
  run_up_to(thread_named(tm, "setter"), "return");
  run(interp, state, s, thread_named(tm, "waiter"), 1000);
  REQUIRE(run(interp, state, s, 0, 1000));
  return s;
}

std::size_t statements(const ir::ThreadModel& tm, const std::vector<ir::Step>& s) {
  const ir::ReplayedTrace t = ir::replay_counterexample(tm, {}, s);
  REQUIRE(t.failure.empty());
  return ir::statement_rows(t.rows).size();
}

// What every shortened answer must satisfy: its schedule replays to a property violation at
// its last step, and the printed rows are that replay's.
bool replays_to_violation(const ir::ThreadModel& tm, const check::CheckResult& r) {
  const ir::ReplayedTrace t = ir::replay_counterexample(tm, r.initial, r.schedule);
  return t.failure.empty() && t.rows.size() == r.trace.size();
}

auto far_deadline() { return std::chrono::steady_clock::now() + std::chrono::seconds(60); }

}  // namespace

TEST_CASE(
    "minimize_schedule: spinning iterations and a thread's whole run go, down to the shortest") {
  auto tm = test::model_of_text(kSpinner, "shorten-spinner");
  REQUIRE(tm.has_value());
  const std::vector<ir::Step> shortest = spinner_schedule(*tm, 0);
  const std::vector<ir::Step> wasteful = spinner_schedule(*tm, 12);
  const std::size_t least = statements(*tm, shortest);
  REQUIRE(statements(*tm, wasteful) >= least + 12);  // (each spin shows at least one row)
  // main: 3 creates, the join, the test, reach_error; setter: flag = 1; waiter: its loop test,
  // x = 1, return
  CHECK(least == 10);

  const std::vector<ir::Step> m = ir::minimize_schedule(*tm, {}, wasteful, far_deadline());
  CHECK(ir::replay_counterexample(*tm, {}, m).failure.empty());
  CHECK(statements(*tm, m) == least);
  CHECK(m.size() == shortest.size());
  for (const ir::Step& s : m) CHECK(s.thread != thread_named(*tm, "busy"));  // busy never runs

  // A shortener that takes its candidates without replaying them returns a schedule that does
  // not fail: the check above would catch it.
  const std::vector<ir::Step> unjudged =
      ir::minimize_schedule(*tm, {}, wasteful, far_deadline(), /*judge=*/false);
  CHECK(unjudged.size() < shortest.size());
  CHECK_FALSE(ir::replay_counterexample(*tm, {}, unjudged).failure.empty());
}

TEST_CASE("minimize_schedule: a schedule that does not fail comes back as it is") {
  auto tm = test::model_of_text(kSpinner, "shorten-nofail");
  REQUIRE(tm.has_value());
  std::vector<ir::Step> s = spinner_schedule(*tm, 3);
  s.pop_back();  // no longer reaches reach_error
  CHECK(ir::minimize_schedule(*tm, {}, s, far_deadline()) == s);
}

TEST_CASE("shorten_counterexample: the shortest counterexample of the spinner, judged by replay") {
  auto tm = test::model_of_text(kSpinner, "shorten-check");
  REQUIRE(tm.has_value());
  check::CheckOptions o;
  o.engine = "explicit";
  o.shorten = false;
  check::CheckResult r = check::check(*tm, o);
  REQUIRE(r.verdict == check::Verdict::Unsafe);
  // Hand it a wasteful counterexample instead of the engine's.
  set_counterexample(r, ir::replay_counterexample(*tm, {}, spinner_schedule(*tm, 12)));
  REQUIRE(r.verdict == check::Verdict::Unsafe);
  const std::size_t found = ir::statement_rows(r.trace).size();
  o.shorten_seconds = 20;

  check::CheckResult good = r;
  check::shorten_counterexample(*tm, o, good);
  REQUIRE(good.verdict == check::Verdict::Unsafe);
  CHECK(good.stats.found_statements == found);
  CHECK(ir::statement_rows(good.trace).size() == statements(*tm, spinner_schedule(*tm, 0)));
  CHECK(replays_to_violation(*tm, good));
  CHECK(good.bound == good.trace.size());

  // The deliberately broken shortener (no replay of its candidates) is caught.
  check::CheckResult bad = r;
  o.test_shorten_unjudged = true;
  check::shorten_counterexample(*tm, o, bad);
  CHECK_FALSE(replays_to_violation(*tm, bad));
}

TEST_CASE(
    "shortening pthread/singleton to its least statements (34): joins that waited become one row") {
  // Every violation runs the same statements: main creates thread0 and joins it; thread0 creates
  // thread1, joins it, creates the four writers, joins them and returns; thread1 2 rows; each
  // writer 4 (atomic begin, the write, atomic end, return); main's assert 3 rows:
  // 2 + 11 + 2 + 16 + 3 = 34, when no join shows twice (once waiting, once done).
  auto tm =
      test::model_of_file(std::string(SIREN_SHARED_DIR) + "/benchmarks/svcomp/pthread/singleton.c");
  REQUIRE(tm.has_value());
  check::CheckOptions o;
  o.engine = "explicit";
  o.shorten_seconds = 20;
  const check::CheckResult r = check::check(*tm, o);
  REQUIRE(r.verdict == check::Verdict::Unsafe);
  CHECK(r.stats.found_statements >= 34);
  CHECK(ir::statement_rows(r.trace).size() == 34);
  CHECK(replays_to_violation(*tm, r));
}

TEST_CASE("shorten_counterexample: never past the deadline, a passed deadline leaves the trace as found") {
  auto tm = test::model_of_text(kSpinner, "shorten-deadline");
  REQUIRE(tm.has_value());
  check::CheckResult r;
  set_counterexample(r, ir::replay_counterexample(*tm, {}, spinner_schedule(*tm, 12)));
  REQUIRE(r.verdict == check::Verdict::Unsafe);
  check::CheckOptions o;
  o.shorten_seconds = 20;

  using clock = std::chrono::steady_clock;
  o.deadline = clock::now() - std::chrono::seconds(1);
  check::CheckResult late = r;
  check::shorten_counterexample(*tm, o, late);
  CHECK(late.schedule == r.schedule);

  o.deadline = clock::now() + std::chrono::milliseconds(400);
  check::CheckResult soon = r;
  check::shorten_counterexample(*tm, o, soon);
  CHECK(clock::now() <= *o.deadline + std::chrono::milliseconds(50));
  CHECK(replays_to_violation(*tm, soon));
  CHECK(soon.trace.size() < r.trace.size());  // (the spinner is shortened in milliseconds)
}
