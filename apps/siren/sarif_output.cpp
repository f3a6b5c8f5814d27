// SARIF 2.1.0 logs of check, race and triage (sarif_output.hpp). The shape follows the OASIS
// SARIF 2.1.0 specification: artifact locations (§3.4) relative to a uriBaseId resolved by
// run.originalUriBaseIds (§3.14.14), code flows (§3.36) with one thread flow (§3.37) per thread
// whose locations (§3.38) carry the global step number as executionOrder (§3.38.11).
#include "apps/siren/sarif_output.hpp"

#include "race/triage_batch.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <map>
#include <system_error>

namespace siren::app {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

constexpr const char* kVersion = "0.1.0";  // as `siren --version`
constexpr const char* kInformationUri = "https://github.com/siren-verifier/siren";
constexpr const char* kSrcRoot = "SRCROOT";

// RFC 3986: everything but unreserved characters and the path separator is percent-encoded.
std::string uri_path(const std::string& path) {
  std::string out;
  for (unsigned char c : path) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || std::strchr("-._~/", c))
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

// SARIF messages are sentences (the validator's rule SARIF2001 asks for the final period).
std::string sentence(const std::string& text) {
  return text.empty() || text.back() == '.' ? text : text + ".";
}

fs::path absolute_path(const std::string& file) {
  std::error_code ec;
  fs::path p = fs::absolute(file.empty() ? fs::path(".") : fs::path(file), ec);
  return (ec ? fs::path(file) : p).lexically_normal();
}

// Turns files into SARIF artifact locations: relative to SRCROOT (the program's directory)
// when inside it, absolute file:// URIs otherwise.
class Locator {
 public:
  explicit Locator(const std::string& program) : root_(absolute_path(program).parent_path()) {}

  std::string root_uri() const {
    std::string p = root_.generic_string();
    if (p.empty() || p.back() != '/') p += '/';
    return "file://" + uri_path(p);
  }

  json artifact(const std::string& file) const {
    const fs::path p = absolute_path(file);
    const fs::path rel = p.lexically_relative(root_);
    if (!rel.empty() && *rel.begin() != ".." && rel.is_relative())
      return {{"uri", uri_path(rel.generic_string())}, {"uriBaseId", kSrcRoot}};
    return {{"uri", "file://" + uri_path(p.generic_string())}};
  }

  json location(const SarifPlace& at, const std::string& message) const {
    json region = {{"startLine", at.line == 0 ? 1u : at.line}};
    if (at.column > 0) region["startColumn"] = at.column;
    json l = {{"physicalLocation", {{"artifactLocation", artifact(at.file)}, {"region", region}}}};
    if (!message.empty()) l["message"] = {{"text", message}};
    return l;
  }

 private:
  fs::path root_;
};

struct Rule {
  const char* id;
  const char* name;
  const char* short_text;
  const char* full_text;
};

const Rule kRules[] = {
    {kSarifAssertionRule, "AssertionViolation", "An assertion can fail.",
     "Some interleaving of the program's threads, within the bound, makes an assert() or a reach_error() "
     "call fail; the interleaving was replayed by siren's concrete interpreter."},
    {kSarifRaceRule, "DataRace", "Data race (SV-COMP no-data-race, C11 5.1.2.4).",
     "Two threads' next steps access the same memory location, at least one writes, and not both are "
     "atomic."},
};

json rules_json() {
  json rules = json::array();
  for (const Rule& r : kRules)
    rules.push_back({{"id", r.id},
                     {"name", r.name},
                     {"shortDescription", {{"text", r.short_text}}},
                     {"fullDescription", {{"text", r.full_text}}},
                     {"defaultConfiguration", {{"level", "error"}}},
                     {"helpUri", std::string(kInformationUri) + "#using-siren"},
                     // GitHub code scanning requires `help` (the validator's rule GH2012).
                     {"help", {{"text", r.full_text}}}});
  return rules;
}

// codeFlows[0]: the statement rows of `trace`, one threadFlow per thread (in the order threads
// first run), each step numbered in global order.
json code_flow(const std::vector<ir::TraceRow>& trace, const Locator& at) {
  const std::vector<ir::TraceRow> rows = ir::statement_rows(trace);
  std::vector<std::string> threads;
  std::map<std::string, json> steps;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ir::TraceRow& r = rows[i];
    if (!steps.count(r.thread)) {
      threads.push_back(r.thread);
      steps[r.thread] = json::array();
    }
    json step = {{"executionOrder", r.step},
                 {"location", at.location({r.file, r.line, 0}, r.stmt.empty() ? "(no statement text)" : r.stmt)}};
    if (!r.values.empty()) {
      json state = json::object();
      for (const auto& [name, value] : r.values) state[name] = {{"text", value}};
      step["state"] = state;
    }
    if (i + 1 == rows.size()) step["importance"] = "essential";
    if (!r.started.empty()) step["properties"] = {{"startedThread", r.started}};
    steps[r.thread].push_back(std::move(step));
  }
  json flows = json::array();
  for (const std::string& t : threads)
    flows.push_back({{"id", t}, {"message", {{"text", "Thread " + t + "."}}}, {"locations", steps[t]}});
  return {{"message", {{"text", fmt::format("The replayed interleaving: {} statement{} of {} thread{}.", rows.size(),
                                            rows.size() == 1 ? "" : "s", threads.size(),
                                            threads.size() == 1 ? "" : "s")}}},
          {"threadFlows", flows}};
}

json result_json(const SarifResult& r, const Locator& at) {
  json j;
  j["ruleId"] = r.rule;
  for (std::size_t i = 0; i < std::size(kRules); ++i)
    if (r.rule == kRules[i].id) j["ruleIndex"] = i;
  j["level"] = r.level;
  if (!r.kind.empty()) j["kind"] = r.kind;
  j["message"] = {{"text", sentence(r.message)}};
  j["locations"] = json::array({at.location(r.where, "")});
  if (!r.related.empty()) {
    json related = json::array();
    for (std::size_t i = 0; i < r.related.size(); ++i) {
      json l = at.location(r.related[i].first, r.related[i].second);
      l["id"] = i + 1;
      related.push_back(std::move(l));
    }
    j["relatedLocations"] = related;
  }
  if (!r.trace.empty()) j["codeFlows"] = json::array({code_flow(r.trace, at)});
  if (!r.properties.is_null()) j["properties"] = r.properties;
  return j;
}

}  // namespace

json sarif_log(const SarifRun& run) {
  const Locator at(run.program);
  json driver = {{"name", "siren"},
                 {"version", kVersion},
                 {"semanticVersion", kVersion},
                 {"informationUri", kInformationUri},
                 {"rules", rules_json()}};
  json invocation = {{"executionSuccessful", run.successful}};
  if (!run.verdict_text.empty())
    invocation["toolExecutionNotifications"] =
        json::array({{{"level", run.notification_level}, {"message", {{"text", sentence(run.verdict_text)}}}}});
  if (!run.verdict.empty()) invocation["properties"] = {{"verdict", run.verdict}};
  json results = json::array();
  for (const SarifResult& r : run.results) results.push_back(result_json(r, at));
  json out = {{"tool", {{"driver", driver}}},
              {"invocations", json::array({invocation})},
              {"originalUriBaseIds", {{kSrcRoot, {{"uri", at.root_uri()}}}}},
              {"results", results}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", json::array({out})}};
}

bool write_sarif(const std::string& path, const SarifRun& run) {
  if (race::replace_file(path, sarif_log(run).dump(2) + "\n")) return true;
  std::fprintf(stderr, "siren: cannot write %s\n", path.c_str());
  return false;
}

}  // namespace siren::app
