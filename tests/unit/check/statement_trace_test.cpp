// The statement-level view of counterexamples (ir::statement_rows, issue 23): one row per
// executed C statement, bookkeeping hidden, only the program's own variables, loop iterations
// kept apart; every row still comes from the replayed schedule.
#include "tests/unit/encoder/count_helpers.hpp"
#include "check/check.hpp"
#include "ir/trace.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace siren;

namespace {

check::CheckResult unsafe(const std::string& text) {
  auto tm = test::model_of_text(text, "stmt-trace");
  REQUIRE(tm.has_value());
  check::CheckOptions o;
  o.engine = "explicit";
  check::CheckResult r = check::check(*tm, o);
  REQUIRE(r.verdict == check::Verdict::Unsafe);
  return r;
}

}  // namespace

TEST_CASE("statement rows: one per statement, no bookkeeping, no temporaries") {
  const check::CheckResult r = unsafe(R"(#include <pthread.h>
extern void reach_error(void);
int x = 5;
int add(int v, int w) { int s = v + w; return s; }
void *inc(void *arg) { int mine = x; x = add(mine, 1); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 7) reach_error();
  return 0;
}
)");
  const std::vector<ir::TraceRow> rows = ir::statement_rows(r.trace);
  CHECK(rows.size() < r.trace.size());
  CHECK(rows.back().stmt == r.trace.back().stmt);  // the failing statement ends both
  unsigned n = 0;
  bool saw_callee_local = false, saw_own_local = false;
  for (const ir::TraceRow& row : rows) {
    CHECK(row.step == ++n);
    CHECK(row.stmt != "create site counter");
    CHECK(row.stmt.find(": parameter ") == std::string::npos);
    for (const auto& [name, value] : row.values) {
      CHECK(name.find("__") == std::string::npos);
      CHECK(name.find('#') == std::string::npos);
      saw_callee_local = saw_callee_local || name == "add::s";
      saw_own_local = saw_own_local || name == "mine";
    }
  }
  CHECK(saw_callee_local);  // a local of an inlined function keeps its function's name
  CHECK(saw_own_local);     // a local of the start routine is shown as written
  // Consecutive rows of one statement are merged: no two neighbours of one thread repeat a
  // statement whose instructions went forwards.
  for (std::size_t i = 1; i < rows.size(); ++i)
    CHECK_FALSE((rows[i].thread == rows[i - 1].thread && rows[i].line == rows[i - 1].line &&
                 rows[i].stmt == rows[i - 1].stmt && rows[i].pc > rows[i - 1].pc));
}

TEST_CASE("statement rows: each loop iteration of one statement is its own row") {
  const check::CheckResult r = unsafe(R"(extern void reach_error(void);
int main(void) {
  int i = 0;
  while (i < 3) i = i + 1;
  if (i == 3) reach_error();
  return 0;
}
)");
  const std::vector<ir::TraceRow> rows = ir::statement_rows(r.trace);
  unsigned increments = 0;
  for (const ir::TraceRow& row : rows)
    if (row.stmt == "i = i + 1") ++increments;
  CHECK(increments == 3);
}

TEST_CASE("user variable names") {
  CHECK(ir::user_variable_name("t1#1", "t1::i#1") == "i");
  CHECK(ir::user_variable_name("t1#1", "push::stack#2") == "push::stack");
  CHECK(ir::user_variable_name("main", "main::__t1#1").empty());
  CHECK(ir::user_variable_name("main", "create#1").empty());
  CHECK(ir::user_variable_name("main", "x") == "x");
  CHECK(ir::user_variable_name("main", "t2#2:t2::k#1") == "t2#2:k");
  CHECK(ir::user_variable_name("main", "s.next") == "s.next");
}

TEST_CASE("shortening: the depth-first counterexample of pthread/stack-2 is at least halved") {
  auto tm = test::model_of_file(std::string(SIREN_SHARED_DIR) + "/benchmarks/svcomp/pthread/stack-2.c");
  REQUIRE(tm.has_value());
  check::CheckOptions o;
  o.engine = "explicit";
  o.shorten = false;
  check::CheckResult found = check::check(*tm, o);
  REQUIRE(found.verdict == check::Verdict::Unsafe);
  check::CheckResult shortened = found;
  o.shorten_seconds = 20;
  check::shorten_counterexample(*tm, o, shortened);
  REQUIRE(shortened.verdict == check::Verdict::Unsafe);
  CHECK(shortened.stats.found_steps == found.trace.size());
  CHECK(shortened.stats.found_statements == ir::statement_rows(found.trace).size());
  CHECK(shortened.stats.found_switches == check::context_switches(found.trace));
  // at least halved, in steps and in statements, and it still ends in the violation
  CHECK(2 * shortened.trace.size() <= found.trace.size());
  CHECK(2 * ir::statement_rows(shortened.trace).size() <= ir::statement_rows(found.trace).size());
  CHECK(shortened.trace.back().stmt == found.trace.back().stmt);
  CHECK(shortened.bound == shortened.trace.size());
  // check() shortens by default
  o.shorten_seconds = 20;
  o.shorten = true;
  const check::CheckResult dflt = check::check(*tm, o);
  CHECK(dflt.trace.size() == shortened.trace.size());
}
