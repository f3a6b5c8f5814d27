// `siren check --solver portfolio`: the same check with CaDiCaL and with Z3 in two forked
// processes; the first definite answer wins (check/portfolio.cpp).
#pragma once

#include "check/result.hpp"
#include "ir/thread_model.hpp"

#include <chrono>
#include <functional>

namespace siren::check {

/// Runs check(tm, co) with solver "cadical" and with "z3" in two child processes. The child
/// with the first definite answer (else an internal error, else UNKNOWN) calls `report` on its
/// result (which prints it) and exits with report's value; that value is returned. `start` is
/// when the whole check began (for stats.total_seconds).
int run_portfolio(const ir::ThreadModel& tm, const CheckOptions& co, std::chrono::steady_clock::time_point start,
                  const std::function<int(const CheckResult&)>& report);

}  // namespace siren::check
