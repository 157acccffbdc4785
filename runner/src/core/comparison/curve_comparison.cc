#include "mlregress/checks/curve_comparison.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analysis/band.h"

namespace mlregress::checks {
namespace {

std::size_t common_length(const std::vector<std::vector<double>>& curves, const char* what) {
  if (curves.empty())
    throw std::invalid_argument(fmt::format("{}: needs at least one curve", what));
  const std::size_t n = curves.front().size();
  for (const auto& curve : curves) {
    if (curve.size() != n) {
      throw std::invalid_argument(
          fmt::format("{}: curves of different lengths ({} and {})", what, n, curve.size()));
    }
  }
  return n;
}

}  // namespace

CurveEnvelope min_max_envelope(const std::vector<std::vector<double>>& curves) {
  const std::size_t n = common_length(curves, "min_max_envelope");
  CurveEnvelope envelope;
  envelope.lower.assign(n, 0.0);
  envelope.upper.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double lo = curves.front()[i];
    double hi = lo;
    for (const auto& curve : curves) {
      // A non-finite seed curve poisons the step: NaN bounds make every candidate diverge there.
      if (!std::isfinite(curve[i])) lo = hi = std::nan("");
      if (std::isnan(lo)) break;
      lo = std::min(lo, curve[i]);
      hi = std::max(hi, curve[i]);
    }
    envelope.lower[i] = lo;
    envelope.upper[i] = hi;
  }
  envelope.description = fmt::format("min/max of {} curves", curves.size());
  return envelope;
}

CurveEnvelope mean_sd_envelope(const std::vector<std::vector<double>>& curves, double k) {
  const std::size_t n = common_length(curves, "mean_sd_envelope");
  if (curves.size() < 2) {
    throw std::invalid_argument("mean_sd_envelope: needs at least two curves for a spread");
  }
  CurveEnvelope envelope;
  envelope.lower.assign(n, 0.0);
  envelope.upper.assign(n, 0.0);
  const double count = static_cast<double>(curves.size());
  for (std::size_t i = 0; i < n; ++i) {
    double mean = 0.0;
    for (const auto& curve : curves) mean += curve[i];
    mean /= count;
    double squares = 0.0;
    for (const auto& curve : curves) squares += (curve[i] - mean) * (curve[i] - mean);
    const double sd = std::sqrt(squares / (count - 1.0));
    envelope.lower[i] = mean - k * sd;
    envelope.upper[i] = mean + k * sd;
  }
  envelope.description = fmt::format("mean ± {:g} sd of {} curves", k, curves.size());
  return envelope;
}

CurveEnvelope band_envelope(const std::vector<double>& baseline, const Band& band) {
  CurveEnvelope envelope;
  envelope.lower.reserve(baseline.size());
  envelope.upper.reserve(baseline.size());
  for (const double value : baseline) {
    const double width = internal::band_half_width(band.rtol, band.atol, value);
    envelope.lower.push_back(value - width);
    envelope.upper.push_back(value + width);
  }
  envelope.description =
      fmt::format("baseline ± (atol {:g} + rtol {:g} · |baseline|)", band.atol, band.rtol);
  return envelope;
}

CurveComparison compare_curve(const std::vector<double>& candidate, const CurveEnvelope& envelope,
                              const CurveComparisonOptions& options) {
  if (envelope.lower.size() != envelope.upper.size()) {
    throw std::invalid_argument("compare_curve: envelope bounds of different lengths");
  }
  CurveComparison result;
  result.candidate_steps = candidate.size();
  result.envelope_steps = envelope.lower.size();
  result.envelope_description = envelope.description;
  const std::size_t n = std::min(candidate.size(), envelope.lower.size());
  const std::size_t needed = std::max<std::size_t>(options.consecutive_steps, 1);
  std::size_t run = 0;
  const auto mark = [&](std::size_t step) {
    result.diverged = true;
    result.first_divergent_step = static_cast<std::int64_t>(step);
    result.candidate_value = step < candidate.size() ? candidate[step] : std::nan("");
    result.lower = step < envelope.lower.size() ? envelope.lower[step] : std::nan("");
    result.upper = step < envelope.upper.size() ? envelope.upper[step] : std::nan("");
  };
  for (std::size_t i = 0; i < n; ++i) {
    const double value = candidate[i];
    const double lo = envelope.lower[i];
    const double hi = envelope.upper[i];
    const bool non_finite = !std::isfinite(value) || std::isnan(lo) || std::isnan(hi);
    // Written so that NaN lands outside: !(value <= hi) is true for NaN.
    const bool above = !(value <= hi);
    const bool below = !(value >= lo);
    bool outside = non_finite;
    if (options.direction == Direction::LowerIsBetter)
      outside = outside || above;
    else if (options.direction == Direction::HigherIsBetter)
      outside = outside || below;
    else
      outside = outside || above || below;
    if (!outside) {
      run = 0;
      continue;
    }
    ++result.steps_outside;
    ++run;
    if (!result.diverged && (run >= needed || non_finite)) mark(i + 1 - run);
  }
  if (!result.diverged && candidate.size() != envelope.lower.size()) mark(n);
  return result;
}

CurveComparison compare_curve(const std::vector<double>& candidate,
                              const std::vector<double>& baseline, const Band& band,
                              const CurveComparisonOptions& options) {
  return compare_curve(candidate, band_envelope(baseline, band), options);
}

::testing::AssertionResult curve_within(const CurveComparison& c) {
  if (c.candidate_steps != c.envelope_steps &&
      c.first_divergent_step ==
          static_cast<std::int64_t>(std::min(c.candidate_steps, c.envelope_steps))) {
    return ::testing::AssertionFailure() << fmt::format(
               "candidate curve has {} steps, envelope ({}) has {}; they agree on the first {}",
               c.candidate_steps, c.envelope_description, c.envelope_steps, c.first_divergent_step);
  }
  if (!c.diverged) {
    return ::testing::AssertionSuccess()
           << fmt::format("all {} steps within {} ({} single steps outside, not enough to diverge)",
                          c.candidate_steps, c.envelope_description, c.steps_outside);
  }
  return ::testing::AssertionFailure() << fmt::format(
             "curve diverges at step {}: value {:.6g} outside [{:.6g}, {:.6g}] ({}); {} of {} "
             "steps outside",
             c.first_divergent_step, c.candidate_value, c.lower, c.upper, c.envelope_description,
             c.steps_outside, std::min(c.candidate_steps, c.envelope_steps));
}

}  // namespace mlregress::checks
