// Printing a replayed schedule (trace_output.hpp).
#include "apps/siren/trace_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace siren::app {

void print_trace_table(const std::vector<ir::TraceRow>& trace) {
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
    r["access"] = std::string(1, row.access);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace siren::app
