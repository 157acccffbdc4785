// `rerun RUN --test NAME [--seed S] [--out DIR] [--force]`: one rerun separates "my code
// changed" from "I misremembered". Reruns one test of a finished run (or one seed of a seeded
// test) with exactly the run's resolved parameters, seed and thread count from its config.json,
// into a new run folder, and judges it with the gate `run` and `compare` use, the run made a
// baseline in memory (a seeded test's seeds one by one, its margin as the band). Per metric:
// "reproduced exactly" (equal), "differs by X (within the recorded band ±B)" (PASS) or
// "differs by X" (REGRESSION, or IMPROVED beyond the band); per gated curve the curve gate's
// verdict against the run's curve file. It warns, with git's diff stat, when this binary's commit
// is not the run's, and refuses a test whose parameters no longer match the run's unless --force.
//
// Exit: 0 (passed) reproduced, exactly or within the band; 2 (regression) a value or curve that
// did not reproduce; 1 (test_failed) the test failed this time; 4 a test or seed the run does not
// have or a mismatch without --force; 7 a run folder that cannot be read.
#pragma once

#include <string>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"
#include "mlregress/runner_hooks.h"

namespace mlregress::internal {

ExitCode rerun_command(const RerunOptions& options, const RunnerHooks& hooks,
                       const std::string& binary);

}  // namespace mlregress::internal
