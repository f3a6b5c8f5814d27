// `--solver portfolio` (issue 10, check/portfolio.hpp). The translated thread model is shared by
// fork(): one child per backend runs the whole check, then writes a one-byte verdict class to its
// pipe and waits. The parent takes the first definite answer (UNSAFE / SAFE /
// SAFE_UP_TO_BOUND), kills the other child and tells the winner to report its result and exit
// with report's value, which the parent returns. No definite answer: an internal error is
// preferred over UNKNOWN (bugs stay visible); a child that died without answering counts as
// UNKNOWN.
#include "check/portfolio.hpp"

#include "check/check.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>

namespace siren::check {

int run_portfolio(const ir::ThreadModel& tm, const CheckOptions& co, std::chrono::steady_clock::time_point start,
                  const std::function<int(const CheckResult&)>& report) {
  static const char* const kBackends[2] = {"cadical", "z3"};
  struct Kid {
    pid_t pid = -1;
    int up = -1, down = -1;  // verdict from the child, go-ahead to the child
    char answer = 0;         // 0: running; 'U' 'S' 'B' definite; '?' unknown; 'E' internal; 'X' died
  };
  Kid kids[2];
  std::fflush(stdout);
  std::fflush(stderr);
  for (int i = 0; i < 2; ++i) {
    int up[2], down[2];
    if (pipe(up) != 0 || pipe(down) != 0) throw std::runtime_error("portfolio: pipe failed");
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("portfolio: fork failed");
    if (pid == 0) {
      close(up[0]);
      close(down[1]);
      for (int j = 0; j < i; ++j) {
        close(kids[j].up);
        close(kids[j].down);
      }
      CheckResult r;
      try {
        CheckOptions mine = co;
        mine.solver = kBackends[i];
        r = check(tm, mine);
      } catch (const std::bad_alloc&) {
        r = {};
        r.verdict = Verdict::Unknown;
        r.reason = "memory limit";
      }
      r.stats.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      char code = r.internal_error ? 'E'
                  : r.verdict == Verdict::Unsafe ? 'U'
                  : r.verdict == Verdict::Safe ? 'S'
                  : r.verdict == Verdict::SafeUpToBound ? 'B'
                                                                 : '?';
      char go = 0;
      if (write(up[1], &code, 1) == 1 && read(down[0], &go, 1) == 1 && go == 'p') {
        if (std::getenv("SIREN_PORTFOLIO_VERBOSE")) std::fprintf(stderr, "siren: portfolio: answer from %s\n", kBackends[i]);
        const int rc = report(r);
        std::fflush(stdout);
        std::fflush(stderr);
        _exit(rc);
      }
      _exit(0);
    }
    close(up[1]);
    close(down[0]);
    kids[i] = {pid, up[0], down[1], 0};
  }
  auto definite = [](char c) { return c == 'U' || c == 'S' || c == 'B'; };
  int winner = -1;
  while (winner < 0 && (kids[0].answer == 0 || kids[1].answer == 0)) {
    pollfd fds[2];
    int n = 0, which[2];
    for (int i = 0; i < 2; ++i)
      if (kids[i].answer == 0) {
        fds[n] = {kids[i].up, POLLIN, 0};
        which[n++] = i;
      }
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int j = 0; j < n; ++j) {
      if (!(fds[j].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Kid& k = kids[which[j]];
      char c = 0;
      k.answer = read(k.up, &c, 1) == 1 ? c : 'X';
      if (definite(k.answer) && winner < 0) winner = which[j];
    }
  }
  if (winner < 0) {  // nothing definite: internal error > unknown > died
    for (char pref : {'E', '?'})
      for (int i = 0; i < 2 && winner < 0; ++i)
        if (kids[i].answer == pref) winner = i;
  }
  for (int i = 0; i < 2; ++i)
    if (i != winner && kids[i].answer == 0) kill(kids[i].pid, SIGKILL);
  for (int i = 0; i < 2; ++i) {
    const char go = i == winner ? 'p' : 'q';
    if (kids[i].answer != 0 && kids[i].answer != 'X') (void)!write(kids[i].down, &go, 1);
    close(kids[i].down);
    close(kids[i].up);
  }
  int code = -1;
  for (int i = 0; i < 2; ++i) {
    int status = 0;
    while (waitpid(kids[i].pid, &status, 0) < 0 && errno == EINTR) {}
    if (i == winner) code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  if (code >= 0) return code;
  CheckResult r;  // both children died, or the winner did while printing
  r.verdict = Verdict::Unknown;
  r.reason = "portfolio: the solver processes ended without an answer";
  return report(r);
}

}  // namespace siren::check
