// The one-sided exact binomial tail the checks that compare an accuracy with a chance rate share
// (the permuted-label leak test, the class prior). Private to the checks.
#pragma once

#include <cstdint>

namespace mlregress::checks::detail {

/// P(X >= successes) for X ~ Binomial(trials, rate); 1 for successes <= 0, 0 above trials.
double binomial_upper_tail(std::int64_t successes, std::int64_t trials, double rate);

}  // namespace mlregress::checks::detail
