// `calibrate [--filter F] [--repeats K] [--baselines DIR]`: bands from measured noise instead of
// hand-set ones. Runs the selected plain tests K times (this binary's own `run`, as child
// processes, with the same seed and threads each time) into one calibration folder
// (<out>/calibration-<time>/, the K run folders and calibration.txt), and writes per metric that
// varies a band of mean ± max(k × sd, largest |deviation|) into the baselines, with its provenance
// (baselines/calibration.h). Seeded, timing and flaky tests are left out: their spread is
// stored by promote.
//
// Exit: 0 every metric calibrated, or offered Exact; 8 (promotion_refused) a dirty tree or a
// failed repeat (without --force), or a metric left without a band (noise dominates, recorded
// Exact but varies, missing or not finite in a repeat), after writing the others; 3 no test
// matched; 4 nothing to calibrate (only seeded, timing or flaky tests), a bad option or --set.
#pragma once

#include <string>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {

ExitCode calibrate_command(const CalibrateOptions& options, const std::string& binary,
                           const std::string& gtest_filter);

}  // namespace mlregress::internal
