// Confirms a failing native run of `siren test` with siren's own concrete interpreter
// (ir/interpreter.hpp): the interpreter executes siren's thread model of the same file,
// following the native run's schedule and __VERIFIER_nondet_* values, and must reach the same
// violation (or, for a data race, the same two threads at conflicting accesses). Native
// execution and siren's front end share nothing, so agreement is evidence that siren models
// the program; disagreement points at a front-end / thread-model bug or at a construct siren
// models differently, and is reported loudly.
//
// This folder is the only place that sees both `native` and `ir` (and the front end): native/
// depends on no other siren module, so that the two sides share nothing.
#pragma once

#include "ir/thread_model.hpp"
#include "native/native.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace siren::confirm {

enum class ConfirmResult { Confirmed, NotConfirmed, NotChecked };
const char* confirm_result_name(ConfirmResult r);  // "confirmed", "not confirmed", "not checked"

struct Confirmation {
  ConfirmResult result = ConfirmResult::NotChecked;
  std::string why;        // what was reached (confirmed) or why not, with the native event
  std::size_t steps = 0;  // interpreter steps executed
};

/// Follows the failing native run `r` (outcome Violation or Race) of binary `b` in siren's
/// interpreter over `tm`. Native thread 0 is main; the thread a native pthread_create starts
/// is the thread-model instance the interpreter's ThreadCreate step starts.
Confirmation confirm_run(const ir::ThreadModel& tm, const native::Binary& b, const native::Run& r);

struct ConfirmOptions {
  std::vector<std::string> clang_args;  // -D, -I, ... as clang got them
  /// TEST ONLY (`siren test --test-broken-frontend`): translate with the front end that drops
  /// global pointer initialisers, to show that a wrong model is not confirmed.
  bool test_drop_pointer_initialisers = false;
};

/// Translates `file` with siren's front end (NotChecked when it cannot), builds the thread
/// model with enough instances for the run's threads, and confirms `r`.
Confirmation confirm_native_failure(const std::string& file, const ConfirmOptions& o, const native::Binary& b,
                                    const native::Run& r);

}  // namespace siren::confirm
