// The differential driver and the shrinker (tools/fuzz/driver.hpp).
#include "tools/fuzz/driver.hpp"

#include "race/race.hpp"
#include "frontend/frontend.hpp"
#include "ir/access.hpp"
#include "ir/interpreter.hpp"
#include "ir/points_to.hpp"
#include "native/native.hpp"
#include "ir/thread_model.hpp"
#include "ir/validator.hpp"
#include "ir/transactions.hpp"
#include "reduction/scheduler_constraints.hpp"
#include "reduction/sir.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <optional>
#include <set>
#include <stdexcept>

namespace siren::fuzz {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

namespace {

double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

/// The point `seconds` from now (a siren check deadline).
clock_type::time_point deadline_in(double seconds) {
  return clock_type::now() + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

struct Translated {
  std::optional<ir::ThreadModel> tm;
  std::string error;
};

Translated translate(const std::string& text, const std::string& tmp_dir, bool broken_frontend = false,
                     bool broken_mutex_kinds = false, bool broken_bitfields = false) {
  Translated t;
  const std::string path = (fs::path(tmp_dir) / "prog.c").string();
  write_file(path, text);
  frontend::FrontendOptions fo;
  fo.test_drop_pointer_initialisers = broken_frontend;
  fo.test_ignore_mutex_kinds = broken_mutex_kinds;
  fo.test_wrong_bitfield_layout = broken_bitfields;
  frontend::FrontendResult fr = frontend::translate_file(path, fo);
  if (fr.status != frontend::FrontendStatus::Ok || !fr.program) {
    t.error = "front end rejected the program";
    for (const auto& d : fr.diagnostics) t.error += "\n  " + d.str();
    return t;
  }
  if (auto problems = ir::validate(*fr.program); !problems.empty()) {
    t.error = "invalid IR: " + problems.front();
    return t;
  }
  t.tm = ir::build_thread_model(*fr.program, ir::ThreadModelOptions{});
  return t;
}

const char* oracle_name(explicit_state::ExploreVerdict v) {
  switch (v) {
    case explicit_state::ExploreVerdict::Unsafe: return "UNSAFE";
    case explicit_state::ExploreVerdict::Safe: return "SAFE";
    case explicit_state::ExploreVerdict::SafeUpToBound: return "SAFE_UP_TO_BOUND";
    case explicit_state::ExploreVerdict::Unknown: return "UNKNOWN";
  }
  return "?";
}

/// The rows of an explorer counterexample (thread names, lines, started threads, nondet
/// values), as `siren check` prints them.
std::vector<native::TraceStep> native_steps(const ir::ThreadModel& tm, const std::vector<ir::Value>& initial,
                                            const std::vector<ir::Step>& schedule) {
  std::vector<native::TraceStep> out;
  ir::Interpreter interp(tm);
  ir::State state = interp.initial_state(initial);
  for (std::size_t j = 0; j < schedule.size(); ++j) {
    const ir::State before = state;
    const ir::StepResult r = interp.step(state, schedule[j]);
    const ir::TraceRow row =
        ir::make_trace_row(tm, interp, static_cast<unsigned>(j + 1), schedule[j], r, before, state);
    out.push_back({row.thread, row.line, row.started, row.nondet, row.access});
    if (r.outcome != ir::StepOutcome::Ok) break;
  }
  return out;
}

std::vector<native::TraceStep> native_steps(const std::vector<ir::TraceRow>& rows) {
  std::vector<native::TraceStep> out;
  for (const auto& row : rows) out.push_back({row.thread, row.line, row.started, row.nondet, row.access});
  return out;
}

std::string native_trace_text(const native::Binary& b, const native::Run& r) {
  std::string out;
  for (const auto& t : native::trace_lines(b, r))
    out += fmt::format("\n    {} {}:{} {}", t.thread_name, t.file, t.line, t.what);
  return out;
}

/// The explorer's counterexample, run natively: "" when it happens (a property violation
/// fails natively too; a memory-safety error crashes), else why not.
std::string native_replay_error(const native::Binary& bin, const ir::ThreadModel& tm, const explicit_state::ExploreResult& ex,
                                RunResult& rr) {
  const auto steps = native_steps(tm, ex.error_initial_nondet, ex.error_trace);
  const native::Summary s = native::replay(bin, native::schedule_of(steps), false);
  ++rr.native_replayed;
  const bool memsafety = ex.error_kind && *ex.error_kind == ir::AssertKind::MemSafety;
  const bool ok = s.ok && (memsafety ? s.count(native::Outcome::Crash) > 0 : s.failure.has_value());
  if (ok) return "";
  return fmt::format("the explorer's counterexample ({} steps, {}) does not happen natively ({})",
                     ex.error_trace.size(), memsafety ? "memory-safety error: " + ex.reason : std::string("assertion"),
                     s.ok ? (s.counts.empty() ? "no run" : native::outcome_name(s.counts.begin()->first)) : s.error);
}

native::Binary native_binary(const DriverOptions& o) {
  return native::compile((fs::path(o.tmp_dir) / "prog.c").string(), {}, (fs::path(o.tmp_dir) / "native").string());
}

/// The native oracle's comparison for one program (Config::engine "native"); returns why it
/// disagrees, or "".
std::string native_compare(const Program& p, const ir::ThreadModel& tm, const explicit_state::ExploreResult& ex,
                           const std::function<const race::RaceAnswer&()>& race_base, const DriverOptions& o,
                           RunResult& rr) {
  const auto t0 = clock_type::now();
  const native::Binary bin = native_binary(o);
  struct Done {
    RunResult& rr;
    clock_type::time_point t0;
    ~Done() { rr.native_seconds += since(t0); }
  } done{rr, t0};
  if (!bin.ok) return "native: " + bin.error;
  native::Options no;
  no.runs = o.native_runs;
  no.seed = p.seed * 7919;
  no.run_ms = 3000;
  no.timeout_s = 120;
  // A stress test: native_runs PCT schedules (depth 1, 2, 3 in turn), then half as many of the
  // mixed strategy (its demote, round-robin and random schedules reach what PCT's few
  // preemptions do not). The first failure of either is the answer.
  auto stress = [&bin](native::Options opt) {
    native::Options pct = opt;
    pct.strategy = "pct";
    pct.pct_depth = 0;
    native::Summary s = native::run(bin, pct);
    if (!s.ok || s.failure || s.count(native::Outcome::Crash)) return s;
    native::Options mixed = opt;
    mixed.runs = std::max(1u, opt.runs / 2);
    mixed.seed = opt.seed + opt.runs;
    native::Summary m = native::run(bin, mixed);
    if (!m.ok) return m;
    m.runs += s.runs;
    m.seconds += s.seconds;
    for (const auto& [outcome, n] : s.counts) m.counts[outcome] += n;
    return m;
  };
  // Assertions: the explorer's counterexample happens natively; a program it proves SAFE
  // (every execution ends within the bound) has no native violation.
  if (ex.verdict == explicit_state::ExploreVerdict::Unsafe) {
    if (std::string why = native_replay_error(bin, tm, ex, rr); !why.empty()) return why;
  } else if (ex.verdict == explicit_state::ExploreVerdict::Safe) {
    const native::Summary s = stress(no);
    rr.native_runs += s.runs;
    if (!s.ok) return "native: " + s.error;
    if (s.failure)
      return fmt::format("explorer SAFE, but native run {} (seed {}, {}) fails: {}{}", s.failure->index,
                         s.failure->seed, s.failure->strategy, s.failure->message, native_trace_text(bin, *s.failure));
    if (s.count(native::Outcome::Crash))
      return fmt::format("explorer SAFE, but {} native runs crash", s.count(native::Outcome::Crash));
  }
  // Races: race --reduction none's racy schedule is racy natively; a program it proves
  // race-free has no native race.
  const race::RaceAnswer& rb = race_base();
  if (rb.internal_error) return "race --reduction none: internal error: " + rb.reason;
  if (rb.verdict == check::Verdict::Unsafe) {
    const native::Summary s = native::replay(
        bin, native::schedule_of(native_steps(rb.trace), {{rb.first.thread_name, rb.first.line, rb.first.write, rb.first.variable},
                                                      {rb.second.thread_name, rb.second.line, rb.second.write, rb.second.variable}}),
        true);
    ++rr.native_replayed;
    if (!s.ok || !s.failure || s.failure->outcome != native::Outcome::Race)
      return fmt::format("race --reduction none's race on {} ({} steps) does not happen natively ({})",
                         rb.first.variable, rb.trace.size(),
                         s.ok ? (s.failure ? s.failure->message : std::string("no race")) : s.error);
  } else if (rb.verdict == check::Verdict::Safe) {
    native::Options ro = no;
    ro.races = true;
    ro.seed = p.seed * 7919 + 1;
    const native::Summary s = stress(ro);
    rr.native_runs += s.runs;
    if (!s.ok) return "native: " + s.error;
    if (s.failure && s.failure->outcome == native::Outcome::Race)
      return fmt::format("race --reduction none proves no race, but native run {} (seed {}, {}) has one{}",
                         s.failure->index, s.failure->seed, s.failure->strategy, native_trace_text(bin, *s.failure));
  }
  return "";
}

}  // namespace

std::vector<Config> available_configs() {
  const std::string dir = (fs::temp_directory_path() / fmt::format("siren-fuzz-probe-{}", ::getpid())).string();
  fs::create_directories(dir);
  Translated t = translate("int main(void) { return 0; }\n", dir);
  fs::remove_all(dir);
  if (!t.tm) throw std::runtime_error("probe program: " + t.error);
  std::vector<std::string> reductions = reduction::scheduler_constraint_names();
  for (const char* r : {"none", "mpor", "sir"})
    if (std::find(reductions.begin(), reductions.end(), r) == reductions.end()) reductions.push_back(r);
  const std::vector<std::string> solvers{"cadical", "z3", "boolector", "bitwuzla", "kissat", "minisat"};
  auto usable = [&](const std::string& red, const std::string& sol) {
    check::CheckOptions co;
    co.bound = 2;
    co.engine = "bmc";
    co.reduction = red;
    co.solver = sol;
    const check::CheckResult r = check::check(*t.tm, co);
    return !(r.verdict == check::Verdict::Unknown &&
             (r.reason.find("not implemented") != std::string::npos ||
              r.reason.find("not available") != std::string::npos || r.reason.find("unknown") != std::string::npos));
  };
  std::vector<Config> out;
  for (const auto& red : reductions)
    for (const auto& sol : solvers)
      if (usable(red, sol)) out.push_back({red, sol});
  out.push_back({"none", "cadical", "explicit"});
  for (const auto& red : reductions) {
    if (red == "none") continue;
    check::CheckOptions co;
    co.bound = 2;
    co.reduction = red;
    const race::RaceAnswer r = race::check_reach(*t.tm, co, {{0, {0}}});
    if (r.verdict == check::Verdict::Unsafe) out.push_back({red, "cadical", "reach"});
  }
  {  // the native oracle, when clang-16 and the runtime are there
    const std::string ndir = (fs::temp_directory_path() / fmt::format("siren-fuzz-probe-{}", ::getpid())).string();
    fs::create_directories(ndir);
    write_file(ndir + "/probe.c", "int main(void) { return 0; }\n");
    const native::Binary b = native::compile(ndir + "/probe.c", {}, ndir);
    fs::remove_all(ndir);
    if (b.ok) out.push_back({"none", "cadical", "native"});
    else std::fprintf(stderr, "siren-fuzz: native oracle unavailable: %s\n", b.error.c_str());
  }
  for (const auto& red : reductions) {
    // What `siren race` accepts besides none.
    if (red != "mpor" && red != "sir") continue;
    check::CheckOptions co;
    co.bound = 2;
    co.reduction = red;
    co.engine = "bmc";
    const race::RaceAnswer r = race::check_race(*t.tm, co);
    if (!(r.verdict == check::Verdict::Unknown && !r.reason.empty())) out.push_back({red, "cadical", "race"});
  }
  out.push_back({"none", "cadical", "race-search"});  // `siren race`'s explicit-state search
  return out;
}

namespace {
/// Some access goes through a pointer (a non-constant address) that may designate a global
/// or heap object (or anything).
bool pointer_to_shared(const ir::ThreadModel& tm) {
  const ir::PointsTo pts = ir::PointsTo::analyse(tm);
  for (ir::ThreadId t = 0; t < tm.threads.size(); ++t)
    for (std::uint32_t pc = 0; pc < tm.threads[t].code.size(); ++pc)
      for (const ir::Access& a : ir::memory_accesses(tm, t, pc)) {
        if (a.static_cell() || !a.addr || a.addr->is_const()) continue;
        const ir::PtsSet s = pts.of(t, a.addr);
        if (s.any) return true;
        for (const ir::PtsTarget& x : s.targets)
          if (x.obj < tm.objects.size() &&
              (tm.objects[x.obj].kind == ir::ObjectKind::Global || tm.objects[x.obj].kind == ir::ObjectKind::Heap))
            return true;
      }
  return false;
}
}  // namespace

namespace {
RunResult run_parameterized(const Program& p, const DriverOptions& o);

/// siren check's options for a bmc or explicit configuration under the driver's options.
check::CheckOptions check_options(const Config& c, const DriverOptions& o) {
  check::CheckOptions co;
  co.engine = c.engine;
  co.bound = o.bound;
  co.reduction = c.reduction;
  co.solver = c.solver;
  if (c.engine == "bmc") co.granularity = o.granularity;
  co.tx_unwind = o.tx_unwind;
  co.deepening = o.deepening;
  co.shorten = o.shorten;
  if (o.check_timeout > 0)
    co.deadline = deadline_in(o.check_timeout);
  return co;
}
}  // namespace

RunResult run_program(const Program& p, const DriverOptions& o) {
  if (p.templ == "param") return run_parameterized(p, o);
  RunResult rr;
  auto t0 = clock_type::now();
  Translated t = translate(p.to_c(), o.tmp_dir, o.broken_frontend, o.broken_mutex_kinds, o.broken_bitfields);
  rr.frontend_seconds = since(t0);
  if (!t.tm) {  // the generator must only write programs the front end accepts
    rr.outcome = Outcome::Disagree;
    rr.detail = "generator/front end: " + t.error;
    return rr;
  }
  const ir::ThreadModel& tm = *t.tm;
  rr.pointer_to_shared = pointer_to_shared(tm);
  if (o.granularity != "instruction") {
    const ir::Transactions txs(tm, ir::transaction_options(o.granularity, o.tx_unwind));
    for (ir::ThreadId u = 0; u < tm.threads.size(); ++u)
      for (std::uint32_t pc = 0; pc < tm.threads[u].code.size(); ++pc)
        rr.unwinds_loop = rr.unwinds_loop || (o.tx_unwind > 0 && txs.boundary(u, pc) && txs.unwinds_from(u, pc));
    rr.carries_unlock = txs.carried_unlock_steps() > 0;
    rr.balanced_sections = txs.balanced_sections() > 0;
    if (rr.balanced_sections && o.generator.sections) rr.section_pairs = reduction::analyse_sir(tm).section_pairs > 0;
  }

  explicit_state::ExploreOptions eo;
  eo.bound = o.bound;
  eo.max_states = o.max_states;
  eo.count_schedules = false;
  t0 = clock_type::now();
  const explicit_state::ExploreResult ex = explicit_state::explore(tm, eo);
  rr.explore_seconds = since(t0);
  rr.oracle = ex.verdict;
  rr.oracle_states = ex.states;
  if (ex.verdict == explicit_state::ExploreVerdict::Unknown) {
    // The generator only dereferences valid pointers (generator.hpp), so a memory-safety
    // error the explorer finds must crash natively; if it does not, siren's model is wrong.
    const bool native_on = std::any_of(o.configs.begin(), o.configs.end(), [](const Config& c) { return c.engine == "native"; });
    if (native_on && ex.error_kind && *ex.error_kind == ir::AssertKind::MemSafety) {
      const auto tn = clock_type::now();
      const native::Binary bin = native_binary(o);
      std::string why = bin.ok ? native_replay_error(bin, tm, ex, rr) : "native: " + bin.error;
      rr.native_seconds += since(tn);
      if (!why.empty()) {
        rr.outcome = Outcome::Disagree;
        rr.detail = "native execution: " + why;
        ConfigResult cr;
        cr.config = {"none", "cadical", "native"};
        cr.agrees = false;
        cr.why = rr.detail;
        cr.result.verdict = check::Verdict::Unknown;
        rr.checks.push_back(std::move(cr));
        return rr;
      }
    }
    rr.outcome = Outcome::Skipped;
    rr.detail = "explorer: UNKNOWN: " + ex.reason;
    return rr;
  }
  if (ex.verdict == explicit_state::ExploreVerdict::Unsafe) {
    rr.error_steps = ex.error_trace.size();
    std::set<ir::ThreadId> ts;
    for (const ir::Step& s : ex.error_trace) ts.insert(s.thread);
    rr.error_threads = ts.size();
    rr.error_workers = ts.size() - ts.count(0);
  }

  // The oracle for the explicit engine: the explorer without a bound (computed when needed).
  std::optional<explicit_state::ExploreResult> unbounded;
  auto unbounded_oracle = [&]() -> const explicit_state::ExploreResult& {
    if (!unbounded) {
      explicit_state::ExploreOptions ue = eo;
      ue.bound = 0;
      unbounded = explicit_state::explore(tm, ue);
    }
    return *unbounded;
  };

  // The reference for race configurations: race checking without a reduction.
  std::optional<race::RaceAnswer> race_base;
  const bool tx = o.granularity != "instruction";
  auto race_under = [&](const std::string& reduction, const std::string& granularity,
                        const std::string& engine = "bmc") {
    check::CheckOptions co;
    co.engine = engine;
    co.bound = o.bound;
    co.reduction = reduction;
    co.granularity = granularity;
    if (o.check_timeout > 0)
      co.deadline = deadline_in(o.check_timeout);
    return race::check_race(tm, co);
  };

  t0 = clock_type::now();
  for (const Config& c : o.configs) {
    ConfigResult cr;
    cr.config = c;
    if (c.engine == "reach") {
      // Every control state the explorer reached (or a sample) must be reachable under the
      // reduction: one encoding, one query per control state.
      std::vector<const explicit_state::ControlState*> states;
      for (const explicit_state::ControlState& cs : ex.control_states) states.push_back(&cs);
      if (o.reach_samples > 0 && states.size() > o.reach_samples) {
        std::mt19937_64 pick(p.seed);
        std::shuffle(states.begin(), states.end(), pick);
        states.resize(o.reach_samples);
      }
      std::optional<ir::Transactions> txs;
      if (tx) txs.emplace(tm, ir::transaction_options(o.granularity));
      std::vector<race::RaceQuery> qs;
      for (const explicit_state::ControlState* cs : states) {
        race::RaceQuery q;
        q.control = race::control_targets(tm, *cs);
        if (txs && std::any_of(q.control.begin(), q.control.end(),
                               [&](const race::ControlTarget& ct) { return !txs->boundary(ct.thread, ct.pcs[0]); }))
          continue;  // not a state between transactions
        if (!q.control.empty()) qs.push_back(std::move(q));
      }
      race::RaceRunOptions ro;
      ro.check.bound = o.bound;
      ro.check.reduction = c.reduction;
      ro.check.granularity = o.granularity;
      if (o.check_timeout > 0)
        ro.check.deadline = deadline_in(o.check_timeout);
      std::size_t reached = 0, timeouts = 0;
      std::string why;
      race::solve_race_queries(tm, qs, ro, [&](std::size_t i, const race::RaceAnswer& a) {
        if (a.verdict == check::Verdict::Unsafe) ++reached;
        else if (a.verdict == check::Verdict::Unknown && !a.internal_error && a.time_limit) ++timeouts;
        else if (why.empty()) {
          std::string where;
          for (const auto& tg : qs[i].control)
            where += (where.empty() ? "" : ",") + tm.threads[tg.thread].name + ":" +
                     (tg.pcs[0] == tm.threads[tg.thread].code.size() ? std::string("done") : tm.where(tm.threads[tg.thread].code[tg.pcs[0]].loc) + "@" + std::to_string(tg.pcs[0]));
          why = fmt::format("control state ({}) the explorer reaches is {}{}", where, check::verdict_name(a.verdict),
                            a.reason.empty() ? "" : " [" + a.reason + "]");
        }
      });
      rr.reach_asked += qs.size();
      cr.result.verdict = why.empty() ? check::Verdict::Unsafe : check::Verdict::Safe;
      cr.result.reason = fmt::format("{} of {} control states reached, {} timeouts", reached, qs.size(), timeouts);
      if (!why.empty()) {
        cr.agrees = false;
        cr.why = fmt::format("{}: {}", c.str(), why);
        if (rr.outcome != Outcome::Disagree) {
          rr.outcome = Outcome::Disagree;
          rr.detail = cr.why;
        }
      }
      rr.checks.push_back(std::move(cr));
      continue;
    }
    if (c.engine == "native") {
      const std::string why = native_compare(p, tm, ex, [&]() -> const race::RaceAnswer& {
        if (!race_base) race_base = race_under("none", "instruction");
        return *race_base;
      }, o, rr);
      cr.result.verdict = check::Verdict::Safe;
      if (!why.empty()) {
        cr.agrees = false;
        cr.result.verdict = check::Verdict::Unsafe;
        cr.why = "native execution: " + why;
        if (rr.outcome != Outcome::Disagree) {
          rr.outcome = Outcome::Disagree;
          rr.detail = cr.why;
        }
      }
      rr.checks.push_back(std::move(cr));
      continue;
    }
    if (c.engine == "race" || c.engine == "race-search") {
      if (!race_base) race_base = race_under("none", "instruction");
      const bool search = c.engine == "race-search";
      const race::RaceAnswer a = search ? race_under("none", "instruction", "explicit") : race_under(c.reduction, o.granularity);
      cr.result.verdict = a.verdict;
      cr.result.reason = a.reason;
      cr.result.internal_error = a.internal_error || race_base->internal_error;
      const bool base_race = race_base->verdict == check::Verdict::Unsafe;
      const bool base_none = race_base->verdict == check::Verdict::Safe || race_base->verdict == check::Verdict::SafeUpToBound;
      const bool got_race = a.verdict == check::Verdict::Unsafe;
      const bool got_none = a.verdict == check::Verdict::Safe || a.verdict == check::Verdict::SafeUpToBound;
      std::string why;
      if (cr.result.internal_error) why = "internal error: " + (a.internal_error ? a.reason : race_base->reason);
      else if (base_race && got_none) why = "missed the race on " + race_base->first.variable + " that race --reduction none finds";
      // Transactions reach further than K instructions: a (replayed) race beyond them is real.
      // So does the explicit-state search, which has no step bound.
      else if (base_none && got_race && !((tx || search) && race_base->verdict == check::Verdict::SafeUpToBound &&
                                          a.trace.size() >= o.bound))
        why = "a race on " + a.first.variable + " that race --reduction none does not find";
      if (!why.empty()) {
        cr.agrees = false;
        cr.why = fmt::format("race --reduction none {}, {} {}: {}", check::verdict_name(race_base->verdict), c.str(),
                             check::verdict_name(a.verdict), why);
        if (rr.outcome != Outcome::Disagree) {
          rr.outcome = Outcome::Disagree;
          rr.detail = cr.why;
        }
      }
      rr.checks.push_back(std::move(cr));
      continue;
    }
    // The explicit engine has no step bound: its oracle is the unbounded explorer run.
    const bool unbounded_engine = c.engine == "explicit";
    const explicit_state::ExploreResult& oracle = unbounded_engine ? unbounded_oracle() : ex;
    if (oracle.verdict == explicit_state::ExploreVerdict::Unknown) {
      rr.checks.push_back(std::move(cr));  // nothing to compare with
      continue;
    }
    cr.result = check::check(tm, check_options(c, o));
    const check::CheckResult& r = cr.result;
    const std::string got = check::verdict_name(r.verdict);
    auto fail = [&](std::string why) {
      cr.agrees = false;
      cr.why = fmt::format("explorer {} ({}), check {} {}: {}", oracle_name(oracle.verdict),
                           unbounded_engine ? std::string("unbounded") : fmt::format("bound {}", o.bound), c.str(),
                           got, why);
      if (!r.reason.empty()) cr.why += " [reason: " + r.reason + "]";
    };
    if (r.internal_error) {
      fail("internal error");
    } else if (r.verdict == check::Verdict::Unknown) {
      if (r.time_limit) {
        if (rr.outcome == Outcome::Agree) {
          rr.outcome = Outcome::Timeout;
          rr.detail = c.str() + ": timeout";
        }
      } else {
        fail("the checker gave up on a program the explorer decided");
      }
    } else {
      switch (oracle.verdict) {
        case explicit_state::ExploreVerdict::Unsafe:
          if (r.verdict != check::Verdict::Unsafe) fail("missed the violation");
          // BMC: the explorer's BFS trace is a shortest one; the checker's may be longer (it
          // asks the property at some depths only), never shorter, and never beyond the bound.
          // (The explicit engine's depth-first traces have no such bounds.)
          // (Transaction frames: K transactions may hold more than K instructions.)
          else if (!unbounded_engine && (r.trace.size() < ex.error_trace.size() || (!tx && r.trace.size() > o.bound)))
            fail(fmt::format("counterexample of {} steps, the shortest has {}", r.trace.size(),
                             ex.error_trace.size()));
          break;
        case explicit_state::ExploreVerdict::Safe:
          if (r.verdict == check::Verdict::Unsafe) fail("spurious violation");
          // Unbounded SAFE is a proof the explicit engine must find too.
          else if (unbounded_engine && r.verdict != check::Verdict::Safe) fail("no proof");
          break;
        case explicit_state::ExploreVerdict::SafeUpToBound:
          if (tx && !unbounded_engine && r.verdict != check::Verdict::SafeUpToBound) {
            // Transaction frames see beyond K instructions: a violation found there is real
            // (replayed) but must have more than K steps, and the explorer without a bound
            // must not contradict the verdict.
            const auto& u = unbounded_oracle();
            if (r.verdict == check::Verdict::Unsafe && r.trace.size() <= o.bound) fail("spurious violation");
            else if (r.verdict == check::Verdict::Unsafe && u.verdict == explicit_state::ExploreVerdict::Safe)
              fail("spurious violation (the unbounded explorer proves the program safe)");
            else if (r.verdict == check::Verdict::Safe && u.verdict == explicit_state::ExploreVerdict::Unsafe)
              fail("claims SAFE, the unbounded explorer finds a violation");
            break;
          }
          if (r.verdict == check::Verdict::Unsafe) fail("spurious violation");
          // A state at depth K can still move: an execution of K+1 steps exists.
          else if (r.verdict == check::Verdict::Safe) fail("claims every execution ends within the bound");
          break;
        case explicit_state::ExploreVerdict::Unknown: break;
      }
    }
    if (!cr.agrees && rr.outcome != Outcome::Disagree) {
      rr.outcome = Outcome::Disagree;
      rr.detail = cr.why;
    }
    rr.checks.push_back(std::move(cr));
  }
  rr.check_seconds = since(t0);
  return rr;
}

namespace {
// Parameterized programs (DriverOptions::max_instances). A model with at most N threads
// (main included) blocks where one more would start, so its executions are those of the
// instances with 0..N-1 workers, each possibly cut short: it has a violation iff one of them
// does (a cut execution is a prefix of an instance's execution with main delayed).
RunResult run_parameterized(const Program& p, const DriverOptions& o) {
  RunResult rr;
  auto disagree = [&](ConfigResult cr, std::string why) {
    cr.agrees = false;
    cr.why = std::move(why);
    if (rr.outcome != Outcome::Disagree) {
      rr.outcome = Outcome::Disagree;
      rr.detail = cr.why;
    }
    rr.checks.push_back(std::move(cr));
  };
  auto t0 = clock_type::now();
  // The instances, each explored without a bound (the oracle).
  std::vector<explicit_state::ExploreVerdict> inst;
  for (unsigned k = 0; k <= o.max_instances; ++k) {
    Program q = p;
    q.instances = static_cast<int>(k);
    Translated t = translate(q.to_c(), o.tmp_dir);
    if (!t.tm) {
      rr.outcome = Outcome::Disagree;
      rr.detail = fmt::format("generator/front end (instance with {} workers): {}", k, t.error);
      return rr;
    }
    explicit_state::ExploreOptions eo;
    eo.bound = 0;
    eo.max_states = o.max_states;
    eo.count_schedules = false;
    const explicit_state::ExploreResult ex = explicit_state::explore(*t.tm, eo);
    inst.push_back(ex.verdict);
    rr.oracle_states += ex.states;
    if (ex.verdict == explicit_state::ExploreVerdict::Unsafe && std::count(inst.begin(), inst.end(), ex.verdict) == 1) {
      rr.param_failing_instance = k;
      rr.error_steps = ex.error_trace.size();
    }
  }
  rr.explore_seconds = since(t0);
  // A model with `threads` threads gives the worker created once (t1, before the loop) its
  // slot first (ir/thread_model.cpp): it covers the instances with up to threads - 1 - fixed
  // loop workers, or only prefixes of the instance without any when threads <= fixed.
  unsigned fixed = 0;
  for (const Thread& w : p.workers) fixed += !w.removed && !w.parameterized;
  auto covered = [&](unsigned threads) { return threads > fixed ? static_cast<int>(threads - 1 - fixed) : -1; };
  // The oracle's verdict for the instances with up to `most` workers (-1: none, SAFE).
  auto up_to = [&](int most) {
    bool unknown = false;
    for (int k = 0; k <= most && k < static_cast<int>(inst.size()); ++k) {
      if (inst[static_cast<std::size_t>(k)] == explicit_state::ExploreVerdict::Unsafe) return explicit_state::ExploreVerdict::Unsafe;
      unknown = unknown || inst[static_cast<std::size_t>(k)] == explicit_state::ExploreVerdict::Unknown;
    }
    if (most >= static_cast<int>(inst.size())) unknown = true;  // instances not explored
    return unknown ? explicit_state::ExploreVerdict::Unknown : explicit_state::ExploreVerdict::Safe;
  };
  const bool any_unsafe = std::find(inst.begin(), inst.end(), explicit_state::ExploreVerdict::Unsafe) != inst.end();
  rr.oracle = up_to(static_cast<int>(o.max_instances));
  if (inst[0] == explicit_state::ExploreVerdict::Unknown) {
    rr.outcome = Outcome::Skipped;
    rr.detail = "explorer: UNKNOWN on the instance without workers";
    return rr;
  }
  rr.param_ticket_beyond = p.ticket_workers > static_cast<int>(o.max_instances);

  // The parameterized program, with models of 1..max_instances+1 threads.
  write_file((fs::path(o.tmp_dir) / "prog.c").string(), p.to_c());
  frontend::FrontendResult fr = frontend::translate_file((fs::path(o.tmp_dir) / "prog.c").string(), {});
  if (fr.status != frontend::FrontendStatus::Ok || !fr.program) {
    rr.outcome = Outcome::Disagree;
    rr.detail = "generator/front end: the parameterized program is rejected";
    return rr;
  }
  auto model = [&](unsigned threads) {
    ir::ThreadModelOptions tmo;
    tmo.max_threads = threads;
    tmo.block_at_thread_limit = true;
    ir::ThreadModel tm = ir::build_thread_model(*fr.program, tmo);
    if (o.test_unstated_thread_bound) tm.thread_bound = 0;  // TEST ONLY: the bound goes unstated
    return tm;
  };
  // An answer for at most `threads` threads (0: the schedule's, with the bound it states)
  // against the instances.
  auto compare = [&](const Config& c, const check::CheckResult& r, unsigned threads, bool complete_engine) {
    ConfigResult cr;
    cr.config = c;
    cr.result = r;
    const unsigned bound = threads ? threads : r.thread_bound;
    const int most = bound ? covered(bound) : -1;  // instances the answer covers
    const std::string head =
        fmt::format("{} with {}: {}{}", c.str(), threads ? fmt::format("--threads {}", threads) : std::string("the thread schedule"),
                    check::verdict_name(r.verdict), r.thread_bound ? fmt::format(" (thread bound {})", r.thread_bound) : std::string());
    if (r.internal_error) return disagree(std::move(cr), head + ": internal error: " + r.reason);
    if (r.verdict == check::Verdict::Unknown) {
      if (!r.time_limit) return disagree(std::move(cr), head + ": gave up [" + r.reason + "]");
      if (rr.outcome == Outcome::Agree) {
        rr.outcome = Outcome::Timeout;
        rr.detail = head;
      }
      rr.checks.push_back(std::move(cr));
      return;
    }
    // A proof for any number of threads: no instance may fail.
    if (r.verdict == check::Verdict::Safe && any_unsafe)
      return disagree(std::move(cr), head + ": claims SAFE, but an instance fails");
    if (r.verdict == check::Verdict::Safe && p.ticket_workers > 0)
      return disagree(std::move(cr), head + fmt::format(": claims SAFE, but {} workers fail the ticket", p.ticket_workers));
    if (threads && r.thread_cut_reached && r.verdict != check::Verdict::Unsafe && r.thread_bound != threads)
      return disagree(std::move(cr), head + fmt::format(": a thread-bound cut was reached, the bound stated is {}", r.thread_bound));
    const bool complete = r.verdict == check::Verdict::Safe || (r.verdict == check::Verdict::SafeUpToBound && !r.steps_bounded);
    // A violation with at most `threads` threads is one of an instance it covers (or of a
    // prefix of the one without loop workers).
    if (threads && r.verdict == check::Verdict::Unsafe && up_to(std::max(most, 0)) == explicit_state::ExploreVerdict::Safe)
      return disagree(std::move(cr), head + fmt::format(": no instance with at most {} loop workers fails", std::max(most, 0)));
    if (complete && up_to(most) == explicit_state::ExploreVerdict::Unsafe)
      return disagree(std::move(cr), head + fmt::format(": complete, but an instance with at most {} loop workers fails", most));
    if (complete_engine && r.verdict != check::Verdict::Unsafe && up_to(most) == explicit_state::ExploreVerdict::Unsafe)
      return disagree(std::move(cr), head + ": missed the violation of an instance");
    if (complete && p.ticket_workers > 0 && most >= p.ticket_workers)
      return disagree(std::move(cr), head + fmt::format(": complete for {} loop workers, the ticket fails with {}", most, p.ticket_workers));
    rr.checks.push_back(std::move(cr));
  };

  t0 = clock_type::now();
  for (unsigned n = 1; n <= o.max_instances + 1; ++n) {
    const ir::ThreadModel tm = model(n);
    for (const Config& c : o.configs) {
      if (c.engine != "bmc" && c.engine != "explicit") continue;
      compare(c, check::check(tm, check_options(c, o)), n, c.engine == "explicit");
    }
  }
  // siren check's thread schedule (no --threads): from 8 threads, up to 32.
  {
    const Config c{"none", "cadical", "auto"};
    check::CheckOptions co;
    co.engine = "auto";
    co.bound = 0;
    co.deadline = deadline_in(o.param_timeout);
    co.test_modular_no_interference = o.test_modular_no_interference;
    co.shorten = o.shorten;
    const ir::ThreadModel tm = model(8);
    check::CheckResult r = check::check_growing_threads(tm, co, 8, 32, [&](unsigned n) {
      return std::optional<ir::ThreadModel>(model(n));
    });
    rr.param_schedule = r;
    const std::size_t before = rr.checks.size();
    compare(c, r, 0, false);
    // Its counterexample happens natively (with however many threads it needed).
    const bool native_on = std::any_of(o.configs.begin(), o.configs.end(), [](const Config& x) { return x.engine == "native"; });
    if (rr.checks.size() > before && rr.checks.back().agrees && r.verdict == check::Verdict::Unsafe && native_on) {
      const auto tn = clock_type::now();
      const native::Binary bin = native_binary(o);
      std::string why;
      if (!bin.ok) {
        why = "native: " + bin.error;
      } else {
        const native::Summary s = native::replay(bin, native::schedule_of(native_steps(r.trace)), false);
        ++rr.native_replayed;
        if (!s.ok || !s.failure)
          why = fmt::format("the thread schedule's counterexample ({} steps) does not happen natively ({})", r.trace.size(),
                            s.ok ? std::string("no failure") : s.error);
      }
      rr.native_seconds += since(tn);
      if (!why.empty()) {
        rr.checks.pop_back();
        ConfigResult cr;
        cr.config = {"none", "cadical", "native"};
        cr.result = r;
        disagree(std::move(cr), "native execution: " + why);
      }
    }
    // (A ticket whose bug needs more workers than the instances compared: compare() rejects
    // SAFE and every complete answer whose thread bound covers them; main.cpp counts how many
    // the schedule found, --require-tickets.)
  }
  rr.check_seconds = since(t0);
  return rr;
}
}  // namespace

std::string failure_signature(const RunResult& r) {
  if (r.outcome != Outcome::Disagree) return "";
  for (const ConfigResult& c : r.checks)
    if (!c.agrees)
      return fmt::format("{} {}/{}{}", oracle_name(r.oracle), c.config.str(), check::verdict_name(c.result.verdict),
                         c.result.internal_error ? " internal" : "");
  return "frontend";
}

// --- generation with a verdict target ---------------------------------------------------

namespace {
bool remove_uid(std::vector<Stmt>& v, int uid) {
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it->uid == uid) {
      v.erase(it);
      return true;
    }
    if (remove_uid(it->body, uid) || remove_uid(it->els, uid)) return true;
  }
  return false;
}
}  // namespace

Program generate_program(std::uint64_t seed, const DriverOptions& o) {
  Program p = generate(seed, o.generator);
  // Free-form programs fail an assertion in most cases. For about half of the seeds the
  // explorer is asked which assertion fails first and that assertion is deleted, until the
  // program is SAFE: the remaining assertions hold in every interleaving (a real test for
  // spurious counterexamples). The targeted templates choose their verdict themselves.
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + 17);
  if (p.templ != "random" || std::uniform_real_distribution<double>(0, 1)(rng) >= o.safe_share) return p;
  for (int round = 0; round < 6; ++round) {
    std::vector<int> lines;
    Translated t = translate(p.to_c(&lines), o.tmp_dir);
    if (!t.tm) return p;
    explicit_state::ExploreOptions eo;
    eo.bound = o.bound;
    eo.max_states = o.max_states;
    eo.count_schedules = false;
    const explicit_state::ExploreResult ex = explicit_state::explore(*t.tm, eo);
    if (ex.verdict != explicit_state::ExploreVerdict::Unsafe) return p;
    const std::size_t line = ex.error_loc.line;
    if (line == 0 || line > lines.size() || lines[line - 1] < 0) return p;
    bool removed = remove_uid(p.main_body, lines[line - 1]);
    for (Thread& w : p.workers) removed = removed || remove_uid(w.body, lines[line - 1]);
    if (!removed) return p;
    p.templ = "random-safe";
  }
  return p;
}

// --- shrinking -----------------------------------------------------------------------------

namespace {

// Every statement list of the program in a fixed order (main first, then the workers).
void lists_of(std::vector<Stmt>& v, std::vector<std::vector<Stmt>*>& out) {
  out.push_back(&v);
  for (Stmt& s : v) {
    lists_of(s.body, out);
    lists_of(s.els, out);
  }
}
std::vector<std::vector<Stmt>*> lists_of(Program& p) {
  std::vector<std::vector<Stmt>*> out;
  lists_of(p.main_body, out);
  for (Thread& t : p.workers)
    if (!t.removed) lists_of(t.body, out);
  return out;
}

// Candidate edit number `j` of a kind applied to a copy; false when `j` is out of range.
// kind 0: delete a statement; kind 1: replace a compound statement by its body (+ else
// branch); kind 2: drop an else branch / a loop condition.
bool apply_edit(Program& p, int kind, std::size_t j) {
  std::size_t n = 0;
  for (std::vector<Stmt>* l : lists_of(p)) {
    for (std::size_t i = 0; i < l->size(); ++i) {
      Stmt& s = (*l)[i];
      bool applicable = false;
      if (kind == 0) applicable = s.kind != Stmt::Kind::Create;
      else if (kind == 1) applicable = s.kind != Stmt::Kind::Simple && s.kind != Stmt::Kind::Create && s.kind != Stmt::Kind::Join;
      else applicable = (s.kind == Stmt::Kind::If && !s.els.empty()) || (s.kind == Stmt::Kind::Loop && !s.text.empty());
      if (!applicable) continue;
      if (n++ != j) continue;
      if (kind == 0) {
        l->erase(l->begin() + static_cast<std::ptrdiff_t>(i));
      } else if (kind == 1) {
        std::vector<Stmt> repl = std::move(s.body);
        for (Stmt& e : s.els) repl.push_back(std::move(e));
        l->erase(l->begin() + static_cast<std::ptrdiff_t>(i));
        l->insert(l->begin() + static_cast<std::ptrdiff_t>(i), std::make_move_iterator(repl.begin()),
                  std::make_move_iterator(repl.end()));
      } else {
        if (s.kind == Stmt::Kind::If) s.els.clear();
        else s.text.clear();
      }
      return true;
    }
  }
  return false;
}

}  // namespace

Program shrink(const Program& p, const DriverOptions& o, const std::string& signature, int& steps, double max_seconds) {
  const auto start = clock_type::now();
  Program best = p;
  // Only the configuration that disagreed needs to run while shrinking.
  DriverOptions so = o;
  for (const Config& c : o.configs)
    if (signature.find(c.str()) != std::string::npos) so.configs = {c};
  auto still_fails = [&](const Program& cand) {
    return failure_signature(run_program(cand, so)) == signature;
  };
  bool progress = true;
  while (progress && since(start) < max_seconds) {
    progress = false;
    for (std::size_t w = 0; w < best.workers.size() && since(start) < max_seconds; ++w) {
      if (best.workers[w].removed) continue;
      Program cand = best;
      cand.workers[w].removed = true;
      if (still_fails(cand)) {
        best = std::move(cand);
        ++steps;
        progress = true;
      }
    }
    for (int kind = 0; kind < 3; ++kind) {
      for (std::size_t j = 0; since(start) < max_seconds;) {
        Program cand = best;
        if (!apply_edit(cand, kind, j)) break;
        if (still_fails(cand)) {
          best = std::move(cand);
          ++steps;
          progress = true;  // same j now names the next candidate
        } else {
          ++j;
        }
      }
    }
  }
  // Globals, the array and the pointer stay: deleting declarations rarely helps readability
  // and the program must keep compiling.
  return best;
}

void write_regression_case(const std::string& dir, const Program& p, const RunResult& r, const DriverOptions& o) {
  fs::create_directories(dir);
  write_file((fs::path(dir) / "main.c").string(), p.to_c());
  // The expected verdict is what a correct checker says: the explorer's answer, or for SAFE the
  // answer of a configuration that agreed (SAFE or SAFE_UP_TO_BOUND, depending on the bound).
  std::string expected = oracle_name(r.oracle);
  const ConfigResult* bad = nullptr;
  for (const ConfigResult& c : r.checks) {
    if (!c.agrees && !bad) bad = &c;
    if (c.agrees && r.oracle == explicit_state::ExploreVerdict::Safe) expected = check::verdict_name(c.result.verdict);
  }
  std::string desc = fmt::format("# Found by siren-fuzz (seed {}, template {}), shrunk.\n", p.seed, p.templ);
  if (bad) desc += "# " + bad->why + "\n";
  // A test-only reduction (not listed, `siren check` rejects it) is left out: the case then
  // checks that the default configuration gives the right answer.
  const auto listed = reduction::scheduler_constraint_names();
  const bool cli_config = bad && std::find(listed.begin(), listed.end(), bad->config.reduction) != listed.end();
  desc += fmt::format("args: --bound {}{}\n", o.bound, cli_config ? " " + bad->config.str() : "");
  desc += "verdict: " + expected + "\n";
  write_file((fs::path(dir) / "test.desc").string(), desc);
}

}  // namespace siren::fuzz
