// SV-COMP violation witnesses (issue 23; docs/witnesses.md): writing them from a replayed
// counterexample, reading them (ours or another tool's), and validating one against a program.
//
// Two formats, one model. A witness is an automaton over program steps (an edge matches a step
// by thread, line, branch outcome, nondet result, thread creation, violation):
// - GraphML 1.0 (sv-witnesses README-GraphML, with the concurrency keys `threadId` and
//   `createThread`): the graph as written; a step that matches no edge leaving the current node
//   leaves it there, an edge into a sink node kills the run.
// - YAML 2.x (`violation_sequence`, format 2.0; 2.2 adds `thread_id` on waypoints): segment i
//   is node i; its `follow` waypoint is the edge to node i+1, its `avoid` waypoints edges into
//   a sink. The final segment ends in one `target` (a reachable error) or, for a data race, in
//   two (the two threads' racing accesses, both next to execute).
// Thread ids are the witness's: main is 0 and the n-th thread created in the run is n (GraphML
// `createThread` names it explicitly); siren's thread instances are mapped to them as the
// validated run creates threads.
#pragma once

#include "ir/interpreter.hpp"
#include "ir/thread_model.hpp"
#include "ir/trace.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace siren::witness {

enum class Format { GraphML, Yaml };
enum class Property { Reach, Race };  // unreach-call / no-data-race

/// What a program step must do to match a waypoint or an edge (unset fields: anything).
struct Match {
  std::optional<unsigned> thread;        // witness thread id of the stepping thread
  std::string file;                      // base name of the step's file ("": any)
  unsigned line = 0;                     // the step's line (0: any)
  std::optional<bool> branch;            // a condition evaluated to this
  std::optional<std::int64_t> result;    // a nondet call returned this
  std::optional<unsigned> creates;       // the step creates the thread with this witness id
  bool target = false;                   // the step violates the assertion (reach)
};

struct Edge {
  unsigned from = 0, to = 0;
  Match match;
};

struct Witness {
  Format format = Format::GraphML;
  Property property = Property::Reach;
  std::string version;        // "1.0" (GraphML) or the YAML format_version
  std::string program_file;   // as the witness names it
  std::string program_hash;   // SHA-256 in hex ("": not given)
  unsigned nodes = 1;
  unsigned entry = 0;
  std::vector<Edge> edges;
  std::vector<bool> violation, sink;  // per node
  /// YAML race: the final segment's two targets, checked in every state of node `race_node`.
  std::vector<Match> race_targets;
  unsigned race_node = 0;
};

/// SHA-256 of `data` in lower-case hex (FIPS 180-4): the witnesses' program hash.
std::string sha256_hex(const std::string& data);

// --- writing ---------------------------------------------------------------------------------

/// What the counterexample violates. Reach: the last step of `steps` fails an assertion.
/// Race: `steps` lead to a state in which `first` and `second` (thread instance, pc) are both
/// next and race.
struct Violation {
  Property property = Property::Reach;
  ir::ThreadId first_thread = 0, second_thread = 0;
  std::uint32_t first_pc = 0, second_pc = 0;
};

struct WriteInfo {
  std::string program_file;   // as given on the command line
  std::string program_text;   // its contents (hashed)
  bool ilp32 = false;         // architecture 32bit (else 64bit)
};

/// GraphML 1.0 violation witness of a replayed counterexample (`steps`: its rows, one per step
/// of the thread model): one edge per C statement (ir::statement_rows), with threadId,
/// createThread, enterFunction, control (conditions) and the values of nondet calls.
std::string write_graphml(const ir::ThreadModel& tm, const std::vector<ir::TraceRow>& steps, const Violation& v,
                          const WriteInfo& info);
/// YAML violation witness (format 2.2: 2.0 with thread_id): one segment per C statement.
std::string write_yaml(const ir::ThreadModel& tm, const std::vector<ir::TraceRow>& steps, const Violation& v,
                       const WriteInfo& info);

// --- reading ---------------------------------------------------------------------------------

/// Parses a GraphML or YAML violation witness (the format is recognised from the text). On
/// failure returns nullopt and sets `error` to one line (not XML/YAML, unsupported version, no
/// violation node or target, ...).
std::optional<Witness> parse(const std::string& text, std::string& error);

// --- validating ------------------------------------------------------------------------------

enum class Outcome { Confirmed, Rejected, Unknown };

struct ValidateOptions {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::size_t max_states = 1'000'000;
  /// Broken on purpose, for tests: ignore the witness, confirm any run that violates its property
  /// (mutated witnesses are then confirmed; tests/e2e/witness_test.py shows that its rejection
  /// checks catch this).
  bool test_ignore_witness = false;
};

struct Validation {
  Outcome outcome = Outcome::Unknown;
  std::string reason;                // rejected / unknown: why
  std::vector<ir::Value> initial;    // confirmed: the run that follows the witness
  std::vector<ir::Step> schedule;    // (reach: the failing step last; race: up to the racy state)
  std::size_t states = 0;            // (state, witness node) pairs visited
};

/// Searches for a run of `tm` that the witness accepts and that violates its property: reach,
/// a failing assertion while the witness is in a violation node (or at its target); race, a
/// data race between the stepping thread and another in the state where the witness enters a
/// violation node (YAML: both targets next and racing). Depth first, steps that advance the
/// witness first, states (with the witness node and the thread-id map) visited once. Rejected
/// only when the search is complete: no state cap, no deadline, every nondet value of a type
/// tried (else Unknown with the reason).
Validation validate(const ir::ThreadModel& tm, const Witness& w, const ValidateOptions& options);

}  // namespace siren::witness
