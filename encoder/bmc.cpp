// The deepening loop of interleaved BMC (DESIGN.md §B2 and Part C, "Incremental deepening"):
// frames are added one at a time to ONE incremental solver; the error of the next step, bad^k,
// is checked under an assumption (an execution of at most k steps followed by a failing
// assertion). MemSafety/Limit errors are remembered (the answer can no
// longer be SAFE) while the search for Property violations goes on.
//
// By default (CheckOptions::deepening "linear") every frame is a real step and bad^k is asked
// at every depth k < K. With "geometric" deepening, frames may be idle (an absorbing idle
// step), so V^k stands for the state after any execution of at most k steps, bad^k covers
// every shorter depth and is asked only when k + 1 is a power of two or k + 1 = K. On the
// shared SV-COMP tasks the per-depth queries were faster (benchmarks/DEEPENING.md): they
// constrain the solver more.
//
// Completeness: when no execution of k (real) steps can make another step (⋁_t can_move_t^k,
// with ¬idle^{k-1} in idle mode, is UNSAT), every execution has at most k steps and all of
// their errors were checked, so the answer is SAFE. Asked at depths ≤ 8, then every 4th depth
// up to 64 and every 8th after (geometric: at the property's depths), and at the bound K.
#include "encoder/bmc.hpp"

#include "encoder/engine.hpp"
#include "solvers/factory.hpp"

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <memory>
#include <new>
#include <optional>

namespace siren::encoder {

namespace {


const ErrorSite* true_site(Engine& e, const Frame& f, bool property) {
  for (const ErrorSite& s : f.errors)
    if ((s.kind == ir::AssertKind::Property) == property && e.dp.value(s.term) != 0) return &s;
  return nullptr;
}

void search(const ir::ThreadModel& tm, const CheckOptions& options, solvers::TermManager& terms,
            solvers::DecisionProcedure& dpr, reduction::SchedulerConstraints& sch, CheckResult& res) {
  using clock = std::chrono::steady_clock;
  auto timed_out = [&] { return options.deadline && clock::now() >= *options.deadline; };
  static const bool verbose = std::getenv("SIREN_BMC_VERBOSE") != nullptr;
  solvers::DecisionProcedure* dp = &dpr;
  Engine e(tm, terms, *dp, sch);
  e.absorbing_idle = options.deepening == "geometric";
  std::optional<ir::Transactions> tx;
  if (options.granularity != "instruction")
    e.tx = &tx.emplace(tm, ir::transaction_options(options.granularity, options.tx_unwind));
  e.make_initial_state();

  std::optional<ir::ErrorReason> other;  // a reachable MemSafety/Limit error
  unsigned checked = 0;              // bad^0 .. bad^{checked-1} are UNSAT
  const unsigned K = options.bound;
  auto collect = [&] {
    const auto st = dp->stats();
    res.stats.frames = static_cast<unsigned>(e.states.size() - 1);
    res.stats.granularity = options.granularity;
    res.stats.vars = st.vars;
    res.stats.clauses = st.clauses;
    res.stats.solve_calls = st.solve_calls;
    res.stats.solve_seconds = st.solve_seconds;
  };
  bool cut_found = false;            // a thread-bound cut is reachable (see cut_at below)
  auto timeout = [&] {
    res.verdict = Verdict::Unknown;
    res.bound = checked;
    res.reason = "timeout";
    res.time_limit = true;
    // A backend failure (boolector missing or crashing, Z3 error) is not a timeout.
    if (!timed_out() && !dp->last_error().empty() && dp->last_error() != "terminated") {
      res.reason = "solver " + dp->name() + ": " + dp->last_error();
      res.time_limit = false;
    }
    if (other) {
      res.reason += " (also: " + other->text + ")";
      res.limit = other->limit;
    }
    res.thread_cut_reached = res.thread_cut_reached || cut_found;
    collect();
  };
  auto solve = [&](Term a) {
    if (a == terms.mk_false()) return solvers::SolveResult::Unsat;
    const Term as[1] = {a};
    return dp->solve(as);
  };

  // Depths at which the property and completeness are asked (see the top of the file).
  auto checkpoint = [&](unsigned k) {
    const unsigned d = k + 1;
    if (!e.absorbing_idle) return true;
    return (d & (d - 1)) == 0 || d == K;
  };
  auto completeness_checkpoint = [&](unsigned k) {
    if (e.absorbing_idle) return true;  // same depths as the property
    return k <= 8 || k % (k <= 64 ? 4 : 8) == 0;
  };
  // No execution has more than k steps: frames 0..k-1 are all real steps, and no thread can move.
  auto complete_at = [&](unsigned k) {
    const Frame& f = e.frames[k];
    Term longer = k == 0 || !e.absorbing_idle ? f.any_can_move
                                              : terms.mk_and(terms.mk_not(e.frames[k - 1].idle), f.any_can_move);
    const auto q0 = clock::now();
    const auto r = solve(longer);
    if (verbose)
      std::fprintf(stderr, "[bmc] complete at %u: %s in %.3f s\n", k,
                   r == solvers::SolveResult::Sat ? "no" : r == solvers::SolveResult::Unsat ? "yes" : "unknown",
                   std::chrono::duration<double>(clock::now() - q0).count());
    return r;
  };
  // Executions cut by the thread bound (ir::is_thread_bound_cut): found when some state V^k
  // has a thread blocked at such an Assume; SAFE then holds up to tm.thread_bound threads.
  // Asked with the property at each depth until found (a query over all states at the end
  // would need one execution through all of them).
  std::vector<std::pair<ir::ThreadId, std::uint32_t>> cut_sites;  // (thread, pc) of each cut
  if (tm.thread_bound > 0)
    for (ir::ThreadId t = 0; t < tm.threads.size(); ++t)
      for (std::uint32_t p = 0; p < tm.threads[t].code.size(); ++p)
        if (ir::is_thread_bound_cut(tm.threads[t].code[p])) cut_sites.push_back({t, p});
  auto cut_at = [&](unsigned k) {
    std::vector<Term> cuts;
    if (!cut_found)
      for (const auto& [t, p] : cut_sites) {
        const Term pc = e.states[k].pc[t];
        cuts.push_back(terms.mk_and(terms.mk_and(e.states[k].started[t], terms.mk_eq(pc, terms.mk_bv(pc->sort.width, p))),
                                    terms.mk_not(e.encode(t, tm.threads[t].code[p].a, k))));
      }
    return terms.mk_or(cuts);
  };
  auto finish = [&](Verdict v, unsigned bound) {
    res.bound = bound;
    res.thread_cut_reached = res.thread_cut_reached || cut_found;  // (check::apply_thread_bound)
    if (other) {
      res.verdict = Verdict::Unknown;
      res.reason = other->text;
      res.limit = other->limit;
    } else {
      res.verdict = v;
    }
    collect();
  };

  for (unsigned k = 0;; ++k) {
    if (timed_out()) return timeout();
    e.build_frame(k);
    const Frame& f = e.frames[k];
    if (k == K) {
      const auto r = complete_at(k);
      if (r == solvers::SolveResult::Unknown) return timeout();
      return finish(r == solvers::SolveResult::Unsat ? Verdict::Safe : Verdict::SafeUpToBound, K);
    }
    if (checkpoint(k)) {
      // bad^k: an execution of at most k steps followed by a failing assertion (or, until one
      // is found, a MemSafety / Limit error or a thread-bound cut in V^k).
      const Term cut = cut_at(k);
      for (;;) {
        const Term query =
            terms.mk_or(other ? f.bad_property : terms.mk_or(f.bad_property, f.bad_other), cut_found ? terms.mk_false() : cut);
        const auto q0 = clock::now();
        const auto r = solve(query);
        if (verbose)
          std::fprintf(stderr, "[bmc] depth %u: %s in %.3f s (vars %llu)\n", k,
                       r == solvers::SolveResult::Sat ? "sat" : r == solvers::SolveResult::Unsat ? "unsat" : "unknown",
                       std::chrono::duration<double>(clock::now() - q0).count(),
                       static_cast<unsigned long long>(dp->stats().vars));
        if (r == solvers::SolveResult::Unknown) return timeout();
        if (r == solvers::SolveResult::Unsat) break;
        if (const ErrorSite* site = true_site(e, f, true)) {
          e.extract_trace(k, *site, res);
          return collect();
        }
        if (!other)
          if (const ErrorSite* o = true_site(e, f, false)) {
            other = error_reason(tm, *o);
            continue;
          }
        if (!cut_found && cut != terms.mk_false() && e.dp.value(cut) != 0) {
          cut_found = true;
          continue;
        }
        if (other) break;  // (a model of the property query without a true site: nothing to report)
        other = ir::ErrorReason{"an error of an unknown kind is reachable"};
      }
      checked = k + 1;
      if (completeness_checkpoint(k)) {
        const auto c = complete_at(k);
        if (c == solvers::SolveResult::Unknown) return timeout();
        if (c == solvers::SolveResult::Unsat) return finish(Verdict::Safe, k);
      }
    }
    if (timed_out()) return timeout();
    e.add_transition(k);
  }
}

// --count-schedules: complete schedules as the explorer counts them (docs/semantics.md, "The
// explorer"): at each depth k, the admitted sel-prefixes of k real steps that end (no thread
// can move) or have k = K steps, plus, for k < K, the (prefix, thread) pairs whose next step of
// that thread is a failing assertion (an error step ends the execution). Each set is
// enumerated under a fresh activation literal with blocking clauses over sel^0..sel^{k-1}.
void count_schedules(const ir::ThreadModel& tm, const CheckOptions& options, solvers::TermManager& terms,
                     solvers::DecisionProcedure& dp, reduction::SchedulerConstraints& sch, CheckResult& res) {
  using clock = std::chrono::steady_clock;
  auto timed_out = [&] { return options.deadline && clock::now() >= *options.deadline; };
  Engine e(tm, terms, dp, sch);
  e.absorbing_idle = false;
  std::optional<ir::Transactions> tx;
  if (options.granularity != "instruction")
    e.tx = &tx.emplace(tm, ir::transaction_options(options.granularity, options.tx_unwind));
  e.make_initial_state();
  const unsigned K = options.bound;
  std::uint64_t total = 0;
  bool gave_up = false;
  unsigned acts = 0;
  auto enumerate = [&](Term cond, unsigned k) {
    if (cond == terms.mk_false() || gave_up) return;
    Term act = terms.mk_var(solvers::Sort::boolean(), "count_act@" + std::to_string(acts++));
    const Term as[2] = {act, cond};
    for (;;) {
      if (timed_out()) {
        gave_up = true;
        res.reason = "timeout while counting schedules";
        res.time_limit = true;
        break;
      }
      const auto r = dp.solve(as);
      if (r == solvers::SolveResult::Unknown) {
        gave_up = true;
        res.reason = "timeout while counting schedules";
        res.time_limit = true;
        break;
      }
      if (r == solvers::SolveResult::Unsat) break;
      if (++total > options.max_schedules) {
        gave_up = true;
        res.reason = "more than " + std::to_string(options.max_schedules) + " schedules";
        break;
      }
      if (k == 0) break;  // the empty schedule: one
      std::vector<Term> differs;
      for (unsigned j = 0; j < k; ++j)
        differs.push_back(terms.mk_not(terms.mk_eq(e.frames[j].sel, terms.mk_bv(e.frames[j].sel->sort.width,
                                                                                 dp.value(e.frames[j].sel)))));
      dp.assert_formula(terms.mk_implies(act, terms.mk_or(differs)));
    }
    dp.assert_formula(terms.mk_not(act));
  };
  for (unsigned k = 0; !gave_up; ++k) {
    e.build_frame(k);
    const Frame& f = e.frames[k];
    enumerate(k == K ? terms.mk_true() : terms.mk_not(f.any_can_move), k);
    if (k == K) break;
    for (std::size_t t = 0; t < tm.threads.size(); ++t) {
      std::vector<Term> errs;
      for (const ErrorSite& s : f.errors)
        if (s.thread == t) errs.push_back(s.term);
      enumerate(terms.mk_or(errs), k);
    }
    e.add_transition(k);
  }
  const auto st = dp.stats();
  res.stats.frames = static_cast<unsigned>(e.states.size() - 1);
  res.stats.granularity = options.granularity;
  res.stats.vars = st.vars;
  res.stats.clauses = st.clauses;
  res.stats.solve_calls = st.solve_calls;
  res.stats.solve_seconds = st.solve_seconds;
  res.bound = K;
  res.verdict = Verdict::Unknown;
  if (!gave_up) {
    res.schedules = total;
    res.reason = "schedules counted (no verdict)";
  }
}

}  // namespace

void run_bmc(const ir::ThreadModel& tm, const CheckOptions& options, CheckResult& res) {
  using clock = std::chrono::steady_clock;
  auto sch = reduction::make_scheduler_constraints(options.reduction, tm);
  if (!sch) {
    res.reason = "reduction '" + options.reduction + "' is not implemented";
    return;
  }
  if (!ir::granularity_known(options.granularity)) {
    res.reason = "granularity '" + options.granularity + "' is not implemented";
    return;
  }
  // --solver (issue 10): any backend of solvers/factory.hpp.
  const auto names = solvers::decision_procedure_names();
  if (std::find(names.begin(), names.end(), options.solver) == names.end()) {
    res.reason = "solver '" + options.solver + "' is not available";
    return;
  }
  if (tm.threads.empty()) {
    res.internal_error = true;
    res.reason = "internal error: the thread model has no main thread";
    return;
  }
  auto timed_out = [&] { return options.deadline && clock::now() >= *options.deadline; };
  solvers::TermManager terms;
  auto dp = solvers::make_decision_procedure(options.solver, terms);
  dp->set_terminate(timed_out);
  dp->set_deadline(options.deadline);  // boolector's -t
  try {
    if (options.count_schedules) count_schedules(tm, options, terms, *dp, *sch, res);
    else search(tm, options, terms, *dp, *sch, res);
    res.stats.reduction = sch->stats();
    res.stats.reduction_text = sch->text_stats();
  } catch (const std::bad_alloc&) {
    // CaDiCaL is left in an invalid state by an allocation failure inside solve(), and its
    // destructor would then abort the process: leave it (we are about to exit).
    (void)dp.release();
    throw;
  }
}

}  // namespace siren::encoder
