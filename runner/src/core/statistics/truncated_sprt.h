// The truncated sequential probability ratio test (Wald's SPRT) of "no change" against "a shift of
// d", its error probabilities computed exactly (by numerical integration, not simulation) and its
// two boundaries calibrated to the exact alpha and beta. The test that comes closest to Wald's
// bound on the expected seeds (statistics/sequential_bound.h).
//
// The observations are one per seed, X_i ~ N(theta + e, 1) in standard deviations of one seed
// (or theta + e plus a standardized gamma of the seeds' skewness, when they skew toward the
// REGRESSION side: SprtShape::skew, statistics/seed_law.h), looked at after the seeds of `looks`
// (every seed, or blocks). e is a shift shared by every
// seed: the error of the reference the seeds are measured against, N(0, 1 / reference_seeds)
// when that reference is the mean of a baseline of `reference_seeds` seeds (0: a reference known
// exactly, or paired differences). At look k, with S the sum of the n_k observations,
//   log likelihood ratio  L_k = d S - n_k d^2 / 2   of "a shift of d" against "no change",
// and the test stops with REGRESSION when L_k >= upper, with PASS when L_k <= lower, and is
// undecided after the last look otherwise (the gate's INCONCLUSIVE). The probabilities are
// integrals over the paths that have not stopped yet: the density of S on a grid between the
// boundaries, carried from look to look by the normal increments (Armitage, McPherson and Rowe's
// recursion), and for a baseline's error averaged over e by the trapezoid rule.
//
// Calibration: upper so that P(REGRESSION | no change) = alpha and lower so that P(PASS | shift d)
// = beta, both including the reference's own error; the power at d is then 1 - beta less what the
// last look leaves undecided (little when the looks go far enough; a cap too small for the power
// costs power, not seeds). Wald's approximations ln((1 - beta) / alpha) and ln(beta / (1 - alpha))
// ignore the overshoot, the truncation and the reference's error; the calibrated boundaries do
// not.
#pragma once

#include <cstddef>
#include <vector>

namespace mlregress::internal::stats {

struct SprtShape {
  double d = 0.0;           ///< the shift the test tells from none, in sds of one seed; > 0
  std::vector<int> looks;   ///< seed counts of the looks, increasing, the first >= 1
  int reference_seeds = 0;  ///< seeds of the baseline mean the seeds are measured against; 0: none
  /// Degrees of freedom of the sd the seeds are measured in when it is estimated (from the
  /// baseline's seeds, or from the first look's), 0 when it is known. d is then the margin over
  /// the estimated sd, and the errors are averaged over the estimate's chi law.
  double spread_df = 0.0;
  /// Seeds of the baseline a covariate's slope was estimated from, when the seeds are adjusted by
  /// it (the spread is then the residual's, on reference_seeds - 2 df); 0: no covariate. The
  /// slope's error theta_hat - theta ~ N(0, sd^2 / Sxx) is shared by every seed and widens each
  /// adjusted seed, and the reference's error, by a variance factor 1 + z^2 / chi^2_(m-1)
  /// (z ~ N(0, 1)), averaged by a two-node rule exact in its first two moments. Needs at least 4.
  int slope_seeds = 0;
  /// The seeds' skewness toward the REGRESSION side, in [0, 2] (statistics/seed_law.h): each
  /// observation is then theta + e + a standardized gamma of that skewness instead of a normal.
  /// 0: normal seeds. The reference's error and the spread's chi law stay the normal's (the mean
  /// of a baseline's seeds is near normal; the spread's law under a skewed, heavier-tailed seed is
  /// wider than the chi law, which this leaves out).
  double skew = 0.0;
  /// When the reference's mean and the sd both come from the same skewed seeds (fresh seeds
  /// against a baseline arm), they err together: a baseline that happened to miss some of the bad
  /// tail has a better mean and a smaller sd at once, and a candidate then looks worse in too small
  /// units. The correlation, in [0, 1), of the reference's error toward a degradation with the sd
  /// estimate's shortfall: for the sample mean and variance of a law of skew g and excess kurtosis
  /// k it is g / sqrt(k + 2) (the delta method; g / sqrt(1.5 g^2 + 2) for the gamma). 0: they are
  /// independent (normal seeds, or a reference and a sd from different seeds).
  double mean_spread_correlation = 0.0;
};

/// On the log likelihood ratio: REGRESSION at or above upper, PASS at or below lower_at(k). The
/// PASS boundary may be raised at some looks (`rise`, one value per look added to lower, each 0
/// or more, or empty for a constant boundary): under no change the ratio drifts down by d^2 / 2 a
/// seed with a spread of d a seed, so the seeds it takes to reach a constant PASS boundary have a
/// long right tail (3.4 x Wald's bound at the 95th percentile, seeded-tests.md), which a boundary
/// raised from a look on (a step), or at that look only (a PASS look), cuts.
struct SprtBoundaries {
  double upper = 0.0, lower = 0.0;
  std::vector<double> rise;

  /// The PASS boundary at look k.
  double lower_at(std::size_t k) const { return k < rise.size() ? lower + rise[k] : lower; }
};

struct SprtOutcomes {
  double regression = 0.0;  ///< P(the test stops at the upper boundary)
  double pass = 0.0;        ///< P(it stops at the lower one)
  double undecided = 0.0;   ///< P(neither by the last look)
  double expected_seeds = 0.0;
  /// P(the test stops at look k), k = 0 .. looks.size() - 1 (the last includes the undecided).
  std::vector<double> stop_at;
  /// P(it stops with REGRESSION at look k).
  std::vector<double> regression_at;
};

/// The test's outcomes at a true shift theta (in the sds of d; 0: no change). Throws
/// std::invalid_argument for a shape without looks, looks not increasing or below 1, d not
/// positive and finite, a negative reference, a skew outside [0, 2], lower >= upper, or rises
/// that are not one per look, are negative or lift the PASS boundary to the REGRESSION boundary.
SprtOutcomes sprt_outcomes(const SprtShape& shape, const SprtBoundaries& boundaries, double theta);

struct SprtCalibration {
  SprtBoundaries boundaries;
  double alpha = 0.0;  ///< P(REGRESSION | no change) at the boundaries found
  double power = 0.0;  ///< P(REGRESSION | shift d): 1 - beta less P(undecided | d)
  /// P(REGRESSION at look k or before | no change), per look: the p-value of a test that crossed
  /// the upper boundary at look k (an earlier crossing is more extreme; every crossing at one look
  /// counts as one value), valid because P(it is at most that value | no change) is that value.
  std::vector<double> regression_by_look;
};

/// The boundaries at which P(REGRESSION | no change) = alpha and P(PASS | d) = beta (to about
/// 0.01% of each), the PASS boundary raised by `rise` (one value per look, or empty) from it.
/// alpha and beta in (0, 0.5). `near`: boundaries already calibrated for a nearby rise, to start
/// from (a search over rises calibrates each in a few steps instead of from Wald's approximations).
SprtCalibration calibrate_sprt(const SprtShape& shape, double alpha, double beta,
                               const std::vector<double>& rise = {},
                               const SprtBoundaries* near = nullptr);

}  // namespace mlregress::internal::stats
