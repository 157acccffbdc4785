#include "statistics/pass_rise_choice.h"

#include <algorithm>
#include <cstddef>
#include <optional>

#include "statistics/sequential_bound.h"

namespace mlregress::internal::stats {

namespace {

constexpr double kTargetTimesBound = 2.5;
constexpr double kMostRatioPaired = 1.3;
constexpr double kMostRatioFresh = 1.6;
constexpr double kStoppedShare = 0.95;
// The calibration holds alpha and beta to about 0.01%: the 95% must hold past that.
constexpr double kStoppedMargin = 1e-4;
constexpr double kLargestRise = 4.0;
constexpr double kRiseTolerance = 1.0 / 64;

// The two shapes of raise the choice weighs: at the target only (a PASS look), or from it on.
enum class Raise { kPassLook, kStep };

bool stops_enough(const PassRiseChoice& c) {
  return c.stopped_by_target >= kStoppedShare + kStoppedMargin;
}

double cost(const PassRiseChoice& c) { return std::max(c.ratio_h0, c.ratio_h1); }

double stopped(const PassRiseChoice& c) { return c.stopped_by_target; }

// The candidates of one shape, each calibrated exactly and measured under no change and at the
// shift; each calibration starts from the last one's boundaries (the search moves the raise by
// little, the boundaries by less), a few steps instead of a calibration from Wald's start.
class Search {
 public:
  Search(const SprtShape& shape, double alpha, double beta)
      : shape_(shape),
        alpha_(alpha),
        beta_(beta),
        bound_(wald_expected_seeds(alpha, beta, shape.d)) {
    target_ = shape.looks.front();
    for (const int n : shape.looks)
      if (n <= kTargetTimesBound * bound_.h0) target_ = n;
  }

  int target() const { return target_; }
  double target_bound() const { return kTargetTimesBound * bound_.h0; }

  PassRiseChoice evaluate(double rise, Raise raise = Raise::kPassLook) {
    PassRiseChoice choice{.rise = rise,
                          .from = rise > 0.0 ? target_ : 0,
                          .to = rise > 0.0 && raise == Raise::kPassLook ? target_ : 0,
                          .target = target_,
                          .target_bound = kTargetTimesBound * bound_.h0};
    const SprtCalibration c = calibrate_sprt(shape_, alpha_, beta_, choice.rise_by_look(shape_),
                                             last_ ? &*last_ : nullptr);
    last_ = c.boundaries;
    const SprtOutcomes h0 = sprt_outcomes(shape_, c.boundaries, 0.0);
    const SprtOutcomes h1 = sprt_outcomes(shape_, c.boundaries, shape_.d);
    double stopped = 0.0;
    for (std::size_t k = 0; k < shape_.looks.size(); ++k) {
      stopped += h0.stop_at[k];
      if (shape_.looks[k] <= target_) choice.stopped_by_target = stopped;
      if (choice.p95_h0 == 0 && stopped >= kStoppedShare) choice.p95_h0 = shape_.looks[k];
    }
    if (choice.p95_h0 == 0) choice.p95_h0 = shape_.looks.back();
    choice.ratio_h0 = h0.expected_seeds / bound_.h0;
    choice.ratio_h1 = h1.expected_seeds / bound_.h1;
    return choice;
  }

  // Where a value of the candidates, increasing in the raise, crosses `goal` between the constant
  // boundary and the largest raise of its shape: the candidates either side of the crossing, the
  // raises within kRiseTolerance (none above: it never gets there; none below: the constant is
  // there already). Regula falsi with Illinois' halving and a bisection wherever a step does not
  // halve the bracket: the value is smooth in the raise, so a few calibrations where bisection
  // takes eight.
  template <class Value>
  std::pair<std::optional<PassRiseChoice>, std::optional<PassRiseChoice>> crossing(
      const PassRiseChoice& constant, Raise raise, double goal, Value value,
      double highest = kLargestRise) {
    PassRiseChoice low = constant, high = evaluate(highest, raise);
    double f_low = value(low) - goal, f_high = value(high) - goal;
    if (f_high < 0.0) return {high, std::nullopt};
    if (f_low >= 0.0) return {std::nullopt, low};
    int side = 0;
    bool bisect = false;
    while (high.rise - low.rise > kRiseTolerance) {
      const double width = high.rise - low.rise;
      double x = bisect ? (low.rise + high.rise) / 2.0
                        : (low.rise * f_high - high.rise * f_low) / (f_high - f_low);
      x = std::clamp(x, low.rise + kRiseTolerance / 4, high.rise - kRiseTolerance / 4);
      const PassRiseChoice c = evaluate(x, raise);
      const double f = value(c) - goal;
      if (f >= 0.0) {
        high = c, f_high = f;
        if (side == 1) f_low /= 2.0;
        side = 1;
      } else {
        low = c, f_low = f;
        if (side == -1) f_high /= 2.0;
        side = -1;
      }
      bisect = high.rise - low.rise > width / 2.0;
    }
    return {low, high};
  }

 private:
  const SprtShape& shape_;
  double alpha_, beta_;
  ExpectedSeedsBound bound_;
  int target_ = 0;
  std::optional<SprtBoundaries> last_;
};

}  // namespace

std::vector<double> pass_rise_by_look(const SprtShape& shape, double rise, int from, int to) {
  if (!(rise > 0.0)) return {};
  std::vector<double> by_look;
  for (const int n : shape.looks) by_look.push_back(n >= from && (to == 0 || n <= to) ? rise : 0.0);
  return by_look;
}

std::vector<double> PassRiseChoice::rise_by_look(const SprtShape& shape) const {
  return pass_rise_by_look(shape, rise, from, to);
}

double most_chosen_ratio(const SprtShape& shape) {
  return shape.reference_seeds > 0 ? kMostRatioFresh : kMostRatioPaired;
}

namespace {

// The rule of the header on `shape`, its candidates calibrated for it.
PassRiseChoice choose_on(const SprtShape& shape, double alpha, double beta, double most) {
  Search search(shape, alpha, beta);
  const PassRiseChoice constant = search.evaluate(0.0);
  // A raise stops unchanged runs sooner in the tail and later on average: where the constant
  // boundary is already past the ratio (a paired scale from the first look's few pairs; fresh
  // seeds against a 52-seed baseline at the shift), no raise comes back within it, and the
  // search's calibrations are spared. A first look past the target leaves nothing to raise.
  if (stops_enough(constant) || cost(constant) > most || search.target() == shape.looks.front()) {
    return constant;
  }
  // The smallest PASS look that stops 95% by the target.
  const std::optional<PassRiseChoice> smallest =
      search.crossing(constant, Raise::kPassLook, kStoppedShare + kStoppedMargin, stopped).second;
  if (smallest && cost(*smallest) <= most) return *smallest;
  // The looks come in whole blocks: where the target's look sits well below 2.5 x the bound, no
  // raise within the ratio stops 95% by it. The largest within it then, the ratio spent on the
  // tail (which the 95th percentile reads at the shift the seeds really have: the gate knows the
  // shift only as far as its sd, a stored spread of 260 pairs within 4%): as a PASS look or as a
  // step from the target, whichever has the lower 95th percentile. Short of 95% by the target,
  // a PASS look leaves the runs it did not stop to the boundary lowered for it, and a step can
  // stop them a look or two sooner.
  std::optional<PassRiseChoice> best;
  for (const Raise raise : {Raise::kPassLook, Raise::kStep}) {
    const std::optional<PassRiseChoice> within = search.crossing(constant, raise, most, cost).first;
    if (within && within->rise > 0.0 && (!best || within->p95_h0 < best->p95_h0)) best = within;
  }
  if (best && best->p95_h0 < constant.p95_h0) return *best;
  return constant;
}

// A PASS look chosen on the fresh shape with its sd and slope known, moved up on the exact shape
// until it stops 95% there (their errors widen the looks, so the exact shape needs a little
// more: 1.985 where the known shape's is 1.905 on the fixture's pool): a bracket from it in steps
// that double from a quarter, then regula falsi (a bisection wherever a step does not halve the
// bracket) to within 1/16, a few exact calibrations. Where that costs past the ratio, the raise
// the known shape chose.
PassRiseChoice refined_on(const SprtShape& exact, double alpha, double beta, double most,
                          const PassRiseChoice& known) {
  constexpr double kRefineTolerance = 1.0 / 16;
  const double goal = kStoppedShare + kStoppedMargin;
  Search search(exact, alpha, beta);
  PassRiseChoice low = search.evaluate(known.rise);
  if (stops_enough(low) || known.to == 0) return low;
  const PassRiseChoice at = low;
  PassRiseChoice high = search.evaluate(std::min(kLargestRise, low.rise + 0.25));
  for (double step = 0.5; !stops_enough(high) && high.rise < kLargestRise; step *= 2.0) {
    low = high;
    high = search.evaluate(std::min(kLargestRise, low.rise + step));
  }
  if (!stops_enough(high)) return at;
  bool bisect = false;
  while (high.rise - low.rise > kRefineTolerance) {
    const double width = high.rise - low.rise;
    const double secant = low.rise + (goal - low.stopped_by_target) /
                                         (high.stopped_by_target - low.stopped_by_target) * width;
    const double x = std::clamp(bisect ? low.rise + width / 2.0 : secant,
                                low.rise + kRefineTolerance / 4, high.rise - kRefineTolerance / 4);
    const PassRiseChoice c = search.evaluate(x);
    (stops_enough(c) ? high : low) = c;
    bisect = high.rise - low.rise > width / 2.0;
  }
  return cost(high) <= most ? high : at;
}

}  // namespace

PassRiseChoice choose_pass_rise(const SprtShape& exact, double alpha, double beta) {
  const double most = most_chosen_ratio(exact);
  // Fresh seeds against a baseline no larger than the looks' cap: its mean's error, which every
  // look shares, keeps the constant boundary past 1.6 x the bound at the shift (1.70 and 1.72 on
  // the studies' shapes against 52 seeds) and no raise comes back within it; a fresh calibration
  // takes a second or more, and a simulation of such runs draws a baseline, so a shape, per run.
  if (exact.reference_seeds > 0 && exact.reference_seeds <= exact.looks.back()) {
    const Search search(exact, alpha, beta);
    return PassRiseChoice{.target = search.target(), .target_bound = search.target_bound()};
  }
  if (exact.reference_seeds == 0) return choose_on(exact, alpha, beta, most);
  // Fresh seeds against a pool: the choice made on their shape with the sd and the covariate's
  // slope taken as known. Their errors are what make a fresh calibration take seconds (an
  // integral over the sd's chi law, two slope nodes), and what they add to each look is small
  // beside the baseline mean's error, which stays in; a PASS look found there is then moved up on
  // the exact shape until it stops 95% there. The looks are calibrated for the exact shape with
  // the raise chosen, so alpha and beta hold exactly whatever it is.
  SprtShape known = exact;
  known.spread_df = 0.0;
  known.slope_seeds = 0;
  const PassRiseChoice choice = choose_on(known, alpha, beta, most);
  if (!(choice.rise > 0.0)) return choice;
  return refined_on(exact, alpha, beta, most, choice);
}

}  // namespace mlregress::internal::stats
