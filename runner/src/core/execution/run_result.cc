#include "execution/run_result.h"

namespace mlregress::internal {

std::string_view test_status_name(TestStatus status) {
  switch (status) {
    case TestStatus::kPassed:
      return "passed";
    case TestStatus::kFailed:
      return "failed";
    case TestStatus::kSkipped:
      return "skipped";
    case TestStatus::kCrashed:
      return "crashed";
    case TestStatus::kRegressed:
      return "regressed";
    case TestStatus::kTimedOut:
      return "timed_out";
  }
  return "unknown";
}

std::optional<TestStatus> parse_test_status(std::string_view name) {
  for (TestStatus status : {TestStatus::kPassed, TestStatus::kFailed, TestStatus::kSkipped,
                            TestStatus::kCrashed, TestStatus::kRegressed, TestStatus::kTimedOut}) {
    if (test_status_name(status) == name) return status;
  }
  return std::nullopt;
}

ExitCode run_exit_code(const RunResult& run, const std::vector<std::string>& output_errors) {
  std::size_t failed = 0, skipped = 0, regressed = 0;
  for (const TestResult& test : run.tests) {
    failed += is_test_failure(test.status);
    skipped += test.status == TestStatus::kSkipped;
    regressed += test.status == TestStatus::kRegressed;
  }
  if (failed > 0) return ExitCode::kTestFailed;
  if (regressed > 0) return ExitCode::kRegression;
  if (!run.runner_errors.empty()) return ExitCode::kInternalError;
  if (!output_errors.empty()) return ExitCode::kOutputError;
  if (!run.tests.empty() && skipped == run.tests.size()) return ExitCode::kAllSkipped;
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
