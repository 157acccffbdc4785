#include "comparison/curve_gate.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include "analysis/band.h"
#include "comparison/reference_file.h"
#include "storage/curve_csv.h"
#include "support/errors.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

// Trailing moving average over `window` points (the first points average what there is).
std::vector<double> smoothed(const std::vector<double>& values, std::size_t window) {
  if (window <= 1) return values;
  std::vector<double> out(values.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    sum += values[i];
    if (i >= window) sum -= values[i - window];
    out[i] = sum / static_cast<double>(std::min(i + 1, window));
  }
  return out;
}

// How far `candidate` is beyond the band on the worse side (> 0: outside), in the metric's units.
double worse_excess(double candidate, double reference, double allowed, Direction direction) {
  const double d = candidate - reference;
  switch (direction) {
    case Direction::LowerIsBetter:
      return d - allowed;
    case Direction::HigherIsBetter:
      return -d - allowed;
    case Direction::MustEqual:
      return std::fabs(d) - allowed;
  }
  return 0.0;
}

}  // namespace

MetricComparison compare_curve_metric(const RecordedCurve& recorded,
                                      const std::string& reference_csv) {
  const CurvePolicy policy = recorded.curve.policy.value_or(CurvePolicy{});
  MetricComparison c;
  c.metric = recorded.curve.name;
  c.kind = MetricKind::kCurve;
  c.tolerance = fmt::format(
      "curve ±{} rel ±{} abs, {} step{}{}", format_value(policy.rtol), format_value(policy.atol),
      policy.consecutive, policy.consecutive == 1 ? "" : "s",
      policy.smoothing > 1 ? fmt::format(", moving average of {}", policy.smoothing) : "");
  const std::vector<double> candidate = smoothed(recorded.curve.values, policy.smoothing);
  if (!candidate.empty()) c.observed = candidate.back();
  const std::optional<CurveRecord> stored =
      read_reference_file(reference_csv, "curve", "it", read_curve_csv, c);
  if (!stored) return c;
  const CurveRecord& reference = *stored;
  const std::vector<double> expected = smoothed(reference.values, policy.smoothing);
  if (!expected.empty()) c.baseline = expected.back();
  if (c.baseline) c.delta = c.observed - *c.baseline;
  std::map<std::int64_t, double> by_step;
  for (std::size_t i = 0; i < candidate.size(); ++i)
    by_step[recorded.curve.steps[i]] = candidate[i];

  std::size_t compared = 0, outside_in_a_row = 0;
  std::optional<std::size_t> first_out;  // index into the reference
  std::optional<std::size_t> run_start;
  double largest = -std::numeric_limits<double>::infinity();
  std::size_t largest_at = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto it = by_step.find(reference.steps[i]);
    if (it == by_step.end()) continue;
    ++compared;
    const double allowed = band_half_width(policy.rtol, policy.atol, expected[i]);
    const double excess = std::isfinite(it->second)
                              ? worse_excess(it->second, expected[i], allowed, policy.direction)
                              : std::numeric_limits<double>::infinity();
    if (excess > largest) {
      largest = excess;
      largest_at = i;
    }
    if (excess > 0.0) {
      if (outside_in_a_row++ == 0) run_start = i;
      if (outside_in_a_row >= policy.consecutive && !first_out) first_out = run_start;
    } else {
      outside_in_a_row = 0;
    }
  }
  if (compared == 0) {
    c.verdict = Verdict::kNotComparable;
    c.note = fmt::format("the curve has none of the reference's {} steps", expected.size());
    return c;
  }
  const auto at = [&](std::size_t i) {
    const double allowed = band_half_width(policy.rtol, policy.atol, expected[i]);
    return fmt::format("step {}: {} vs reference {} ± {}", reference.steps[i],
                       format_value(by_step.at(reference.steps[i])), format_value(expected[i]),
                       format_value(allowed));
  };
  const std::string excursion = largest > 0.0
                                    ? fmt::format("largest excursion {} beyond the band at {}",
                                                  format_value(largest), at(largest_at))
                                    : "never outside the band";
  c.curve = CurveExcursion{compared,
                           first_out ? std::optional(reference.steps[*first_out]) : std::nullopt,
                           largest, reference.steps[largest_at]};
  if (first_out) {
    c.verdict = Verdict::kRegression;
    c.note = fmt::format("left the band on the worse side at {}; {}", at(*first_out), excursion);
  } else {
    c.verdict = Verdict::kPass;
    c.note = fmt::format("within the band at {} reference steps ({})", compared, excursion);
  }
  return c;
}

}  // namespace mlregress::internal
