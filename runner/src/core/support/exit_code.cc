#include "mlregress/exit_code.h"

namespace mlregress {
namespace {

constexpr ExitCodeDescription kExitCodes[] = {
    {ExitCode::kPassed, "passed", "every selected test passed (skips do not fail a run)"},
    {ExitCode::kTestFailed, "test_failed",
     "an assertion failed, a test threw, crashed, aborted, exited or timed out"},
    {ExitCode::kRegression, "regression", "a metric is worse than its baseline allows"},
    {ExitCode::kNoTestsMatched, "no_tests_matched", "the tier / filter selection is empty"},
    {ExitCode::kUsageError, "usage_error",
     "unknown flag or command, bad `--set` (unknown test or key, wrong type), invalid test "
     "registration"},
    {ExitCode::kOutputError, "output_error", "the run folder or JUnit file cannot be written"},
    {ExitCode::kBaselineError, "baseline_error",
     "a baseline file is invalid (file:line:column), or the baseline folder does not exist"},
    {ExitCode::kRunFolderError, "run_folder_error",
     "a RUN argument (promote, compare, report, merge, notes, rerun) is not a readable run folder, "
     "or its files are damaged"},
    {ExitCode::kPromotionRefused, "promotion_refused",
     "promote, calibrate or baselines adopt refused a failed, incomplete or dirty run (`--force` "
     "overrides); adopt also: a confirming run from another profile or commit, or values it left "
     "ungated; calibrate also: metrics it left without a band (noise dominates, Exact yet "
     "varying; listed; the others were written)"},
    {ExitCode::kMergeRefused, "merge_refused",
     "merge refused shards of different plans, commits or environments, or a unit present twice "
     "with different values (`--force` overrides all but the last)"},
    {ExitCode::kBisectFailed, "bisect_failed",
     "bisect named no first bad commit: GOOD does not build or pass, BAD is no regression "
     "against GOOD, or only skipped commits remain"},
    {ExitCode::kNotGated, "not_gated",
     "`--strict-env` (run, merge, compare, report): no test failed and nothing regressed, but a "
     "metric was not gated: UNGATED (its baseline holds values for other environment profiles "
     "only; `baselines adopt` adds this machine's) or NOT_COMPARABLE (measured on other data)"},
    {ExitCode::kConstraintViolated, "constraint_violated",
     "a constraint broke: one of `compare --constraint` (then the constraints alone decide the "
     "exit code), or one a test declared with `MlTest::constrain` (`run --baselines`, `compare`: "
     "no test failed and nothing regressed); a constrained metric the test did not record counts "
     "as broken"},
    {ExitCode::kInternalError, "internal_error", "a bug in mlregress"},
    {ExitCode::kAllSkipped, "all_skipped",
     "every selected test skipped itself (ctest's `SKIP_RETURN_CODE`)"},
    {ExitCode::kInterrupted, "interrupted",
     "stopped by SIGINT (Ctrl-C): test processes killed, the run folder marked incomplete"},
    {ExitCode::kTerminated, "terminated", "stopped by SIGTERM (a cancelled CI job): as for SIGINT"},
};

}  // namespace

std::span<const ExitCodeDescription> exit_code_descriptions() { return kExitCodes; }

const char* exit_code_name(ExitCode code) {
  for (const ExitCodeDescription& d : kExitCodes) {
    if (d.code == code) return d.name;
  }
  return "unknown";
}

}  // namespace mlregress
