// `run --ab OTHER_BINARY [--rounds R]`: interleaved A/B timing. The selected timing tests
// (ML_TIMING_TEST) of this binary — the candidate — and of another build run as child
// processes, both in every round, in an order that is randomised and balanced (each pair of
// rounds has one candidate-first and one other-first round). --set applies to the candidate
// only. Per timing metric, the per-round ratios are tested with a one-sided Wilcoxon
// signed-rank test (see ab_analysis.h); everything lands in a run folder (ab.json, environment,
// each child's own run folder and log). Exit code: kRegression when a metric regressed.
#pragma once

#include <string>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"
#include "mlregress/runner_hooks.h"

namespace mlregress::internal {

ExitCode ab_command(const RunOptions& options, const RunnerHooks& hooks, const std::string& binary,
                    const std::string& gtest_filter);

}  // namespace mlregress::internal
