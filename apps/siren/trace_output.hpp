// Printing a replayed schedule, shared by check, check --reach, race and triage: the text
// table (step, thread, file:line, statement, values that changed) and its JSON form.
#pragma once

#include "check/check.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace siren::app {

void print_trace_table(const std::vector<ir::TraceRow>& trace);
nlohmann::ordered_json trace_json(const std::vector<ir::TraceRow>& trace);

}  // namespace siren::app
