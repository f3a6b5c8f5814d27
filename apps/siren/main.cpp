// siren: a bounded model checker for pthread C programs. Command-line entry point.
#include "apps/siren/commands.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  using namespace siren::app;
  CLI::App app{
      "siren: bounded model checking of multithreaded (pthread) C programs.\n\n"
      "Exit codes: 0 SAFE / SAFE up to bound / success, 10 UNSAFE, 5 UNKNOWN,\n"
      "1 usage error, 6 input error (missing file, C syntax error, unsupported C), 2 internal error."};
  app.set_version_flag("--version", "siren 0.1.0");
  app.require_subcommand(1);
  int exit_code = kExitSafe;
  add_cfg_command(app, exit_code);
  add_check_command(app, exit_code);
  add_explore_command(app, exit_code);
  add_tg_command(app, exit_code);
  add_race_command(app, exit_code);
  add_triage_command(app, exit_code);
  add_test_command(app, exit_code);
  add_validate_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "siren: %s (see siren --help)\n", e.what());
    return kExitUsage;
  }
  return exit_code;
}
