#include "statistics/pass_rise_choice.h"

#include <algorithm>
#include <cstddef>
#include <optional>

#include "statistics/sequential_bound.h"

namespace mlregress::internal::stats {

namespace {

constexpr double kTargetTimesBound = 2.5;
constexpr double kMostRatio = 1.3;
constexpr double kStoppedShare = 0.95;
// The calibration holds alpha and beta to about 0.01%: the 95% must hold past that.
constexpr double kStoppedMargin = 1e-4;
constexpr double kLargestRise = 3.0;
constexpr double kRiseTolerance = 1.0 / 64;

// One candidate, calibrated and measured under no change and at the shift.
PassRiseChoice evaluate(const SprtShape& shape, double alpha, double beta,
                        const ExpectedSeedsBound& bound, int target, double rise, int from) {
  const SprtCalibration c = calibrate_sprt(shape, alpha, beta, step_rise(shape, rise, from));
  const SprtOutcomes h0 = sprt_outcomes(shape, c.boundaries, 0.0);
  const SprtOutcomes h1 = sprt_outcomes(shape, c.boundaries, shape.d);
  PassRiseChoice choice{.rise = rise,
                        .from = rise > 0.0 ? from : 0,
                        .target = target,
                        .target_bound = kTargetTimesBound * bound.h0};
  double stopped = 0.0;
  for (std::size_t k = 0; k < shape.looks.size(); ++k) {
    stopped += h0.stop_at[k];
    if (shape.looks[k] <= target) choice.stopped_by_target = stopped;
    if (choice.p95_h0 == 0 && stopped >= kStoppedShare) choice.p95_h0 = shape.looks[k];
  }
  if (choice.p95_h0 == 0) choice.p95_h0 = shape.looks.back();
  choice.ratio_h0 = h0.expected_seeds / bound.h0;
  choice.ratio_h1 = h1.expected_seeds / bound.h1;
  return choice;
}

bool stops_enough(const PassRiseChoice& c) {
  return c.stopped_by_target >= kStoppedShare + kStoppedMargin;
}

double cost(const PassRiseChoice& c) { return std::max(c.ratio_h0, c.ratio_h1); }

// The smallest rise from `from` that stops enough by the target, or nullopt when even the
// largest does not.
std::optional<PassRiseChoice> smallest_rise_from(const SprtShape& shape, double alpha, double beta,
                                                 const ExpectedSeedsBound& bound, int target,
                                                 int from) {
  PassRiseChoice high = evaluate(shape, alpha, beta, bound, target, kLargestRise, from);
  if (!stops_enough(high)) return std::nullopt;
  double low = 0.0;
  while (high.rise - low > kRiseTolerance) {
    const double middle = (low + high.rise) / 2.0;
    PassRiseChoice c = evaluate(shape, alpha, beta, bound, target, middle, from);
    if (stops_enough(c)) {
      high = c;
    } else {
      low = middle;
    }
  }
  return high;
}

// The largest rise from `from` whose expected seeds stay within 1.3 x both bounds (the one that
// stops the most unchanged runs by the target among them), or nullopt when none does.
std::optional<PassRiseChoice> largest_rise_within(const SprtShape& shape, double alpha, double beta,
                                                  const ExpectedSeedsBound& bound, int target,
                                                  int from) {
  PassRiseChoice high = evaluate(shape, alpha, beta, bound, target, kLargestRise, from);
  if (cost(high) <= kMostRatio) return high;
  std::optional<PassRiseChoice> within;
  double low = 0.0, above = kLargestRise;
  while (above - low > kRiseTolerance) {
    const double middle = (low + above) / 2.0;
    PassRiseChoice c = evaluate(shape, alpha, beta, bound, target, middle, from);
    if (cost(c) <= kMostRatio) {
      within = c;
      low = middle;
    } else {
      above = middle;
    }
  }
  return within;
}

}  // namespace

std::vector<double> step_rise(const SprtShape& shape, double rise, int from) {
  if (!(rise > 0.0)) return {};
  std::vector<double> by_look;
  for (const int n : shape.looks) by_look.push_back(n >= from ? rise : 0.0);
  return by_look;
}

std::vector<double> PassRiseChoice::rise_by_look(const SprtShape& shape) const {
  return step_rise(shape, rise, from);
}

PassRiseChoice choose_pass_rise(const SprtShape& shape, double alpha, double beta) {
  const ExpectedSeedsBound bound = wald_expected_seeds(alpha, beta, shape.d);
  int target = shape.looks.front();
  for (const int n : shape.looks)
    if (n <= kTargetTimesBound * bound.h0) target = n;
  const PassRiseChoice constant = evaluate(shape, alpha, beta, bound, target, 0.0, 0);
  // A rise stops unchanged runs sooner in the tail and later on average: where the constant
  // boundary is already past 1.3 x the bound under no change (a paired scale from the first
  // look's few pairs), no rise comes back within it, and the search's calibrations are spared.
  if (stops_enough(constant) || constant.ratio_h0 > kMostRatio) return constant;
  std::vector<int> froms;
  for (const int from : shape.looks)
    if (from > shape.looks.front() && from >= target - 4 && from <= target) froms.push_back(from);
  std::optional<PassRiseChoice> best;
  for (const int from : froms) {
    const std::optional<PassRiseChoice> c =
        smallest_rise_from(shape, alpha, beta, bound, target, from);
    if (c && (!best || cost(*c) < cost(*best))) best = c;
  }
  if (best && cost(*best) <= kMostRatio) return *best;
  // The looks come in whole blocks: where the target's look sits well below 2.5 x the bound, no
  // step within 1.3 x stops 95% by it. The step that stops the most by it within 1.3 x then: the
  // 1.3 x spent on the tail, which the 95th percentile reads at the shift the seeds really have
  // (the gate knows the shift only as far as its sd: a stored spread of 260 pairs is within 4%).
  std::optional<PassRiseChoice> most;
  for (const int from : froms) {
    const std::optional<PassRiseChoice> c =
        largest_rise_within(shape, alpha, beta, bound, target, from);
    if (c && (!most || c->stopped_by_target > most->stopped_by_target)) most = c;
  }
  if (most && most->p95_h0 < constant.p95_h0) return *most;
  return constant;
}

}  // namespace mlregress::internal::stats
