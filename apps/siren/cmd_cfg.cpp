// `siren cfg FILE.c [--dot | --points-to] [-- clang args]`: translates a C file with the front
// end and prints its IR (ir::print_program), a Graphviz rendering of the control-flow graphs
// (ir::print_dot), or the points-to sets of its thread model (ir::PointsTo).
#include "apps/siren/commands.hpp"
#include "apps/siren/model_options.hpp"
#include "frontend/frontend.hpp"
#include "ir/points_to.hpp"
#include "ir/printer.hpp"
#include "ir/thread_model.hpp"
#include "ir/validator.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace siren::app {

void add_cfg_command(CLI::App& app, int& exit_code) {
  struct Opts {
    std::string file;
    bool dot = false;
    bool ilp32 = false;
    bool points_to = false;
    unsigned thread_model = 0;
    std::vector<std::string> clang_args;
  };
  auto opts = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand(
      "cfg",
      "Translate a C file and print its IR: memory objects (cells, initial values) and every\n"
      "function reachable from main as numbered instructions with source locations.\n"
      "Exit code 0 on success, 6 on an input error or an unsupported construct (each\n"
      "diagnostic is printed on stderr as `file:line:col: message`).");
  cmd->add_option("file", opts->file, "C source file (gnu11; #include resolves against the system\n"
                                      "headers and the file's own directory)")
      ->required();
  cmd->add_flag("--dot", opts->dot, "Print Graphviz DOT (one cluster per function) instead of the listing");
  cmd->add_flag("--points-to", opts->points_to,
                "Print the points-to sets of the thread model's pointer locals and cells instead of the "
                "listing (ir/points_to.hpp; `anywhere` where the analysis cannot follow a pointer)");
  cmd->add_option("--thread-model", opts->thread_model,
                  "Print the thread model with N thread instances (main included) instead of the listing: "
                  "every thread's code after inlining, create-site slots and lowering (ir/thread_model.hpp)")
      ->type_name("N")
      ->check(CLI::Range(1u, 64u));
  add_data_model_options(cmd, opts->ilp32);
  cmd->add_option("clang_args", opts->clang_args,
                  "Extra arguments for clang after `--` (e.g. -DN=3 -Iinclude)");
  cmd->positionals_at_end();
  cmd->callback([opts, &exit_code] {
    frontend::FrontendOptions fo;
    fo.data_model_bits = opts->ilp32 ? 32 : 64;
    for (const auto& a : opts->clang_args)
      if (a != "--") fo.extra_args.push_back(a);  // CLI11 may keep the separator
    frontend::FrontendResult r = frontend::translate_file(opts->file, fo);
    for (const auto& w : r.warnings) std::fprintf(stderr, "%s\n", w.str().c_str());
    if (r.status != frontend::FrontendStatus::Ok) {
      for (const auto& d : r.diagnostics) std::fprintf(stderr, "%s\n", d.str().c_str());
      if (r.diagnostics.empty()) std::fprintf(stderr, "%s: error: cannot translate\n", opts->file.c_str());
      exit_code = kExitInputError;
      return;
    }
    std::string out;
    if (opts->points_to || opts->thread_model) {
      if (const auto errors = ir::validate(*r.program); !errors.empty()) {
        std::fprintf(stderr, "%s: internal error: invalid IR: %s\n", opts->file.c_str(), errors.front().c_str());
        exit_code = kExitInternal;
        return;
      }
      ir::ThreadModelOptions tmo;
      if (opts->thread_model) tmo.max_threads = opts->thread_model;
      const ir::ThreadModel tm = ir::build_thread_model(*r.program, tmo);
      out = opts->points_to ? ir::PointsTo::analyse(tm).print() : ir::print_thread_model(tm);
    } else {
      out = opts->dot ? ir::print_dot(*r.program) : ir::print_program(*r.program);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    exit_code = kExitSafe;
  });
}

}  // namespace siren::app
