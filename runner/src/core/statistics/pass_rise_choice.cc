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

std::vector<double> step_at(const SprtShape& shape, double rise, int from) {
  if (!(rise > 0.0)) return {};
  std::vector<double> by_look;
  for (const int n : shape.looks) by_look.push_back(n >= from ? rise : 0.0);
  return by_look;
}

// One candidate, calibrated and measured under no change and at the shift.
PassRiseChoice evaluate(const SprtShape& shape, double alpha, double beta,
                        const ExpectedSeedsBound& bound, int target, double rise, int from) {
  const SprtCalibration c = calibrate_sprt(shape, alpha, beta, step_at(shape, rise, from));
  const SprtOutcomes h0 = sprt_outcomes(shape, c.boundaries, 0.0);
  const SprtOutcomes h1 = sprt_outcomes(shape, c.boundaries, shape.d);
  PassRiseChoice choice{.rise = rise,
                        .from = rise > 0.0 ? from : 0,
                        .target = target,
                        .target_bound = kTargetTimesBound * bound.h0};
  for (std::size_t k = 0; k < shape.looks.size() && shape.looks[k] <= target; ++k)
    choice.stopped_by_target += h0.stop_at[k];
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

}  // namespace

std::vector<double> PassRiseChoice::rise_by_look(const SprtShape& shape) const {
  return step_at(shape, rise, from);
}

PassRiseChoice choose_pass_rise(const SprtShape& shape, double alpha, double beta) {
  const ExpectedSeedsBound bound = wald_expected_seeds(alpha, beta, shape.d);
  int first_target = shape.looks.front();
  for (const int n : shape.looks)
    if (n <= kTargetTimesBound * bound.h0) first_target = n;
  PassRiseChoice constant = evaluate(shape, alpha, beta, bound, first_target, 0.0, 0);
  // A rise stops unchanged runs sooner in the tail and later on average: where the constant
  // boundary is already past 1.3 x the bound under no change (a paired scale from the first
  // look's few pairs), no rise comes back within it, and the search's calibrations are spared.
  if (constant.ratio_h0 > kMostRatio) return constant;
  // The looks come in whole blocks: where the target's look sits well below 2.5 x the bound, no
  // rise within 1.3 x stops 95% by it, and the next look is the budget that can still be kept.
  for (const int target : shape.looks) {
    if (target < first_target) continue;
    constant = evaluate(shape, alpha, beta, bound, target, 0.0, 0);
    if (stops_enough(constant)) return constant;
    std::optional<PassRiseChoice> best;
    for (const int from : shape.looks) {
      if (from <= shape.looks.front() || from < target - 4 || from > target) continue;
      const std::optional<PassRiseChoice> c =
          smallest_rise_from(shape, alpha, beta, bound, target, from);
      if (c && (!best || cost(*c) < cost(*best))) best = c;
    }
    if (best && best->ratio_h0 <= kMostRatio && best->ratio_h1 <= kMostRatio) return *best;
  }
  return constant;
}

}  // namespace mlregress::internal::stats
