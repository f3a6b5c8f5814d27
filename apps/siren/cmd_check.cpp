// `siren check` (placeholder until the encoder lands).
#include "apps/siren/commands.hpp"

namespace siren::app {
void add_check_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("check", "Bounded assertion checking (not yet implemented)");
  cmd->callback([&exit_code] { exit_code = kExitUnknown; });
}
}  // namespace siren::app
