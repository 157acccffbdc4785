// The summary of a metric's per-seed samples shown to people: n, mean and sample standard
// deviation. Baseline files store it next to the samples; the report prints it per arm.
#pragma once

#include <cstddef>
#include <span>

namespace mlregress::internal {

struct SampleSummary {
  std::size_t n = 0;
  double mean = 0.0;  ///< NaN when empty or when a sample is NaN
  double sd = 0.0;    ///< divisor n - 1; NaN below 2 samples
};

/// Plain arithmetic, no input checks: a NaN sample gives a NaN mean, which is what the report
/// should show (the gate itself rejects such samples with a reason).
SampleSummary summarize_samples(std::span<const double> samples);

}  // namespace mlregress::internal
