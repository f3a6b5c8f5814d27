// Helpers shared by `siren race` and `siren triage` (race_common.hpp).
#include "apps/siren/race_common.hpp"

#include "apps/siren/commands.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

namespace siren::app {

nlohmann::ordered_json race_end_json(const race::RaceEnd& e) {
  return {{"thread", e.thread_name}, {"file", e.file},     {"line", e.line},
          {"column", e.column},      {"variable", e.variable}, {"access", e.write ? "write" : "read"},
          {"stmt", e.stmt}};
}

namespace {
nlohmann::ordered_json physical(const std::string& file, unsigned line, unsigned col) {
  nlohmann::ordered_json region = {{"startLine", line == 0 ? 1 : line}};
  if (col > 0) region["startColumn"] = col;
  return {{"physicalLocation", {{"artifactLocation", {{"uri", file}}}, {"region", region}}}};
}
}  // namespace

nlohmann::ordered_json sarif_result(const std::string& level, const std::string& message, const std::string& file1,
                                    unsigned line1, unsigned col1,
                                    const std::optional<std::tuple<std::string, unsigned, unsigned>>& second,
                                    const nlohmann::ordered_json& properties) {
  nlohmann::ordered_json r;
  r["ruleId"] = "data-race";
  r["level"] = level;
  r["message"] = {{"text", message}};
  r["locations"] = nlohmann::ordered_json::array({physical(file1, line1, col1)});
  if (second) {
    auto rel = physical(std::get<0>(*second), std::get<1>(*second), std::get<2>(*second));
    rel["id"] = 1;
    r["relatedLocations"] = nlohmann::ordered_json::array({rel});
  }
  if (!properties.is_null()) r["properties"] = properties;
  return r;
}

nlohmann::ordered_json sarif_log(const nlohmann::ordered_json& results) {
  nlohmann::ordered_json rule = {
      {"id", "data-race"},
      {"shortDescription", {{"text", "Data race (SV-COMP no-data-race, C11 5.1.2.4)"}}},
      {"fullDescription",
       {{"text", "Two threads' next steps access the same memory location, at least one writes, "
                 "and not both are atomic."}}}};
  nlohmann::ordered_json run = {
      {"tool", {{"driver", {{"name", "siren"}, {"version", "0.1.0"}, {"rules", nlohmann::ordered_json::array({rule})}}}}},
      {"results", results}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", nlohmann::ordered_json::array({run})}};
}

namespace {
// SHA-256 (FIPS 180-4) for the witness's programhash.
std::string sha256_hex(const std::string& data) {
  static const std::uint32_t K[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string m = data;
  const std::uint64_t bits = static_cast<std::uint64_t>(data.size()) * 8;
  m.push_back(static_cast<char>(0x80));
  while (m.size() % 64 != 56) m.push_back(0);
  for (int i = 7; i >= 0; --i) m.push_back(static_cast<char>((bits >> (i * 8)) & 0xff));
  auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  for (std::size_t off = 0; off < m.size(); off += 64) {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = (std::uint32_t(std::uint8_t(m[off + 4 * i])) << 24) | (std::uint32_t(std::uint8_t(m[off + 4 * i + 1])) << 16) |
             (std::uint32_t(std::uint8_t(m[off + 4 * i + 2])) << 8) | std::uint32_t(std::uint8_t(m[off + 4 * i + 3]));
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const std::uint32_t ch = (e & f) ^ (~e & g);
      const std::uint32_t t1 = hh + S1 + ch + K[i] + w[i];
      const std::uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const std::uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
      const std::uint32_t t2 = S0 + mj;
      hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  std::string out;
  for (std::uint32_t x : h) out += fmt::format("{:08x}", x);
  return out;
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}
}  // namespace

std::string race_witness_graphml(const std::string& program_file, const race::RaceAnswer& a) {
  std::ifstream in(program_file, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  char when[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string o;
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
  o += "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" "
       "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n";
  const char* keys[][4] = {
      {"witness-type", "string", "graph", "witness-type"}, {"sourcecodelang", "string", "graph", "sourcecodelang"},
      {"producer", "string", "graph", "producer"},         {"specification", "string", "graph", "specification"},
      {"programfile", "string", "graph", "programfile"},   {"programhash", "string", "graph", "programhash"},
      {"architecture", "string", "graph", "architecture"}, {"creationtime", "string", "graph", "creationtime"},
      {"isEntryNode", "boolean", "node", "entry"},         {"isViolationNode", "boolean", "node", "violation"},
      {"startline", "int", "edge", "startline"},           {"threadId", "string", "edge", "threadId"},
      {"createThread", "string", "edge", "createThread"},  {"stmt", "string", "edge", "sourcecode"}};
  for (const auto& k : keys)
    o += fmt::format("  <key attr.name=\"{}\" attr.type=\"{}\" for=\"{}\" id=\"{}\"/>\n", k[0], k[1], k[2], k[3]);
  o += "  <graph edgedefault=\"directed\">\n";
  auto data = [&](const std::string& key, const std::string& v) {
    o += fmt::format("    <data key=\"{}\">{}</data>\n", key, xml_escape(v));
  };
  data("witness-type", "violation_witness");
  data("sourcecodelang", "C");
  data("producer", "siren 0.1.0");
  data("specification", "CHECK( init(main()), LTL(G ! data-race) )");
  data("programfile", program_file);
  data("programhash", sha256_hex(buf.str()));
  data("architecture", "32bit");
  data("creationtime", when);
  o += "    <node id=\"N0\">\n      <data key=\"entry\">true</data>\n    </node>\n";
  // One edge per step; the thread ids are siren's thread instance ids (main = 0). A create
  // step names the thread it starts.
  std::size_t node = 0;
  for (std::size_t i = 0; i < a.trace.size() && i < a.schedule.size(); ++i) {
    const auto& row = a.trace[i];
    o += fmt::format("    <node id=\"N{}\"/>\n", node + 1);
    o += fmt::format("    <edge source=\"N{}\" target=\"N{}\">\n", node, node + 1);
    o += fmt::format("      <data key=\"startline\">{}</data>\n", row.line);
    o += fmt::format("      <data key=\"threadId\">{}</data>\n", a.schedule[i]);
    o += fmt::format("      <data key=\"sourcecode\">{}</data>\n", xml_escape(row.stmt));
    if (row.started_thread >= 0)
      o += fmt::format("      <data key=\"createThread\">{}</data>\n", row.started_thread);
    o += "    </edge>\n";
    ++node;
  }
  // The racy state: the two accesses follow (the first of them is the violating step).
  o += fmt::format("    <node id=\"N{}\">\n      <data key=\"violation\">true</data>\n    </node>\n", node + 1);
  o += fmt::format("    <edge source=\"N{}\" target=\"N{}\">\n", node, node + 1);
  o += fmt::format("      <data key=\"startline\">{}</data>\n", a.first.line);
  o += fmt::format("      <data key=\"threadId\">{}</data>\n", a.first.thread);
  o += fmt::format("      <data key=\"sourcecode\">{}</data>\n", xml_escape(a.first.stmt));
  o += "    </edge>\n";
  o += "  </graph>\n</graphml>\n";
  return o;
}

}  // namespace siren::app
