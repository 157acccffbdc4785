// Sample mean and unbiased sample variance, with the input checks every test here needs: a
// statistic of a sample that holds NaN or Inf would be meaningless (and NaN compares false
// everywhere), so such a sample is rejected instead of producing a quiet number.
#pragma once

#include <cstddef>
#include <span>

namespace mlregress::internal::stats {

/// Throws std::invalid_argument unless `values` holds at least `min_size` values, all finite.
/// `what` names the sample in the message ("x", "baseline", ...).
void require_finite_sample(std::span<const double> values, std::size_t min_size, const char* what);

/// Arithmetic mean. Throws std::invalid_argument on an empty or non-finite sample.
double mean(std::span<const double> values);

/// Unbiased sample variance (divisor n - 1), computed in two passes around the mean.
/// Throws std::invalid_argument on fewer than 2 values or non-finite ones.
double sample_variance(std::span<const double> values);

/// The summary of per-seed samples shown to people: n, mean and sample standard deviation.
/// Baseline files store it next to the samples; the report prints it per arm.
struct SampleSummary {
  std::size_t n = 0;
  double mean = 0.0;  ///< NaN when empty or when a sample is NaN
  double sd = 0.0;    ///< divisor n - 1; NaN below 2 samples
};

/// The same arithmetic as mean() and sample_variance(), without their input checks: a NaN
/// sample gives a NaN mean, which is what a report should show (the gate itself rejects such
/// samples with a reason).
SampleSummary summarize_samples(std::span<const double> samples);

}  // namespace mlregress::internal::stats
