// `siren triage [WARNINGS] --program FILE.c [--out results.jsonl] [--jobs N]`: batch triage of
// static race warnings (DESIGN.md §B7, Part C "Triage amortisation"; race/triage.hpp).
//
// One JSON line per warning {"id", "first", "second", "verdict", "bound", "seconds",
// "witness", "reason"}, written as each warning is answered. Each worker process (--jobs N,
// fork after the front end) builds ONE encoding of the program and asks its share of the
// warnings as queries under assumptions at every depth.
//
// Resumable and loss-free: every line is appended with ONE write() on an O_APPEND descriptor and
// fsync'ed; a re-run with the same --out keeps the complete lines that parse, drops a trailing
// partial line (the file is rewritten through a temp file + rename when anything is dropped) and
// skips warnings already answered. A lock file (OUT.lock, flock) keeps two runs from writing the
// same output; workers die with the parent (PR_SET_PDEATHSIG), so a killed run leaves no writer.
#include "apps/siren/commands.hpp"
#include "apps/siren/race_common.hpp"
#include "race/triage.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <sstream>
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
  std::string reduction = "none";
};

nlohmann::ordered_json loc_json(const race::SrcLoc& l) {
  return {{"file", l.file}, {"line", l.line}, {"column", l.column}};
}

bool write_all(int fd, const std::string& s) {
  // One write() call for the whole line (O_APPEND: atomic with respect to other appenders);
  // a short write (disk full) is reported, never completed by a second write.
  const ssize_t n = ::write(fd, s.data(), s.size());
  return n == static_cast<ssize_t>(s.size());
}

// Complete, parseable lines of an existing output: id -> line.
struct Existing {
  std::vector<std::string> lines;
  std::set<std::string> ids;
  bool dirty = false;  // a partial/unparseable/duplicate line was dropped
};

Existing read_existing(const std::string& path) {
  Existing ex;
  std::ifstream in(path, std::ios::binary);
  if (!in) return ex;
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    if (nl == std::string::npos) {  // trailing partial line: dropped
      ex.dirty = true;
      break;
    }
    const std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    try {
      auto j = nlohmann::json::parse(line);
      if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("verdict")) {
        ex.dirty = true;
        continue;
      }
      if (!ex.ids.insert(j["id"].get<std::string>()).second) {
        ex.dirty = true;
        continue;
      }
      ex.lines.push_back(line);
    } catch (const nlohmann::json::exception&) {
      ex.dirty = true;
    }
  }
  return ex;
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

// The worker: answers `ws` over one encoding, appending lines to `fd`; one byte per answer to
// `progress_fd` (if >= 0).
void work(const ir::ThreadModel& tm, const std::vector<race::Warning>& ws, const TriageArgs& a, int fd,
          int progress_fd, std::chrono::steady_clock::time_point start) {
  std::vector<race::RaceQuery> queries;
  std::vector<std::size_t> query_of;  // queries[i] answers ws[query_of[i]]
  auto emit = [&](const std::string& line) {
    if (!write_all(fd, line)) {
      std::fprintf(stderr, "siren: cannot write the output: %s\n", std::strerror(errno));
      std::_Exit(kExitInputError);
    }
    ::fsync(fd);
    if (progress_fd >= 0) {
      const char c = '.';
      (void)!::write(progress_fd, &c, 1);
    }
  };
  for (std::size_t i = 0; i < ws.size(); ++i) {
    const auto q = race::triage_query(tm, ws[i]);
    if (q.decided) {
      emit(answer_line(ws[i], *q.decided, 0, 0.0, nullptr,
                       *q.decided == "NO_ACCESS" ? "a location matches no memory access of the program"
                                                 : "no write by one thread at one location and access by another "
                                                   "thread at the other"));
      continue;
    }
    queries.push_back(q.query);
    query_of.push_back(i);
  }
  if (queries.empty()) return;
  race::RaceRunOptions ro;
  ro.check.bound = a.bound;
  ro.check.reduction = a.reduction;
  ro.query_timeout = a.timeout;
  if (a.total_timeout > 0)
    ro.check.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(a.total_timeout));
  race::solve_race_queries(tm, queries, ro, [&](std::size_t i, const race::RaceAnswer& ans) {
    const auto& w = ws[query_of[i]];
    nlohmann::ordered_json witness = nullptr;
    if (ans.verdict == check::Verdict::Unsafe)
      witness = {{"first", race_end_json(ans.first)}, {"second", race_end_json(ans.second)},
                 {"schedule", trace_json(ans.trace)}};
    std::string verdict = race::triage_verdict_name(ans.verdict);
    if (ans.internal_error) verdict = "UNKNOWN";
    emit(answer_line(w, verdict, ans.bound, ans.seconds, witness, ans.reason));
  });
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

  // Output: resume from the existing file.
  int fd = STDOUT_FILENO;
  int lock_fd = -1;
  std::set<std::string> answered;
  std::vector<std::string> previous;
  if (!a.out.empty()) {
    lock_fd = ::open((a.out + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_fd < 0 || ::flock(lock_fd, LOCK_EX) != 0) {
      std::fprintf(stderr, "siren: cannot lock %s.lock: %s\n", a.out.c_str(), std::strerror(errno));
      return kExitInputError;
    }
    Existing ex = read_existing(a.out);
    if (ex.dirty) {
      std::string text;
      for (const auto& l : ex.lines) text += l + "\n";
      if (!write_file_atomically(a.out, text)) {
        std::fprintf(stderr, "siren: cannot rewrite %s\n", a.out.c_str());
        return kExitInputError;
      }
    }
    answered = ex.ids;
    previous = ex.lines;
    fd = ::open(a.out.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
      std::fprintf(stderr, "siren: cannot open %s: %s\n", a.out.c_str(), std::strerror(errno));
      return kExitInputError;
    }
  }
  std::vector<race::Warning> todo;
  for (const auto& w : ws)
    if (!answered.count(w.id)) todo.push_back(w);
  if (!a.quiet && !answered.empty())
    std::fprintf(stderr, "siren: %zu of %zu warnings already answered in %s\n", ws.size() - todo.size(), ws.size(),
                 a.out.c_str());

  if (!lm.tm) {  // unsupported C or internal error: every open warning is UNKNOWN
    for (const auto& w : todo) {
      const std::string line = answer_line(w, "UNKNOWN", 0, 0.0, nullptr, lm.unknown.value_or("unsupported"));
      if (!write_all(fd, line)) return kExitInputError;
      if (fd != STDOUT_FILENO) ::fsync(fd);
    }
  } else if (!todo.empty()) {
    const unsigned jobs = std::max(1u, std::min<unsigned>(a.jobs, static_cast<unsigned>(todo.size())));
    const bool tty = !a.quiet && ::isatty(STDERR_FILENO);
    int pipefd[2] = {-1, -1};
    if (::pipe(pipefd) != 0) pipefd[0] = pipefd[1] = -1;
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t parent = ::getpid();
    std::vector<pid_t> kids;
    for (unsigned j = 0; j < jobs; ++j) {
      std::vector<race::Warning> share;
      for (std::size_t i = j; i < todo.size(); i += jobs) share.push_back(todo[i]);
      const pid_t pid = ::fork();
      if (pid < 0) {
        std::fprintf(stderr, "siren: fork failed: %s\n", std::strerror(errno));
        return kExitInternal;
      }
      if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) std::_Exit(1);
        if (pipefd[0] >= 0) ::close(pipefd[0]);
        try {
          work(*lm.tm, share, a, fd, pipefd[1], start);
        } catch (const std::bad_alloc&) {
          std::_Exit(kExitUnknown);
        }
        std::fflush(stdout);
        std::_Exit(0);
      }
      kids.push_back(pid);
    }
    if (pipefd[1] >= 0) ::close(pipefd[1]);
    std::size_t done = 0;
    if (tty) progress_bar(done, todo.size(), 0);
    char buf[256];
    while (pipefd[0] >= 0) {
      const ssize_t n = ::read(pipefd[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
      if (tty)
        progress_bar(done, todo.size(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    if (tty) std::fprintf(stderr, "\n");
    bool failed = false;
    for (pid_t k : kids) {
      int status = 0;
      while (::waitpid(k, &status, 0) < 0 && errno == EINTR) {
      }
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = true;
    }
    if (failed) std::fprintf(stderr, "siren: a triage worker failed; re-run with the same --out to finish\n");
  }
  if (fd != STDOUT_FILENO) ::close(fd);

  // Summary (and SARIF) over every answered warning of this input.
  std::map<std::string, std::string> line_of;
  if (!a.out.empty()) {
    for (const auto& l : read_existing(a.out).lines) {
      auto j = nlohmann::json::parse(l);
      line_of[j["id"].get<std::string>()] = l;
    }
  }
  std::map<std::string, unsigned> counts;
  auto results = nlohmann::ordered_json::array();
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
      std::string level = v == "RACE" ? "error" : v == "UNKNOWN" ? "warning" : "note";
      std::string text = v == "RACE" ? "Data race confirmed by a replayed schedule"
                         : v == "NO_RACE" ? "No data race: proven (every execution explored)"
                         : v == "NO_RACE_UP_TO_BOUND"
                             ? fmt::format("No data race in executions of at most {} steps (not a proof)",
                                           j["bound"].get<unsigned>())
                         : v == "NO_ACCESS" ? "No memory access of the program at a location of this warning"
                                            : "Unknown: " + j.value("reason", std::string());
      nlohmann::ordered_json props = {{"id", w.id}, {"verdict", v}, {"bound", j["bound"]}};
      if (!j["witness"].is_null()) props["witness"] = j["witness"];
      auto r = sarif_result(level, text, w.first.file, w.first.line, w.first.column,
                            std::make_tuple(w.second.file, w.second.line, w.second.column), props);
      r["kind"] = v == "RACE" ? "fail" : v == "UNKNOWN" ? "review" : v == "NO_ACCESS" ? "notApplicable" : "pass";
      results.push_back(r);
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
  if (!a.sarif.empty() && !write_file_atomically(a.sarif, sarif_log(results).dump(2) + "\n")) {
    std::fprintf(stderr, "siren: cannot write %s\n", a.sarif.c_str());
    return kExitInputError;
  }
  if (lock_fd >= 0) ::close(lock_fd);
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
  cmd->add_option("--jobs,-j", args->jobs, "Worker processes (default 1)")->check(CLI::Range(1u, 256u));
  add_bound_option(cmd, args->bound);
  add_race_reduction_option(cmd, args->reduction);
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
