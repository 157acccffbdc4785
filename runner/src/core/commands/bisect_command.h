// `bisect GOOD BAD --test NAME [--metric M] --build "CMD" [--binary PATH]`: which commit between
// GOOD and BAD made the test regress. As TritonBench does, GOOD is measured first: checked out,
// built with CMD and run; its result becomes the baseline (promoted into the bisect's folder,
// never into the project's baselines). BAD must be a regression against it, else there is
// nothing to find. Then `git bisect run` calls a step script at each commit it picks, which
// builds, runs the test against GOOD's result and answers git:
//
//   PASS (or IMPROVED)                                  -> 0   (good)
//   REGRESSION                                          -> 1   (bad)
//   build failed, test failed or missing, INCONCLUSIVE,
//   NOT_COMPARABLE, NEW                                 -> 125 (skip: says nothing either way)
//
// Each commit's outcome is cached in <out>/<good>..<bad>/commits/<sha>/ (build.log, run.log,
// the run folder, outcome.json: storage/bisect_steps.h), so a second bisect over the same range
// builds nothing twice.
// The repository is left where it was (git bisect reset), and the starting commit is built
// again so that the build folder matches it (--no-rebuild leaves it). It prints the first bad
// commit and the metric at every commit tested, and writes the bisect record
// (<folder>/bisect.json, storage/bisect_record.h: the culprit, the commits tried in order with
// their verdicts and run folders) and its page (<folder>/report.html), also when it names no
// culprit; `report <folder>` renders the record again.
#pragma once

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {

/// Exit 0 with the first bad commit named; 10 (bisect_failed) when none can be named (GOOD
/// cannot be measured: its build fails, makes no binary or one that cannot be started; BAD is no
/// regression; git fails midway); 4 for a dirty work tree, a bisect already in progress, or
/// commits that do not exist or are not in order; 5 when its folder cannot be made.
ExitCode bisect_command(const BisectOptions& options);

}  // namespace mlregress::internal
