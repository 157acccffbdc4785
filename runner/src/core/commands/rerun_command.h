// `rerun RUN --test NAME [--seed S] [--out DIR] [--force]`: one rerun separates "my code
// changed" from "I misremembered". Reruns one test of a finished run (or one seed of a seeded
// test) with exactly the run's resolved parameters, seed and thread count from its config.json,
// into a new run folder, and says per metric "reproduced exactly", "differs by X (within the
// recorded band)" or "differs by X". It warns, with git's diff stat, when this binary's commit is
// not the run's, and refuses a test whose parameters no longer match the run's unless --force.
//
// Exit: 0 reproduced (exactly or within the band), 2 a value differs beyond its band, 1 the
// test failed this time, 4 a test or seed the run does not have or a mismatch without --force.
#pragma once

#include <string>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"
#include "mlregress/runner_hooks.h"

namespace mlregress::internal {

ExitCode rerun_command(const RerunOptions& options, const RunnerHooks& hooks,
                       const std::string& binary);

}  // namespace mlregress::internal
