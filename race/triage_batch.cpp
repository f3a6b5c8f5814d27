// Batch triage on this machine (race/triage_batch.hpp).
#include "race/triage_batch.hpp"

#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <sstream>

namespace siren::race {

bool replace_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out << text;
    out.flush();
    if (!out) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

bool append_line(int fd, const std::string& line) {
  // One write() call for the whole line (O_APPEND: atomic with respect to other appenders);
  // a short write (disk full) is reported, never completed by a second write.
  const ssize_t n = ::write(fd, line.data(), line.size());
  if (n != static_cast<ssize_t>(line.size())) return false;
  ::fsync(fd);
  return true;
}

namespace {

struct Lines {
  std::vector<std::string> lines;
  std::set<std::string> ids;
  bool dirty = false;  // a partial, unparseable or duplicate line was dropped
};

Lines parse_lines(const std::string& path) {
  Lines out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    if (nl == std::string::npos) {  // trailing partial line: dropped
      out.dirty = true;
      break;
    }
    std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    try {
      const auto j = nlohmann::json::parse(line);
      if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("verdict") ||
          !out.ids.insert(j["id"].get<std::string>()).second) {
        out.dirty = true;
        continue;
      }
      out.lines.push_back(std::move(line));
    } catch (const nlohmann::json::exception&) {
      out.dirty = true;
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> ResultsFile::read_lines(const std::string& path) { return parse_lines(path).lines; }

ResultsFile::ResultsFile(const std::string& path) {
  auto fail = [&](const std::string& what) {
    const std::string msg = what + ": " + std::strerror(errno);
    if (lock_fd_ >= 0) ::close(lock_fd_);
    throw ResultsFileError(msg);
  };
  lock_fd_ = ::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0 || ::flock(lock_fd_, LOCK_EX) != 0) fail("cannot lock " + path + ".lock");
  Lines ex = parse_lines(path);
  if (ex.dirty) {
    std::string text;
    for (const auto& l : ex.lines) text += l + "\n";
    if (!replace_file(path, text)) fail("cannot rewrite " + path);
  }
  answered_ = std::move(ex.ids);
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("cannot open " + path);
}

ResultsFile::~ResultsFile() {
  if (fd_ >= 0) ::close(fd_);
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

namespace {

// The progress pipe carries one byte per answer: the verdict's code.
constexpr char kVerdictCodes[] = {'R', 'N', 'B', 'A', 'U'};  // of kTriageVerdicts
static_assert(std::size(kVerdictCodes) == std::size(kTriageVerdicts));

char verdict_code(const std::string& v) {
  for (std::size_t i = 0; i < std::size(kTriageVerdicts); ++i)
    if (v == kTriageVerdicts[i]) return kVerdictCodes[i];
  return 'U';
}

std::string verdict_of_code(char c) {
  for (std::size_t i = 0; i < std::size(kTriageVerdicts); ++i)
    if (c == kVerdictCodes[i]) return kTriageVerdicts[i];
  return "UNKNOWN";
}

// A worker: answers `ws` over one encoding, appending lines to `fd`; one byte per answer to
// `progress_fd` (if >= 0).
void work(const ir::ThreadModel& tm, const std::vector<Warning>& ws, const LocalTriageOptions& o, int fd,
          int progress_fd, const std::function<std::string(const TriageAnswer&)>& line_of) {
  auto emit = [&](const TriageAnswer& a) {
    if (!append_line(fd, line_of(a))) {
      std::fprintf(stderr, "siren: cannot write the results: %s\n", std::strerror(errno));
      std::_Exit(1);
    }
    if (progress_fd >= 0) {
      const char c = verdict_code(a.verdict);
      (void)!::write(progress_fd, &c, 1);
    }
  };
  std::vector<RaceQuery> queries;
  std::vector<std::size_t> query_of;  // queries[i] answers ws[query_of[i]]
  for (std::size_t i = 0; i < ws.size(); ++i) {
    const auto q = triage_query(tm, ws[i]);
    if (q.decided) {
      TriageAnswer a;
      a.warning = &ws[i];
      a.verdict = *q.decided;
      a.reason = *q.decided == "NO_ACCESS" ? "a location matches no memory access of the program"
                 : ws[i].no_candidates && ws[i].model_limited
                     ? "no candidate in the code siren models, but the model leaves code out (a call not inlined, "
                       "a recursion or thread bound; siren cfg shows the Limit assertions): no claim"
                 : ws[i].no_candidates
                     ? "no candidate: the lockset analysis finds no two accesses of different threads that may "
                       "touch one location, one a write, without a common lock"
                     : "no write by one thread at one location and access by another thread at the other";
      emit(a);
      continue;
    }
    queries.push_back(q.query);
    query_of.push_back(i);
  }
  if (queries.empty()) return;
  solve_race_queries(tm, queries, o.run, [&](std::size_t i, const RaceAnswer& ans) {
    TriageAnswer a;
    a.warning = &ws[query_of[i]];
    a.verdict = ans.internal_error ? "UNKNOWN" : triage_verdict_name(ans.verdict);
    a.race = &ans;
    a.reason = ans.reason;
    // A warning whose search ended (the time ran out, or a memory-safety or modelling-limit
    // error may be reached) after the executions of at most clean_bound steps were searched
    // without a race and without such an error is answered as far as it got, as a bounded
    // checker does: no race in the executions up to that bound, and the reason says what ended it.
    RaceAnswer bounded;
    if (!ans.internal_error && ans.verdict == check::Verdict::Unknown && ans.clean_bound > 0) {
      bounded = ans;
      bounded.bound = ans.clean_bound;
      a.race = &bounded;
      a.verdict = "NO_RACE_UP_TO_BOUND";
      a.reason = (ans.time_limit ? "the time limit ran out at bound " + std::to_string(ans.bound)
                                 : "the search ended at bound " + std::to_string(ans.bound)) +
                 (ans.clean_bound < ans.bound || ans.reason != "timeout" ? " (" + ans.reason + ")" : std::string()) +
                 ": no data race in the executions of at most " + std::to_string(ans.clean_bound) + " frames";
    }
    emit(a);
  });
}

}  // namespace

bool triage_locally(const ir::ThreadModel& tm, const std::vector<Warning>& todo, const LocalTriageOptions& o,
                    int fd, const std::function<std::string(const TriageAnswer&)>& line_of) {
  if (todo.empty()) return true;
  const unsigned jobs = std::max(1u, std::min<unsigned>(o.jobs, static_cast<unsigned>(todo.size())));
  int pipefd[2] = {-1, -1};
  if (::pipe(pipefd) != 0) pipefd[0] = pipefd[1] = -1;
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  std::vector<pid_t> kids;
  bool failed = false;
  for (unsigned j = 0; j < jobs; ++j) {
    std::vector<Warning> share;
    for (std::size_t i = j; i < todo.size(); i += jobs) share.push_back(todo[i]);
    const pid_t pid = ::fork();
    if (pid < 0) {
      std::fprintf(stderr, "siren: fork failed: %s\n", std::strerror(errno));
      failed = true;
      break;
    }
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) std::_Exit(1);
      if (pipefd[0] >= 0) ::close(pipefd[0]);
      try {
        work(tm, share, o, fd, pipefd[1], line_of);
      } catch (const std::bad_alloc&) {
        std::_Exit(1);
      }
      std::fflush(stdout);
      std::_Exit(0);
    }
    kids.push_back(pid);
  }
  if (pipefd[1] >= 0) ::close(pipefd[1]);
  std::size_t done = 0;
  char buf[256];
  while (pipefd[0] >= 0) {
    const ssize_t n = ::read(pipefd[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i)
      if (o.progress) o.progress(++done, verdict_of_code(buf[i]));
  }
  if (pipefd[0] >= 0) ::close(pipefd[0]);
  for (pid_t k : kids) {
    int status = 0;
    while (::waitpid(k, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = true;
  }
  return !failed;
}

}  // namespace siren::race
