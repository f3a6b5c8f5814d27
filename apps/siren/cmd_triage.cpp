#include "apps/siren/commands.hpp"
namespace siren::app {
void add_triage_command(CLI::App&, int&) {}
}
