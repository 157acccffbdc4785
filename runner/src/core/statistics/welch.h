// Welch's unequal-variance t test for two independent samples (scipy.stats.ttest_ind with
// equal_var=False):
//   t  = (mean x - mean y) / sqrt(vx/nx + vy/ny)
//   df = (vx/nx + vy/ny)^2 / ((vx/nx)^2/(nx-1) + (vy/ny)^2/(ny-1))   (Welch–Satterthwaite)
// Pooling the variances (Student's t) is wrong for seeds of two different builds: when the arm
// with fewer seeds is also the noisier one, the pooled test is anti-conservative.
#pragma once

#include <span>

#include "statistics/alternative.h"
#include "statistics/t_test_result.h"

namespace mlregress::internal::stats {

/// Both samples need at least 2 finite values (std::invalid_argument otherwise).
/// `confidence_level` sets the interval reported for mean(x) - mean(y), with the sidedness
/// of `alternative`. When both samples are constant the standard error is 0: the statistic is
/// ±Inf (or NaN when the means are equal), df, p-value and interval are NaN — never read such a
/// result as a pass.
TTestResult welch_t_test(std::span<const double> x, std::span<const double> y,
                         Alternative alternative = Alternative::kTwoSided,
                         double confidence_level = 0.95);

/// The Welch–Satterthwaite degrees of freedom for per-arm variances and sizes (each n >= 2).
double welch_satterthwaite_df(double variance_x, double n_x, double variance_y, double n_y);

}  // namespace mlregress::internal::stats
