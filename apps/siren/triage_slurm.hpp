// `siren triage --executor slurm`: the same triage as on this machine, run as ONE Slurm array job
// whose task I runs `siren triage ... --shard I/N --out OUT.slurm/shard-JOB_I.jsonl` (the shards
// of race/triage_shards.hpp over the work not yet answered in --out). The parent follows the
// tasks with `squeue -r -t all` (sacct may be disabled), draws the progress bar from the shard
// files, and merges them into --out (one line per id, so a shard answered twice counts once).
// Work left by a task that failed, timed out or was cancelled is submitted once more; what is
// still open after that is answered UNKNOWN with the reason `slurm: STATE REASON`. A re-run
// first cancels a job a killed parent left behind and merges its shard files. No daemon: the
// parent only calls sbatch, squeue and scancel.
#pragma once

#include "apps/siren/triage_progress.hpp"
#include "apps/siren/triage_run.hpp"

#include <set>
#include <string>
#include <vector>

namespace siren::app {

/// Answers `todo[i]` (the open warnings of items[i]) through Slurm, appending result lines to
/// `fd` (the locked --out, whose answered ids are `answered`; updated). Returns 0, or
/// kExitInputError after a one-line message (Slurm not installed or not running).
int triage_on_slurm(const TriageArgs& a, const std::vector<TriageItem>& items,
                    const std::vector<std::vector<race::Warning>>& todo, int fd, std::set<std::string>& answered,
                    TriageProgress& progress);

}  // namespace siren::app
