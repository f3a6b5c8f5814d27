// The siren command-line driver: each subcommand lives in its own cmd_<name>.cpp and
// registers itself on the CLI11 app with add_<name>_command(). main.cpp only dispatches.
#pragma once

#include <CLI/CLI.hpp>

namespace siren::app {

/// Exit codes (DESIGN.md Part A; documented in `siren --help`, main.cpp).
enum ExitCode : int {
  kExitSafe = 0,         // SAFE, SAFE up to bound, or a command that succeeded
  kExitUsage = 1,        // bad flags
  kExitInternal = 2,     // a bug in siren (e.g. a trace that did not replay)
  kExitUnknown = 5,      // UNKNOWN: unsupported construct, timeout, memory limit
  kExitInputError = 6,   // missing file, C syntax error, unsupported construct (cfg)
  kExitUnsafe = 10,      // UNSAFE (a violation, replayed)
};

/// Each add_*_command creates its subcommand; when the subcommand runs it stores its exit
/// code in `exit_code`.
void add_cfg_command(CLI::App& app, int& exit_code);
void add_check_command(CLI::App& app, int& exit_code);
void add_explore_command(CLI::App& app, int& exit_code);
void add_tg_command(CLI::App& app, int& exit_code);
void add_race_command(CLI::App& app, int& exit_code);
void add_triage_command(CLI::App& app, int& exit_code);
void add_test_command(CLI::App& app, int& exit_code);
void add_validate_command(CLI::App& app, int& exit_code);

}  // namespace siren::app
