#include "renderers/experiment_result.h"

#include <fmt/format.h>

#include "mlregress/exit_code.h"
#include "observers/regression_report.h"
#include "storage/results_json.h"

namespace mlregress::internal {
namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

std::string experiment_result(const RunResult& run) {
  const RunSummary s = summarize_run(run);
  std::string out =
      run.info.finished_at.empty()
          ? "The run did not finish (interrupted): the tests below are those that ended.\n"
          : fmt::format("Exit status: {} ({}).\n",
                        exit_code_name(static_cast<ExitCode>(run.exit_code)), run.exit_code);
  out += fmt::format(
      "{} tests: {} passed, {} failed, {} crashed, {} timed out, {} regressed, {} skipped.\n",
      s.tests, s.passed, s.failed, s.crashed, s.timed_out, s.regressed, s.skipped);
  for (const TestResult& test : run.tests) {
    if (is_test_failure(test.status)) {
      const std::string why = !test.crash_message.empty() ? test.crash_message
                              : test.failures.empty()     ? ""
                                                          : test.failures.front().message;
      out += fmt::format("- {} {}: {}\n", test.full_name, test_status_name(test.status),
                         first_line(why));
    }
    for (const MetricComparison& c : test.comparisons) {
      if (c.verdict == Verdict::kPass) continue;
      out += fmt::format("- {}: {} {}\n", test.full_name, format_comparison_summary(c),
                         verdict_name(c.verdict));
    }
  }
  return out;
}

}  // namespace mlregress::internal
