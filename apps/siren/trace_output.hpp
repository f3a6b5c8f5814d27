// Printing a replayed schedule, shared by check, check --reach, race and triage: the text
// table (step, thread, file:line, statement, values that changed) and its JSON form, at the
// level of C statements (ir::statement_rows, the default) or of the thread model's
// instructions (--trace-detail ir).
#pragma once

#include "check/check.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include <vector>

namespace siren::app {

/// --trace-detail statement|ir.
void add_trace_detail_option(CLI::App* cmd, std::string& detail);
/// The rows shown at `detail` ("statement": ir::statement_rows; "ir": every step).
std::vector<ir::TraceRow> shown_rows(const std::vector<ir::TraceRow>& trace, const std::string& detail);
/// "5 statements, 16 steps" (the statements of ir::statement_rows, the steps of the schedule).
std::string trace_size(const std::vector<ir::TraceRow>& trace);

void print_trace_table(const std::vector<ir::TraceRow>& trace, const std::string& detail);
nlohmann::ordered_json trace_json(const std::vector<ir::TraceRow>& rows);
/// j["trace"]: the rows at `detail`; j["ir_trace"]: every step, what `siren test --replay`
/// follows natively.
void add_trace_json(nlohmann::ordered_json& j, const std::vector<ir::TraceRow>& trace, const std::string& detail);

}  // namespace siren::app
