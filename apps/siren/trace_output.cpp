// Printing a replayed schedule (trace_output.hpp).
#include "apps/siren/trace_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace siren::app {

void add_trace_detail_option(CLI::App* cmd, std::string& detail) {
  cmd->add_option("--trace-detail", detail,
                  "Counterexample rows: statement (one per executed C statement, the program's own variables) "
                  "or ir (one per instruction of the thread model, temporaries included; for debugging siren)")
      ->check(CLI::IsMember({"statement", "ir"}))
      ->capture_default_str();
}

std::vector<ir::TraceRow> shown_rows(const std::vector<ir::TraceRow>& trace, const std::string& detail) {
  return detail == "ir" ? trace : ir::statement_rows(trace);
}

std::string trace_size(const std::vector<ir::TraceRow>& trace) {
  return fmt::format("{} statements, {} steps", ir::statement_rows(trace).size(), trace.size());
}

void add_trace_json(nlohmann::ordered_json& j, const std::vector<ir::TraceRow>& trace, const std::string& detail) {
  j["trace"] = trace_json(shown_rows(trace, detail));
  j["ir_trace"] = trace_json(trace);
}

void print_trace_table(const std::vector<ir::TraceRow>& full, const std::string& detail) {
  const std::vector<ir::TraceRow> trace = shown_rows(full, detail);
  std::size_t wthread = 6, wloc = 4, wstmt = 9;
  std::vector<std::string> locs;
  for (const auto& row : trace) {
    locs.push_back(fmt::format("{}:{}", row.file, row.line));
    wthread = std::max(wthread, row.thread.size());
    wloc = std::max(wloc, locs.back().size());
    wstmt = std::max(wstmt, std::min<std::size_t>(row.stmt.size(), 48));
  }
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const auto& row = trace[i];
    std::string values;
    for (const auto& [name, value] : row.values) values += (values.empty() ? "" : " ") + name + "=" + value;
    std::string line = fmt::format("{:>4}  {:<{}}  {:<{}}  {:<{}}  {}", row.step, row.thread, wthread, locs[i], wloc,
                                   row.stmt, wstmt, values);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::printf("%s\n", line.c_str());
  }
}

nlohmann::ordered_json trace_json(const std::vector<ir::TraceRow>& trace) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& row : trace) {
    nlohmann::ordered_json v = nlohmann::ordered_json::object();
    for (const auto& [name, value] : row.values) v[name] = value;
    nlohmann::ordered_json r = {{"step", row.step}, {"thread", row.thread}, {"file", row.file}, {"line", row.line},
                                {"stmt", row.stmt}, {"values", v}};
    if (!row.started.empty()) r["started"] = row.started;
    if (row.nondet) r["nondet"] = *row.nondet;
    if (!row.nondet_from.empty()) r["nondet_from"] = row.nondet_from;
    r["access"] = std::string(1, row.access);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace siren::app
