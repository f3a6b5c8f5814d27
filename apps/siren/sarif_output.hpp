// SARIF 2.1.0 logs (OASIS Static Analysis Results Interchange Format) that `siren check`,
// `siren race` and `siren triage` write with --sarif FILE: the one place that knows the format.
// A log holds one run of siren with its rules (assertion-violation, data-race), one invocation
// (the verdict as a notification) and the results; a result with a replayed trace carries it as
// a codeFlow with one threadFlow per thread whose steps are numbered in global order
// (executionOrder), so SARIF viewers show the interleaving. Locations are URIs relative to
// SRCROOT, the analysed program's directory (declared in run.originalUriBaseIds), or absolute
// file:// URIs for files outside it. Logs are meant to pass Microsoft's validator
// (`sarif-multitool validate`, run by tests/e2e/sarif_test.py) without error or warning.
#pragma once

#include "ir/trace.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace siren::app {

/// A place in the program: the file as the front end or a warnings file names it (absolute, or
/// relative to the working directory), its line and column (0: not known).
struct SarifPlace {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

struct SarifResult {
  std::string rule;     // kSarifAssertionRule or kSarifRaceRule
  std::string level;    // error | warning | note | none
  std::string kind;     // fail | pass | review | notApplicable | open | informational
  std::string message;  // a sentence (sarif_log adds the final period when missing)
  SarifPlace where;
  /// relatedLocations: a place and what it is (the second access of a race).
  std::vector<std::pair<SarifPlace, std::string>> related;
  /// The replayed trace (one row per step), shown as codeFlows[0] at the level of C statements
  /// (ir::statement_rows); empty: no codeFlows.
  std::vector<ir::TraceRow> trace;
  nlohmann::ordered_json properties;  // null: none
};

/// What one command did: the program it analysed, the verdict line it printed and the results.
struct SarifRun {
  std::string program;  // its directory is SRCROOT
  std::vector<SarifResult> results;
  std::string verdict;          // e.g. "UNSAFE"; invocation property and notification text
  std::string verdict_text;     // what the verdict means, a sentence (the notification's message)
  std::string notification_level = "note";  // "warning" for UNKNOWN
  bool successful = true;       // false: siren failed (an internal error)
};

inline constexpr const char* kSarifAssertionRule = "assertion-violation";
inline constexpr const char* kSarifRaceRule = "data-race";

/// The log of `run`.
nlohmann::ordered_json sarif_log(const SarifRun& run);
/// Writes sarif_log(run) to `path` (replaced atomically); false, after a one-line message on
/// stderr, when it cannot.
bool write_sarif(const std::string& path, const SarifRun& run);

}  // namespace siren::app
