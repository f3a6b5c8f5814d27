// Triage of static race warnings (DESIGN.md §B7, "Triage pipeline"; Part C, "Triage
// amortisation"): warnings are pairs of source locations; each becomes a race query
// (race/race.hpp) over the accesses of the thread model at those locations, and all
// queries of one program share one encoding.
//
// Inputs: SARIF 2.1.0 (each result's locations[0] paired with each of its relatedLocations,
// as Goblint and clang emit), a JSON array of pairs ({"first": L, "second": L} or [L, L] with
// L = {"file", "line", "column"}), or CSV rows `file1,line1,col1,file2,line2,col2` (a header
// row is allowed; columns may be empty). Without an input, candidates come from a must-lockset
// analysis: every pair of data accesses of different threads that may touch the same cell, at
// least one writing, with disjoint must-locksets and not both inside atomic sections.
#pragma once

#include "ir/thread_model.hpp"
#include "race/race.hpp"
#include "race/warnings.hpp"

#include <optional>
#include <string>
#include <vector>

namespace siren::race {

/// The data accesses of the thread model at a source location: file compared by basename,
/// equal line; the column, if given and some access there has exactly that column, selects
/// those, else every access on the line counts.
std::vector<RaceAccess> accesses_at(const ir::ThreadModel& tm, const SrcLoc& loc);

/// Must-lockset candidate pairs (see above), one warning per pair of source locations.
std::vector<Warning> lockset_candidates(const ir::ThreadModel& tm);

/// The query of a warning, or the verdict decided without solving: "NO_ACCESS" (a location
/// has no access), "NO_RACE" (no two accesses of different threads with a write).
struct TriageQuery {
  std::optional<std::string> decided;
  RaceQuery query;
};
TriageQuery triage_query(const ir::ThreadModel& tm, const Warning& w);

/// "RACE", "NO_RACE", "NO_RACE_UP_TO_BOUND", "UNKNOWN".
const char* triage_verdict_name(Verdict v);

}  // namespace siren::race
