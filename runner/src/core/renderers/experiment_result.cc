#include "renderers/experiment_result.h"

#include <fmt/format.h>

#include "mlregress/exit_code.h"
#include "observers/regression_report.h"
#include "storage/results_json.h"

namespace mlregress::internal {
namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string_view status_label(CriterionStatus status) {
  switch (status) {
    case CriterionStatus::kMet:
      return "met";
    case CriterionStatus::kNotMet:
      return "NOT met";
    case CriterionStatus::kNotEvaluated:
      return "not evaluated";
    case CriterionStatus::kText:
      return "not machine-checkable";
  }
  return "?";
}

// "Fast.Passes value 1.6 vs baseline 1.5 (1.067x; allowed <= 1.47)"
std::string check_text(const CheckedCriterion& criterion, const CriterionTestCheck& check) {
  const std::size_t op = criterion.text.find_first_of("<>");
  const std::string op_text =
      op == std::string::npos ? ""
                              : criterion.text.substr(op, criterion.text[op + 1] == '=' ? 2 : 1);
  std::string out = fmt::format("{} {} {:.6g}", check.test, check.metric, check.observed);
  if (check.baseline) out += fmt::format(" vs baseline {:.6g}", *check.baseline);
  std::string detail = check.change;
  detail +=
      fmt::format("{}allowed {} {:.6g}", detail.empty() ? "" : "; ", op_text, check.threshold);
  return fmt::format("{} ({})", out, detail);
}

}  // namespace

std::string criteria_result(const std::vector<CheckedCriterion>& criteria) {
  std::size_t checkable = 0, not_met = 0, not_evaluated = 0;
  std::string lines;
  for (const CheckedCriterion& c : criteria) {
    checkable += c.status != CriterionStatus::kText;
    not_met += c.status == CriterionStatus::kNotMet;
    not_evaluated += c.status == CriterionStatus::kNotEvaluated;
    lines += fmt::format("- {}: {}", status_label(c.status), c.text);
    if (c.checks.size() == 1) {
      lines += " — " + check_text(c, c.checks.front());
    }
    if (!c.note.empty() && c.status != CriterionStatus::kText) lines += " — " + c.note;
    lines += "\n";
    if (c.checks.size() > 1) {
      for (const CriterionTestCheck& check : c.checks) {
        lines += fmt::format("  - {}: {}\n", check.held ? "met" : "NOT met", check_text(c, check));
      }
    }
  }
  const std::string outcome = criteria_outcome(criteria);
  std::string head = "criteria: none machine-checkable\n";
  if (outcome == "met") head = "criteria: met\n";
  if (outcome == "not met")
    head = fmt::format("criteria: not met ({} of {})\n", not_met, checkable);
  if (outcome == "not evaluated") {
    head = fmt::format("criteria: not evaluated ({} of {})\n", not_evaluated, checkable);
  }
  return head + lines;
}

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
  for (const HeldOutTally& tally : run.held_out) {
    if (const std::string warning = held_out_warning(tally); !warning.empty()) {
      out += fmt::format("- WARNING: {}\n", warning);
    }
  }
  if (!run.criteria.empty()) out += "\n" + criteria_result(run.criteria);
  return out;
}

}  // namespace mlregress::internal
