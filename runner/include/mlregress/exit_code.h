// Named process exit codes of every mlregress test binary. CI scripts and ctest depend on these
// numbers, so they never change meaning; new codes are only ever added.
#pragma once

#include <span>

namespace mlregress {

enum class ExitCode : int {
  kPassed = 0,            ///< every selected test passed (skipped tests do not fail a run)
  kTestFailed = 1,        ///< an assertion failed, a test threw, crashed or aborted
  kRegression = 2,        ///< a recorded metric is worse than its baseline allows
  kNoTestsMatched = 3,    ///< the tier / filter selection is empty
  kUsageError = 4,        ///< unknown flag or subcommand, bad --set, invalid configuration
  kOutputError = 5,       ///< the run folder or JUnit file cannot be written
  kBaselineError = 6,     ///< a baseline file is invalid, or the baseline folder is missing/empty
  kRunFolderError = 7,    ///< a RUN argument is not a readable run folder
  kPromotionRefused = 8,  ///< promote refused a failed, incomplete or dirty run (see --force)
  kMergeRefused = 9,      ///< merge refused shards that do not belong together (see --force)
  kBisectFailed = 10,     ///< bisect could not name a first bad commit
  kNotGated =
      11,  ///< --strict-env: a metric is UNGATED or NOT_COMPARABLE (no regression, no failure)
  kConstraintViolated = 12,  ///< a constraint (compare --constraint, MlTest::constrain) broke
  kInternalError = 70,       ///< a bug in mlregress itself (an invariant broke)
  kAllSkipped = 77,          ///< every selected test skipped itself (ctest's SKIP_RETURN_CODE)
  kInterrupted = 130,        ///< stopped by SIGINT (Ctrl-C); the run folder is marked incomplete
  kTerminated = 143,         ///< stopped by SIGTERM; the run folder is marked incomplete
};

/// Short stable name of an exit code, e.g. "test_failed", as used in results.json and the ledger.
const char* exit_code_name(ExitCode code);

struct ExitCodeDescription {
  ExitCode code;
  const char* name;     ///< "test_failed"
  const char* meaning;  ///< one line, as the README's exit-code table and --help show it
};

/// Every exit code in numeric order: the one table behind exit_code_name, the --help footer and
/// the README's table (a test keeps the README in step).
std::span<const ExitCodeDescription> exit_code_descriptions();

}  // namespace mlregress
