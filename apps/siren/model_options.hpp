// What every subcommand that reads a C program shares: the options that shape its thread
// model (--threads, --recursion, -D, -I, arguments after --), each defined once here, loading
// the file into an ir::ThreadModel with them (front end, validation, thread model), and the
// exit code of a verdict.
#pragma once

#include "check/check.hpp"
#include "ir/thread_model.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace siren::app {

struct FrontArgs {
  unsigned threads = 8;
  unsigned recursion = 4;
  bool undefined_nondet = true;  // --no-undefined-nondet sets false (FrontendOptions)
  bool ilp32 = false;            // --32 (FrontendOptions::data_model_bits; --64 is the default)
  std::vector<std::string> defines, includes, clang_args;
  /// check: executions are cut at the thread limit (ir::ThreadModelOptions), not failed there.
  bool block_at_thread_limit = false;
  /// TEST ONLY (--test-ignore-mutex-kinds, hidden): FrontendOptions::test_ignore_mutex_kinds.
  bool test_ignore_mutex_kinds = false;
  /// TEST ONLY (--test-kernel-functions-touch-nothing, hidden): FrontendOptions' switch.
  bool test_kernel_functions_touch_nothing = false;
  /// --assume-readonly FILE: functions without a body that only read through their pointer
  /// arguments (FrontendOptions::readonly_functions), one name per line, '#' comments.
  std::string readonly_file;
  /// TEST ONLY (--test-wrong-bitfield-layout, hidden): FrontendOptions::test_wrong_bitfield_layout.
  bool test_wrong_bitfield_layout = false;
  /// TEST ONLY (--test-external-objects-distinct, hidden): FrontendOptions::test_external_objects_distinct.
  bool test_external_objects_distinct = false;
  /// FrontendOptions::capacity: the elements of an object of a non-constant size (check and
  /// race grow it after an UNKNOWN that may be the capacity; run_check, run_race).
  std::uint64_t capacity = 64;
  /// ir::ThreadModelOptions::heap_slots (check and race grow it after an UNKNOWN at a malloc
  /// site executed too often; ir::LimitKind::HeapSlots).
  unsigned heap_slots = 1;
};

/// Adds --threads, --recursion, -D, -I, --32/--64 and the trailing clang_args positional; call it after
/// the subcommand's own positionals.
void add_front_options(CLI::App* cmd, FrontArgs& a);

/// --32 / --64: the data model of the C front end (sets `ilp32` for --32).
void add_data_model_options(CLI::App* cmd, bool& ilp32);

/// --bound,-k for the BMC-based subcommands (check, race, triage).
void add_bound_option(CLI::App* cmd, unsigned& bound);

/// --reduction none|mpor|sir for the race queries (race, triage).
/// --granularity (check::CheckOptions::granularity).
void add_granularity_option(CLI::App* cmd, std::string& granularity);
void add_race_reduction_option(CLI::App* cmd, std::string& reduction);

struct LoadedModel {
  int input_error = 0;                 // nonzero: exit with this code (messages printed)
  std::optional<std::string> unknown;  // unsupported construct: UNKNOWN with this reason
  bool internal_error = false;         // `unknown` then says what went wrong
  std::vector<std::string> warnings;   // the front end's ("file:line:col: warning: ...")
  std::optional<ir::ThreadModel> tm;
  std::vector<std::string> capped;  // FrontendResult::capped: objects of a non-constant size
};

/// Translates `file`; input errors print their diagnostics to stderr, and so do the front
/// end's warnings (each once per process: check loads a file again with more threads).
LoadedModel load_model(const std::string& file, const FrontArgs& a);

/// The documented exit code of a check or race verdict (commands.hpp).
int verdict_exit_code(check::Verdict v, bool internal_error);

/// Limits the address space to `mb` MiB beyond what is mapped now.
void limit_memory_mb(unsigned mb);

}  // namespace siren::app
