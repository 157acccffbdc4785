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

std::string curve_tolerance(const CurvePolicy& policy) {
  return fmt::format(
      "curve ±{} rel ±{} abs, {} step{}{}", format_value(policy.rtol), format_value(policy.atol),
      policy.consecutive, policy.consecutive == 1 ? "" : "s",
      policy.smoothing > 1 ? fmt::format(", moving average of {}", policy.smoothing) : "");
}

// Where the candidate's (smoothed) values stood against the reference's band, over the reference
// steps the candidate also has. Indices are into the reference.
struct BandScan {
  std::size_t compared = 0;
  std::optional<std::size_t> first_out;  // start of the first run of `consecutive` steps outside
  double largest = -std::numeric_limits<double>::infinity();  // largest worse-side excess
  std::size_t largest_at = 0;
};

BandScan scan_band(const std::vector<double>& expected, const std::vector<std::int64_t>& steps,
                   const std::map<std::int64_t, double>& by_step, const CurvePolicy& policy) {
  BandScan scan;
  std::size_t outside_in_a_row = 0;
  std::optional<std::size_t> run_start;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto it = by_step.find(steps[i]);
    if (it == by_step.end()) continue;
    ++scan.compared;
    const double allowed = band_half_width(policy.rtol, policy.atol, expected[i]);
    const double excess = std::isfinite(it->second)
                              ? worse_excess(it->second, expected[i], allowed, policy.direction)
                              : std::numeric_limits<double>::infinity();
    if (excess > scan.largest) {
      scan.largest = excess;
      scan.largest_at = i;
    }
    if (excess > 0.0) {
      if (outside_in_a_row++ == 0) run_start = i;
      if (outside_in_a_row >= policy.consecutive && !scan.first_out) scan.first_out = run_start;
    } else {
      outside_in_a_row = 0;
    }
  }
  return scan;
}

// The verdict and note of a scan that compared at least one step.
void judge_scan(const BandScan& scan, const std::vector<double>& expected,
                const std::vector<std::int64_t>& steps,
                const std::map<std::int64_t, double>& by_step, const CurvePolicy& policy,
                MetricComparison& c) {
  const auto at = [&](std::size_t i) {
    const double allowed = band_half_width(policy.rtol, policy.atol, expected[i]);
    return fmt::format("step {}: {} vs reference {} ± {}", steps[i],
                       format_value(by_step.at(steps[i])), format_value(expected[i]),
                       format_value(allowed));
  };
  const std::string excursion = scan.largest > 0.0
                                    ? fmt::format("largest excursion {} beyond the band at {}",
                                                  format_value(scan.largest), at(scan.largest_at))
                                    : "never outside the band";
  c.curve = CurveExcursion{scan.compared,
                           scan.first_out ? std::optional(steps[*scan.first_out]) : std::nullopt,
                           scan.largest, steps[scan.largest_at]};
  if (scan.first_out) {
    c.verdict = Verdict::kRegression;
    c.note =
        fmt::format("left the band on the worse side at {}; {}", at(*scan.first_out), excursion);
  } else {
    c.verdict = Verdict::kPass;
    c.note = fmt::format("within the band at {} reference steps ({})", scan.compared, excursion);
  }
}

}  // namespace

MetricComparison compare_curve_metric(const RecordedCurve& recorded,
                                      const std::string& reference_csv) {
  const CurvePolicy policy = recorded.curve.policy.value_or(CurvePolicy{});
  MetricComparison c;
  c.metric = recorded.curve.name;
  c.kind = MetricKind::kCurve;
  c.tolerance = curve_tolerance(policy);
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

  const BandScan scan = scan_band(expected, reference.steps, by_step, policy);
  if (scan.compared == 0) {
    c.verdict = Verdict::kNotComparable;
    c.note = fmt::format("the curve has none of the reference's {} steps", expected.size());
    return c;
  }
  judge_scan(scan, expected, reference.steps, by_step, policy, c);
  return c;
}

}  // namespace mlregress::internal
