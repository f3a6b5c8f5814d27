// The manifest of a code-base triage (`siren triage --manifest FILE`): JSON lines, one program
// per line, `{"program": P, "warnings": W, "clang_args": [..], "id": PREFIX, "entry_points":
// [..]}` with only `program` required. Relative paths are relative to the manifest's directory; without
// `warnings` the program's lockset candidate pairs are triaged. A bad line (malformed JSON, an
// unknown key, a value of the wrong type, a missing file, an id prefix used twice) is a
// ManifestError naming the line, and the other lines still count: the caller reports it and
// triages the rest.
#pragma once

#include <string>
#include <vector>

namespace siren::race {

struct ManifestItem {
  unsigned line = 0;                    // 1-based line of the manifest
  std::string program;                  // as resolved (manifest directory + relative path)
  std::string warnings;                 // resolved; empty: lockset candidates
  std::vector<std::string> clang_args;
  /// Prefix of the item's result ids ("PREFIX/WARNING-ID"): `id`, or `program` as written.
  std::string prefix;
  /// A driver harness of many pairs (`siren triage --driver`, docs/drivers.md): its entry points
  /// by the value of its choice variables siren_ep1 and siren_ep2; a RACE line names the two.
  std::vector<std::string> entry_points;
};

struct ManifestError {
  unsigned line = 0;    // 0: the file itself (cannot be read)
  std::string message;  // without the "MANIFEST:LINE: " head
};

struct Manifest {
  std::vector<ManifestItem> items;
  std::vector<ManifestError> errors;
};

/// Reads `path`; blank lines and lines starting with '#' are skipped.
Manifest read_manifest(const std::string& path);

/// The id of a manifest item's result line: unique across the items of one manifest.
std::string manifest_result_id(const std::string& prefix, const std::string& warning_id);

}  // namespace siren::race
