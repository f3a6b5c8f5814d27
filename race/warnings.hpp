// Static race warnings as siren reads them: pairs of source locations from a SARIF 2.1.0 file
// (each result's locations[0] paired with each of its relatedLocations, as Goblint and clang
// emit), a JSON array of pairs ({"first": L, "second": L} or [L, L] with L = {"file", "line",
// "column"}), or CSV rows `file1,line1,col1,file2,line2,col2` (a header row is allowed;
// columns may be empty). Malformed input is a WarningsError naming the entry.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace siren::race {

struct SrcLoc {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;  // 0: not given
};

struct Warning {
  SrcLoc first, second;
  std::string id;  // stable: hash of the two locations (order-insensitive, file by basename)
  /// A manifest program whose lockset analysis has no candidate (lockset_candidates): the
  /// warning stands for the whole program, decided NO_RACE without solving (triage_query).
  bool no_candidates = false;
  /// ... in a thread model that leaves code out (ir::ThreadModel::limited: a call not inlined,
  /// a recursion or thread bound): no claim about that code, so UNKNOWN instead (triage_query).
  bool model_limited = false;
};

/// Thrown by parse_warnings for malformed input; the message names the entry.
struct WarningsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Parses a SARIF / JSON / CSV warnings file (format by content). Duplicates (same id) are
/// dropped, the first kept; their ids are added to `duplicates` when it is given.
std::vector<Warning> parse_warnings(const std::string& path, std::vector<std::string>* duplicates = nullptr);

std::string warning_id(const SrcLoc& a, const SrcLoc& b);

/// The file name without directories (and without a `file://` prefix): warnings and programs
/// are matched by it.
std::string basename_of(const std::string& f);

}  // namespace siren::race
