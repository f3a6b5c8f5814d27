// Counterexamples that use values returned by functions without a body (issue 40). Siren
// lets such a call return any value of its type (frontend rv_undefined_call, after CBMC);
// the real function may never return the value a counterexample needs (`rand() < 0`, `ffs`
// returning an index whose bit is clear). Such a counterexample is confirmed natively before
// it is printed: the program is compiled by the native oracle (native/native.hpp) against
// the real C library, and the trace's schedule is replayed; only a violation (a data race)
// that happens natively is reported, anything else is UNKNOWN naming the function(s).
//
// The ONE definition used by `siren check`, `siren race` and `siren triage`.
#pragma once

#include "ir/trace.hpp"
#include "native/native.hpp"

#include <string>
#include <vector>

namespace siren::confirm {

struct LibraryValueOptions {
  std::vector<std::string> clang_args;  // -D, -I, ... as the front end got them
  bool race = false;                    // the counterexample is a data race (else a violation)
  unsigned run_ms = 5000;
  /// TEST ONLY (`--test-skip-native-confirmation`): trust the arbitrary values, deliberately
  /// wrong: a counterexample that needs an impossible library value is then printed.
  bool test_skip = false;
  /// Replay natively even when the trace uses no value of a function without a body (triage:
  /// every RACE it prints has happened natively where the program compiles). Such a trace is
  /// then withheld (UNKNOWN) only when the replay ran and did not fail the same way; a program
  /// that does not compile natively, or a replay that cannot run, keeps the interpreter's replay
  /// (`native` says why).
  bool always = false;
};

struct LibraryValues {
  std::vector<std::string> functions;  // the body-less functions whose values the trace uses
  bool needed = false;                 // functions is not empty
  bool attempted = false;              // a native replay was tried (needed, or always)
  bool replayed = false;               // the native replay ran
  bool confirmed = true;               // print the counterexample (nothing needed, or confirmed)
  std::string native;                  // what happened natively (or why it did not run)
  std::vector<std::string> stubbed;    // functions no library defines (nondet stubs natively)
  /// body-less functions whose pointer result the trace chose among objects (the front end's
  /// external objects): replayed by the interpreter only, where no library defines them
  std::vector<std::string> objects;
  std::string reason;                  // !confirmed: the UNKNOWN verdict's reason
};

/// The body-less functions whose returned values the trace `rows` (every step, as replayed)
/// uses, sorted, once each.
std::vector<std::string> bodyless_values(const std::vector<ir::TraceRow>& rows);

/// Decides whether the counterexample `rows` (with the two racy accesses `race` for a data
/// race) of `file` can be printed: yes when it uses no value of a function without a body
/// (with `always`: unless its native replay runs and does not fail the same way); else only
/// when the native replay of its schedule against the real library fails the same way (a
/// violation, or a data race).
LibraryValues confirm_library_values(const std::string& file, const std::vector<ir::TraceRow>& rows,
                                     const std::vector<native::TraceRaceEnd>& race, const LibraryValueOptions& o);

}  // namespace siren::confirm
