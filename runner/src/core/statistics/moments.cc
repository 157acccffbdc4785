#include "statistics/moments.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace mlregress::internal::stats {

void require_finite_sample(std::span<const double> values, std::size_t min_size, const char* what) {
  if (values.size() < min_size) {
    throw std::invalid_argument(std::string("sample '") + what + "' needs at least " +
                                std::to_string(min_size) + " values, has " +
                                std::to_string(values.size()));
  }
  for (const double v : values) {
    if (!std::isfinite(v)) {
      throw std::invalid_argument(std::string("sample '") + what + "' holds a NaN or Inf");
    }
  }
}

namespace {

double unchecked_mean(std::span<const double> values) {
  double sum = 0.0;
  for (const double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

double unchecked_variance(std::span<const double> values, double m) {
  double sum_sq = 0.0;
  double sum_dev = 0.0;  // compensation term: zero in exact arithmetic (corrected two-pass)
  for (const double v : values) {
    sum_sq += (v - m) * (v - m);
    sum_dev += v - m;
  }
  const double n = static_cast<double>(values.size());
  return (sum_sq - sum_dev * sum_dev / n) / (n - 1.0);
}

}  // namespace

double mean(std::span<const double> values) {
  require_finite_sample(values, 1, "values");
  return unchecked_mean(values);
}

double sample_variance(std::span<const double> values) {
  require_finite_sample(values, 2, "values");
  return unchecked_variance(values, unchecked_mean(values));
}

SampleSummary summarize_samples(std::span<const double> samples) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (samples.empty()) return {0, kNaN, kNaN};
  const double m = unchecked_mean(samples);
  if (samples.size() < 2) return {1, m, kNaN};
  return {samples.size(), m, std::sqrt(unchecked_variance(samples, m))};
}

}  // namespace mlregress::internal::stats
