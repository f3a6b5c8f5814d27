// Warning files (race/warnings.hpp): SARIF 2.1.0, a JSON array of location pairs, or CSV rows.
#include "race/warnings.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unordered_set>

namespace siren::race {

std::string basename_of(const std::string& f) {
  std::string s = f;
  if (s.rfind("file://", 0) == 0) s = s.substr(7);
  const auto p = s.find_last_of('/');
  return p == std::string::npos ? s : s.substr(p + 1);
}

namespace {

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

unsigned to_uint(const nlohmann::json& v, const std::string& what, bool optional) {
  if (v.is_null() && optional) return 0;
  if (v.is_number_unsigned()) return v.get<unsigned>();
  if (v.is_number_integer() && v.get<long long>() >= 0) return static_cast<unsigned>(v.get<long long>());
  if (v.is_string()) {
    const std::string s = trim(v.get<std::string>());
    if (s.empty() && optional) return 0;
    if (!s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return static_cast<unsigned>(std::stoul(s));
  }
  throw WarningsError(what + ": expected a non-negative integer, got " + v.dump());
}

SrcLoc plain_loc(const nlohmann::json& j, const std::string& what) {
  if (!j.is_object()) throw WarningsError(what + ": expected an object {file, line, column}, got " + j.dump());
  SrcLoc l;
  if (!j.contains("file") || !j["file"].is_string() || j["file"].get<std::string>().empty())
    throw WarningsError(what + ": missing \"file\"");
  l.file = j["file"].get<std::string>();
  if (!j.contains("line")) throw WarningsError(what + ": missing \"line\"");
  l.line = to_uint(j["line"], what + ".line", false);
  if (l.line == 0) throw WarningsError(what + ".line: must be at least 1");
  if (j.contains("column")) l.column = to_uint(j["column"], what + ".column", true);
  return l;
}

SrcLoc sarif_loc(const nlohmann::json& j, const std::string& what) {
  if (!j.is_object() || !j.contains("physicalLocation") || !j["physicalLocation"].is_object())
    throw WarningsError(what + ": missing physicalLocation");
  const auto& pl = j["physicalLocation"];
  if (!pl.contains("artifactLocation") || !pl["artifactLocation"].is_object() ||
      !pl["artifactLocation"].contains("uri") || !pl["artifactLocation"]["uri"].is_string())
    throw WarningsError(what + ": missing physicalLocation.artifactLocation.uri");
  if (!pl.contains("region") || !pl["region"].is_object() || !pl["region"].contains("startLine"))
    throw WarningsError(what + ": missing physicalLocation.region.startLine");
  SrcLoc l;
  l.file = pl["artifactLocation"]["uri"].get<std::string>();
  l.line = to_uint(pl["region"]["startLine"], what + ".region.startLine", false);
  if (l.line == 0) throw WarningsError(what + ".region.startLine: must be at least 1");
  if (pl["region"].contains("startColumn")) l.column = to_uint(pl["region"]["startColumn"], what + ".region.startColumn", true);
  return l;
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) {
      out.push_back(trim(cur));
      cur.clear();
    } else cur += c;
  }
  out.push_back(trim(cur));
  return out;
}

}  // namespace

std::string warning_id(const SrcLoc& a, const SrcLoc& b) {
  std::string sa = fmt::format("{}:{}:{}", basename_of(a.file), a.line, a.column);
  std::string sb = fmt::format("{}:{}:{}", basename_of(b.file), b.line, b.column);
  if (sb < sa) std::swap(sa, sb);
  return fmt::format("{:016x}", fnv1a(sa + "|" + sb));
}

std::vector<Warning> parse_warnings(const std::string& path, std::vector<std::string>* duplicates) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw WarningsError(path + ": cannot read the file");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  std::vector<Warning> out;
  auto add = [&](SrcLoc a, SrcLoc b) {
    Warning w;
    w.first = std::move(a);
    w.second = std::move(b);
    w.id = warning_id(w.first, w.second);
    out.push_back(std::move(w));
  };
  const std::string t = trim(text);
  if (!t.empty() && (t[0] == '{' || t[0] == '[')) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      throw WarningsError(path + ": not valid JSON: " + e.what());
    }
    if (j.is_object()) {  // SARIF
      if (!j.contains("runs") || !j["runs"].is_array())
        throw WarningsError(path + ": a JSON object that is not a SARIF log (no \"runs\" array)");
      for (std::size_t r = 0; r < j["runs"].size(); ++r) {
        const auto& run = j["runs"][r];
        if (!run.is_object()) throw WarningsError(fmt::format("{}: runs[{}] is not an object", path, r));
        if (!run.contains("results")) continue;
        if (!run["results"].is_array()) throw WarningsError(fmt::format("{}: runs[{}].results is not an array", path, r));
        for (std::size_t i = 0; i < run["results"].size(); ++i) {
          const auto& res = run["results"][i];
          const std::string what = fmt::format("{}: runs[{}].results[{}]", path, r, i);
          if (!res.is_object() || !res.contains("locations") || !res["locations"].is_array() || res["locations"].empty())
            throw WarningsError(what + ": no locations[0]");
          const SrcLoc first = sarif_loc(res["locations"][0], what + ".locations[0]");
          if (!res.contains("relatedLocations") || !res["relatedLocations"].is_array() || res["relatedLocations"].empty())
            throw WarningsError(what + ": no relatedLocations (a race warning needs a second location)");
          for (std::size_t k = 0; k < res["relatedLocations"].size(); ++k)
            add(first, sarif_loc(res["relatedLocations"][k], fmt::format("{}.relatedLocations[{}]", what, k)));
        }
      }
    } else {
      for (std::size_t i = 0; i < j.size(); ++i) {
        const auto& e = j[i];
        const std::string what = fmt::format("{}: entry [{}]", path, i);
        if (e.is_array()) {
          if (e.size() != 2) throw WarningsError(what + ": a pair needs exactly two locations");
          add(plain_loc(e[0], what + "[0]"), plain_loc(e[1], what + "[1]"));
        } else if (e.is_object() && e.contains("first") && e.contains("second")) {
          add(plain_loc(e["first"], what + ".first"), plain_loc(e["second"], what + ".second"));
        } else {
          throw WarningsError(what + ": expected {\"first\": L, \"second\": L} or [L, L], got " + e.dump());
        }
      }
    }
  } else {  // CSV
    std::istringstream lines(text);
    std::string line;
    unsigned n = 0;
    while (std::getline(lines, line)) {
      ++n;
      if (trim(line).empty() || trim(line)[0] == '#') continue;
      auto f = split_csv(line);
      const std::string what = fmt::format("{}:{}", path, n);
      if (f.size() != 6)
        throw WarningsError(what + ": expected 6 fields file1,line1,col1,file2,line2,col2, got " + std::to_string(f.size()));
      auto num = [&](const std::string& s, const char* name, bool optional) -> unsigned {
        if (s.empty() && optional) return 0;
        if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
          throw WarningsError(what + ": " + name + " is not a number: '" + s + "'");
        return static_cast<unsigned>(std::stoul(s));
      };
      if (n == 1 && !f[1].empty() && !std::isdigit(static_cast<unsigned char>(f[1][0]))) continue;  // header
      SrcLoc a{f[0], num(f[1], "line1", false), num(f[2], "col1", true)};
      SrcLoc b{f[3], num(f[4], "line2", false), num(f[5], "col2", true)};
      if (a.file.empty() || b.file.empty()) throw WarningsError(what + ": empty file name");
      if (a.line == 0 || b.line == 0) throw WarningsError(what + ": line must be at least 1");
      add(a, b);
    }
  }
  std::unordered_set<std::string> seen;
  std::vector<Warning> uniq;
  for (auto& w : out)
    if (seen.insert(w.id).second) uniq.push_back(std::move(w));
    else if (duplicates) duplicates->push_back(w.id);
  return uniq;
}

}  // namespace siren::race
