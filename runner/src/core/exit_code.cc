#include "mlregress/exit_code.h"

namespace mlregress {

const char* exit_code_name(ExitCode code) {
  switch (code) {
    case ExitCode::kPassed: return "passed";
    case ExitCode::kTestFailed: return "test_failed";
    case ExitCode::kRegression: return "regression";
    case ExitCode::kNoTestsMatched: return "no_tests_matched";
    case ExitCode::kUsageError: return "usage_error";
    case ExitCode::kOutputError: return "output_error";
    case ExitCode::kBaselineError: return "baseline_error";
    case ExitCode::kRunFolderError: return "run_folder_error";
    case ExitCode::kPromotionRefused: return "promotion_refused";
    case ExitCode::kInternalError: return "internal_error";
    case ExitCode::kAllSkipped: return "all_skipped";
  }
  return "unknown";
}

}  // namespace mlregress
