// `siren cfg` (placeholder until the front end lands).
#include "apps/siren/commands.hpp"

namespace siren::app {
void add_cfg_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("cfg", "Print the threads' control-flow graphs (not yet implemented)");
  cmd->callback([&exit_code] { exit_code = kExitInputError; });
}
}  // namespace siren::app
