// The law of one seed's value, in the sds of the seeds, as the truncated SPRT
// (statistics/truncated_sprt.h) weighs a sum of them: the normal, or, when the seeds skew toward
// the REGRESSION side, the standardized gamma (Pearson type III) with that skewness.
//
// Why: a real study's seeds need not be normal. The XOR study's test accuracy, after its
// covariate, skews -0.87 (a long tail of bad seeds, the side a degradation lies on), and the mean
// of 2 fresh seeds lies beyond a normal's 0.33% tail 1.16% of the time (seeded-tests.md, "Real
// seeds are not normal"): boundaries calibrated on the normal then cry wolf. The gamma is the
// simplest law with a given skewness whose sums stay in the family (the sum of j seeds is a
// gamma of j times the shape), so the recursion's kernels stay exact; its excess kurtosis,
// 1.5 skew^2, is near the XOR accuracy's (+1.35 at skew 0.87: 1.14).
//
// A seed X = (G - k) / sqrt(k), G ~ Gamma(k, 1), k = 4 / skew^2: mean 0, sd 1, skewness `skew`,
// bounded below at -sqrt(k). The sum of j seeds is (G_j - j k) / sqrt(k), G_j ~ Gamma(j k, 1).
#pragma once

#include <span>
#include <vector>

namespace mlregress::internal::stats {

/// The largest skewness a law takes (shape 1: the exponential); larger ones are clamped to it.
inline constexpr double kLargestSeedSkew = 2.0;

/// P(the sum of `seeds` standardized seeds >= x) under the law of skewness `skew` (0: the
/// normal's upper_tail(x / sqrt(seeds)); in [0, kLargestSeedSkew]). seeds >= 1.
double seed_sum_upper_tail(double skew, int seeds, double x);

/// P(the sum of `seeds` standardized seeds <= x), likewise.
double seed_sum_lower_tail(double skew, int seeds, double x);

/// seed_sum_upper_tail and seed_sum_lower_tail of one law and number of seeds, tabulated: the
/// recursion asks for them hundreds of thousands of times per calibration, and the incomplete
/// gamma costs a microsecond. The normal (skew below 0.01) is computed directly; otherwise the
/// logarithms of both tails at steps of 0.0025 in x / sqrt(seeds) over [-10, 16], interpolated
/// linearly (relative error below 1e-4 where a tail exceeds 1e-9; 0 or 1 beyond the table). A
/// table takes about 20 ms: seed_sum_law keeps each one built.
class SeedSumLaw {
 public:
  SeedSumLaw(double skew, int seeds);
  double upper_tail(double x) const;  ///< P(sum >= x)
  double lower_tail(double x) const;  ///< P(sum <= x)

 private:
  double interpolated(const std::vector<double>& log_tail, double x, double below,
                      double above) const;
  double skew_ = 0.0, root_seeds_ = 1.0;
  std::vector<double> log_upper_, log_lower_;
};

/// The table of (skew, seeds), built once per process and shared (thread-safe).
const SeedSumLaw& seed_sum_law(double skew, int seeds);

/// The sample skewness G1 = sqrt(n (n - 1)) / (n - 2) · m3 / m2^1.5 (the adjusted
/// Fisher-Pearson coefficient; m_k the central moments about the mean, over n); 0 for fewer than
/// 3 values or values without spread.
double sample_skewness(std::span<const double> values);

}  // namespace mlregress::internal::stats
