// Options and model loading shared by the subcommands (model_options.hpp).
#include "apps/siren/model_options.hpp"

#include "apps/siren/commands.hpp"
#include "frontend/frontend.hpp"
#include "ir/validator.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <set>

namespace siren::app {

void add_front_options(CLI::App* cmd, FrontArgs& a) {
  cmd->add_option("--threads", a.threads,
                  "Maximum number of threads including main. check explores the executions with at most "
                  "this many threads and says so in a verdict without a violation (SAFE up to bound); without "
                  "--threads (with --timeout) it also tries 16 and 32, or fewer threads when 8 do not finish")
      ->check(CLI::Range(1u, 4096u))
      ->capture_default_str();
  cmd->add_option("--recursion", a.recursion, "Inlining depth of recursive calls")
      ->check(CLI::Range(0u, 1000u))
      ->capture_default_str();
  cmd->add_option("-D", a.defines, "Preprocessor definition passed to the C front end");
  cmd->add_option("-I", a.includes, "Include directory passed to the C front end");
  cmd->add_flag("--no-undefined-nondet{false}", a.undefined_nondet,
               "A call to a function without a body is unsupported (UNKNOWN); by default it returns an "
               "arbitrary value and changes nothing else, with a warning naming the function");
  add_data_model_options(cmd, a.ilp32);
  cmd->add_option("--assume-readonly", a.readonly_file,
                  "FILE lists functions without a body (one per line) assumed to read only through their pointer "
                  "arguments: a call returns an arbitrary value and changes nothing (its reads are not modelled), "
                  "instead of being unsupported; variadic ones too (printk). triage --driver uses the kernel "
                  "model's list")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--test-ignore-mutex-kinds", a.test_ignore_mutex_kinds,
                "TEST ONLY: a broken front end for which every mutex is a default one")
      ->group("");
  cmd->add_flag("--test-kernel-functions-touch-nothing", a.test_kernel_functions_touch_nothing,
                "TEST ONLY: a broken front end whose kernel functions without a body touch no memory")
      ->group("");
  cmd->add_flag("--test-wrong-bitfield-layout", a.test_wrong_bitfield_layout,
                "TEST ONLY: a broken front end that places every bit-field one bit too high")
      ->group("");
  cmd->add_flag("--test-external-objects-distinct", a.test_external_objects_distinct,
                "TEST ONLY: a broken front end whose functions without a body return their call site's own object "
                "only")
      ->group("");
  cmd->add_option("clang_args", a.clang_args, "Arguments after -- are passed to Clang");
}

void add_data_model_options(CLI::App* cmd, bool& ilp32) {
  auto* m32 = cmd->add_flag("--32", ilp32, "Data model ILP32 (i386: 4-byte pointers and longs) for every size and offset");
  cmd->add_flag("--64{false}", ilp32, "Data model LP64 (x86-64: 8-byte pointers and longs; the default)")->excludes(m32);
}

void add_bound_option(CLI::App* cmd, unsigned& bound) {
  cmd->add_option("--bound,-k", bound,
                  "Explore executions of at most K frames: transactions of one thread (--granularity transaction, "
                  "the default) or instructions of one thread (--granularity instruction)")
      ->check(CLI::Range(1u, 100000000u))
      ->capture_default_str();
}

void add_granularity_option(CLI::App* cmd, std::string& granularity) {
  cmd->add_option("--granularity", granularity,
                  "BMC step granularity: instruction (one frame = one instruction of one thread) or "
                  "transaction (one frame = one visible instruction of one thread and the local steps after "
                  "it; --bound then counts transactions)")
      ->check(CLI::IsMember({"instruction", "transaction"}))
      ->capture_default_str();
}

void add_race_reduction_option(CLI::App* cmd, std::string& reduction) {
  cmd->add_option("--reduction", reduction,
                  "Scheduler reduction: none, mpor (monotonic partial order reduction; it "
                  "keeps every reachable state, so every racy state) or sir (schedule-insensitivity "
                  "reduction; it keeps every control state and the addresses accessed there, so every "
                  "racy state)")
      ->check(CLI::IsMember({"none", "mpor", "sir"}))
      ->capture_default_str();
}

LoadedModel load_model(const std::string& file, const FrontArgs& a) {
  LoadedModel out;
  frontend::FrontendOptions fo;
  for (const auto& d : a.defines) fo.extra_args.push_back("-D" + d);
  for (const auto& i : a.includes) fo.extra_args.push_back("-I" + i);
  fo.extra_args.insert(fo.extra_args.end(), a.clang_args.begin(), a.clang_args.end());
  fo.undefined_nondet = a.undefined_nondet;
  fo.test_ignore_mutex_kinds = a.test_ignore_mutex_kinds;
  fo.test_kernel_functions_touch_nothing = a.test_kernel_functions_touch_nothing;
  fo.test_wrong_bitfield_layout = a.test_wrong_bitfield_layout;
  fo.test_external_objects_distinct = a.test_external_objects_distinct;
  if (!a.readonly_file.empty()) {
    std::ifstream rf(a.readonly_file);
    if (!rf) {
      std::fprintf(stderr, "siren: %s: cannot read the --assume-readonly list\n", a.readonly_file.c_str());
      out.input_error = kExitInputError;
      return out;
    }
    for (std::string line; std::getline(rf, line);) {
      const auto b = line.find_first_not_of(" \t");
      if (b == std::string::npos || line[b] == '#') continue;
      const auto e = line.find_last_not_of(" \t\r");
      fo.readonly_functions.insert(line.substr(b, e - b + 1));
    }
  }
  fo.data_model_bits = a.ilp32 ? 32 : 64;
  fo.capacity = a.capacity;
  frontend::FrontendResult fr = frontend::translate_file(file, fo);
  static std::set<std::string> printed;
  for (const auto& w : fr.warnings) {
    out.warnings.push_back(w.str());
    if (printed.insert(w.str()).second) std::fprintf(stderr, "%s\n", w.str().c_str());
  }
  if (fr.status == frontend::FrontendStatus::InputError) {
    for (const auto& d : fr.diagnostics) std::fprintf(stderr, "%s\n", d.str().c_str());
    if (fr.diagnostics.empty()) std::fprintf(stderr, "siren: %s: cannot translate the file\n", file.c_str());
    out.input_error = kExitInputError;
    return out;
  }
  if (fr.status == frontend::FrontendStatus::Unsupported || !fr.program) {
    out.unknown = fr.diagnostics.empty() ? file + ": unsupported construct" : fr.diagnostics.front().str();
    return out;
  }
  if (const auto problems = ir::validate(*fr.program); !problems.empty()) {
    out.internal_error = true;
    out.unknown = "internal error: the front end produced an invalid program: " + problems.front();
    return out;
  }
  ir::ThreadModelOptions tmo;
  tmo.max_threads = a.threads;
  tmo.heap_slots = a.heap_slots;
  tmo.max_recursion = a.recursion;
  tmo.block_at_thread_limit = a.block_at_thread_limit;
  out.tm = ir::build_thread_model(*fr.program, tmo);
  out.capped = std::move(fr.capped);
  return out;
}

int verdict_exit_code(check::Verdict v, bool internal_error) {
  if (internal_error) return kExitInternal;
  switch (v) {
    case check::Verdict::Unsafe: return kExitUnsafe;
    case check::Verdict::Safe:
    case check::Verdict::SafeUpToBound: return kExitSafe;
    case check::Verdict::Unknown: return kExitUnknown;
  }
  return kExitInternal;
}

void limit_memory_mb(unsigned mb) {
  std::ifstream in("/proc/self/statm");
  std::uint64_t pages = 0;
  in >> pages;
  const std::uint64_t limit = pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)) + std::uint64_t{mb} * 1024 * 1024;
  rlimit rl{};
  if (getrlimit(RLIMIT_AS, &rl) == 0) {
    rl.rlim_cur = (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < limit) ? rl.rlim_max : limit;
    setrlimit(RLIMIT_AS, &rl);
  }
}

}  // namespace siren::app
