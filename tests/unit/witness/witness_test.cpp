// Violation witnesses (witness/witness.hpp): the GraphML and YAML readers on the shapes other
// tools write (key ids, defaults, comments, flow collections, quoting), their one-line errors,
// SHA-256 against known digests, and a written witness read back and validated, with mutants
// rejected.
#include "witness/witness.hpp"

#include "check/check.hpp"
#include "frontend/frontend.hpp"
#include "ir/thread_model.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>

using namespace siren;

namespace {

std::optional<ir::ThreadModel> model(const std::string& src) {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path() / ("siren-witness-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / ("w" + std::to_string(counter++) + ".c");
  std::ofstream(path) << src;
  frontend::FrontendResult fr = frontend::translate_file(path.string());
  if (fr.status != frontend::FrontendStatus::Ok) return std::nullopt;
  return ir::build_thread_model(*fr.program, {});
}

const char* kProgram = R"(#include <pthread.h>
void reach_error(void);
int x;
void *t(void *a) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (x == 1)
    reach_error();
  return 0;
}
)";

}  // namespace

TEST_CASE("sha256 of known inputs") {
  CHECK(witness::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(witness::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("GraphML: key ids mapped through attr.name, defaults, comments, entities") {
  const std::string g = R"G(<?xml version="1.0"?>
<!-- a comment -->
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
 <key id="k1" for="graph" attr.name="witness-type"/>
 <key id="k2" for="graph" attr.name="specification"/>
 <key id="k3" for="node" attr.name="isEntryNode"><default>false</default></key>
 <key id="k4" for="node" attr.name="isViolationNode"><default>false</default></key>
 <key id="k5" for="edge" attr.name="startline"/>
 <key id="k6" for="edge" attr.name="threadId"/>
 <key id="k7" for="edge" attr.name="assumption"/>
 <key id="k8" for="edge" attr.name="assumption.resultfunction"/>
 <graph edgedefault="directed">
  <data key="k1">violation_witness</data>
  <data key="k2">CHECK( init(main()), LTL(G ! call(reach_error())) )</data>
  <node id="a"><data key="k3">true</data></node>
  <node id="b"><data key="k4">true</data></node>
  <edge source="a" target="b"><data key="k5"> 12 </data><data key="k6">1</data>
   <data key="k7">\result == -3;</data><data key="k8">__VERIFIER_nondet_int</data></edge>
  <edge source="a" target="a"><data key="k5">4</data><data key="k7">x &lt; 5</data></edge>
 </graph>
</graphml>)G";
  std::string error;
  const auto w = witness::parse(g, error);
  REQUIRE_MESSAGE(w, error);
  CHECK(w->format == witness::Format::GraphML);
  CHECK(w->property == witness::Property::Reach);
  CHECK(w->nodes == 2);
  CHECK(w->violation == std::vector<bool>{false, true});
  REQUIRE(w->edges.size() == 2);
  CHECK(w->edges[0].match.line == 12);
  CHECK(w->edges[0].match.thread == 1u);
  CHECK(w->edges[0].match.result == -3);
  CHECK(!w->edges[1].match.result);  // not a \result assumption: not checked
}

TEST_CASE("YAML: flow mappings, quoting, comments, avoid waypoints to a sink") {
  const std::string y = R"Y(# a comment
- entry_type: 'violation_sequence'
  metadata:
    format_version: "2.0"
    task: {input_files: ["a.c"], input_file_hashes: {"a.c": ABCDEF}, specification: "G ! call(reach_error())"}
  content:
    - segment:
        - waypoint: {type: assumption, action: avoid, constraint: {value: "1"}, location: {file_name: "a.c", line: 9}}
        - waypoint:
            type: branching
            action: follow
            constraint: {value: 'false'}   # the else branch
            location:
              file_name: dir/a.c
              line: 7
    - segment:
      - waypoint: {type: target, action: follow, location: {file_name: a.c, line: 8}}
)Y";
  std::string error;
  const auto w = witness::parse(y, error);
  REQUIRE_MESSAGE(w, error);
  CHECK(w->format == witness::Format::Yaml);
  CHECK(w->version == "2.0");
  CHECK(w->program_hash == "ABCDEF");
  REQUIRE(w->nodes == 4);  // two segments, the end, the sink
  CHECK(w->sink[3]);
  CHECK(w->violation[2]);
  bool follow = false, avoid = false;
  for (const auto& e : w->edges) {
    if (e.from == 0 && e.to == 1) follow = e.match.branch == false && e.match.line == 7 && e.match.file == "a.c";
    if (e.from == 0 && e.to == 3) avoid = e.match.line == 9;
  }
  CHECK(follow);
  CHECK(avoid);
}

TEST_CASE("bad witnesses: one-line errors naming the problem") {
  std::string error;
  CHECK(!witness::parse("", error));
  CHECK(error.find("empty") != std::string::npos);
  CHECK(!witness::parse("<graphml><graph>", error));
  CHECK(error.find("line 1") != std::string::npos);
  CHECK(!witness::parse("- entry_type: violation_sequence\n  metadata: {format_version: \"3.0\"}\n  content: []\n", error));
  CHECK(error.find("3.0") != std::string::npos);
  CHECK(!witness::parse("- entry_type: invariant_set\n  content: []\n", error));
  CHECK(error.find("violation_sequence") != std::string::npos);
  CHECK(!witness::parse("key: [unclosed\n", error));
  CHECK(error.find("line 1") != std::string::npos);
  CHECK(error.find('\n') == std::string::npos);
}

TEST_CASE("a written witness reads back and is confirmed, a wrong line is rejected") {
  auto tm = model(kProgram);
  REQUIRE(tm);
  check::CheckOptions co;
  co.engine = "explicit";
  const check::CheckResult r = check::check(*tm, co);
  REQUIRE(r.verdict == check::Verdict::Unsafe);
  const witness::WriteInfo info{"w.c", kProgram, false};
  for (const bool yaml : {false, true}) {
    CAPTURE(yaml);
    const std::string text = yaml ? witness::write_yaml(*tm, r.trace, {}, info) : witness::write_graphml(*tm, r.trace, {}, info);
    std::string error;
    auto w = witness::parse(text, error);
    REQUIRE_MESSAGE(w, error);
    CHECK(w->program_hash == witness::sha256_hex(kProgram));
    const witness::Validation v = witness::validate(*tm, *w, {});
    CHECK(v.outcome == witness::Outcome::Confirmed);
    CHECK(!v.schedule.empty());
    // The thread's assignment (line 5) moved to line 3, where nothing runs.
    for (auto& e : w->edges)
      if (e.match.line == 5) e.match.line = 3;
    CHECK(witness::validate(*tm, *w, {}).outcome == witness::Outcome::Rejected);
  }
}
