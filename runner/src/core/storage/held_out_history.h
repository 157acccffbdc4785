// Counting a run's held-out evaluations across the runs folder: the earlier runs under the same
// `--out` folder whose results.json records an evaluation of the same held-out set (name and
// fingerprint). A shard's folder is left out (its merged run counts once); a folder whose
// results.json cannot be read is skipped.
#pragma once

#include <string>
#include <vector>

#include "record/held_out.h"
#include "record/run_result.h"

namespace mlregress::internal {

/// The run's held-out tallies (tally_this_run) with the earlier runs under `runs_folder` that
/// evaluated each set, the run's own folder (run.info.run_folder) left out.
std::vector<HeldOutTally> tally_held_out(const RunResult& run, const std::string& runs_folder);

}  // namespace mlregress::internal
