// `siren triage [WARNINGS] --program FILE.c | --manifest FILE [--out results.jsonl] [--jobs N]
// [--shard I/N] [--executor local|slurm]`: batch triage of
// static race warnings (DESIGN.md §B7, Part C "Triage amortisation"; race/triage.hpp, and
// race/triage_batch.hpp for the resumable results file and the worker processes).
//
// One JSON line per warning {"id", "first", "second", "verdict", "bound", "seconds",
// "witness", "reason"}, written as each warning is answered; this file parses the options,
// formats the lines, and prints the progress bar and the summary (and SARIF). With --manifest
// (race/manifest.hpp) it triages many programs into one stream, each line naming its program
// and its id prefixed by the item's ("PREFIX/WARNING-ID"), which is also the resume key;
// --shard I/N answers one deterministic shard of the work (race/triage_shards.hpp);
// --executor slurm hands the work to one Slurm array job (triage_slurm.hpp).
#include "apps/siren/commands.hpp"
#include "apps/siren/native_confirmation.hpp"
#include "apps/siren/race_common.hpp"
#include "apps/siren/witness_output.hpp"
#include "apps/siren/sarif_output.hpp"
#include "apps/siren/triage_report.hpp"
#include "race/triage.hpp"
#include "race/triage_batch.hpp"
#include "race/manifest.hpp"
#include "race/triage_shards.hpp"
#include "apps/siren/triage_progress.hpp"
#include "apps/siren/triage_run.hpp"
#include "apps/siren/triage_slurm.hpp"
#include "apps/siren/triage_driver.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <cctype>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace siren::app {
namespace {

nlohmann::ordered_json loc_json(const race::SrcLoc& l) {
  return {{"file", l.file}, {"line", l.line}, {"column", l.column}};
}

}  // namespace

std::string answer_line(const race::Warning& w, const std::string& program, const std::string& verdict, unsigned bound,
                        double seconds, const nlohmann::ordered_json& witness, const std::string& reason) {
  nlohmann::ordered_json j;
  j["id"] = w.id;
  if (!program.empty()) j["program"] = program;
  j["first"] = loc_json(w.first);
  j["second"] = loc_json(w.second);
  j["verdict"] = verdict;
  j["bound"] = bound;
  j["seconds"] = std::round(seconds * 1000.0) / 1000.0;
  j["witness"] = witness;
  if (!reason.empty()) j["reason"] = reason;
  return j.dump() + "\n";
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Peak resident memory in MB: of this process, or of the largest child it waited for (a
// program's worker, a native replay, the C compiler of one).
double peak_mb(int who) {
  struct rusage ru {};
  ::getrusage(who, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

// Where a triage's time went (--driver: DIR/phases.json and one stderr line; docs/drivers.md):
// translation (front end, thread model, points-to), the lockset candidates, and the search
// (deepening, solving, replays), beside prepare_driver's scan.
struct Phases {
  double translation = 0;
  unsigned translated = 0;  // programs translated (a released one counts again at its turn)
  double candidates = 0;
  double search = 0;
  double peak_after_candidates = 0;

  LoadedModel translate(const std::string& program, const FrontArgs& front) {
    const auto t = std::chrono::steady_clock::now();
    LoadedModel lm = load_model(program, front);
    translation += seconds_since(t);
    ++translated;
    return lm;
  }
};

// The entry points a race of a driver's harness of many pairs ran: the last values of its
// choice variables siren_ep1 and siren_ep2 in the schedule (race::ManifestItem::entry_points).
nlohmann::ordered_json chosen_entry_points(const TriageItem& item, const nlohmann::ordered_json& witness) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const char* var : {"siren_ep1", "siren_ep2"}) {
    // A schedule shows the values that changed: never shown, the variable kept its initial 0.
    std::string name = item.entry_points.empty() ? "?" : item.entry_points[0];
    for (const auto& step : witness["schedule"])
      if (step.contains("values") && step["values"].contains(var)) {
        const auto& v = step["values"][var];
        const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
        char* end = nullptr;
        const long x = std::strtol(text.c_str(), &end, 10);
        if (end != text.c_str() && x >= 0 && static_cast<std::size_t>(x) < item.entry_points.size())
          name = item.entry_points[static_cast<std::size_t>(x)];
      }
    out.push_back(name);
  }
  return out;
}

// The programs of this run with their warnings (ids made unique across a manifest's items);
// a bad manifest line or program is reported (one line naming it) and left out.
std::vector<TriageItem> load_items(const TriageArgs& a, bool& input_error,
                                   std::chrono::steady_clock::time_point start, Phases& phases) {
  std::vector<TriageItem> items;
  auto load = [&](TriageItem& it, const std::string& warnings, const std::string& prefix) -> bool {
    auto where = [&] { return fmt::format("{}:{}", a.manifest, it.line); };
    it.lm = phases.translate(it.program, it.front);
    if (it.lm.input_error) {
      if (it.line) std::fprintf(stderr, "siren: %s: %s: cannot be translated (above)\n", where().c_str(), it.program.c_str());
      return false;
    }
    if (!warnings.empty()) {
      std::vector<std::string> dups;
      try {
        it.ws = race::parse_warnings(warnings, it.line ? &dups : nullptr);
      } catch (const race::WarningsError& e) {
        if (it.line) std::fprintf(stderr, "siren: %s: malformed warnings: %s\n", where().c_str(), e.what());
        else std::fprintf(stderr, "siren: malformed warnings: %s\n", e.what());
        return false;
      }
      if (!dups.empty()) {
        std::fprintf(stderr, "siren: %s: duplicate warning id %s in %s (%zu duplicates)\n", where().c_str(),
                     dups.front().c_str(), warnings.c_str(), dups.size());
        return false;
      }
    } else if (it.lm.tm) {
      const auto t = std::chrono::steady_clock::now();
      it.ws = race::lockset_candidates(*it.lm.tm);
      phases.candidates += seconds_since(t);
      if (!a.quiet && !it.line)
        std::fprintf(stderr, "siren: %zu candidate pairs from the lockset analysis\n", it.ws.size());
      if (it.ws.empty() && it.named) {
        // A manifest program (a driver's pair of entry points) without candidates: one NO_RACE
        // line for it (id PREFIX/program), so that every program of the manifest is answered.
        race::Warning whole;
        whole.id = "program";
        whole.no_candidates = true;
        whole.model_limited = it.lm.tm->limited;
        it.ws.push_back(whole);
      }
    } else if (it.named) {
      // A program of a manifest that siren cannot model has no candidates: one UNKNOWN line for
      // it (id PREFIX/program) says why, instead of no line at all.
      race::Warning whole;
      whole.id = "program";
      it.ws.push_back(whole);
    }
    if (!prefix.empty())
      for (auto& w : it.ws) w.id = race::manifest_result_id(prefix, w.id);
    if (it.named && it.lm.tm && a.executor == "local") {
      it.lm.tm.reset();
      it.released = true;
    }
    return true;
  };
  if (a.manifest.empty()) {
    TriageItem it;
    it.program = a.program;
    it.front = a.front;
    if (!load(it, a.warnings, "")) {
      input_error = true;
      return {};
    }
    items.push_back(std::move(it));
    return items;
  }
  const race::Manifest m = race::read_manifest(a.manifest);
  for (const auto& e : m.errors) {
    std::fprintf(stderr, "siren: %s:%u: %s\n", a.manifest.c_str(), e.line, e.message.c_str());
    input_error = true;
  }
  for (const auto& mi : m.items) {
    TriageItem it;
    it.program = mi.program;
    it.line = mi.line;
    it.named = true;
    it.entry_points = mi.entry_points;
    it.front = a.front;
    it.front.clang_args.insert(it.front.clang_args.end(), mi.clang_args.begin(), mi.clang_args.end());
    if (a.total_timeout > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= a.total_timeout) {
      // The time ran out while the programs were translated: the rest get one UNKNOWN line
      // each (PREFIX/program), as a program siren cannot model does.
      it.lm.unknown = "not translated: the total time limit (--total-timeout) ran out before this program's turn";
      race::Warning whole;
      whole.id = race::manifest_result_id(mi.prefix, "program");
      it.ws.push_back(whole);
      items.push_back(std::move(it));
      continue;
    }
    if (!load(it, mi.warnings, mi.prefix)) {
      input_error = true;
      continue;
    }
    items.push_back(std::move(it));
  }
  return items;
}

// Sets each item's `mine`: its warnings not answered in --exclude-answered, restricted to the
// --shard of them.
void assign_work(const TriageArgs& a, std::vector<TriageItem>& items, const std::optional<race::ShardSpec>& shard) {
  std::set<std::string> excluded;
  if (!a.exclude_answered.empty())
    for (const auto& l : race::ResultsFile::read_lines(a.exclude_answered))
      excluded.insert(nlohmann::json::parse(l)["id"].get<std::string>());
  std::vector<std::size_t> sizes;
  for (auto& it : items) {
    it.mine.clear();
    for (const auto& w : it.ws)
      if (!excluded.count(w.id)) it.mine.push_back(w);
    sizes.push_back(it.mine.size());
  }
  if (!shard) return;
  const auto plan = race::plan_shards(sizes, shard->count);
  std::vector<std::vector<race::Warning>> kept(items.size());
  for (const auto& p : plan[shard->index])
    kept[p.item].insert(kept[p.item].end(), items[p.item].mine.begin() + p.begin, items[p.item].mine.begin() + p.end);
  for (std::size_t i = 0; i < items.size(); ++i) items[i].mine = std::move(kept[i]);
}

int run_triage(const TriageArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<race::ShardSpec> shard;
  if (!a.shard.empty() && !(shard = race::parse_shard(a.shard))) {
    std::fprintf(stderr, "siren: --shard %s: expected I/N with 0 <= I < N\n", a.shard.c_str());
    return kExitUsage;
  }
  if (!a.report.empty() && !prepare_report_dir(a.report)) return kExitInputError;
  bool input_error = false;
  Phases phases;
  std::vector<TriageItem> items = load_items(a, input_error, start, phases);
  phases.peak_after_candidates = peak_mb(RUSAGE_SELF);
  if (a.manifest.empty() && input_error) return kExitInputError;
  assign_work(a, items, shard);

  // Output: resume from the existing results file. Without --out the answers go to a
  // temporary results file that is echoed to stdout as it grows (the summary, the SARIF log
  // and the exit status are made from it, as from --out).
  std::optional<race::ResultsFile> results;
  std::set<std::string> answered;
  std::string out_path = a.out;
  struct TempResults {
    std::string path;
    ~TempResults() {
      if (path.empty()) return;
      ::unlink(path.c_str());
      ::unlink((path + ".lock").c_str());
    }
  } temp;
  if (out_path.empty()) {
    char name[] = "/tmp/siren-triage-XXXXXX";
    const int tfd = ::mkstemp(name);
    if (tfd < 0) {
      std::fprintf(stderr, "siren: cannot make a temporary results file: %s\n", std::strerror(errno));
      return kExitInputError;
    }
    ::close(tfd);
    out_path = temp.path = name;
  }
  try {
    results.emplace(out_path);
  } catch (const race::ResultsFileError& e) {
    std::fprintf(stderr, "siren: %s\n", e.what());
    return kExitInputError;
  }
  const int fd = results->fd();
  answered = results->answered();
  off_t echoed = 0;  // without --out: the bytes of the temporary file already on stdout
  auto echo_new = [&] {
    if (temp.path.empty()) return;
    const int rfd = ::open(temp.path.c_str(), O_RDONLY);
    if (rfd < 0) return;
    std::string buf;
    char chunk[65536];
    ssize_t n;
    while ((n = ::pread(rfd, chunk, sizeof chunk, echoed + static_cast<off_t>(buf.size()))) > 0) buf.append(chunk, n);
    ::close(rfd);
    const auto end = buf.rfind('\n');
    if (end == std::string::npos) return;
    std::fwrite(buf.data(), 1, end + 1, stdout);
    std::fflush(stdout);
    echoed += static_cast<off_t>(end + 1);
  };
  std::vector<std::vector<race::Warning>> todo(items.size());
  std::size_t n_mine = 0, n_todo = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (const auto& w : items[i].mine)
      if (!answered.count(w.id)) todo[i].push_back(w);
    n_mine += items[i].mine.size();
    n_todo += todo[i].size();
  }
  if (!a.quiet && n_todo < n_mine)
    std::fprintf(stderr, "siren: %zu of %zu warnings already answered in %s\n", n_mine - n_todo, n_mine, a.out.c_str());

  const bool tty = !a.quiet && ::isatty(STDERR_FILENO);
  TriageProgress progress(n_todo, tty);
  bool workers_ok = true;
  const auto search_start = std::chrono::steady_clock::now();  // (the Slurm job's time is search too)
  const double translation_before = phases.translation;
  if (a.executor == "slurm" && n_todo > 0) {
    if (const int rc = triage_on_slurm(a, items, todo, fd, answered, progress)) return rc;
  }
  // --jobs over programs: with several programs to answer (a manifest, a driver's pairs), each
  // runs in a child process of its own, at most --jobs at once, and solves its warnings
  // together (race/race.hpp); splitting one program's warnings over processes would make each
  // of them build the same frames. One program splits its warnings over the jobs instead.
  const std::size_t n_programs =
      static_cast<std::size_t>(std::count_if(todo.begin(), todo.end(), [](const auto& t) { return !t.empty(); }));
  const bool per_program = a.executor == "local" && a.jobs > 1 && n_programs > 1;
  std::vector<pid_t> running;
  auto reap_one = [&] {
    int status = 0;
    pid_t pid;
    while ((pid = ::waitpid(-1, &status, 0)) < 0 && errno == EINTR) {
    }
    if (pid < 0) {
      running.clear();
      return;
    }
    std::erase(running, pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) workers_ok = false;
    echo_new();
  };
  const ir::ThreadModel no_model;  // for a program whose answers need none
  for (std::size_t i = 0; i < items.size() && a.executor == "local"; ++i) {
    // A pair without a lockset candidate is answered by that (race::triage_query): its harness
    // is not translated again for it.
    const bool needs_model = std::any_of(todo[i].begin(), todo[i].end(), [](const auto& w) { return !w.no_candidates; });
    if (items[i].released && needs_model) {  // translated again for its turn (load_items)
      if (a.total_timeout > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= a.total_timeout)
        // not past the limit translating programs whose warnings would all be timeouts (r8169's
        // 664 pair harnesses took 16 minutes after a 120 s limit)
        items[i].lm.unknown = "not translated: the total time limit (--total-timeout) ran out before this program's turn";
      else
        items[i].lm = phases.translate(items[i].program, items[i].front);
      items[i].released = false;
    }
    const TriageItem& item = items[i];
    const std::string named = item.named ? item.program : std::string();
    auto format_line = [&](const race::TriageAnswer& found) {
      // Every race is replayed natively (confirm/library_values.hpp, `always`): one that uses
      // values of functions without a body is RACE only when it happens natively with the real
      // library, any other unless its replay runs and does not show it (both: else UNKNOWN).
      race::TriageAnswer t = found;
      std::optional<race::RaceAnswer> race_copy;
      std::optional<confirm::LibraryValues> lv;
      if (t.race && t.race->verdict == check::Verdict::Unsafe && !t.race->internal_error) {
        race_copy = *t.race;
        lv = confirm_race(item.program, item.front, *race_copy, false, true);
        if (lv && !lv->confirmed) {
          t.verdict = "UNKNOWN";
          t.reason = race_copy->reason;
        }
        t.race = &*race_copy;
      }
      nlohmann::ordered_json witness = nullptr;
      if (t.race && t.race->verdict == check::Verdict::Unsafe && !t.race->internal_error) {
        witness = {{"first", race_end_json(t.race->first)}, {"second", race_end_json(t.race->second)},
                   {"schedule", trace_json(t.race->trace)}};
        if (!a.report.empty()) write_race_page(a.report, t.warning->id, item.program, *t.race, lv ? lv->native : "");
        if (!a.witness_dir.empty()) {  // SV-COMP witnesses of this race (witness_output.hpp)
          const std::string name = result_file_name(t.warning->id);
          WitnessArgs wa;
          wa.files = {a.witness_dir + "/" + name + ".graphml", a.witness_dir + "/" + name + ".yml"};
          witness::Violation v;
          v.property = witness::Property::Race;
          v.first_thread = t.race->first.thread;
          v.first_pc = t.race->first.pc;
          v.second_thread = t.race->second.thread;
          v.second_pc = t.race->second.pc;
          if (write_witness(wa, *item.lm.tm, item.program, item.front, t.race->trace, v)) witness["files"] = wa.files;
        }
      }
      if (lv && lv->attempted && witness.is_object()) witness["native_confirmation"] = library_values_json(*lv);
      if (witness.is_object() && !item.entry_points.empty()) witness["entry_points"] = chosen_entry_points(item, witness);
      return answer_line(*t.warning, named, t.verdict, t.race ? t.race->bound : 0, t.race ? t.race->seconds : 0.0,
                         witness, t.reason);
    };
    if (todo[i].empty()) continue;
    if (!item.lm.tm && needs_model) {  // unsupported C or internal error: every open warning is UNKNOWN
      for (const auto& w : todo[i]) {
        if (!race::append_line(fd, answer_line(w, named, "UNKNOWN", 0, 0.0, nullptr,
                                               item.lm.unknown.value_or("unsupported"))))
          return kExitInputError;
        progress.answered("UNKNOWN");
      }
      continue;
    }
    race::LocalTriageOptions lo;
    lo.jobs = a.jobs;
    lo.run.check.bound = a.bound;
    lo.run.check.reduction = a.reduction;
    lo.run.check.granularity = a.granularity;
    lo.run.query_timeout = a.timeout;
    lo.run.test_blame_all_of_group = a.test_blame_all_of_group;
    lo.run.test_search_first_only = a.test_search_first_only;
    lo.run.test_clean_past_errors = a.test_clean_past_errors;
    lo.run.explicit_first = a.engine == "auto";
    if (a.total_timeout > 0)
      lo.run.check.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          std::chrono::duration<double>(a.total_timeout));
    lo.progress = [&](std::size_t, const std::string& verdict) {
      progress.answered(verdict);
      echo_new();
    };
    progress.draw();
    if (per_program) {
      while (running.size() >= a.jobs) reap_one();
      std::fflush(stdout);
      std::fflush(stderr);
      const pid_t parent = ::getpid();
      const pid_t pid = ::fork();
      if (pid == 0) {  // the program's own process: one worker, no progress bar of its own
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) std::_Exit(1);
        lo.jobs = 1;
        lo.progress = nullptr;
        const bool ok = race::triage_locally(item.lm.tm ? *item.lm.tm : no_model, todo[i], lo, fd, format_line);
        std::fflush(stdout);
        std::_Exit(ok ? 0 : 1);
      }
      if (pid > 0) {
        running.push_back(pid);
        if (items[i].named) items[i].lm.tm.reset();  // the child has its copy
        continue;
      }
      std::fprintf(stderr, "siren: fork failed: %s; answering %s here\n", std::strerror(errno), item.program.c_str());
    }
    workers_ok = race::triage_locally(item.lm.tm ? *item.lm.tm : no_model, todo[i], lo, fd, format_line) && workers_ok;
    if (items[i].named) items[i].lm.tm.reset();  // done with it
  }
  while (!running.empty()) reap_one();
  phases.search = seconds_since(search_start) - (phases.translation - translation_before);
  echo_new();
  progress.finish();
  if (!workers_ok) std::fprintf(stderr, "siren: a triage worker failed; re-run with the same --out to finish\n");
  results.reset();

  // Summary (and SARIF) over every warning this run is responsible for.
  std::map<std::string, std::string> line_of;
  for (const auto& l : race::ResultsFile::read_lines(out_path)) {
    auto j = nlohmann::json::parse(l);
    line_of[j["id"].get<std::string>()] = l;
  }
  std::map<std::string, unsigned> counts;
  std::vector<std::map<std::string, unsigned>> item_counts(items.size());
  SarifRun sarif;
  sarif.program = a.manifest.empty() ? a.program : a.manifest;  // SRCROOT: its directory
  // The files of the warnings as triage matched them: by base name against the program's.
  auto place = [&](const race::SrcLoc& l, const std::string& program) {
    return SarifPlace{race::basename_of(l.file) == race::basename_of(program) ? program : l.file, l.line, l.column};
  };
  std::vector<ReportProgram> report(items.size());
  for (std::size_t i = 0; i < items.size(); ++i)
    for (const auto& w : items[i].mine) {
      auto it = line_of.find(w.id);
      if (it == line_of.end()) {
        ++counts["(not answered)"];
        ++item_counts[i]["(not answered)"];
        continue;
      }
      auto j = nlohmann::ordered_json::parse(it->second);
      const std::string v = j["verdict"].get<std::string>();
      ++counts[v];
      ++item_counts[i][v];
      if (v == "RACE" && j["witness"].is_object()) {
        const auto& f = j["witness"]["first"];
        const auto& s = j["witness"]["second"];
        report[i].races.push_back(
            {w.id, fmt::format("'{}': {} {} line {} / {} {} line {}", f.value("variable", ""), f.value("thread", ""),
                               f.value("access", ""), f.value("line", 0u), s.value("thread", ""), s.value("access", ""),
                               s.value("line", 0u))});
      }
      if (!a.sarif.empty()) {
        std::string text = v == "RACE" ? "Data race confirmed by a replayed schedule"
                           : v == "NO_RACE" ? "No data race: proven (every execution explored)"
                           : v == "NO_RACE_UP_TO_BOUND"
                               ? fmt::format("No data race in executions of at most {} frames (not a proof; {})",
                                             j["bound"].get<unsigned>(), j.value("reason", std::string()).empty()
                                                                             ? std::string("--bound")
                                                                             : j.value("reason", std::string()))
                           : v == "NO_ACCESS" ? "No memory access of the program at a location of this warning"
                                              : "Unknown: " + j.value("reason", std::string());
        nlohmann::ordered_json props = {{"id", w.id}, {"verdict", v}, {"bound", j["bound"]}};
        if (!a.manifest.empty()) props["program"] = items[i].program;
        if (!j["witness"].is_null()) props["witness"] = j["witness"];
        SarifResult r;
        r.rule = kSarifRaceRule;
        // SARIF 2.1.0 3.27.10: a result whose kind is not "fail" has level "none".
        r.level = v == "RACE" ? "error" : "none";
        r.kind = v == "RACE" ? "fail" : v == "UNKNOWN" ? "review" : v == "NO_ACCESS" ? "notApplicable" : "pass";
        r.message = text;
        r.where = place(w.first, items[i].program);
        r.related = {{place(w.second, items[i].program), "The other location of the warning."}};
        r.properties = props;
        sarif.results.push_back(std::move(r));
      }
    }
  std::vector<const char*> columns(std::begin(race::kTriageVerdicts), std::end(race::kTriageVerdicts));
  columns.push_back("(not answered)");
  if (!a.out.empty() && !a.quiet) {
    std::FILE* s = stderr;
    if (!a.manifest.empty()) {  // one row per program
      std::fprintf(s, "\n%-40s", "program");
      for (const char* v : columns) std::fprintf(s, " %*s", static_cast<int>(std::max<std::size_t>(7, std::strlen(v))), v);
      std::fprintf(s, "\n");
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].mine.empty()) continue;
        std::string name = items[i].program;
        if (name.size() > 40) name = "..." + name.substr(name.size() - 37);
        std::fprintf(s, "%-40s", name.c_str());
        for (const char* v : columns)
          std::fprintf(s, " %*u", static_cast<int>(std::max<std::size_t>(7, std::strlen(v))), item_counts[i][v]);
        std::fprintf(s, "\n");
      }
    }
    std::fprintf(s, "\n%-22s %6s\n", "verdict", "count");
    for (const char* v : columns)
      if (counts.count(v)) std::fprintf(s, "%-22s %6u\n", v, counts[v]);
    std::fprintf(s, "%-22s %6zu   (%.1f s, results in %s)\n", "total", n_mine,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), a.out.c_str());
  }
  if (!a.report.empty() && a.shard.empty()) {  // (a shard writes its race pages; the whole run, the index)
    std::vector<std::string> cols(columns.begin(), columns.end());
    std::vector<ReportProgram> shown;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (items[i].mine.empty()) continue;
      report[i].program = items[i].program;
      report[i].counts = item_counts[i];
      shown.push_back(std::move(report[i]));
    }
    if (!write_report(a.report, a.manifest.empty() ? a.program : a.manifest, shown, cols)) return kExitInputError;
  }
  if (!a.sarif.empty()) {
    sarif.verdict_text = fmt::format("{} warnings triaged", n_mine);
    for (const auto& [verdict, n] : counts) sarif.verdict_text += fmt::format(", {} {}", n, verdict);
    if (!write_sarif(a.sarif, sarif)) return kExitInputError;
  }
  if (!a.driver_dir.empty()) {  // where the time and memory went (docs/drivers.md)
    auto r3 = [](double x) { return std::round(x * 1000.0) / 1000.0; };
    const double peak = std::max(peak_mb(RUSAGE_SELF), peak_mb(RUSAGE_CHILDREN));
    const nlohmann::ordered_json j = {{"scan_seconds", r3(a.scan_seconds)},
                                      {"translation_seconds", r3(phases.translation)},
                                      {"programs_translated", phases.translated},
                                      {"candidates_seconds", r3(phases.candidates)},
                                      {"peak_mb_after_candidates", std::round(phases.peak_after_candidates)},
                                      {"search_seconds", r3(phases.search)},
                                      {"total_seconds", r3(a.scan_seconds + seconds_since(start))},
                                      {"peak_mb", std::round(peak)}};
    const std::string path = a.driver_dir + "/phases.json";
    if (!(std::ofstream(path, std::ios::trunc) << j.dump(2) << "\n"))
      std::fprintf(stderr, "siren: %s: cannot write the phase times\n", path.c_str());
    if (!a.quiet)
      std::fprintf(stderr,
                   "siren: phases: scan %.1f s, translation %.1f s (%u programs), candidates %.1f s, search %.1f s; "
                   "peak %.0f MB (%.0f MB after the candidates); %s\n",
                   a.scan_seconds, phases.translation, phases.translated, phases.candidates, phases.search, peak,
                   phases.peak_after_candidates, path.c_str());
  }
  if (input_error) return kExitInputError;  // after everything else ran
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
      "One JSON line per warning (--out FILE: resumable; a re-run skips answered warnings).\n"
      "--manifest FILE triages many programs into one stream (each line names its program);\n"
      "--executor slurm runs the work as one Slurm array job and merges it into --out.");
  cmd->add_option("warnings", args->warnings, "Warnings file (SARIF / JSON / CSV); omit for lockset candidates");
  auto* program = cmd->add_option("--program", args->program, "The C program the warnings are about");
  auto* manifest =
      cmd->add_option("--manifest", args->manifest,
                      "Triage many programs: JSON lines {\"program\": P, \"warnings\": W, \"clang_args\": [..], "
                      "\"id\": PREFIX} (only program required; paths relative to FILE's directory; without warnings: "
                      "lockset candidates). Result lines add \"program\", their ids are PREFIX/ID (PREFIX: id, else "
                      "program as written). A bad line is reported (FILE:LINE) and skipped, the rest still run, exit 6")
          ->excludes(program);
  program->excludes(manifest);
  auto* driver = cmd->add_option("--driver", args->driver,
                                 "A Linux driver (no main; docs/drivers.md): its module init and exit functions and "
                                 "its entry points (functions registered in operations structs, timers, work items, "
                                 "interrupt handlers) are found; a harness runs init, two entry points as threads "
                                 "with fresh arguments, then exit, with siren's kernel model before the -I "
                                 "directories: first one harness of every pair at once (result ids all/ID, a RACE "
                                 "names its pair in witness.entry_points), then one per pair (A|B/ID), triaged as a "
                                 "manifest")
                     ->excludes(program)
                     ->excludes(manifest);
  cmd->add_option("--emit-harness", args->emit_harness,
                  "--driver: write the harnesses (C), DIR/driver.json (entry points) and DIR/manifest.jsonl here "
                  "(default: OUT.harness, else a new directory under /tmp)")
      ->needs(driver);
  cmd->add_option("--shard", args->shard,
                  "Answer only shard I of N (I/N, 0 <= I < N): deterministic shards of the work by program, then "
                  "by number of warnings; give each shard its own --out");
  cmd->add_option("--exclude-answered", args->exclude_answered,
                  "Warnings answered in this results FILE are not part of the work (nor of the shards); read only");
  cmd->add_option("--out,-o", args->out, "Append JSON lines to FILE (resumable); default: stdout");
  cmd->add_option("--sarif", args->sarif, "Also write the results as a SARIF 2.1.0 log to FILE");
  cmd->add_option("--report", args->report,
                  "Also write DIR/index.html: the verdict counts of every program and a row per RACE linking its "
                  "trace page DIR/races/ID.html (one lane per thread, the racing accesses marked)");
  cmd->add_option("--witness-dir", args->witness_dir,
                  "For every RACE, write SV-COMP violation witnesses DIR/ID.graphml and DIR/ID.yml (ID: the "
                  "warning's id; `siren validate` checks them); the result line lists them under witness.files")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--jobs,-j", args->jobs, "Worker processes (default 1; with Slurm: per array task)")
      ->check(CLI::Range(1u, 256u));
  cmd->add_option("--executor", args->executor,
                  "local: worker processes on this machine; slurm: ONE sbatch array job, task I answering "
                  "--shard I/N into OUT.slurm/, merged into --out (needs --out); failed, timed-out or cancelled "
                  "shards are submitted once more, then answered UNKNOWN with the Slurm state")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  cmd->add_option("--slurm-args", args->slurm_args,
                  "Extra sbatch arguments, e.g. \"--partition=short --time=00:30:00 --account=A\"");
  cmd->add_option("--shards", args->shards, "Array tasks of --executor slurm (default: one per program, at most 64)")
      ->check(CLI::Range(1u, 10000u));
  add_bound_option(cmd, args->bound);
  add_race_reduction_option(cmd, args->reduction);
  cmd->add_option("--engine", args->engine,
                  "auto: per program, the explicit-state search for a state where a warning's race holds first (up to "
                  "80% of --timeout, 10 s without one, 20% once it restricts a nondet value; it answers the races it "
                  "finds, and every warning NO_RACE when it visits every reachable state), then BMC for the rest; "
                  "bmc: BMC only (what --reduction restricts)")
      ->check(CLI::IsMember({"auto", "bmc"}));
  add_granularity_option(cmd, args->granularity);
  cmd->add_option("--timeout", args->timeout, "Solving time per warning in seconds: UNKNOWN after (default: none)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--total-timeout", args->total_timeout, "Wall-clock limit of the whole run in seconds")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--memory", args->memory, "Allocate at most MB megabytes more per process")
      ->check(CLI::Range(1u, 100000000u));
  cmd->add_flag("--quiet,-q", args->quiet, "No progress bar and no summary");
  cmd->add_flag("--test-race-search-first-only", args->test_search_first_only)->group("");  // TEST ONLY
  cmd->add_flag("--test-race-blame-all-of-group", args->test_blame_all_of_group,
                "TEST ONLY: deliberately broken joint solving of a program's warnings")
      ->group("");
  cmd->add_flag("--test-race-clean-past-errors", args->test_clean_past_errors,
                "TEST ONLY: deliberately broken bounded answers past a reachable memory-safety error")
      ->group("");
  add_front_options(cmd, args->front);
  cmd->callback([args, &exit_code] {
    if (args->program.empty() && args->manifest.empty() && args->driver.empty()) {
      std::fprintf(stderr, "siren: triage needs --program FILE.c, --manifest FILE or --driver FILE.c (see siren triage --help)\n");
      exit_code = kExitUsage;
      return;
    }
    if (args->executor == "slurm" && (args->out.empty() || !args->shard.empty() || !args->exclude_answered.empty())) {
      std::fprintf(stderr, "siren: --executor slurm needs --out and makes its own shards (no --shard, "
                           "--exclude-answered)\n");
      exit_code = kExitUsage;
      return;
    }
    if (args->executor != "slurm" && (args->shards > 0 || !args->slurm_args.empty())) {
      std::fprintf(stderr, "siren: --shards and --slurm-args need --executor slurm\n");
      exit_code = kExitUsage;
      return;
    }
    if (!args->manifest.empty() && !args->warnings.empty()) {
      std::fprintf(stderr, "siren: with --manifest, warnings files are given per program in the manifest\n");
      exit_code = kExitUsage;
      return;
    }
    if (!args->driver.empty() && !args->warnings.empty()) {
      std::fprintf(stderr, "siren: with --driver, the candidates are each pair's lockset candidates (no warnings file)\n");
      exit_code = kExitUsage;
      return;
    }
    if (!args->driver.empty())
      if (const int rc = prepare_driver(*args); rc != 0) {
        exit_code = rc;
        return;
      }
    if (args->memory > 0) limit_memory_mb(args->memory);
    exit_code = run_triage(*args);
  });
}

}  // namespace siren::app
