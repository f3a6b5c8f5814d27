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

/// A Linux kernel module as `siren race` closes it: the harness of every pair of its entry
/// points at once (frontend::driver_harness_all, each of two threads chooses one, after init).
struct ModuleHarness {
  std::string path;   // the harness, in a new directory under /tmp
  FrontArgs front;    // loads it: siren's kernel model, the -I directories, the module's, the fallback
  std::string init, exit;
  std::vector<std::string> entry_points;
  std::vector<std::string> left_out;  // "name: unsupported: why"
};

/// A file that registers a module init function (a line `module_init(f)`) and has no `main`:
/// `siren race` takes it as a Linux kernel module (docs/drivers.md, "siren race on a module").
bool is_kernel_module(const std::string& file);

/// Writes the harness of a kernel module; 0, or an exit code after printing one line.
int module_harness(const std::string& file, const FrontArgs& front, ModuleHarness& out);

/// Removes the harness's directory (after the run: kept only where a printed trace names it).
void remove_module_harness(const ModuleHarness& h);

/// siren's kernel model directory: $SIREN_KERNEL_MODEL, else the source tree's kernel/include.
std::string kernel_model_dir();

/// siren's fallback kernel headers (kernel/fallback): after every other -I directory.
std::string kernel_fallback_dir();

}  // namespace siren::app
