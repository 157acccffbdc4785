#include "statistics/failure_rate_design.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mlregress::internal::stats {
namespace {

// An LLR within this relative distance of a threshold counts as reaching it: the boundaries are
// integers computed from logarithms, and a count that lies exactly on a line must not fall on
// either side by rounding.
constexpr double kTieTolerance = 1e-9;

// The calibration's grid of PASS thresholds, in units of Wald's |ln(beta / (1 - alpha))|:
// kLowerSteps points from 1 / kLowerStepsPerUnit to kLowerSteps / kLowerStepsPerUnit. Accepting
// at a thirty-second of Wald's threshold stops most p0 sequences at the first look that can;
// four times it is a design that hardly ever passes early. A step (0.07 in LLR for 2% -> 20%,
// power 0.9) is a third of one success's LLR there, so the grid meets nearly every distinct PASS
// boundary; for rates much closer together it meets fewer, which costs attempts, never size.
constexpr int kLowerStepsPerUnit = 32;
constexpr int kLowerSteps = 128;
// Cumulative probabilities within this of a quantile's level reach it: sums of path
// probabilities carry rounding of that order.
constexpr double kQuantileSlack = 1e-12;
// fixed_sample_binomial_design gives up beyond this many trials.
constexpr int kMaxFixedTrials = 1'000'000;

void check_rates(double p0, double p1) {
  if (!(p0 > 0.0 && p0 < p1 && p1 < 1.0)) {
    throw std::invalid_argument(
        fmt::format("a failure-rate design needs 0 < p0 < p1 < 1, not p0 = {}, p1 = {}", p0, p1));
  }
}

void check_alpha_power(double alpha, double power_goal) {
  if (!(alpha > 0.0 && alpha < 0.5)) {
    throw std::invalid_argument(fmt::format("alpha must be in (0, 0.5), not {}", alpha));
  }
  if (!(power_goal > alpha && power_goal < 1.0)) {
    throw std::invalid_argument(
        fmt::format("the power goal must be in (alpha, 1) = ({}, 1), not {}", alpha, power_goal));
  }
}

void check_looks(const std::vector<int>& looks) {
  if (looks.empty()) throw std::invalid_argument("a failure-rate design needs at least one look");
  for (std::size_t k = 0; k < looks.size(); ++k) {
    if (looks[k] < 1 || (k > 0 && looks[k] <= looks[k - 1])) {
      throw std::invalid_argument(fmt::format(
          "looks must increase strictly from at least 1 trial; look {} is at {}", k + 1, looks[k]));
    }
  }
}

void check_boundaries(const FailureRateDesign& design) {
  check_looks(design.looks);
  const std::size_t n = design.looks.size();
  if (design.reject_from.size() != n || design.accept_up_to.size() != n) {
    throw std::invalid_argument(
        fmt::format("a failure-rate design needs one boundary of each kind per look: {} looks, {} "
                    "REGRESSION and {} PASS boundaries",
                    n, design.reject_from.size(), design.accept_up_to.size()));
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (design.accept_up_to[k] >= design.reject_from[k] || design.accept_up_to[k] < -1) {
      throw std::invalid_argument(
          fmt::format("look {}: PASS up to {} failures and REGRESSION from {} overlap", k + 1,
                      design.accept_up_to[k], design.reject_from[k]));
    }
  }
}

// The LLR of p1 against p0 gains `per_failure` with each failure and `per_success` (< 0) with
// each success: LLR(n, f) = f (per_failure - per_success) + n per_success.
struct LlrSteps {
  double per_failure = 0, per_success = 0;
};

LlrSteps llr_steps(double p0, double p1) {
  return {std::log(p1 / p0), std::log1p(-p1) - std::log1p(-p0)};
}

// Whether design a is better than b. Order: reaching the goal first; then the fewest trials (or,
// short of the goal, the most power).
bool better_design(const FailureRateDesign& a, const FailureRateDesign& b) {
  const bool a_reaches = a.power >= a.power_goal, b_reaches = b.power >= b.power_goal;
  if (a_reaches != b_reaches) return a_reaches;
  if (!a_reaches && a.power != b.power) return a.power > b.power;
  const int a_median = std::max(a.median_trials_p0, a.median_trials_p1);
  const int b_median = std::max(b.median_trials_p0, b.median_trials_p1);
  if (a_median != b_median) return a_median < b_median;
  return a.expected_trials_p0 + a.expected_trials_p1 < b.expected_trials_p0 + b.expected_trials_p1;
}

FailureRateDesign unevaluated(double p0, double p1, double alpha, double power_goal,
                              const std::vector<int>& looks) {
  FailureRateDesign design;
  design.p0 = p0;
  design.p1 = p1;
  design.alpha = alpha;
  design.power_goal = power_goal;
  design.looks = looks;
  return design;
}

// Integer boundaries of the straight lines LLR = upper and LLR = lower at each look.
void set_boundaries(FailureRateDesign& design, const LlrSteps& steps, double upper, double lower) {
  const double slope = steps.per_failure - steps.per_success;
  design.reject_from.resize(design.looks.size());
  design.accept_up_to.resize(design.looks.size());
  for (std::size_t k = 0; k < design.looks.size(); ++k) {
    const int n = design.looks[k];
    // Failures at which LLR = threshold, clamped before rounding so that infinities and counts
    // beyond the look's trials stay representable.
    const auto crossing = [&](double threshold) {
      const double x = (threshold - n * steps.per_success) / slope;
      return std::clamp(x, -2.0, n + 2.0);
    };
    const double up = crossing(upper);
    const double low = crossing(lower);
    int reject = static_cast<int>(std::ceil(up - kTieTolerance * std::max(1.0, std::abs(up))));
    int accept = static_cast<int>(std::floor(low + kTieTolerance * std::max(1.0, std::abs(low))));
    reject = std::clamp(reject, 0, n + 1);
    accept = std::clamp(accept, -1, reject - 1);
    design.reject_from[k] = reject;
    design.accept_up_to[k] = accept;
  }
  design.upper_llr = upper;
  design.lower_llr = lower;
}

// The exact outcome of the design at failure rate p, by dynamic programming over the failure
// count of the paths still running. `give_up_above`: stop as soon as P(REGRESSION) exceeds it
// (the calibration only needs to know that).
struct PathSums {
  double regression = 0, pass = 0, inconclusive = 0;
  std::vector<double> stopped;  // P(stop at look k); the last look includes INCONCLUSIVE
  bool gave_up = false;
};

PathSums sum_paths(const FailureRateDesign& design, double p,
                   double give_up_above = std::numeric_limits<double>::infinity()) {
  const double q = 1.0 - p;
  const std::vector<int>& looks = design.looks;
  PathSums sums;
  sums.stopped.assign(looks.size(), 0.0);
  // mass[f]: P(the path has f failures and has not stopped), for f in [low, high].
  std::vector<double> mass(static_cast<std::size_t>(looks.back()) + 2, 0.0);
  mass[0] = 1.0;
  int low = 0, high = 0, trials = 0;
  for (std::size_t k = 0; k < looks.size(); ++k) {
    for (; trials < looks[k]; ++trials) {
      mass[high + 1] = mass[high] * p;
      for (int f = high; f > low; --f) mass[f] = mass[f] * q + mass[f - 1] * p;
      mass[low] *= q;
      ++high;
    }
    double regression = 0.0, pass = 0.0;
    for (int f = std::max(low, design.reject_from[k]); f <= high; ++f) {
      regression += mass[f];
      mass[f] = 0.0;
    }
    for (int f = low; f <= std::min(high, design.accept_up_to[k]); ++f) {
      pass += mass[f];
      mass[f] = 0.0;
    }
    sums.regression += regression;
    sums.pass += pass;
    sums.stopped[k] = regression + pass;
    if (sums.regression > give_up_above) {
      sums.gave_up = true;
      return sums;
    }
    low = std::max(low, design.accept_up_to[k] + 1);
    high = std::min(high, design.reject_from[k] - 1);
    if (low > high) return sums;  // every path has stopped
  }
  for (int f = low; f <= high; ++f) sums.inconclusive += mass[f];
  sums.stopped.back() += sums.inconclusive;
  return sums;
}

OperatingCharacteristics characteristics_from(const FailureRateDesign& design,
                                              const PathSums& sums) {
  OperatingCharacteristics oc;
  oc.p_regression = sums.regression;
  oc.p_pass = sums.pass;
  oc.p_inconclusive = sums.inconclusive;
  oc.median_trials = oc.p90_trials = design.looks.back();
  bool median_found = false, p90_found = false;
  double cumulative = 0.0;
  for (std::size_t k = 0; k < design.looks.size(); ++k) {
    oc.expected_trials += design.looks[k] * sums.stopped[k];
    cumulative += sums.stopped[k];
    if (!median_found && cumulative >= 0.5 - kQuantileSlack) {
      oc.median_trials = design.looks[k];
      median_found = true;
    }
    if (!p90_found && cumulative >= 0.9 - kQuantileSlack) {
      oc.p90_trials = design.looks[k];
      p90_found = true;
    }
  }
  return oc;
}

// Fills in size, power and the trials under p0 and p1 from the boundaries.
void evaluate(FailureRateDesign& design) {
  const OperatingCharacteristics at_p0 = characteristics_from(design, sum_paths(design, design.p0));
  const OperatingCharacteristics at_p1 = characteristics_from(design, sum_paths(design, design.p1));
  design.size = at_p0.p_regression;
  design.power = at_p1.p_regression;
  design.expected_trials_p0 = at_p0.expected_trials;
  design.expected_trials_p1 = at_p1.expected_trials;
  design.median_trials_p0 = at_p0.median_trials;
  design.median_trials_p1 = at_p1.median_trials;
}

// The REGRESSION thresholds worth trying, increasing: the boundary at look n moves only where
// the threshold passes an LLR value a count can take, j · slope + n · per_success, so each
// distinct design is one of these values. Ville's inequality bounds the search: the likelihood
// ratio is a martingale under p0, so P(LLR ever >= ln(1 / alpha)) <= alpha whatever the PASS
// boundary and the looks; that threshold is the last candidate but one. The last never rejects
// (no count reaches it), which keeps the search finite even if rounding broke that bound.
std::vector<double> upper_threshold_candidates(const std::vector<int>& looks, const LlrSteps& steps,
                                               double alpha) {
  const double slope = steps.per_failure - steps.per_success;
  const double ville = std::log(1.0 / alpha);
  std::vector<double> candidates{0.0};
  for (const int n : looks) {
    const double first = std::ceil(-n * steps.per_success / slope);
    const double last = std::min<double>(n, std::floor((ville - n * steps.per_success) / slope));
    for (double j = std::max(first, 1.0); j <= last; ++j) {
      const double value = j * slope + n * steps.per_success;
      if (value > 0.0 && value < ville) candidates.push_back(value);
    }
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end(),
                               [](double a, double b) {
                                 return b - a <= kTieTolerance * std::max(1.0, std::abs(b));
                               }),
                   candidates.end());
  candidates.push_back(ville);
  candidates.push_back(looks.back() * steps.per_failure + 1.0);
  return candidates;
}

// P(X >= c) for X ~ Bin(n, p): the regularised incomplete beta, no factorials.
double binomial_upper_tail(int n, int c, double p) {
  if (c <= 0) return 1.0;
  if (c > n) return 0.0;
  return boost::math::ibeta(c, n - c + 1, p);
}

}  // namespace

std::vector<int> failure_rate_looks(int block, int cap) {
  if (block < 1 || cap < block) {
    throw std::invalid_argument(fmt::format(
        "failure-rate looks need block >= 1 and cap >= block, not block {}, cap {}", block, cap));
  }
  std::vector<int> looks;
  for (int n = block; n <= cap; n += block) {
    looks.push_back(n);
    if (cap - n < block) break;  // the next step would pass the cap (or overflow)
  }
  if (looks.back() != cap) looks.push_back(cap);
  return looks;
}

FailureRateDesign failure_rate_design_from_thresholds(double p0, double p1, double alpha,
                                                      double power_goal,
                                                      const std::vector<int>& looks,
                                                      double upper_llr, double lower_llr) {
  check_rates(p0, p1);
  check_looks(looks);
  if (std::isnan(upper_llr) || std::isnan(lower_llr) || !(lower_llr < upper_llr)) {
    throw std::invalid_argument(
        fmt::format("the PASS threshold must lie below the REGRESSION threshold, not {} and {}",
                    lower_llr, upper_llr));
  }
  FailureRateDesign design = unevaluated(p0, p1, alpha, power_goal, looks);
  set_boundaries(design, llr_steps(p0, p1), upper_llr, lower_llr);
  evaluate(design);
  return design;
}

FailureRateDesign design_failure_rate_test(double p0, double p1, double alpha, double power_goal,
                                           const std::vector<int>& looks) {
  check_rates(p0, p1);
  check_alpha_power(alpha, power_goal);
  check_looks(looks);
  const LlrSteps steps = llr_steps(p0, p1);
  const double wald_lower = std::log((1.0 - power_goal) / (1.0 - alpha));  // < 0

  FailureRateDesign candidate = unevaluated(p0, p1, alpha, power_goal, looks);
  FailureRateDesign best;
  bool have_best = false;

  const std::vector<double> uppers = upper_threshold_candidates(looks, steps, alpha);
  const auto size_at_most_alpha = [&](std::size_t i, double lower) {
    set_boundaries(candidate, steps, uppers[i], lower);
    return !sum_paths(candidate, p0, alpha).gave_up;
  };
  std::vector<int> previous_accept;
  std::size_t calibrated = 0;
  for (int step = 1; step <= kLowerSteps; ++step) {
    const double lower = wald_lower * step / kLowerStepsPerUnit;
    set_boundaries(candidate, steps, uppers[calibrated], lower);
    if (candidate.accept_up_to == previous_accept) continue;  // the same design again
    previous_accept = candidate.accept_up_to;
    // The first upper candidate with exact size <= alpha. A lower PASS threshold only lets more
    // paths go on to be rejected, so the size at a given upper threshold only rises along the
    // grid and the search starts where the previous one ended: galloping up, then bisection.
    // The last candidate never rejects, so the search ends.
    if (!size_at_most_alpha(calibrated, lower)) {
      std::size_t bad = calibrated, good = calibrated, stride = 1;
      for (;;) {
        good = std::min(bad + stride, uppers.size() - 1);
        if (size_at_most_alpha(good, lower)) break;
        bad = good;
        stride *= 2;
      }
      while (good - bad > 1) {
        const std::size_t middle = bad + (good - bad) / 2;
        (size_at_most_alpha(middle, lower) ? good : bad) = middle;
      }
      calibrated = good;
    }
    set_boundaries(candidate, steps, uppers[calibrated], lower);
    evaluate(candidate);
    if (!have_best || better_design(candidate, best)) {
      best = candidate;
      have_best = true;
    }
  }
  return best;
}

OperatingCharacteristics operating_characteristics(const FailureRateDesign& design, double p) {
  if (!(p >= 0.0 && p <= 1.0)) {
    throw std::invalid_argument(fmt::format("a failure rate must be in [0, 1], not {}", p));
  }
  check_boundaries(design);
  return characteristics_from(design, sum_paths(design, p));
}

RateDecision decide_at_look(const FailureRateDesign& design, std::size_t look, int failures) {
  if (look >= design.looks.size() || look >= design.reject_from.size() ||
      look >= design.accept_up_to.size()) {
    throw std::invalid_argument(
        fmt::format("look {} of a design with {} looks", look, design.looks.size()));
  }
  if (failures < 0 || failures > design.looks[look]) {
    throw std::invalid_argument(
        fmt::format("{} failures among {} trials at look {}", failures, design.looks[look], look));
  }
  if (failures >= design.reject_from[look]) return RateDecision::kRegression;
  if (failures <= design.accept_up_to[look]) return RateDecision::kPass;
  return look + 1 == design.looks.size() ? RateDecision::kInconclusive : RateDecision::kContinue;
}

static void check_count(int failures, int trials) {
  if (trials < 1 || failures < 0 || failures > trials) {
    throw std::invalid_argument(fmt::format(
        "a rate needs trials >= 1 and 0 <= failures <= trials, not {} of {}", failures, trials));
  }
}

static void check_confidence(double confidence) {
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw std::invalid_argument(fmt::format("confidence must be in (0, 1), not {}", confidence));
  }
}

RateInterval clopper_pearson(int failures, int trials, double confidence) {
  check_count(failures, trials);
  check_confidence(confidence);
  const double tail = (1.0 - confidence) / 2.0;
  RateInterval interval;
  if (failures > 0) {
    interval.lower = boost::math::ibeta_inv(failures, trials - failures + 1, tail);
  }
  if (failures < trials) {
    interval.upper = boost::math::ibetac_inv(failures + 1, trials - failures, tail);
  }
  return interval;
}

double reference_failure_rate(int failures, int trials) {
  check_count(failures, trials);
  return (failures + 0.5) / (trials + 1.0);
}

double conservative_reference_failure_rate(int failures, int trials, double confidence) {
  check_count(failures, trials);
  check_confidence(confidence);
  if (failures == trials) return reference_failure_rate(failures, trials);
  const boost::math::beta_distribution<> posterior(failures + 0.5, trials - failures + 0.5);
  return boost::math::quantile(posterior, confidence);
}

FixedSampleDesign fixed_sample_binomial_design(double p0, double p1, double alpha,
                                               double power_goal) {
  check_rates(p0, p1);
  check_alpha_power(alpha, power_goal);
  // The smallest critical count with size <= alpha only grows with n (a tail P(X >= c) grows
  // with n), so it is carried from one n to the next; for that count the power is the most
  // this n allows.
  int c = 0;
  for (int n = 1; n <= kMaxFixedTrials; ++n) {
    while (binomial_upper_tail(n, c, p0) > alpha) ++c;
    const double power = binomial_upper_tail(n, c, p1);
    if (power >= power_goal) {
      return {.trials = n, .reject_from = c, .size = binomial_upper_tail(n, c, p0), .power = power};
    }
  }
  throw std::invalid_argument(fmt::format(
      "no fixed-sample design of up to {} trials detects {} against {} at alpha {} with power {}",
      kMaxFixedTrials, p1, p0, alpha, power_goal));
}

}  // namespace mlregress::internal::stats
