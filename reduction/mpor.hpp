// MPOR (DESIGN.md §B3): monotonic partial order reduction as scheduler constraints.
// Selected with `--reduction mpor` through make_scheduler_constraints.
#pragma once

#include "reduction/scheduler_constraints.hpp"

namespace siren::reduction {

std::unique_ptr<SchedulerConstraints> make_mpor(const ir::ThreadModel& tm);

}  // namespace siren::reduction
