// The Wilson score interval of a binomial proportion: k successes in n trials. Unlike the Wald
// interval it stays inside [0, 1] and is not empty at k = 0 or k = n, which is where a
// capability's success rate over a short history usually is.
#pragma once

namespace mlregress::internal::stats {

struct ProportionInterval {
  double lower = 0.0, upper = 1.0;
};

/// z of a two-sided 95% interval: Φ⁻¹(0.975).
inline constexpr double kWilsonZ95 = 1.959963984540054;

/// The two-sided 95% Wilson score interval of `successes` in `trials`:
/// (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n). 10 of 10: [0.7225, 1]; 0 of 0: [0, 1].
/// Throws std::invalid_argument unless 0 <= successes <= trials.
ProportionInterval wilson_interval(int successes, int trials);

}  // namespace mlregress::internal::stats
