// Batch triage on this machine (DESIGN.md Part C, "Triage amortisation"): the results file a
// run appends to and resumes from, and the local executor that answers warnings in forked
// worker processes. What a line says (its JSON) is the caller's: `siren triage` formats it.
//
// Resumable and loss-free: every line is appended with ONE write() on an O_APPEND descriptor and
// fsync'ed; opening the file again keeps the complete lines that parse, drops a trailing
// partial line (the file is rewritten through a temporary file and rename when anything is
// dropped) and reports the ids already answered. A lock file (FILE.lock, flock) keeps two runs
// from writing the same file; workers die with their parent (PR_SET_PDEATHSIG), so a killed run
// leaves no writer.
#pragma once

#include "ir/thread_model.hpp"
#include "race/race.hpp"
#include "race/triage.hpp"

#include <cstddef>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace siren::race {

/// Writes `text` to `path` through a temporary file in the same directory and rename().
bool replace_file(const std::string& path, const std::string& text);

/// Appends `line` (ending in '\n') with one write() and fsyncs; false on a short write.
bool append_line(int fd, const std::string& line);

struct ResultsFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A results file of JSON lines, each an object with a string "id" and a "verdict".
class ResultsFile {
 public:
  /// Locks PATH.lock, keeps the complete lines that parse (one per id) and opens PATH for
  /// appending. Throws ResultsFileError (with the reason) when it cannot.
  explicit ResultsFile(const std::string& path);
  ~ResultsFile();
  ResultsFile(const ResultsFile&) = delete;
  ResultsFile& operator=(const ResultsFile&) = delete;

  const std::set<std::string>& answered() const { return answered_; }
  int fd() const { return fd_; }

  /// The complete lines of `path` that parse, in order, the first one of each id.
  static std::vector<std::string> read_lines(const std::string& path);

 private:
  int fd_ = -1;
  int lock_fd_ = -1;
  std::set<std::string> answered_;
};

/// Every verdict a triage answer can have, in the order summaries list them.
inline constexpr const char* kTriageVerdicts[] = {"RACE", "NO_RACE", "NO_RACE_UP_TO_BOUND", "NO_ACCESS", "UNKNOWN"};

/// One answered warning: decided without solving (`race` null, `reason` says why) or by a
/// race query (`race` its answer).
struct TriageAnswer {
  const Warning* warning = nullptr;
  std::string verdict;  // "RACE", "NO_RACE", "NO_RACE_UP_TO_BOUND", "NO_ACCESS", "UNKNOWN"
  const RaceAnswer* race = nullptr;
  std::string reason;
};

struct LocalTriageOptions {
  unsigned jobs = 1;
  RaceRunOptions run;  // bound, reduction, per-query timeout, deadline
  /// Called in the parent after each answer with the number answered so far and the verdict.
  std::function<void(std::size_t done, const std::string& verdict)> progress;
};

/// Answers `todo` in `o.jobs` worker processes forked from this one (warning i goes to worker
/// i mod jobs). Each worker decides what it can without solving (triage_query), builds ONE
/// encoding for the rest, and appends `line_of(answer)` to `fd` as each answer is found. False
/// when a worker failed (killed, out of memory): its unanswered warnings stay unanswered, and a
/// run over the same results file answers them.
bool triage_locally(const ir::ThreadModel& tm, const std::vector<Warning>& todo, const LocalTriageOptions& o,
                    int fd, const std::function<std::string(const TriageAnswer&)>& line_of);

}  // namespace siren::race
