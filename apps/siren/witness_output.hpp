// --witness FILE and --witness-format graphml|yaml on `siren check` and `siren race`: writing
// an SV-COMP violation witness (witness/witness.hpp) of an UNSAFE answer.
#pragma once

#include "apps/siren/model_options.hpp"
#include "ir/thread_model.hpp"
#include "ir/trace.hpp"
#include "witness/witness.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace siren::app {

struct WitnessArgs {
  std::vector<std::string> files;  // --witness (may be given twice)
  std::string format;              // --witness-format ("": by each file's extension)
};

void add_witness_options(CLI::App* cmd, WitnessArgs& a);

/// Writes the witness files of a counterexample (`steps`: its rows, one per step of `tm`): YAML
/// for a .yml/.yaml file, else GraphML, unless --witness-format says. Returns false (after a
/// one-line message) when a file cannot be written.
bool write_witness(const WitnessArgs& a, const ir::ThreadModel& tm, const std::string& program_file,
                   const FrontArgs& front, const std::vector<ir::TraceRow>& steps, const witness::Violation& v);

}  // namespace siren::app
