// The chi-square distribution's quantiles, and the interval they give a standard deviation: the
// spread of a metric over seeds is itself estimated from a handful of seeds, and its interval is
// wide and lopsided (8 seeds: 0.66 to 2.04 times the estimate at 95%).
#pragma once

#include <cstddef>

namespace mlregress::internal::stats {

/// The q-quantile of the chi-square distribution with df degrees of freedom (q in (0, 1),
/// df > 0); std::invalid_argument otherwise. Matches scipy.stats.chi2.ppf.
double chi_square_quantile(double q, double df);

struct SdInterval {
  double lower = 0.0, upper = 0.0;
};

/// The two-sided `level` interval of a normal population's sd from the sample sd `sd` of n >= 2
/// values: [sd·sqrt((n-1)/χ²_{1-a/2}), sd·sqrt((n-1)/χ²_{a/2})], a = 1 - level.
SdInterval sd_interval(double sd, std::size_t n, double level = 0.95);

}  // namespace mlregress::internal::stats
