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

}  // namespace mlregress::internal
