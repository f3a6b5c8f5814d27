// What `siren triage` works on, shared by its local run (cmd_triage.cpp) and its Slurm executor
// (triage_slurm.cpp): the parsed options, and the programs with their warnings (the single
// --program, or the items of a --manifest, race/manifest.hpp).
#pragma once

#include "apps/siren/model_options.hpp"
#include "race/warnings.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace siren::app {

struct TriageArgs {
  std::string warnings;
  std::string program;
  std::string manifest;          // --manifest: JSON lines of programs (race/manifest.hpp)
  std::string driver;            // --driver: a Linux driver, closed by harnesses (docs/drivers.md)
  std::string emit_harness;      // --emit-harness DIR: where --driver writes them (and its manifest)
  std::string driver_dir;        // --driver: the harness directory prepare_driver chose (phases.json goes there)
  double scan_seconds = 0;       // --driver: prepare_driver's time (scan, harnesses, harness of every pair tried)
  std::string out;
  std::string sarif;
  std::string shard;             // --shard I/N (race/triage_shards.hpp)
  std::string exclude_answered;  // --exclude-answered FILE: its answers are not part of the work
  std::string executor = "local";
  std::string slurm_args;
  unsigned shards = 0;  // --shards N (slurm); 0: one per program, at most 64
  unsigned jobs = 1;
  unsigned bound = check::CheckOptions{}.bound;
  FrontArgs front;
  double timeout = 0;        // per warning (solving time)
  double total_timeout = 0;  // whole run
  bool test_blame_all_of_group = false;  // TEST ONLY: race::RaceRunOptions::test_blame_all_of_group
  bool test_search_first_only = false;   // TEST ONLY: race::RaceRunOptions::test_search_first_only
  bool test_clean_past_errors = false;   // TEST ONLY: race::RaceRunOptions::test_clean_past_errors
  unsigned memory = 0;
  bool quiet = false;
  std::string reduction = "sir";
  std::string engine = "auto";  // auto: the explicit-state search first (RaceRunOptions::explicit_first); bmc
  std::string granularity = "transaction";
  std::string witness_dir;  // --witness-dir: DIR/<id>.graphml and DIR/<id>.yml per RACE
  std::string report;       // --report DIR: DIR/index.html and a trace page per RACE (triage_report.hpp)
};

/// One program to triage with its warnings, whose ids are the result ids (with a manifest:
/// "PREFIX/WARNING-ID", race::manifest_result_id).
struct TriageItem {
  std::string program;
  unsigned line = 0;          // manifest line; 0: the single --program
  bool named = false;         // result lines name the program (manifest items)
  std::vector<std::string> entry_points;  // race::ManifestItem::entry_points
  FrontArgs front;
  LoadedModel lm;
  /// A manifest item's model is released once its candidates are known and translated again
  /// when its turn comes: a driver's thousands of pairs are not all in memory at once.
  bool released = false;
  std::vector<race::Warning> ws;    // every warning of the item
  std::vector<race::Warning> mine;  // the ones this run is responsible for (shard, exclusions)
};

/// The result line of a warning (JSON, ending in a newline): {"id", "program" (when `program` is
/// not empty), "first", "second", "verdict", "bound", "seconds", "witness", "reason"}.
std::string answer_line(const race::Warning& w, const std::string& program, const std::string& verdict, unsigned bound,
                        double seconds, const nlohmann::ordered_json& witness, const std::string& reason);

}  // namespace siren::app
