// `siren triage --executor slurm` (triage_slurm.hpp).
#include "apps/siren/triage_slurm.hpp"

#include "apps/siren/commands.hpp"
#include "race/triage_batch.hpp"
#include "race/triage_shards.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace siren::app {
namespace {

namespace fs = std::filesystem;

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool on_path(const std::string& tool) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string d;
  while (std::getline(dirs, d, ':'))
    if (!d.empty() && ::access((d + "/" + tool).c_str(), X_OK) == 0) return true;
  return false;
}

struct Run {
  int status = -1;  // exit code; -1: could not run
  std::string out;
};

// Runs `cmd` through the shell; stdout captured, stderr to `err_file`.
Run run(const std::string& cmd, const std::string& err_file) {
  Run r;
  std::FILE* p = ::popen((cmd + " 2>" + quote(err_file)).c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string first_line(const std::string& file) {
  std::ifstream in(file);
  std::string l;
  while (std::getline(in, l))
    if (!l.empty()) return l;
  return "no message";
}

std::string self_exe() {
  std::error_code ec;
  const auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("siren") : p.string();
}

// The task's command line: this run's options, one shard of the work, its own results file.
std::string task_command(const TriageArgs& a, unsigned shards, const std::string& work, double seconds_left) {
  std::vector<std::string> v = {self_exe(), "triage"};
  if (!a.manifest.empty()) v.insert(v.end(), {"--manifest", a.manifest});
  else {
    v.insert(v.end(), {"--program", a.program});
    if (!a.warnings.empty()) v.push_back(a.warnings);
  }
  v.insert(v.end(), {"--exclude-answered", a.out, "-q", "--jobs", std::to_string(a.jobs), "--bound",
                     std::to_string(a.bound), "--reduction", a.reduction, "--engine", a.engine, "--granularity", a.granularity, "--threads",
                     std::to_string(a.front.threads), "--recursion", std::to_string(a.front.recursion)});
  if (a.timeout > 0) v.insert(v.end(), {"--timeout", fmt::format("{}", a.timeout)});
  if (a.memory > 0) v.insert(v.end(), {"--memory", std::to_string(a.memory)});
  if (seconds_left > 0) v.insert(v.end(), {"--total-timeout", fmt::format("{:.1f}", seconds_left)});
  if (!a.witness_dir.empty()) v.insert(v.end(), {"--witness-dir", a.witness_dir});
  if (!a.report.empty()) v.insert(v.end(), {"--report", a.report});  // (the tasks write the race pages)
  for (const auto& d : a.front.defines) v.insert(v.end(), {"-D", d});
  for (const auto& i : a.front.includes) v.insert(v.end(), {"-I", i});
  if (!a.front.undefined_nondet) v.push_back("--no-undefined-nondet");
  if (a.front.ilp32) v.push_back("--32");
  if (!a.front.readonly_file.empty()) v.insert(v.end(), {"--assume-readonly", a.front.readonly_file});
  std::string cmd;
  for (const auto& s : v) cmd += quote(s) + " ";
  cmd += fmt::format("--shard \"$SLURM_ARRAY_TASK_ID/{}\" --out {}\"/shard-${{SLURM_ARRAY_JOB_ID}}_${{SLURM_ARRAY_TASK_ID}}.jsonl\"",
                     shards, quote(work));
  if (!a.front.clang_args.empty()) {
    cmd += " --";
    for (const auto& c : a.front.clang_args) cmd += " " + quote(c);
  }
  return cmd;
}

bool terminal(const std::string& state) {
  return state != "PENDING" && state != "RUNNING" && state != "CONFIGURING" && state != "COMPLETING" &&
         state != "SUSPENDED" && state != "REQUEUED" && state != "RESIZING" && state != "SIGNALING" &&
         state != "STAGE_OUT";
}

// The shard files of job `job` in `work`.
std::vector<fs::path> shard_files(const std::string& work, const std::string& job) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(work, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("shard-" + job, 0) == 0 && n.size() > 6 && n.compare(n.size() - 6, 6, ".jsonl") == 0)
      out.push_back(e.path());
  }
  return out;
}

// Appends the lines of the shard files of `job` ("" for all) whose id is not answered yet, then
// removes those files.
bool merge(const std::string& work, const std::string& job, int fd, std::set<std::string>& answered) {
  for (const auto& f : shard_files(work, job)) {
    for (const auto& l : race::ResultsFile::read_lines(f.string())) {
      const std::string id = nlohmann::json::parse(l)["id"].get<std::string>();
      if (answered.count(id)) continue;
      if (!race::append_line(fd, l + "\n")) return false;
      answered.insert(id);
    }
    std::error_code ec;
    fs::remove(f, ec);
    fs::remove(f.string() + ".lock", ec);
  }
  return true;
}

}  // namespace

int triage_on_slurm(const TriageArgs& a, const std::vector<TriageItem>& items,
                    const std::vector<std::vector<race::Warning>>& todo0, int fd, std::set<std::string>& answered,
                    TriageProgress& progress) {
  for (const char* tool : {"sbatch", "squeue", "scancel"})
    if (!on_path(tool)) {
      std::fprintf(stderr, "siren: --executor slurm: %s not found (Slurm is not installed)\n", tool);
      return kExitInputError;
    }
  const std::string work = a.out + ".slurm";
  std::error_code ec;
  fs::create_directories(work, ec);
  const std::string err = work + "/slurm.err";
  // A job a killed run left behind: cancel it, keep what it answered.
  if (std::ifstream jf(work + "/job"); jf) {
    std::string old;
    if (jf >> old && !old.empty()) (void)run("scancel " + quote(old), err);
  }
  if (!merge(work, "", fd, answered)) return kExitInputError;

  std::map<std::string, std::size_t> counts;  // verdicts of the lines merged by this run
  auto count_lines = [&](const std::vector<std::string>& lines, std::map<std::string, std::size_t>& c) {
    for (const auto& l : lines) ++c[nlohmann::json::parse(l).value("verdict", std::string("UNKNOWN"))];
  };
  std::map<std::string, std::string> why;  // warning id -> "STATE REASON" of its last task
  std::size_t failed_tasks = 0;             // tasks of the last job that left warnings open
  const auto start = std::chrono::steady_clock::now();
  auto seconds_left = [&] {  // of --total-timeout (0: none)
    if (a.total_timeout <= 0) return 0.0;
    return std::max(0.1, a.total_timeout - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  };
  for (unsigned round = 0; round < 2; ++round) {
    if (round > 0 && a.total_timeout > 0 && seconds_left() <= 0.1) break;
    std::vector<std::vector<race::Warning>> todo(items.size());
    std::vector<std::size_t> sizes;
    std::size_t open = 0, programs = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
      for (const auto& w : todo0[i])
        if (!answered.count(w.id)) todo[i].push_back(w);
      sizes.push_back(todo[i].size());
      open += todo[i].size();
      programs += !todo[i].empty();
    }
    if (open == 0) break;
    unsigned n = a.shards ? a.shards : static_cast<unsigned>(std::min<std::size_t>(programs, 64));
    if (round > 0) {  // as many tasks as held open warnings in the last job
      n = std::min<unsigned>(n, static_cast<unsigned>(std::max<std::size_t>(1, failed_tasks)));
    }
    n = static_cast<unsigned>(std::min<std::size_t>(std::max(1u, n), open));
    const auto plan = race::plan_shards(sizes, n);

    const std::string script = work + "/job.sh";
    {
      std::ofstream js(script, std::ios::trunc);
      js << "#!/bin/sh\n# written by siren triage --executor slurm: one shard per array task\n"
         << "exec " << task_command(a, n, work, seconds_left()) << "\n";
    }
    std::string cmd = fmt::format("sbatch --parsable --array=0-{} -J siren-triage --chdir={} -o {}", n - 1,
                                  quote(fs::current_path().string()), quote(work + "/%A_%a.log"));
    if (a.jobs > 1) cmd += fmt::format(" --cpus-per-task={}", a.jobs);
    if (!a.slurm_args.empty()) cmd += " " + a.slurm_args;  // split by the shell, as the user wrote them
    cmd += " " + quote(script);
    const Run sub = run(cmd, err);
    std::string job = sub.out.substr(0, sub.out.find_first_of(";\n"));
    if (sub.status != 0 || job.empty()) {
      std::fprintf(stderr, "siren: --executor slurm: sbatch failed: %s\n", first_line(err).c_str());
      return kExitInputError;
    }
    if (std::ofstream jf(work + "/job", std::ios::trunc); jf) jf << job << "\n";
    if (!a.quiet) std::fprintf(stderr, "siren: Slurm job %s: %u array tasks for %zu warnings\n", job.c_str(), n, open);

    // Follow the tasks until each has ended.
    std::map<unsigned, std::string> ended;  // task -> final state (and reason, when not None)
    for (unsigned misses = 0;;) {
      const Run q = run("squeue -h -r -t all -j " + quote(job) + " -o '%i %T %r'", err);
      bool running = false;
      if (q.status == 0) {
        std::istringstream lines(q.out);
        std::string id, state, reason;
        while (lines >> id >> state) {
          std::getline(lines, reason);
          reason = reason.empty() ? "" : reason.substr(1);
          const auto us = id.find('_');
          if (us == std::string::npos || id.find('[') != std::string::npos) {
            running = true;  // not expanded yet
            continue;
          }
          const std::string task = id.substr(us + 1);
          if (task.empty() || task.find_first_not_of("0123456789") != std::string::npos) continue;
          const unsigned t = static_cast<unsigned>(std::stoul(task));
          if (!terminal(state)) running = true;
          else ended[t] = state + (reason.empty() || reason == "None" ? "" : " " + reason);
        }
        misses = 0;
      } else if (first_line(err).find("Invalid job id") != std::string::npos) {
        running = false;  // the controller has forgotten the finished job
      } else if (++misses >= 10) {
        std::fprintf(stderr, "siren: --executor slurm: squeue failed (is Slurm running?): %s\n",
                     first_line(err).c_str());
        return kExitInputError;
      } else {
        running = true;
      }
      auto c = counts;
      for (const auto& f : shard_files(work, job)) count_lines(race::ResultsFile::read_lines(f.string()), c);
      progress.set(c);
      if (!running) break;
      if (a.total_timeout > 0 && seconds_left() <= 0.1 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > a.total_timeout + 30) {
        (void)run("scancel " + quote(job), err);  // still pending or running well after --total-timeout
        for (unsigned t = 0; t < n; ++t)
          if (!ended.count(t)) ended[t] = "CANCELLED (--total-timeout)";
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    for (const auto& f : shard_files(work, job)) count_lines(race::ResultsFile::read_lines(f.string()), counts);
    if (!merge(work, job, fd, answered)) return kExitInputError;
    why.clear();
    failed_tasks = 0;
    for (unsigned t = 0; t < n; ++t) {
      const std::string state = ended.count(t) ? ended[t] : "UNKNOWN (no longer listed by squeue)";
      const std::size_t before = why.size();
      for (const auto& p : plan[t])
        for (std::size_t k = p.begin; k < p.end; ++k)
          if (!answered.count(todo[p.item][k].id)) why[todo[p.item][k].id] = state;
      failed_tasks += why.size() > before;
    }
    if (!why.empty() && !a.quiet)
      std::fprintf(stderr, "\nsiren: %zu warnings still open after Slurm job %s%s\n", why.size(), job.c_str(),
                   round == 0 ? "; submitting them once more" : "");
  }
  // Still open after the resubmission: UNKNOWN, with the state of the task that had them.
  for (std::size_t i = 0; i < items.size(); ++i)
    for (const auto& w : todo0[i]) {
      if (answered.count(w.id)) continue;
      const auto it = why.find(w.id);
      const std::string reason = "slurm: " + (it == why.end() ? std::string("not run") : it->second);
      if (!race::append_line(fd, answer_line(w, items[i].named ? items[i].program : "", "UNKNOWN", 0, 0.0, nullptr,
                                             reason)))
        return kExitInputError;
      answered.insert(w.id);
      ++counts["UNKNOWN"];
    }
  progress.set(counts);
  fs::remove(work + "/job", ec);
  return 0;
}

}  // namespace siren::app
