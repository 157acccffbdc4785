#include "statistics/moments.h"

#include <cmath>
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
}  // namespace

double mean(std::span<const double> values) {
  require_finite_sample(values, 1, "values");
  return unchecked_mean(values);
}

double sample_variance(std::span<const double> values) {
  require_finite_sample(values, 2, "values");
  const double m = unchecked_mean(values);
  double sum_sq = 0.0;
  double sum_dev = 0.0;  // compensation term: zero in exact arithmetic (corrected two-pass)
  for (const double v : values) {
    sum_sq += (v - m) * (v - m);
    sum_dev += v - m;
  }
  const double n = static_cast<double>(values.size());
  return (sum_sq - sum_dev * sum_dev / n) / (n - 1.0);
}

}  // namespace mlregress::internal::stats
