// libFuzzer harness over the C front end (tools/fuzz/README.md): any input must give an
// ir::Program that validates, or diagnostics — never a crash, a sanitizer report or a hang.
// Accepted programs also go through the thread model and a tiny exploration, so that
// whatever the front end produces is executed by the interpreter once.
//
// Built only in the clang++-16 sub-build (tools/CMakeLists.txt; needs libclang-rt-16-dev).
#include "frontend/frontend.hpp"
#include "explicit/explorer.hpp"
#include "ir/thread_model.hpp"
#include "ir/validator.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {
const std::string& input_path() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/siren-frontend-fuzz-" + std::to_string(::getpid()) + ".c";
  }();
  return path;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return -1;  // keep inputs in the size of real test programs
  {
    std::ofstream out(input_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  siren::frontend::FrontendResult r = siren::frontend::translate_file(input_path());
  if (r.status == siren::frontend::FrontendStatus::Ok) {
    if (!r.program) {
      std::fprintf(stderr, "front end: status Ok without a program\n");
      std::abort();
    }
    if (const auto problems = siren::ir::validate(*r.program); !problems.empty()) {
      std::fprintf(stderr, "front end produced an invalid program: %s\n", problems.front().c_str());
      std::abort();
    }
    siren::ir::ThreadModelOptions tmo;
    tmo.max_threads = 4;
    tmo.max_recursion = 2;
    const siren::ir::ThreadModel tm = siren::ir::build_thread_model(*r.program, tmo);
    siren::explicit_state::ExploreOptions eo;
    eo.bound = 12;
    eo.max_states = 2000;
    eo.count_schedules = false;
    eo.max_nondet_combinations = 16;
    eo.nondet_min = 0;
    eo.nondet_max = 1;
    (void)siren::explicit_state::explore(tm, eo);
  } else if (r.diagnostics.empty()) {
    std::fprintf(stderr, "front end: rejected the input without a diagnostic\n");
    std::abort();
  }
  return 0;
}
