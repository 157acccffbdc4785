#include "statistics/welch.h"

#include <cmath>
#include <limits>

#include "statistics/moments.h"

namespace mlregress::internal::stats {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

double welch_satterthwaite_df(double variance_x, double n_x, double variance_y, double n_y) {
  const double a = variance_x / n_x;
  const double b = variance_y / n_y;
  const double denominator = a * a / (n_x - 1.0) + b * b / (n_y - 1.0);
  if (denominator == 0.0) return kNaN;
  return (a + b) * (a + b) / denominator;
}

TTestResult welch_t_test(std::span<const double> x, std::span<const double> y,
                         Alternative alternative, double confidence_level) {
  require_finite_sample(x, 2, "x");
  require_finite_sample(y, 2, "y");
  const double nx = static_cast<double>(x.size());
  const double ny = static_cast<double>(y.size());
  const double vx = sample_variance(x);
  const double vy = sample_variance(y);

  return t_test_from_estimate(mean(x) - mean(y), std::sqrt(vx / nx + vy / ny),
                              welch_satterthwaite_df(vx, nx, vy, ny), alternative,
                              confidence_level);
}

}  // namespace mlregress::internal::stats
