// The "Result" section of a run's notes.md, rendered from the finished run's verdicts: `run`
// writes it when the run ends, `notes` when a run folder has no notes.md yet.
#pragma once

#include <string>

#include "record/run_result.h"

namespace mlregress::internal {

/// The "Result" section of notes.md, from the run's verdicts: the exit status and counts, then
/// one line per failed test and per metric that is not a PASS.
std::string experiment_result(const RunResult& run);

}  // namespace mlregress::internal
