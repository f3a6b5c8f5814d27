// `siren triage [WARNINGS] --program FILE.c [--out results.jsonl] [--jobs N]`: batch triage of
// static race warnings (DESIGN.md §B7, Part C "Triage amortisation"; race/triage.hpp, and
// race/triage_batch.hpp for the resumable results file and the worker processes).
//
// One JSON line per warning {"id", "first", "second", "verdict", "bound", "seconds",
// "witness", "reason"}, written as each warning is answered; this file parses the options,
// formats the lines, and prints the progress bar and the summary (and SARIF).
#include "apps/siren/commands.hpp"
#include "apps/siren/race_common.hpp"
#include "apps/siren/witness_output.hpp"
#include "apps/siren/sarif_output.hpp"
#include "race/triage.hpp"
#include "race/triage_batch.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace siren::app {
namespace {

struct TriageArgs {
  std::string warnings;
  std::string program;
  std::string out;
  std::string sarif;
  unsigned jobs = 1;
  unsigned bound = check::CheckOptions{}.bound;
  FrontArgs front;
  double timeout = 0;        // per warning (solving time)
  double total_timeout = 0;  // whole run
  unsigned memory = 0;
  bool quiet = false;
  std::string reduction = "sir";
  std::string granularity = "transaction";
  std::string witness_dir;  // --witness-dir: DIR/<id>.graphml and DIR/<id>.yml per RACE
};

nlohmann::ordered_json loc_json(const race::SrcLoc& l) {
  return {{"file", l.file}, {"line", l.line}, {"column", l.column}};
}

std::string answer_line(const race::Warning& w, const std::string& verdict, unsigned bound, double seconds,
                        const nlohmann::ordered_json& witness, const std::string& reason) {
  nlohmann::ordered_json j;
  j["id"] = w.id;
  j["first"] = loc_json(w.first);
  j["second"] = loc_json(w.second);
  j["verdict"] = verdict;
  j["bound"] = bound;
  j["seconds"] = std::round(seconds * 1000.0) / 1000.0;
  j["witness"] = witness;
  if (!reason.empty()) j["reason"] = reason;
  return j.dump() + "\n";
}

void progress_bar(std::size_t done, std::size_t total, double secs) {
  const int width = 40;
  const int fill = total ? static_cast<int>(width * done / total) : width;
  std::fprintf(stderr, "\r[%s%s] %zu/%zu warnings  %.1f s", std::string(fill, '#').c_str(),
               std::string(width - fill, ' ').c_str(), done, total, secs);
  std::fflush(stderr);
}

int run_triage(const TriageArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  LoadedModel lm = load_model(a.program, a.front);
  if (lm.input_error) return lm.input_error;

  std::vector<race::Warning> ws;
  if (!a.warnings.empty()) {
    try {
      ws = race::parse_warnings(a.warnings);
    } catch (const race::WarningsError& e) {
      std::fprintf(stderr, "siren: malformed warnings: %s\n", e.what());
      return kExitInputError;
    }
  } else if (lm.tm) {
    ws = race::lockset_candidates(*lm.tm);
    if (!a.quiet) std::fprintf(stderr, "siren: %zu candidate pairs from the lockset analysis\n", ws.size());
  }

  // Output: resume from the existing results file.
  std::optional<race::ResultsFile> results;
  int fd = STDOUT_FILENO;
  std::set<std::string> answered;
  if (!a.out.empty()) {
    try {
      results.emplace(a.out);
    } catch (const race::ResultsFileError& e) {
      std::fprintf(stderr, "siren: %s\n", e.what());
      return kExitInputError;
    }
    fd = results->fd();
    answered = results->answered();
  }
  std::vector<race::Warning> todo;
  for (const auto& w : ws)
    if (!answered.count(w.id)) todo.push_back(w);
  if (!a.quiet && !answered.empty())
    std::fprintf(stderr, "siren: %zu of %zu warnings already answered in %s\n", ws.size() - todo.size(), ws.size(),
                 a.out.c_str());

  auto format_line = [&](const race::TriageAnswer& t) {
    nlohmann::ordered_json witness = nullptr;
    if (t.race && t.race->verdict == check::Verdict::Unsafe && !t.race->internal_error) {
      witness = {{"first", race_end_json(t.race->first)}, {"second", race_end_json(t.race->second)},
                 {"schedule", trace_json(t.race->trace)}};
      if (!a.witness_dir.empty()) {  // SV-COMP witnesses of this race (witness_output.hpp)
        std::string name;
        for (char c : t.warning->id) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
        WitnessArgs wa;
        wa.files = {a.witness_dir + "/" + name + ".graphml", a.witness_dir + "/" + name + ".yml"};
        witness::Violation v;
        v.property = witness::Property::Race;
        v.first_thread = t.race->first.thread;
        v.first_pc = t.race->first.pc;
        v.second_thread = t.race->second.thread;
        v.second_pc = t.race->second.pc;
        if (write_witness(wa, *lm.tm, a.program, a.front, t.race->trace, v)) witness["files"] = wa.files;
      }
    }
    return answer_line(*t.warning, t.verdict, t.race ? t.race->bound : 0, t.race ? t.race->seconds : 0.0, witness,
                       t.reason);
  };
  if (!lm.tm) {  // unsupported C or internal error: every open warning is UNKNOWN
    for (const auto& w : todo)
      if (!race::append_line(fd, answer_line(w, "UNKNOWN", 0, 0.0, nullptr, lm.unknown.value_or("unsupported"))))
        return kExitInputError;
  } else if (!todo.empty()) {
    const bool tty = !a.quiet && ::isatty(STDERR_FILENO);
    race::LocalTriageOptions lo;
    lo.jobs = a.jobs;
    lo.run.check.bound = a.bound;
    lo.run.check.reduction = a.reduction;
    lo.run.check.granularity = a.granularity;
    lo.run.query_timeout = a.timeout;
    if (a.total_timeout > 0)
      lo.run.check.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          std::chrono::duration<double>(a.total_timeout));
    if (tty) {
      progress_bar(0, todo.size(), 0);
      lo.progress = [&](std::size_t done) {
        progress_bar(done, todo.size(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      };
    }
    const bool ok = race::triage_locally(*lm.tm, todo, lo, fd, format_line);
    if (tty) std::fprintf(stderr, "\n");
    if (!ok) std::fprintf(stderr, "siren: a triage worker failed; re-run with the same --out to finish\n");
  }
  results.reset();

  // Summary (and SARIF) over every answered warning of this input.
  std::map<std::string, std::string> line_of;
  if (!a.out.empty()) {
    for (const auto& l : race::ResultsFile::read_lines(a.out)) {
      auto j = nlohmann::json::parse(l);
      line_of[j["id"].get<std::string>()] = l;
    }
  }
  std::map<std::string, unsigned> counts;
  SarifRun sarif;
  sarif.program = a.program;
  // The files of the warnings as triage matched them: by base name against the program's.
  auto place = [&](const race::SrcLoc& l) {
    return SarifPlace{race::basename_of(l.file) == race::basename_of(a.program) ? a.program : l.file, l.line, l.column};
  };
  for (const auto& w : ws) {
    auto it = line_of.find(w.id);
    if (it == line_of.end()) {
      ++counts["(not answered)"];
      continue;
    }
    auto j = nlohmann::ordered_json::parse(it->second);
    const std::string v = j["verdict"].get<std::string>();
    ++counts[v];
    if (!a.sarif.empty()) {
      std::string text = v == "RACE" ? "Data race confirmed by a replayed schedule"
                         : v == "NO_RACE" ? "No data race: proven (every execution explored)"
                         : v == "NO_RACE_UP_TO_BOUND"
                             ? fmt::format("No data race in executions of at most {} frames (--bound; not a proof)",
                                           j["bound"].get<unsigned>())
                         : v == "NO_ACCESS" ? "No memory access of the program at a location of this warning"
                                            : "Unknown: " + j.value("reason", std::string());
      nlohmann::ordered_json props = {{"id", w.id}, {"verdict", v}, {"bound", j["bound"]}};
      if (!j["witness"].is_null()) props["witness"] = j["witness"];
      SarifResult r;
      r.rule = kSarifRaceRule;
      // SARIF 2.1.0 3.27.10: a result whose kind is not "fail" has level "none".
      r.level = v == "RACE" ? "error" : "none";
      r.kind = v == "RACE" ? "fail" : v == "UNKNOWN" ? "review" : v == "NO_ACCESS" ? "notApplicable" : "pass";
      r.message = text;
      r.where = place(w.first);
      r.related = {{place(w.second), "The other location of the warning."}};
      r.properties = props;
      sarif.results.push_back(std::move(r));
    }
  }
  if (!a.out.empty() && !a.quiet) {
    std::FILE* s = stderr;
    std::fprintf(s, "\n%-22s %6s\n", "verdict", "count");
    for (const char* v : {"RACE", "NO_RACE", "NO_RACE_UP_TO_BOUND", "NO_ACCESS", "UNKNOWN", "(not answered)"})
      if (counts.count(v)) std::fprintf(s, "%-22s %6u\n", v, counts[v]);
    std::fprintf(s, "%-22s %6zu   (%.1f s, results in %s)\n", "total", ws.size(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), a.out.c_str());
  }
  if (!a.sarif.empty()) {
    sarif.verdict_text = fmt::format("{} warnings triaged", ws.size());
    for (const auto& [verdict, n] : counts) sarif.verdict_text += fmt::format(", {} {}", n, verdict);
    if (!write_sarif(a.sarif, sarif)) return kExitInputError;
  }
  return counts.count("(not answered)") ? kExitUnknown : kExitSafe;
}

}  // namespace

void add_triage_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<TriageArgs>();
  auto* cmd = app.add_subcommand(
      "triage",
      "Batch triage of static race warnings: for each pair of locations, RACE (with a replayed\n"
      "schedule), NO_RACE (proven), NO_RACE_UP_TO_BOUND, NO_ACCESS (no memory access there) or\n"
      "UNKNOWN. WARNINGS: SARIF 2.1.0, a JSON array of location pairs, or CSV\n"
      "file1,line1,col1,file2,line2,col2; without it, candidate pairs come from a lockset analysis.\n"
      "One JSON line per warning (--out FILE: resumable; a re-run skips answered warnings).");
  cmd->add_option("warnings", args->warnings, "Warnings file (SARIF / JSON / CSV); omit for lockset candidates");
  cmd->add_option("--program", args->program, "The C program the warnings are about")->required();
  cmd->add_option("--out,-o", args->out, "Append JSON lines to FILE (resumable); default: stdout");
  cmd->add_option("--sarif", args->sarif, "Also write the results as a SARIF 2.1.0 log to FILE");
  cmd->add_option("--witness-dir", args->witness_dir,
                  "For every RACE, write SV-COMP violation witnesses DIR/ID.graphml and DIR/ID.yml (ID: the "
                  "warning's id; `siren validate` checks them); the result line lists them under witness.files")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--jobs,-j", args->jobs, "Worker processes (default 1)")->check(CLI::Range(1u, 256u));
  add_bound_option(cmd, args->bound);
  add_race_reduction_option(cmd, args->reduction);
  add_granularity_option(cmd, args->granularity);
  cmd->add_option("--timeout", args->timeout, "Solving time per warning in seconds: UNKNOWN after (default: none)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--total-timeout", args->total_timeout, "Wall-clock limit of the whole run in seconds")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--memory", args->memory, "Allocate at most MB megabytes more per process")
      ->check(CLI::Range(1u, 100000000u));
  cmd->add_flag("--quiet,-q", args->quiet, "No progress bar and no summary");
  add_front_options(cmd, args->front);
  cmd->callback([args, &exit_code] {
    if (args->memory > 0) limit_memory_mb(args->memory);
    exit_code = run_triage(*args);
  });
}

}  // namespace siren::app
