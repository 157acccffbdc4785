// The exact (Clopper–Pearson) 95% interval of a rate measured as `hits` of `n` trials: what the
// simulations of the statistical gates report their false-alarm and detection rates with.
#pragma once

namespace mlregress::test_support {

struct RateInterval {
  double low = 0.0, high = 1.0;
};

/// 0 <= hits <= n, n >= 1.
RateInterval clopper_pearson(int hits, int n);

}  // namespace mlregress::test_support
