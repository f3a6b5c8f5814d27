// `siren triage --driver DRIVER.c` (docs/drivers.md): closes a Linux driver with one harness per
// pair of entry points and triages them as a manifest.
#pragma once

#include "apps/siren/triage_run.hpp"

namespace siren::app {

/// Scans `a.driver` for its init and exit functions and entry points (frontend::scan_driver,
/// with siren's kernel model before the user's -I directories), writes one harness per pair of
/// entry points (a function paired with itself too) and DIR/manifest.jsonl into the harness
/// directory (--emit-harness, else OUT.harness, else a new directory under /tmp), and points
/// `a.manifest` at it (the -I directories move into its lines, after the kernel model).
/// Returns 0, or an exit code after printing one line.
int prepare_driver(TriageArgs& a);

/// siren's kernel model directory: $SIREN_KERNEL_MODEL, else the source tree's kernel/include.
std::string kernel_model_dir();

}  // namespace siren::app
