// The native oracle (native.hpp, native/README.md).
#include "native/native.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SIREN_NATIVE_RT
#define SIREN_NATIVE_RT ""
#endif

namespace siren::native {
namespace fs = std::filesystem;

namespace {

// The pthread and libc functions the runtime takes over (ld --wrap=NAME).
const char* const kWrapped[] = {
    "pthread_create",       "pthread_join",         "pthread_exit",          "pthread_mutex_lock",
    "pthread_mutex_unlock", "pthread_mutex_trylock", "pthread_mutex_init",   "pthread_mutex_destroy",
    "pthread_cond_wait",    "pthread_cond_timedwait", "pthread_cond_signal", "pthread_cond_broadcast",
    "pthread_cond_init",    "pthread_cond_destroy", "sched_yield",           "usleep",
    "sleep",                "nanosleep",            "abort",                 "malloc",          "free",
    "realloc",
    "pthread_spin_lock",    "pthread_spin_unlock",  "pthread_spin_trylock",  "pthread_spin_init",
    "pthread_spin_destroy", "pthread_once",         "pthread_barrier_init",  "pthread_barrier_wait",
    "pthread_barrier_destroy", "pthread_self",         "pthread_key_create",    "pthread_getspecific",
    "pthread_setspecific",  "pthread_key_delete"};

struct Proc {
  int status = -1;
  std::string out;  // stdout and stderr together
};

/// Runs argv (no shell), with extra environment `env`, capturing its output; kills it after
/// `timeout_s` seconds (0: never).
Proc run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env = {},
                 double timeout_s = 0) {
  Proc p;
  int fds[2];
  if (pipe(fds) != 0) return p;
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return p;
  }
  if (pid == 0) {
    setpgid(0, 0);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    for (const auto& e : env) putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  const auto start = std::chrono::steady_clock::now();
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  char buf[65536];
  bool killed = false;
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) {
      p.out.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) break;
    if (errno != EAGAIN && errno != EINTR) break;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (timeout_s > 0 && el > timeout_s && !killed) {
      kill(-pid, SIGKILL);
      killed = true;
    }
    usleep(2000);
  }
  close(fds[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  p.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  return p;
}

std::string runtime_path(const Toolchain& tc) {
  if (!tc.runtime.empty()) return tc.runtime;
  if (const char* e = std::getenv("SIREN_NATIVE_RT"); e && *e) return e;
  return SIREN_NATIVE_RT;
}

/// The first line of a compiler's output that says "error", else its first line.
std::string first_error(const std::string& s) {
  std::istringstream in(s);
  std::string first;
  for (std::string line; std::getline(in, line);) {
    if (first.empty()) first = line;
    if (line.find("error") != std::string::npos) return line;
  }
  return first;
}

std::string first_lines(const std::string& s, std::size_t n) {
  std::string out;
  std::istringstream in(s);
  std::string line;
  for (std::size_t i = 0; i < n && std::getline(in, line); ++i) out += (i ? "\n" : "") + line;
  return out;
}

/// Parses `llvm-dwarfdump --debug-line` output: per line table, the file names, then rows
/// "0xADDR LINE COL FILE ...".
void parse_line_tables(const std::string& dump, Binary& b) {
  std::istringstream in(dump);
  std::string line;
  std::map<unsigned, unsigned> file_map;  // table-local file index -> Binary::files index
  unsigned pending_file = 0;
  bool in_rows = false;
  while (std::getline(in, line)) {
    if (line.rfind("debug_line[", 0) == 0) {
      file_map.clear();
      in_rows = false;
      continue;
    }
    if (line.rfind("file_names[", 0) == 0) {
      pending_file = static_cast<unsigned>(std::strtoul(line.c_str() + 11, nullptr, 10));
      continue;
    }
    if (const auto np = line.find("name: \""); np != std::string::npos && !in_rows) {
      const auto end = line.find('"', np + 7);
      std::string name = line.substr(np + 7, end - np - 7);
      const auto base = fs::path(name).filename().string();
      auto it = std::find(b.files.begin(), b.files.end(), base);
      if (it == b.files.end()) {
        b.files.push_back(base);
        it = b.files.end() - 1;
      }
      file_map[pending_file] = static_cast<unsigned>(it - b.files.begin());
      continue;
    }
    if (line.rfind("Address", 0) == 0) {
      in_rows = true;
      continue;
    }
    if (in_rows && line.rfind("0x", 0) == 0) {
      std::istringstream row(line);
      std::string addr;
      unsigned ln = 0, col = 0, file = 0;
      row >> addr >> ln >> col >> file;
      LineRow r;
      r.pc = std::strtoull(addr.c_str(), nullptr, 16);
      r.line = ln;
      r.file = file_map.count(file) ? file_map[file] : 0;
      b.lines.push_back(r);
    }
  }
  std::stable_sort(b.lines.begin(), b.lines.end(), [](const LineRow& x, const LineRow& y) { return x.pc < y.pc; });
}

Outcome outcome_of(const std::string& s) {
  static const std::pair<const char*, Outcome> names[] = {
      {"ok", Outcome::Ok},           {"violation", Outcome::Violation}, {"race", Outcome::Race},
      {"pruned", Outcome::Pruned},   {"deadlock", Outcome::Deadlock},   {"bound", Outcome::Bound},
      {"timeout", Outcome::Timeout}, {"crash", Outcome::Crash},         {"limit", Outcome::Limit},
      {"visited", Outcome::Visited}, {"restart", Outcome::Restart}};
  for (const auto& [n, o] : names)
    if (s == n) return o;
  return Outcome::Crash;
}

std::uint64_t hex(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_string()) return 0;
  return std::strtoull(j[key].get<std::string>().c_str(), nullptr, 16);
}

Summary run_binary(const Binary& b, const std::vector<std::string>& env, double timeout_s) {
  Summary s;
  if (!b.ok) {
    s.error = b.error;
    return s;
  }
  const std::string out = b.dir + "/runs.jsonl";
  fs::remove(out);
  std::vector<std::string> e = env;
  e.push_back("SIREN_RT_OUT=" + out);
  e.push_back("SIREN_RT_ATOMIC_FNS=" + b.atomic_fns);
  e.push_back("SIREN_RT_ERROR_FNS=" + b.error_fns);
  e.push_back("SIREN_RT_LINES=" + b.lines_file);
  const auto start = std::chrono::steady_clock::now();
  const Proc p = run_process({b.exe}, e, timeout_s);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ifstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;
    if (j.contains("dfs")) {  // after the last run of a search: its numbers and the quiet runs' outcomes
      s.states = j["dfs"].value("states", std::uint64_t{0});
      s.exhausted = j["dfs"].value("exhausted", 0) != 0;
      s.table_full = j["dfs"].value("table_full", 0) != 0;
      s.snapshots = j["dfs"].value("snapshots", 0) != 0;
      for (const auto& [name, n] : j["counts"].items())
        if (const unsigned k = n.get<unsigned>(); k > 0) {
          s.counts[outcome_of(name)] += k;
          s.runs += k;
        }
      continue;
    }
    Run r;
    r.index = j.value("run", 0u);
    r.seed = j.value("seed", std::uint64_t{0});
    r.strategy = j.value("strategy", std::string());
    r.outcome = outcome_of(j.value("outcome", std::string()));
    r.message = j.value("message", std::string());
    r.steps = j.value("steps", std::uint64_t{0});
    r.threads = j.value("threads", 0u);
    r.pc = hex(j, "pc");
    r.pc2 = hex(j, "pc2");
    r.thread = j.value("thread", 0);
    r.thread2 = j.value("thread2", -1);
    r.pct_k = j.value("pct_k", std::uint64_t{0});
    r.pct_depth = j.value("pct_depth", 0u);
    r.schedule = j.value("schedule", std::string());
    if (j.contains("events"))
      for (const auto& ev : j["events"]) {
        Event x;
        x.thread = ev[0].get<int>();
        x.kind = ev[1].get<std::string>()[0];
        x.pc = std::strtoull(ev[2].get<std::string>().c_str(), nullptr, 16);
        x.addr = std::strtoull(ev[3].get<std::string>().c_str(), nullptr, 16);
        x.atomic = ev[4].get<int>() != 0;
        r.events.push_back(x);
      }
    ++s.runs;
    ++s.counts[r.outcome];
    s.max_steps_seen = std::max(s.max_steps_seen, r.steps);
    if (!s.failure && (r.outcome == Outcome::Violation || r.outcome == Outcome::Race)) s.failure = std::move(r);
  }
  s.ok = true;
  if (s.runs == 0) {
    s.ok = false;
    s.error = "the instrumented program produced no result (exit " + std::to_string(p.status) + "): " +
              first_lines(p.out, 3);
  }
  return s;
}

}  // namespace

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Ok: return "ok";
    case Outcome::Violation: return "violation";
    case Outcome::Race: return "race";
    case Outcome::Pruned: return "pruned";
    case Outcome::Deadlock: return "deadlock";
    case Outcome::Bound: return "bound";
    case Outcome::Timeout: return "timeout";
    case Outcome::Crash: return "crash";
    case Outcome::Limit: return "limit";
    case Outcome::Visited: return "visited";
    case Outcome::Restart: return "restart";
  }
  return "?";
}

std::pair<std::string, unsigned> Binary::where(std::uint64_t pc) const {
  if (!pc || lines.empty()) return {"?", 0};
  auto it = std::upper_bound(lines.begin(), lines.end(), pc - 1,
                             [](std::uint64_t v, const LineRow& r) { return v < r.pc; });
  if (it == lines.begin()) return {"?", 0};
  --it;
  return {it->file < files.size() ? files[it->file] : "?", it->line};
}

Binary compile(const std::string& c_file, const std::vector<std::string>& clang_args,
               const std::string& work_dir, const Toolchain& tc) {
  Binary b;
  b.dir = work_dir;
  std::error_code ec;
  fs::create_directories(work_dir, ec);
  const std::string rt = runtime_path(tc);
  if (rt.empty() || !fs::exists(rt)) {
    b.error = "native runtime not found (" + (rt.empty() ? std::string("unset") : rt) +
              "; set SIREN_NATIVE_RT to libsiren_native_rt.a)";
    return b;
  }
  const std::string obj = work_dir + "/prog.o";
  b.exe = work_dir + "/prog";
  // -O0 keeps every load and store of the source; TSan's pass puts a call before each that
  // may reach shared memory (not before locals whose address never escapes), and
  // -tsan-instrument-read-before-write keeps the read of x++ (by default it is dropped when a
  // write to the same address follows).
  // The same leniency as siren's front end (frontend/translate.cpp) for old C: implicit
  // declarations, int conversions.
  std::vector<std::string> cc = {tc.clang, "-O0", "-g", "-fno-pie", "-w", "-std=gnu11",
                                 "-Wno-error=implicit-function-declaration", "-Wno-error=int-conversion",
                                 "-Wno-error=incompatible-function-pointer-types", "-Wno-error=implicit-int",
                                 "-Wno-error=return-type", "-fsanitize=thread",
                                 "-mllvm", "-tsan-instrument-read-before-write",
                                 "-finstrument-functions", "-x", "c", "-c", c_file,
                                 "-o", obj};
  cc.insert(cc.begin() + 1, clang_args.begin(), clang_args.end());
  Proc p = run_process(cc, {}, 120);
  if (p.status != 0) {
    b.error = "clang could not compile the program: " + first_error(p.out);
    if (b.error.find("file not found") != std::string::npos) b.error += " (add -I DIR)";
    return b;
  }
  std::string wrap = "-Wl";
  for (const char* w : kWrapped) wrap += std::string(",--wrap=") + w;
  std::vector<std::string> link = {tc.clang, "-no-pie", obj, rt, wrap, "-lpthread", "-o", b.exe};
  p = run_process(link, {}, 120);
  // Functions the program calls without defining them return an arbitrary value in siren
  // (docs/semantics.md): link a stub for each that returns the runtime's nondet value, logged
  // at the call (its return type is not known here; the caller reads the bits it needs).
  if (p.status != 0) {
    std::set<std::string> undefined;
    static const std::string kUndef = "undefined reference to `";
    std::istringstream out(p.out);
    for (std::string line; std::getline(out, line);)
      if (auto at = line.find(kUndef); at != std::string::npos) {
        const auto from = at + kUndef.size(), to = line.find('\'', from);
        if (to != std::string::npos) undefined.insert(line.substr(from, to - from));
      }
    if (!undefined.empty()) {
      std::ofstream stubs(work_dir + "/undefined.c");
      stubs << "long long __siren_rt_undefined_nondet(unsigned long);\n";
      for (const std::string& f : undefined)
        stubs << "long long " << f << "() { return __siren_rt_undefined_nondet((unsigned long)__builtin_return_address(0)); }\n";
      stubs.close();
      const Proc sc = run_process({tc.clang, "-O0", "-w", "-x", "c", "-c", work_dir + "/undefined.c", "-o",
                                   work_dir + "/undefined.o"}, {}, 120);
      if (sc.status == 0) {
        link.insert(link.begin() + 3, work_dir + "/undefined.o");
        p = run_process(link, {}, 120);
        if (p.status == 0) b.stubbed = undefined;
      }
    }
  }
  if (p.status != 0) {
    b.error = "the program could not be linked with the native runtime: " + first_error(p.out);
    return b;
  }
  // Snapshots run the program's threads as contexts of one kernel thread (runtime/siren_rt.c):
  // a pthread function the runtime does not wrap would see one thread, or take the runtime's
  // handle of a thread for the C library's.
  p = run_process({tc.nm, "-u", obj}, {}, 60);
  {
    std::istringstream in(p.out);
    for (std::string kind, name; in >> kind >> name;) {
      if (name.rfind("pthread_", 0) != 0 || name == "pthread_equal") continue;
      if (std::any_of(std::begin(kWrapped), std::end(kWrapped), [&](const char* w) { return name == w; })) continue;
      bool attr = false;
      for (const char* prefix : {"pthread_attr_", "pthread_mutexattr_", "pthread_condattr_", "pthread_rwlockattr_",
                                 "pthread_barrierattr_"})
        attr = attr || name.rfind(prefix, 0) == 0;
      if (!attr && b.no_snapshots.empty()) b.no_snapshots = name;
    }
  }
  p = run_process({tc.nm, "-S", "--defined-only", b.exe}, {}, 60);
  {
    std::istringstream lines_in(p.out);
    for (std::string row; std::getline(lines_in, row);) {
      std::istringstream in(row);
      std::vector<std::string> w;
      for (std::string x; in >> x;) w.push_back(x);
      if (w.size() < 3) continue;
      const std::string addr = w[0], type = w[w.size() - 2], name = w.back();
      if (w.size() == 4 && (type == "B" || type == "b" || type == "D" || type == "d"))
        b.variables[name] = {std::strtoull(addr.c_str(), nullptr, 16), std::strtoull(w[1].c_str(), nullptr, 16)};
      const bool atomic_fn = name.rfind("__VERIFIER_atomic_", 0) == 0 && name != "__VERIFIER_atomic_begin" &&
                             name != "__VERIFIER_atomic_end";
      if (type == "T" || type == "t") b.functions[std::strtoull(addr.c_str(), nullptr, 16)] = name;
      const bool error_fn = name == "reach_error" || name == "__VERIFIER_error";
      if (!atomic_fn && !error_fn) continue;
      std::string& list = atomic_fn ? b.atomic_fns : b.error_fns;
      list += (list.empty() ? "" : ",") + addr;
    }
  }
  p = run_process({tc.dwarfdump, "--debug-line", b.exe}, {}, 60);
  if (p.status != 0) {
    b.error = "cannot read the line table (" + tc.dwarfdump + "): " + first_lines(p.out, 2);
    return b;
  }
  parse_line_tables(p.out, b);
  b.lines_file = work_dir + "/lines.txt";
  std::ofstream lf(b.lines_file);
  for (const auto& r : b.lines) lf << std::hex << r.pc << std::dec << ' ' << r.line << ' ' << r.file << '\n';
  b.ok = true;
  return b;
}

Summary run(const Binary& b, const Options& o) {
  std::vector<std::string> env = {
      "SIREN_RT_RUNS=" + std::to_string(o.runs),
      "SIREN_RT_SEED=" + std::to_string(o.seed),
      "SIREN_RT_STRATEGY=" + o.strategy,
      "SIREN_RT_PCT_DEPTH=" + std::to_string(o.pct_depth),
      "SIREN_RT_PCT_K=" + std::to_string(o.pct_k),
      "SIREN_RT_RACES=" + std::string(o.races ? "1" : "0"),
      "SIREN_RT_MAX_STEPS=" + std::to_string(o.max_steps),
      "SIREN_RT_RUN_MS=" + std::to_string(o.run_ms),
      "SIREN_RT_STOP=" + std::string(o.stop_at_first ? "1" : "0"),
      "SIREN_RT_TIMEOUT_MS=" + std::to_string(static_cast<std::uint64_t>(o.timeout_s * 1000)),
      "SIREN_RT_DFS_SCHEDULE=" + o.schedule,
      "SIREN_RT_UTHREADS=" + std::string(o.snapshots && b.no_snapshots.empty() ? "1" : "0")};
  // The runtime starts no run after the timeout; a run under way gets its own time limit, and
  // the process is killed only if it overruns both.
  return run_binary(b, env, o.timeout_s > 0 ? o.timeout_s + o.run_ms / 1000.0 + 5 : 0);
}

Schedule schedule_of(const std::vector<TraceStep>& trace, const std::vector<TraceRaceEnd>& race) {
  Schedule s;
  std::map<std::string, int> index{{"main", 0}};
  int started = 0;
  for (const TraceStep& t : trace) {
    auto it = index.find(t.thread);
    if (it == index.end()) continue;  // a thread the trace never started
    s.steps.push_back({it->second, t.line, t.access});
    if (t.nondet) s.nondet.emplace_back(it->second, *t.nondet);
    if (!t.started.empty() && !index.count(t.started)) index[t.started] = ++started;
  }
  for (const TraceRaceEnd& e : race)
    if (auto it = index.find(e.thread); it != index.end()) s.race.push_back({it->second, e.line, e.write, e.variable});
  return s;
}

Summary replay(const Binary& b, const Schedule& s, bool races, unsigned run_ms) {
  if (!b.ok) {
    Summary bad;
    bad.error = b.error;
    return bad;
  }
  const std::string path = b.dir + "/replay.txt";
  {
    std::ofstream f(path);
    // Step classes for the runtime: 0 not said, 1 locals only, 2 memory access, 3 synchronisation.
    for (const auto& st : s.steps)
      f << "S " << st.thread << ' ' << st.line << ' '
        << (st.access == 'L' ? 1 : st.access == 'S' ? 3 : (st.access == 'R' || st.access == 'W' || st.access == 'B') ? 2 : 0)
        << '\n';
    for (const auto& [t, v] : s.nondet) f << "N " << t << ' ' << v << '\n';
    for (const auto& st : s.race) {
      // The variable's bytes when it is a global (the cell's base name, before [ or .).
      const std::string base = st.variable.substr(0, st.variable.find_first_of("[."));
      std::uint64_t lo = 0, hi = 0;
      if (auto it = b.variables.find(base); it != b.variables.end() && it->second.second > 0) {
        lo = it->second.first;
        hi = lo + it->second.second;
      }
      f << "E " << st.thread << ' ' << st.line << ' ' << (st.write ? 1 : 0) << ' ' << std::hex << lo << ' ' << hi
        << std::dec << '\n';
    }
  }
  std::vector<std::string> env = {"SIREN_RT_RUNS=1", "SIREN_RT_STRATEGY=replay", "SIREN_RT_REPLAY=" + path,
                                  "SIREN_RT_RACES=" + std::string(races ? "1" : "0"),
                                  "SIREN_RT_RUN_MS=" + std::to_string(run_ms)};
  return run_binary(b, env, run_ms / 1000.0 + 10);
}

std::vector<TraceLine> trace_lines(const Binary& b, const Run& r) {
  std::vector<TraceLine> out;
  std::map<int, std::string> names{{0, "main"}};
  for (const Event& e : r.events)
    if (e.kind == 'S' && !names.count(e.thread)) {
      auto it = b.functions.find(e.addr);
      names[e.thread] = (it == b.functions.end() ? std::string("thread") : it->second) + "#" + std::to_string(e.thread);
    }
  auto name = [&](int t) { return names.count(t) ? names[t] : "thread#" + std::to_string(t); };
  for (const Event& e : r.events) {
    if (e.kind == 'V') continue;  // the failing assertion: the last row says it
    TraceLine t;
    t.thread = e.thread;
    t.thread_name = name(e.thread);
    std::tie(t.file, t.line) = b.where(e.kind == 'S' ? e.addr + 1 : e.pc);  // a start: its routine
    char buf[96];
    switch (e.kind) {
      case 'R': std::snprintf(buf, sizeof buf, "read 0x%llx%s", (unsigned long long)e.addr, e.atomic ? " (atomic)" : ""); break;
      case 'W': std::snprintf(buf, sizeof buf, "write 0x%llx%s", (unsigned long long)e.addr, e.atomic ? " (atomic)" : ""); break;
      case 'M': std::snprintf(buf, sizeof buf, "atomic read-modify-write 0x%llx", (unsigned long long)e.addr); break;
      case 'L': std::snprintf(buf, sizeof buf, "lock 0x%llx", (unsigned long long)e.addr); break;
      case 'U': std::snprintf(buf, sizeof buf, "unlock 0x%llx", (unsigned long long)e.addr); break;
      case 'C': std::snprintf(buf, sizeof buf, "pthread_create"); break;
      case 'J': std::snprintf(buf, sizeof buf, "pthread_join (%s)", name(static_cast<int>(e.addr)).c_str()); break;
      case 'S': std::snprintf(buf, sizeof buf, "thread starts"); break;
      case 'X': std::snprintf(buf, sizeof buf, "pthread_exit"); break;
      case 'A': std::snprintf(buf, sizeof buf, "atomic section begins"); break;
      case 'Y': std::snprintf(buf, sizeof buf, "yield"); break;
      case 'N':
        t.nondet = static_cast<std::int64_t>(e.addr);
        std::snprintf(buf, sizeof buf, "nondet value %lld", static_cast<long long>(*t.nondet));
        break;
      default: std::snprintf(buf, sizeof buf, "?"); break;
    }
    t.what = buf;
    out.push_back(std::move(t));
  }
  TraceLine last;
  last.thread = r.thread;
  last.thread_name = name(r.thread);
  std::tie(last.file, last.line) = b.where(r.pc);
  last.what = r.message;
  if (r.outcome == Outcome::Race) {
    last.what = "data race with " + name(r.thread2);
    auto [f2, l2] = b.where(r.pc2);
    last.what += " at " + f2 + ":" + std::to_string(l2);
  }
  out.push_back(std::move(last));
  return out;
}

}  // namespace siren::native
