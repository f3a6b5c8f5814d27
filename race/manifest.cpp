// Manifests of a code-base triage (race/manifest.hpp).
#include "race/manifest.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

namespace siren::race {

std::string manifest_result_id(const std::string& prefix, const std::string& warning_id) {
  return prefix + "/" + warning_id;
}

Manifest read_manifest(const std::string& path) {
  namespace fs = std::filesystem;
  Manifest m;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    m.errors.push_back({0, "cannot read the manifest"});
    return m;
  }
  const fs::path dir = fs::path(path).parent_path();
  auto resolve = [&](const std::string& p) {
    return fs::path(p).is_absolute() || dir.empty() ? p : (dir / p).string();
  };
  std::map<std::string, unsigned> prefix_line;
  std::string text;
  unsigned n = 0;
  while (std::getline(in, text)) {
    ++n;
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos || text[first] == '#') continue;
    auto fail = [&](const std::string& msg) { m.errors.push_back({n, msg}); };
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      fail(std::string("malformed JSON: ") + e.what());
      continue;
    }
    if (!j.is_object()) {
      fail("expected a JSON object {\"program\": ...}, got " + j.dump());
      continue;
    }
    ManifestItem item;
    item.line = n;
    std::string bad;
    for (const auto& [key, v] : j.items()) {
      if (key == "program" || key == "warnings" || key == "id") {
        if (!v.is_string() || v.get<std::string>().empty()) bad = "\"" + key + "\" must be a non-empty string";
      } else if (key == "clang_args" || key == "entry_points") {
        auto& into = key == "clang_args" ? item.clang_args : item.entry_points;
        if (!v.is_array()) bad = "\"" + key + "\" must be an array of strings";
        else
          for (const auto& a : v)
            if (!a.is_string()) bad = "\"" + key + "\" must be an array of strings";
            else into.push_back(a.get<std::string>());
      } else {
        bad = "unknown key \"" + key + "\" (known: program, warnings, clang_args, id, entry_points)";
      }
      if (!bad.empty()) break;
    }
    if (bad.empty() && !j.contains("program")) bad = "missing \"program\"";
    if (!bad.empty()) {
      fail(bad);
      continue;
    }
    const std::string prog = j["program"].get<std::string>();
    item.program = resolve(prog);
    std::error_code ec;
    if (!fs::is_regular_file(item.program, ec)) {
      fail("program " + item.program + ": no such file");
      continue;
    }
    if (j.contains("warnings")) {
      item.warnings = resolve(j["warnings"].get<std::string>());
      if (!fs::is_regular_file(item.warnings, ec)) {
        fail("warnings " + item.warnings + ": no such file");
        continue;
      }
    }
    item.prefix = j.contains("id") ? j["id"].get<std::string>() : prog;
    if (auto [it, fresh] = prefix_line.emplace(item.prefix, n); !fresh) {
      fail("id \"" + item.prefix + "\" is already line " + std::to_string(it->second) +
           "'s (give this item its own \"id\")");
      continue;
    }
    m.items.push_back(std::move(item));
  }
  return m;
}

}  // namespace siren::race
