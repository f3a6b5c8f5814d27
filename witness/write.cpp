// Writing violation witnesses (witness.hpp): one waypoint (YAML) or edge (GraphML) per C
// statement of the replayed counterexample, as `siren check` prints them (ir::statement_rows).
#include "witness/witness.hpp"

#include "ir/cfg.hpp"

#include <fmt/format.h>

#include <ctime>
#include <map>
#include <random>

namespace siren::witness {
namespace {

/// One C statement of the counterexample, with what a validator can check of it.
struct Point {
  unsigned thread = 0;  // witness thread id
  std::string file;
  unsigned line = 0;
  std::string stmt;
  std::optional<bool> branch;          // the row's one conditional jump: the C condition's value
  std::optional<std::int64_t> result;  // a nondet call's value
  std::string result_function;         // ... and the function called
  std::optional<unsigned> creates;     // the thread id it creates
  std::string enter;                   // the first statement of a thread: its start routine
  bool target = false;                 // the failing assertion / a racing access
};

std::string start_routine(const std::string& thread_name) { return thread_name.substr(0, thread_name.find('#')); }

/// The value of the C condition of conditional jump `in` when the jump was (not) taken: the
/// front end jumps over the then-part on the negated condition (`if !(c) goto else`).
bool condition_value(const ir::Instr& in, bool jumped) { return in.a && in.a->op == ir::Op::LNot ? !jumped : jumped; }

std::vector<Point> points(const ir::ThreadModel& tm, const std::vector<ir::TraceRow>& steps, const Violation& v) {
  std::map<std::string, ir::ThreadId> by_name;
  for (const ir::ThreadCode& t : tm.threads) by_name[t.name] = t.id;
  std::map<ir::ThreadId, unsigned> wid{{0, 0}};  // siren instance -> witness id (creation order)
  std::map<ir::ThreadId, bool> entered;
  std::vector<Point> out;
  const std::vector<ir::TraceRow> rows = ir::statement_rows(steps);
  std::size_t cursor = 0;  // the next step not yet covered by a statement row
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const ir::TraceRow& row = rows[k];
    const ir::ThreadId t = by_name.count(row.thread) ? by_name[row.thread] : 0;
    // The steps merged into this row: up to its last instruction (the row's pc) in this thread.
    std::size_t end = cursor;
    while (end + 1 < steps.size() && !(steps[end].thread == row.thread && steps[end].pc == row.pc && !steps[end].internal))
      ++end;
    Point p;
    p.file = row.file;
    p.line = row.line;
    p.stmt = row.stmt;
    const ir::ThreadCode& code = tm.threads[t];
    unsigned conditions = 0;
    for (std::size_t i = cursor; i <= end && i < steps.size(); ++i) {
      const ir::TraceRow& s = steps[i];
      if (s.thread != row.thread) continue;
      if (s.started_thread >= 0) {
        const unsigned id = static_cast<unsigned>(wid.size());
        wid[static_cast<ir::ThreadId>(s.started_thread)] = id;
        p.creates = id;
      }
      if (s.pc >= code.code.size()) continue;
      const ir::Instr& in = code.code[s.pc];
      if (in.kind == ir::InstrKind::Goto && !ir::always_taken(in) && !s.internal) {
        ++conditions;
        for (std::size_t j = i + 1; j < steps.size(); ++j)
          if (steps[j].thread == s.thread) {
            p.branch = condition_value(in, steps[j].pc == in.target);
            break;
          }
      }
      if (s.nondet && ir::is_nondet_call(in)) {
        p.result = *s.nondet;
        p.result_function = in.message.substr(0, in.message.find('('));
      }
    }
    // `a && b`: the lines say which way it went. One edge matches one step: a condition that
    // shares its statement with a thread creation or a nondet call is left to the lines too.
    if (conditions != 1 || p.creates || p.result) p.branch.reset();
    cursor = end + 1;
    p.thread = wid.count(t) ? wid[t] : 0;
    if (t != 0 && !entered[t]) p.enter = start_routine(row.thread);
    entered[t] = true;
    out.push_back(std::move(p));
  }
  if (v.property == Property::Reach) {
    if (!out.empty()) out.back().target = true;
    return out;
  }
  for (const auto& [t, pc] : {std::pair{v.first_thread, v.first_pc}, std::pair{v.second_thread, v.second_pc}}) {
    Point p;
    const ir::Instr& in = tm.threads[t].code[pc];
    p.thread = wid.count(t) ? wid[t] : 0;
    p.file = in.loc.file < tm.files.size() ? tm.files[in.loc.file] : std::string();
    p.line = in.loc.line;
    p.stmt = in.text;
    p.target = true;
    if (t != 0 && !entered[t]) p.enter = start_routine(tm.threads[t].name);
    out.push_back(std::move(p));
  }
  return out;
}

std::string specification(Property p) {
  return p == Property::Reach ? "CHECK( init(main()), LTL(G ! call(reach_error())) )"
                              : "CHECK( init(main()), LTL(G ! data-race) )";
}

std::string now_iso8601() {
  char when[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return when;
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

/// A YAML double-quoted scalar.
std::string yq(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (c == '\n') {
      o += "\\n";
      continue;
    }
    o += c;
  }
  return o + "\"";
}

std::string uuid4() {
  std::random_device rd;
  std::mt19937_64 g((static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^ static_cast<std::uint64_t>(std::time(nullptr)));
  std::uint64_t a = g(), b = g();
  a = (a & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;  // version 4
  b = (b & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;  // variant 10
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xffff, a & 0xffff, b >> 48,
                     b & 0xffffffffffffULL);
}

}  // namespace

std::string write_graphml(const ir::ThreadModel& tm, const std::vector<ir::TraceRow>& steps, const Violation& v,
                          const WriteInfo& info) {
  std::vector<Point> ps = points(tm, steps, v);
  if (v.property == Property::Race && ps.size() >= 2) ps.pop_back();  // GraphML: the first access ends it
  std::string o;
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
  o += "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" "
       "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n";
  // attr.name, attr.type, for, id (sv-witnesses README-GraphML)
  const char* keys[][4] = {
      {"witness-type", "string", "graph", "witness-type"},
      {"sourcecodelang", "string", "graph", "sourcecodelang"},
      {"producer", "string", "graph", "producer"},
      {"specification", "string", "graph", "specification"},
      {"programfile", "string", "graph", "programfile"},
      {"programhash", "string", "graph", "programhash"},
      {"architecture", "string", "graph", "architecture"},
      {"creationtime", "string", "graph", "creationtime"},
      {"isEntryNode", "boolean", "node", "entry"},
      {"isViolationNode", "boolean", "node", "violation"},
      {"startline", "int", "edge", "startline"},
      {"threadId", "string", "edge", "threadId"},
      {"createThread", "string", "edge", "createThread"},
      {"enterFunction", "string", "edge", "enterFunction"},
      {"control", "string", "edge", "control"},
      {"assumption", "string", "edge", "assumption"},
      {"assumption.resultfunction", "string", "edge", "assumption.resultfunction"},
      {"sourcecode", "string", "edge", "sourcecode"}};
  for (const auto& k : keys) {
    o += fmt::format("  <key attr.name=\"{}\" attr.type=\"{}\" for=\"{}\" id=\"{}\"", k[0], k[1], k[2], k[3]);
    o += std::string(k[1]) == "boolean" ? ">\n    <default>false</default>\n  </key>\n" : "/>\n";
  }
  o += "  <graph edgedefault=\"directed\">\n";
  auto data = [&](const std::string& key, const std::string& value, const char* indent = "    ") {
    o += fmt::format("{}<data key=\"{}\">{}</data>\n", indent, key, xml_escape(value));
  };
  data("witness-type", "violation_witness");
  data("sourcecodelang", "C");
  data("producer", "siren 0.1.0");
  data("specification", specification(v.property));
  data("programfile", info.program_file);
  data("programhash", sha256_hex(info.program_text));
  data("architecture", info.ilp32 ? "32bit" : "64bit");
  data("creationtime", now_iso8601());
  o += "    <node id=\"N0\">\n      <data key=\"entry\">true</data>\n    </node>\n";
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const Point& p = ps[i];
    if (i + 1 == ps.size())
      o += fmt::format("    <node id=\"N{}\">\n      <data key=\"violation\">true</data>\n    </node>\n", i + 1);
    else
      o += fmt::format("    <node id=\"N{}\"/>\n", i + 1);
    o += fmt::format("    <edge source=\"N{}\" target=\"N{}\">\n", i, i + 1);
    const char* in = "      ";
    data("startline", std::to_string(p.line), in);
    data("threadId", std::to_string(p.thread), in);
    if (!p.enter.empty()) data("enterFunction", p.enter, in);
    if (p.creates) data("createThread", std::to_string(*p.creates), in);
    if (p.branch) data("control", *p.branch ? "condition-true" : "condition-false", in);
    if (p.result) {
      data("assumption", fmt::format("\\result == {};", *p.result), in);
      data("assumption.resultfunction", p.result_function, in);
    }
    data("sourcecode", p.stmt, in);
    o += "    </edge>\n";
  }
  o += "  </graph>\n</graphml>\n";
  return o;
}

std::string write_yaml(const ir::ThreadModel& tm, const std::vector<ir::TraceRow>& steps, const Violation& v,
                       const WriteInfo& info) {
  const std::vector<Point> ps = points(tm, steps, v);
  std::string o;
  o += "- entry_type: violation_sequence\n";
  o += "  metadata:\n";
  o += "    format_version: \"2.2\"\n";
  o += "    uuid: " + yq(uuid4()) + "\n";
  o += "    creation_time: " + yq(now_iso8601()) + "\n";
  o += "    producer:\n      name: siren\n      version: \"0.1.0\"\n";
  o += "    task:\n";
  o += "      input_files:\n        - " + yq(info.program_file) + "\n";
  o += "      input_file_hashes:\n        " + yq(info.program_file) + ": " + sha256_hex(info.program_text) + "\n";
  o += "      specification: " + yq(specification(v.property)) + "\n";
  o += std::string("      data_model: ") + (info.ilp32 ? "ILP32" : "LP64") + "\n";
  o += "      language: C\n";
  o += "  content:\n";
  auto waypoint = [&](const Point& p, const std::string& type, const std::string& constraint, const char* format) {
    o += "        - waypoint:\n";
    o += "            type: " + type + "\n";
    o += "            action: follow\n";
    if (!constraint.empty()) {
      o += "            constraint:\n";
      o += "              value: " + yq(constraint) + "\n";
      o += std::string("              format: ") + format + "\n";
    }
    o += "            location:\n";
    o += "              file_name: " + yq(p.file) + "\n";  // as input_files names it
    o += "              line: " + std::to_string(p.line) + "\n";
    o += "            thread_id: " + std::to_string(p.thread) + "\n";
  };
  const bool race = v.property == Property::Race;
  const std::size_t normal = race && ps.size() >= 2 ? ps.size() - 2 : ps.empty() ? 0 : ps.size() - 1;
  for (std::size_t i = 0; i < normal; ++i) {
    const Point& p = ps[i];
    o += "    - segment:\n";
    if (p.result)
      waypoint(p, "function_return", fmt::format("\\result == {}", *p.result), "acsl_expression");
    else if (p.branch)
      waypoint(p, "branching", *p.branch ? "true" : "false", "c_expression");
    else
      waypoint(p, "assumption", "1", "c_expression");
  }
  o += "    - segment:\n";
  for (std::size_t i = normal; i < ps.size(); ++i) waypoint(ps[i], "target", "", "");
  return o;
}

}  // namespace siren::witness
