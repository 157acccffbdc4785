// The paired t test (scipy.stats.ttest_rel): when the candidate reuses the baseline's seeds,
// the seed-to-seed variation cancels in the per-seed differences d = x - y, and
//   t = mean(d) / (sd(d) / sqrt(n)),  df = n - 1.
// Treating paired seeds as independent arms (Welch) throws that away and loses power.
#pragma once

#include <span>

#include "statistics/alternative.h"
#include "statistics/t_test_result.h"

namespace mlregress::internal::stats {

/// x[i] and y[i] are the same seed. Equal sizes, at least 2 pairs, all finite
/// (std::invalid_argument otherwise). When all differences are equal the standard error is 0:
/// the statistic is ±Inf (NaN when they are all 0) and p-value and interval are NaN.
TTestResult paired_t_test(std::span<const double> x, std::span<const double> y,
                          Alternative alternative = Alternative::kTwoSided,
                          double confidence_level = 0.95);

}  // namespace mlregress::internal::stats
