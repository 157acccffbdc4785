// The "Result" section of a run's notes.md, rendered from the finished run's verdicts: `run`
// writes it when the run ends, `notes` when a run folder has no notes.md yet.
#pragma once

#include <string>
#include <vector>

#include "record/run_result.h"

namespace mlregress::internal {

/// The "Result" section of notes.md, from the run's verdicts: the exit status and counts, then
/// one line per failed test and per metric that is not a PASS, then a warning per held-out set
/// evaluated more than once. Then, when the run checked success criteria, criteria_result's text.
std::string experiment_result(const RunResult& run);

/// The checked criteria: "criteria: met", "criteria: not met (1 of 2)" (machine-checkable ones
/// not met, of all machine-checkable) or "criteria: not evaluated (1 of 2)", then one line each:
/// "- NOT met: value <= 0.98x baseline — Fast.Passes value 1.6 vs baseline 1.5 (1.067x; allowed
/// <= 1.47)", "- not evaluated: val_loss < 1 — no test recorded val_loss",
/// "- not machine-checkable: TEXT"; "criteria: none machine-checkable" when no item is. A
/// criterion checked on several tests lists them below it, each "  - met: ..." or "  - NOT met".
std::string criteria_result(const std::vector<CheckedCriterion>& criteria);

}  // namespace mlregress::internal
