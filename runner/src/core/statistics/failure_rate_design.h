// The failure-rate gate: is a flaky outcome (an attempt that passes or fails, a seed whose
// training diverges) failing more often than its baseline's rate p0? The runner repeats the test
// in blocks ("looks" after block, 2 block, ..., cap attempts) and stops at the first look that
// decides: REGRESSION (the rate is significantly worse), PASS (it is not), or INCONCLUSIVE when
// the cap is reached undecided.
//
// The shape is Wald's sequential probability ratio test ("Sequential Analysis", 1947): with f
// failures in n attempts, the log-likelihood ratio of p1 (the rise to detect) against p0 is
//   LLR = f ln(p1 / p0) + (n - f) ln((1 - p1) / (1 - p0)),
// and a look rejects when LLR >= A and accepts when LLR <= B, i.e. two parallel straight lines
// in (n, f). Wald's thresholds A = ln((1 - beta) / alpha), B = ln(beta / (1 - alpha)) rest on
// approximations that ignore the overshoot of a discrete count, the truncation at the cap and
// looks only every block; for 2% -> 20% at alpha 0.01 they give an exact size of 0.0043, not
// 0.01, paying for the unused alpha in attempts.
//
// Here A and B are calibrated instead by exact calculation: the probability of every outcome is
// the sum over binomial paths, which a dynamic programme over the failure count carries from one
// attempt to the next (the count's distribution among paths not yet stopped; at each look the mass
// beyond either boundary stops). No factorials, no normal approximation, and the cost is the
// attempts times the handful of counts between the boundaries. For each B on a grid, A is the
// smallest threshold whose exact size P(REGRESSION | p0) is <= alpha, searched among the LLR
// values a count can take up to ln(1 / alpha) (by Ville's inequality no design with A at that
// bound exceeds alpha; the size only falls as A rises). Among those designs the one chosen has
// power P(REGRESSION | p1) >= the goal and the fewest attempts: the smallest max(median at p0,
// median at p1), then the smallest sum of expected attempts. For 2% -> 20%, alpha 0.01, power 0.9,
// a look after every attempt up to 60: exact size 0.0095, power 0.91, median 12 attempts under both
// rates.
//
// The design's guarantee is exact for the p0 it is given. A baseline only estimates p0; what a
// noisy estimate does to the false-alarm rate is measured by tests/benchmarks/
// failure_rate_benchmark.cc (ci/failure-rate-benchmark.sh) and discussed at
// reference_failure_rate.
#pragma once

#include <cstddef>
#include <vector>

namespace mlregress::internal::stats {

struct FailureRateDesign {
  double p0 = 0, p1 = 0, alpha = 0, power_goal = 0;
  // Trials at each look, strictly increasing, the last = the cap.
  std::vector<int> looks;
  // Look k: REGRESSION when failures >= reject_from[k] (> looks[k]: never at that look).
  std::vector<int> reject_from;
  // Look k: PASS when failures <= accept_up_to[k] (-1: never at that look).
  std::vector<int> accept_up_to;
  double size = 0;   // exact P(REGRESSION | p0)
  double power = 0;  // exact P(REGRESSION | p1)
  double expected_trials_p0 = 0, expected_trials_p1 = 0;
  int median_trials_p0 = 0, median_trials_p1 = 0;
  // The calibrated LLR thresholds the boundaries come from (REGRESSION at LLR >= upper_llr, PASS
  // at LLR <= lower_llr): what a report may quote; the boundaries above are what decides.
  double upper_llr = 0, lower_llr = 0;
};

/// Looks from block/cap: {block, 2 block, ..., cap} (cap not a multiple: a last smaller block).
/// block >= 1, cap >= block, else std::invalid_argument.
std::vector<int> failure_rate_looks(int block, int cap);

/// The calibrated design. Needs 0 < p0 < p1 < 1, 0 < alpha < 0.5, alpha < power_goal < 1 and
/// looks strictly increasing from >= 1; else std::invalid_argument. The exact size never exceeds
/// alpha. If the goal power is unreachable within the looks, the design with the most power at
/// size <= alpha (its power field says what it is).
FailureRateDesign design_failure_rate_test(double p0, double p1, double alpha, double power_goal,
                                           const std::vector<int>& looks);

/// The design whose boundaries are the LLR thresholds `upper_llr` (REGRESSION) and `lower_llr`
/// (PASS) as they are, with its exact size, power and trials filled in: Wald's nominal design
/// (upper ln((1 - beta) / alpha), lower ln(beta / (1 - alpha))), or a fixed design to examine.
/// Needs 0 < p0 < p1 < 1, valid looks, lower_llr < upper_llr (lower_llr may be -infinity: no
/// PASS before the cap); alpha and power_goal are only recorded.
FailureRateDesign failure_rate_design_from_thresholds(double p0, double p1, double alpha,
                                                      double power_goal,
                                                      const std::vector<int>& looks,
                                                      double upper_llr, double lower_llr);

struct OperatingCharacteristics {
  double p_regression = 0, p_pass = 0, p_inconclusive = 0;
  double expected_trials = 0;
  int median_trials = 0;  // the smallest n with P(stopped by n) >= 0.5
  int p90_trials = 0;     // the same at 0.9
};

/// What the design does when the true failure rate is p (in [0, 1]; else std::invalid_argument),
/// exactly, by the same dynamic programme. The design's boundaries must fit its looks (one of
/// each per look, reject_from[k] > accept_up_to[k]), else std::invalid_argument.
OperatingCharacteristics operating_characteristics(const FailureRateDesign& design, double p);

enum class RateDecision { kContinue, kRegression, kPass, kInconclusive };

/// The decision at look index `look` with `failures` among looks[look] trials (kInconclusive only
/// at the last look when neither boundary is crossed). look < looks.size() and
/// 0 <= failures <= looks[look], else std::invalid_argument.
RateDecision decide_at_look(const FailureRateDesign& design, std::size_t look, int failures);

struct RateInterval {
  double lower = 0, upper = 1;
};

/// Two-sided Clopper–Pearson interval at `confidence` (e.g. 0.95): the exact interval from the
/// beta quantiles. trials >= 1, 0 <= failures <= trials, 0 < confidence < 1, else
/// std::invalid_argument.
RateInterval clopper_pearson(int failures, int trials, double confidence);

/// The rate a baseline of `failures` in `trials` (>= 1) stands for, as p0 of the design: the
/// Jeffreys posterior mean (failures + 0.5) / (trials + 1), never 0 or 1 (a baseline with no
/// failure still stands for a small rate, so the design exists).
///
/// An estimated p0 is too low about as often as too high, and a design at a too-low p0 cries
/// wolf more than one at a too-high p0 saves, so the false-alarm rate over baselines exceeds
/// alpha. Measured by ci/failure-rate-benchmark.sh (p1 0.2, alpha 0.01, power goal 0.9, a look
/// after every attempt up to 60, a fresh baseline per sequence, exact): baselines of 50, 100, 200
/// attempts at a true 2% give false alarms of 1.59%, 1.54%, 1.40% (power 0.89, 0.90, 0.91); at a
/// true 5%, 3.1%, 2.2%, 1.6%. See conservative_reference_failure_rate.
double reference_failure_rate(int failures, int trials);

/// A p0 that is too low only with probability about 1 - confidence: the upper `confidence`
/// quantile of the Jeffreys posterior Beta(failures + 0.5, trials - failures + 0.5) (for failures
/// = trials, the posterior mean: the quantile would be close to 1). The false alarms then stay
/// near or below alpha, at the price of power. Measured as above: at confidence 0.9, baselines of
/// 50, 100, 200 attempts at 2% give 0.14%, 0.38%, 0.39% (power 0.76, 0.86, 0.89), at 5% 0.59%,
/// 0.46%, 0.39%; at confidence 0.8, 0.56%, 0.80%, 0.69% at 2% (power 0.84, 0.88, 0.90) but 1.4%,
/// 0.92%, 0.71% at 5%. trials >= 1, 0 <= failures <= trials, 0 < confidence < 1, else
/// std::invalid_argument.
double conservative_reference_failure_rate(int failures, int trials, double confidence);

/// The fixed-n exact binomial design for the cross-check: the smallest n with a critical count c
/// such that P(Bin(n, p0) >= c) <= alpha and P(Bin(n, p1) >= c) >= power_goal. Arguments as for
/// design_failure_rate_test; std::invalid_argument when no n up to 1,000,000 reaches the goal.
/// For 2% -> 20% at alpha 0.01 and power 0.9: 32 attempts, REGRESSION from 4 failures (size
/// 0.0037, power 0.907), against the sequential design's median of 12.
struct FixedSampleDesign {
  int trials = 0;
  int reject_from = 0;
  double size = 0;
  double power = 0;
};
FixedSampleDesign fixed_sample_binomial_design(double p0, double p1, double alpha,
                                               double power_goal);

}  // namespace mlregress::internal::stats
