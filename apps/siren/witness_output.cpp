// --witness / --witness-format (witness_output.hpp).
#include "apps/siren/witness_output.hpp"

#include "race/triage_batch.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace siren::app {

void add_witness_options(CLI::App* cmd, WitnessArgs& a) {
  cmd->add_option("--witness", a.files,
                  "On a violation, write an SV-COMP violation witness to FILE: one waypoint per C statement of "
                  "the replayed counterexample; YAML for FILE.yml / FILE.yaml, else GraphML; may be given twice; "
                  "`siren validate FILE PROGRAM.c` checks it")
      ->type_name("FILE");
  cmd->add_option("--witness-format", a.format,
                  "Write every --witness as graphml (witness format 1.0 with threadId/createThread) or yaml "
                  "(format 2.2: violation_sequence with thread_id) whatever its extension")
      ->check(CLI::IsMember({"graphml", "yaml"}));
}

bool write_witness(const WitnessArgs& a, const ir::ThreadModel& tm, const std::string& program_file,
                   const FrontArgs& front, const std::vector<ir::TraceRow>& steps, const witness::Violation& v) {
  std::ifstream in(program_file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const witness::WriteInfo info{program_file, text.str(), front.ilp32};
  for (const std::string& file : a.files) {
    auto ends_with = [&](const char* ext) {
      const std::string e(ext);
      return file.size() >= e.size() && file.compare(file.size() - e.size(), e.size(), e) == 0;
    };
    const bool yaml = a.format.empty() ? ends_with(".yml") || ends_with(".yaml") : a.format == "yaml";
    const std::string out = yaml ? witness::write_yaml(tm, steps, v, info) : witness::write_graphml(tm, steps, v, info);
    if (!race::replace_file(file, out)) {
      std::fprintf(stderr, "siren: cannot write %s\n", file.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace siren::app
