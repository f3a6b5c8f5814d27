// `siren triage --report DIR` (triage_report.hpp).
#include "apps/siren/triage_report.hpp"

#include "apps/siren/trace_html.hpp"
#include "ir/trace.hpp"
#include "race/triage_batch.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <filesystem>

namespace siren::app {
namespace {

std::string esc(const std::string& s) { return html_escape(s); }

}  // namespace

std::string result_file_name(const std::string& id) {
  std::string name;
  for (char c : id) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
  return name;
}

bool prepare_report_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(dir) / "races", ec);
  if (ec) {
    std::fprintf(stderr, "siren: --report %s: %s\n", dir.c_str(), ec.message().c_str());
    return false;
  }
  return true;
}

bool write_race_page(const std::string& dir, const std::string& id, const std::string& program,
                     const race::RaceAnswer& r, const std::string& native) {
  const std::string verdict = fmt::format("RACE on '{}' (warning {}{})", r.first.variable, id,
                                          native.empty() ? "" : "; native replay: " + native);
  return write_trace_html(dir + "/races/" + result_file_name(id) + ".html",
                          {"triage", program, verdict, ir::statement_rows(r.trace), false, {r.first, r.second}});
}

bool write_report(const std::string& dir, const std::string& title, const std::vector<ReportProgram>& programs,
                  const std::vector<std::string>& columns) {
  std::string o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  o += fmt::format("<title>siren triage: {}</title>\n", esc(title));
  o += "<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;"
       "margin-bottom:2em}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right}"
       "td.p,th.p{text-align:left;font-family:monospace}tr.total td{font-weight:bold}"
       "td.RACE{background:#fde2e1}a{color:#0645ad}</style>\n</head>\n<body>\n";
  o += fmt::format("<h1>siren triage <code>{}</code></h1>\n", esc(title));
  std::map<std::string, unsigned> total;
  o += "<table id=\"verdicts\">\n<tr><th class=\"p\">program</th>";
  for (const auto& c : columns) o += fmt::format("<th>{}</th>", esc(c));
  o += "</tr>\n";
  for (const ReportProgram& p : programs) {
    o += fmt::format("<tr class=\"program\"><td class=\"p\">{}</td>", esc(p.program));
    for (const auto& c : columns) {
      const auto it = p.counts.find(c);
      const unsigned n = it == p.counts.end() ? 0 : it->second;
      total[c] += n;
      o += fmt::format("<td class=\"{}\" data-verdict=\"{}\">{}</td>", n && c == "RACE" ? "RACE" : "", esc(c), n);
    }
    o += "</tr>\n";
  }
  o += "<tr class=\"total\"><td class=\"p\">total</td>";
  for (const auto& c : columns) o += fmt::format("<td>{}</td>", total[c]);
  o += "</tr>\n</table>\n<h2>Races</h2>\n<ul id=\"races\">\n";
  for (const ReportProgram& p : programs)
    for (const ReportRace& r : p.races) {
      const std::string page = "races/" + result_file_name(r.id) + ".html";
      const bool exists = std::filesystem::exists(std::filesystem::path(dir) / page);
      o += "<li class=\"race\">";
      o += exists ? fmt::format("<a href=\"{}\">{}</a>", esc(page), esc(r.id)) : esc(r.id);
      o += fmt::format(" <span class=\"p\">{}</span>: {}</li>\n", esc(p.program), esc(r.text));
    }
  o += "</ul>\n</body>\n</html>\n";
  if (!race::replace_file(dir + "/index.html", o)) {
    std::fprintf(stderr, "siren: cannot write %s/index.html\n", dir.c_str());
    return false;
  }
  return true;
}

}  // namespace siren::app
