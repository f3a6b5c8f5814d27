// `siren validate WITNESS FILE.c`: does a run of the program follow the violation witness
// (GraphML 1.0 or YAML 2.x, siren's or another tool's) to the violation it claims?
// CONFIRMED (exit 10, with the replayed run), REJECTED (exit 0: no run follows it; the search
// was complete), UNKNOWN (exit 5: timeout, state limit, nondet values not all tried). A witness
// that cannot be read, is not a violation witness of a supported version, or is for another
// program (its program hash) is an input error: one line, exit 6 (witness/witness.hpp).
#include "apps/siren/commands.hpp"
#include "apps/siren/triage_driver.hpp"
#include "apps/siren/model_options.hpp"
#include "apps/siren/race_common.hpp"
#include "apps/siren/trace_output.hpp"
#include "race/race.hpp"
#include "witness/witness.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

namespace siren::app {
namespace {

struct ValidateArgs {
  std::string witness, file;
  FrontArgs front;
  double timeout = 0;
  bool json = false;
  std::string trace_detail = "statement";
  bool test_ignore_witness = false;
  bool threads_given = false;  // --threads on the command line
};

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

const char* outcome_name(witness::Outcome o) {
  switch (o) {
    case witness::Outcome::Confirmed: return "CONFIRMED";
    case witness::Outcome::Rejected: return "REJECTED";
    case witness::Outcome::Unknown: return "UNKNOWN";
  }
  return "";
}

int run_validate(const ValidateArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  const auto text = read_file(a.witness);
  if (!text) {
    std::fprintf(stderr, "siren: cannot read witness %s\n", a.witness.c_str());
    return kExitInputError;
  }
  std::string error;
  const auto w = witness::parse(*text, error);
  if (!w) {
    std::fprintf(stderr, "siren: %s: %s\n", a.witness.c_str(), error.c_str());
    return kExitInputError;
  }
  const auto program = read_file(a.file);
  if (!program) {
    std::fprintf(stderr, "siren: cannot read %s\n", a.file.c_str());
    return kExitInputError;
  }
  if (!w->program_hash.empty()) {
    const std::string mine = witness::sha256_hex(*program);
    std::string theirs = w->program_hash;
    for (char& c : theirs) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (theirs != mine) {
      std::fprintf(stderr, "siren: %s: rejected: the witness is for another program (its program hash %s, %s has %s)\n",
                   a.witness.c_str(), w->program_hash.c_str(), a.file.c_str(), mine.c_str());
      return kExitInputError;
    }
  }
  // Enough thread instances for every thread the witness names (unless --threads says).
  FrontArgs front = a.front;
  unsigned named = 0;
  for (const witness::Edge& e : w->edges) {
    if (e.match.thread) named = std::max(named, *e.match.thread + 1);
    if (e.match.creates) named = std::max(named, *e.match.creates + 1);
  }
  for (const witness::Match& m : w->race_targets)
    if (m.thread) named = std::max(named, *m.thread + 1);
  if (!a.threads_given) front.threads = std::max(front.threads, named);
  // A kernel module (siren race's harness of its entry points, triage_driver.hpp): the
  // witness is checked against the same harness.
  std::string program_file = a.file;
  ModuleHarness harness;
  if (is_kernel_module(a.file)) {
    if (const int rc = module_harness(a.file, front, harness)) return rc;
    program_file = harness.path;
    front = harness.front;
  }
  LoadedModel lm = load_model(program_file, front);
  remove_module_harness(harness);  // (nothing without a module: its path is empty)
  if (lm.input_error) return lm.input_error;
  if (!lm.tm) {
    std::fprintf(stderr, "siren: %s\n", lm.unknown.value_or(a.file + ": unsupported construct").c_str());
    if (a.json) std::printf("%s\n", nlohmann::ordered_json{{"result", "UNKNOWN"}, {"reason", lm.unknown.value_or("")}}.dump(2).c_str());
    else std::printf("VALIDATION RESULT: UNKNOWN: %s\n", lm.unknown.value_or("unsupported construct").c_str());
    return kExitUnknown;
  }
  const ir::ThreadModel& tm = *lm.tm;
  witness::ValidateOptions vo;
  vo.test_ignore_witness = a.test_ignore_witness;
  if (a.timeout > 0)
    vo.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(a.timeout));
  witness::Validation v = witness::validate(tm, *w, vo);

  // The run found, replayed by the interpreter (reach: it must end in the violation; race: its
  // final state must hold the racing pair).
  std::vector<ir::TraceRow> rows;
  std::optional<std::pair<race::RaceEnd, race::RaceEnd>> pair;
  if (v.outcome == witness::Outcome::Confirmed) {
    if (w->property == witness::Property::Reach) {
      ir::ReplayedTrace t = ir::replay_counterexample(tm, v.initial, v.schedule);
      if (!t.failure.empty()) {
        std::fprintf(stderr, "siren: internal error: the run that follows the witness did not replay (%s)\n", t.failure.c_str());
        return kExitInternal;
      }
      rows = std::move(t.rows);
    } else {
      ir::Interpreter interp(tm);
      ir::State state = interp.initial_state(v.initial);
      for (std::size_t j = 0; j < v.schedule.size(); ++j) {
        const ir::State before = state;
        const ir::StepResult r = interp.step(state, v.schedule[j]);
        if (r.outcome != ir::StepOutcome::Ok) {
          std::fprintf(stderr, "siren: internal error: the run that follows the witness did not replay (step %zu)\n", j + 1);
          return kExitInternal;
        }
        rows.push_back(ir::make_trace_row(tm, interp, static_cast<unsigned>(j + 1), v.schedule[j], r, before, state));
      }
      const auto all = race::all_data_accesses(tm);
      pair = race::racing_pair(tm, interp, state, all, {});
      if (!pair) {
        std::fprintf(stderr, "siren: internal error: the run that follows the witness ends in no race\n");
        return kExitInternal;
      }
    }
  }
  const char* format = w->format == witness::Format::GraphML ? "graphml" : "yaml";
  const char* property = w->property == witness::Property::Reach ? "unreach-call" : "no-data-race";
  if (a.json) {
    nlohmann::ordered_json j;
    j["result"] = outcome_name(v.outcome);
    j["reason"] = v.reason;
    j["format"] = format;
    j["version"] = w->version;
    j["property"] = property;
    j["states"] = v.states;
    j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (pair) j["race"] = {race_end_json(pair->first), race_end_json(pair->second)};
    add_trace_json(j, rows, a.trace_detail);
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("VALIDATION RESULT: %s (%s witness %s, %s)%s%s\n", outcome_name(v.outcome), format, w->version.c_str(),
                property, v.reason.empty() ? "" : ": ", v.reason.c_str());
    if (v.outcome == witness::Outcome::Confirmed) {
      if (pair)
        std::printf("Data race on '%s': %s %s:%u and %s %s:%u\n", pair->first.variable.c_str(), pair->first.thread_name.c_str(),
                    pair->first.file.c_str(), pair->first.line, pair->second.thread_name.c_str(),
                    pair->second.file.c_str(), pair->second.line);
      std::printf("The run that follows the witness (%s, replayed):\n", trace_size(rows).c_str());
      print_trace_table(rows, a.trace_detail);
    }
  }
  switch (v.outcome) {
    case witness::Outcome::Confirmed: return kExitUnsafe;
    case witness::Outcome::Rejected: return kExitSafe;
    case witness::Outcome::Unknown: return kExitUnknown;
  }
  return kExitUnknown;
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ValidateArgs>();
  auto* cmd = app.add_subcommand(
      "validate",
      "Validate a violation witness (SV-COMP GraphML 1.0 or YAML 2.0-2.2, ours or another tool's):\n"
      "search for a run of FILE.c that follows it to the violation it claims (a failing assertion or a\n"
      "data race). CONFIRMED (exit 10, the run replayed), REJECTED (exit 0: no run follows it),\n"
      "UNKNOWN (exit 5). An unreadable witness, an unsupported version or another program's hash: exit 6.");
  cmd->add_option("witness", args->witness, "The witness file (.graphml or .yml)")->required();
  cmd->add_option("file", args->file, "C source file")->required();
  cmd->add_option("--timeout", args->timeout, "Give up after SEC seconds of wall-clock time: UNKNOWN")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
  add_trace_detail_option(cmd, args->trace_detail);
  add_front_options(cmd, args->front);
  // Broken on purpose (witness::ValidateOptions::test_ignore_witness), for tests only.
  cmd->add_flag("--test-ignore-witness", args->test_ignore_witness)->group("");
  cmd->callback([args, cmd, &exit_code] {
    args->threads_given = cmd->count("--threads") > 0;
    exit_code = run_validate(*args);
  });
}

}  // namespace siren::app
