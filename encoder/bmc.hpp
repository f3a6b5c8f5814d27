// Interleaved ("sel") bounded model checking of a thread model (DESIGN.md §B2): one thread
// step per time frame, the property checked at every depth in one incremental solver, a
// completeness check that turns "no violation up to K" into SAFE when no execution is longer
// than K steps, and every counterexample replayed through the concrete interpreter.
//
// This is the BMC engine alone; `siren check`'s engine choice is check/check.hpp.
#pragma once

#include "check/result.hpp"
#include "ir/thread_model.hpp"

namespace siren::encoder {

using check::CheckOptions;
using check::CheckResult;
using check::CheckStats;
using check::Verdict;
using ir::TraceRow;

/// Runs the BMC on `tm` (options.reduction, .solver, .bound, .deadline, .deepening,
/// .count_schedules) and fills `res` (its verdict, bound, trace, stats; `res.engine` stays as
/// the caller set it). May throw std::bad_alloc, which check::check turns into UNKNOWN.
void run_bmc(const ir::ThreadModel& tm, const CheckOptions& options, CheckResult& res);

}  // namespace siren::encoder
