// SIR (DESIGN.md §B4): schedule-insensitivity reduction, MPOR with DEP ∧ SS when extending
// dependency chains. Selected with `--reduction sir` through make_scheduler_constraints.
#pragma once

#include "reduction/scheduler_constraints.hpp"

namespace siren::reduction {

std::unique_ptr<SchedulerConstraints> make_sir(const ir::ThreadModel& tm);

}  // namespace siren::reduction
