#include "regression_report.h"

#include <fmt/format.h>

#include "test_report.h"

namespace mlregress::internal {

std::string format_delta(const MetricComparison& c) {
  if (!c.delta) return "";
  std::string out = fmt::format("{}{}", *c.delta >= 0 ? "+" : "", format_value(*c.delta));
  if (c.relative_change) {
    out += fmt::format(" ({}{:.1f}%)", *c.relative_change >= 0 ? "+" : "", *c.relative_change * 100.0);
  }
  return out;
}

std::string format_comparison_summary(const MetricComparison& c) {
  if (!c.baseline) return fmt::format("{} {} ({})", c.metric, format_value(c.observed), c.note);
  std::string out = fmt::format("{} {} vs baseline {}", c.metric, format_value(c.observed),
                                format_value(*c.baseline));
  const std::string delta = format_delta(c);
  if (!delta.empty() || !c.tolerance.empty()) {
    out += " (" + delta + (delta.empty() || c.tolerance.empty() ? "" : "; ") + c.tolerance + ")";
  }
  if (!c.note.empty()) out += "; " + c.note;
  return out;
}

std::string format_regression_report(const std::string& run_id, const TestResult& test) {
  if (test.comparisons.empty() && test.baseline_file.empty()) return "";
  std::string out = fmt::format("RUN: {:<24}  BASELINE: ", run_id);
  out += test.baseline_file.empty()
             ? "none (NEW: promote a run to create it)\n"
             : fmt::format("{} v{} ({}, {})\n", test.baseline_file, test.baseline_version,
                           test.baseline_commit.substr(0, 7), test.baseline_promoted_at.substr(0, 10));
  for (const MetricComparison& c : test.comparisons) {
    const std::string values = c.baseline ? fmt::format("{} → {}", format_value(*c.baseline), format_value(c.observed))
                                          : fmt::format("— → {}", format_value(c.observed));
    const std::string kind(metric_kind_name(c.kind));
    if (c.distribution && c.decision) {
      out += fmt::format("{:<13} {:<20} {}  {}\n{:<13} {:<20} {}\n", kind, c.metric,
                         format_distribution(*c.distribution, *c.decision), verdict_name(c.verdict), "", "",
                         c.note);
      continue;
    }
    // A seeded metric's verdict waits for Holm's correction across the run (see the run's end).
    const std::string_view verdict = c.distribution ? std::string_view("PENDING") : verdict_name(c.verdict);
    out += fmt::format("{:<13} {:<20} {:<24} {:<22} {:<16} {}", kind, c.metric, values, format_delta(c),
                       c.tolerance, verdict);
    out += c.note.empty() ? "\n" : fmt::format("  ({})\n", c.note);
  }
  if (!test.environment_note.empty()) out += "ENVIRONMENT   " + test.environment_note + "\n";
  return out;
}

}  // namespace mlregress::internal
