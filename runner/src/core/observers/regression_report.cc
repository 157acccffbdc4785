#include "observers/regression_report.h"

#include <fmt/format.h>

#include "observers/test_report.h"
#include "support/number_format.h"

namespace mlregress::internal {

std::string format_delta(const MetricComparison& c) {
  if (!c.delta) return "";
  std::string out = fmt::format("{}{}", *c.delta >= 0 ? "+" : "", format_value(*c.delta));
  if (c.relative_change) {
    out +=
        fmt::format(" ({}{:.1f}%)", *c.relative_change >= 0 ? "+" : "", *c.relative_change * 100.0);
  }
  return out;
}

std::string comparison_note(const MetricComparison& c) {
  std::string note = c.note;
  const auto add = [&](const std::string& part) { note += (note.empty() ? "" : "; ") + part; };
  if (c.operators) add("operators: " + describe_operator_diff(*c.operators));
  if (c.direction_change) {
    add(fmt::format("the test now says {}, the baseline {}; promote to adopt",
                    direction_name(c.direction_change->test),
                    direction_name(c.direction_change->baseline)));
  }
  return note;
}

std::string format_comparison_summary(const MetricComparison& c) {
  const std::string note = comparison_note(c);
  if (!c.baseline) return fmt::format("{} {} ({})", c.metric, format_value(c.observed), note);
  std::string out = fmt::format("{} {} vs baseline {}", c.metric, format_value(c.observed),
                                format_value(*c.baseline));
  const std::string delta = format_delta(c);
  if (!delta.empty() || !c.tolerance.empty()) {
    out += " (" + delta + (delta.empty() || c.tolerance.empty() ? "" : "; ") + c.tolerance + ")";
  }
  if (!note.empty()) out += "; " + note;
  return out;
}

std::string format_regression_report(const std::string& run_id, const TestResult& test) {
  if (test.comparisons.empty() && test.baseline_file.empty()) return "";
  std::string out = fmt::format("RUN: {:<24}  BASELINE: ", run_id);
  out +=
      test.baseline_file.empty()
          ? "none (NEW: promote a run to create it)\n"
          : fmt::format("{} v{} ({}, {})\n", test.baseline_file, test.baseline_version,
                        test.baseline_commit.substr(0, 7), test.baseline_promoted_at.substr(0, 10));
  // Until the run's seeded and predictions checks are decided, a cause could still change (a
  // sibling's verdict is evidence): the causes are shown once every verdict of the test is final.
  bool pending = false;
  for (const MetricComparison& c : test.comparisons) {
    pending = pending || ((c.distribution || c.flips) && !c.decision);
  }
  for (const MetricComparison& c : test.comparisons) {
    const std::string values =
        c.baseline ? fmt::format("{} → {}", format_value(*c.baseline), format_value(c.observed))
                   : fmt::format("— → {}", format_value(c.observed));
    const std::string kind(metric_kind_name(c.kind));
    if (c.distribution && c.decision) {
      out += fmt::format("{:<13} {:<20} {}  {}\n{:<13} {:<20} {}\n", kind, c.metric,
                         format_distribution(*c.distribution, *c.decision), verdict_name(c.verdict),
                         "", "", comparison_note(c));
      for (const SequentialLook& look : c.looks)
        out += fmt::format("{:<34} {}\n", "", format_look(look));
      if (c.cause) out += fmt::format("{:<13} cause: {}\n", "", format_cause(*c.cause));
      continue;
    }
    // A seeded metric's verdict waits for Holm's correction across the run (see the run's end).
    const std::string_view verdict = (c.distribution || c.flips) && !c.decision
                                         ? std::string_view("PENDING")
                                         : verdict_name(c.verdict);
    out += fmt::format("{:<13} {:<20} {:<24} {:<22} {:<16} {}", kind, c.metric, values,
                       format_delta(c), c.tolerance, verdict);
    const std::string note = comparison_note(c);
    out += note.empty() ? "\n" : fmt::format("  ({})\n", note);
    // Why it is not a PASS, with the rule that fired: shown only once the verdict is final.
    if (c.cause && !pending) {
      out += fmt::format("{:<13} cause: {}\n", "", format_cause(*c.cause));
    }
    if (c.flips && c.decision) {
      // The flips by class and the first examples: where the accuracy went.
      std::string summary = c.flips->summary;
      while (!summary.empty() && summary.back() == '\n') summary.pop_back();
      for (std::size_t at = 0; (at = summary.find('\n', at)) != std::string::npos; at += 15)
        summary.replace(at, 1, "\n              ");
      out += fmt::format("{:<13} {}\n", "", summary);
    }
  }
  if (pending)
    out += "CAUSE         named when the run's seeded and predictions checks are decided\n";
  // The test's own constraints (MlTest::constrain) its values break against the baseline.
  for (const std::string& broken : test.constraints_violated)
    out += "CONSTRAINT    " + broken + "\n";
  if (!test.environment_note.empty()) out += "ENVIRONMENT   " + test.environment_note + "\n";
  return out;
}

}  // namespace mlregress::internal
