#include "statistics/control_variate.h"

#include <fmt/format.h>

#include <stdexcept>

#include "statistics/moments.h"

namespace mlregress::internal::stats {
namespace {

struct Sums {
  double sxx = 0.0, sxy = 0.0, syy = 0.0;
};

// Within-arm sums of squares and cross-products, each arm centred on its own means.
void add_arm(std::span<const double> y, std::span<const double> x, Sums& sums) {
  const double my = mean(y), mx = mean(x);
  for (std::size_t i = 0; i < y.size(); ++i) {
    sums.sxx += (x[i] - mx) * (x[i] - mx);
    sums.sxy += (x[i] - mx) * (y[i] - my);
    sums.syy += (y[i] - my) * (y[i] - my);
  }
}

std::vector<double> adjusted(std::span<const double> y, std::span<const double> x, double theta,
                             double x_centre) {
  std::vector<double> out(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) out[i] = y[i] - theta * (x[i] - x_centre);
  return out;
}

}  // namespace

ControlVariateAdjustment adjust_by_covariate(std::span<const double> y_first,
                                             std::span<const double> x_first,
                                             std::span<const double> y_second,
                                             std::span<const double> x_second) {
  if (y_first.size() != x_first.size() || y_second.size() != x_second.size()) {
    throw std::invalid_argument(
        fmt::format("a covariate needs one value per sample ({} and {} values for {} and {})",
                    x_first.size(), x_second.size(), y_first.size(), y_second.size()));
  }
  require_finite_sample(y_first, 2, "first arm");
  require_finite_sample(x_first, 2, "first arm's covariate");
  require_finite_sample(y_second, 2, "second arm");
  require_finite_sample(x_second, 2, "second arm's covariate");
  Sums sums;
  add_arm(y_first, x_first, sums);
  add_arm(y_second, x_second, sums);
  if (!(sums.sxx > 0.0)) {
    throw std::invalid_argument("the covariate does not vary within the arms: it explains nothing");
  }
  ControlVariateAdjustment out;
  out.theta = sums.sxy / sums.sxx;
  out.variance_explained = sums.syy > 0.0 ? sums.sxy * sums.sxy / (sums.sxx * sums.syy) : 0.0;
  // Any common centre gives the same difference of adjusted means; the mean of all x keeps the
  // adjusted values near the raw ones, so they read as the metric.
  const double n = static_cast<double>(x_first.size() + x_second.size());
  const double centre = (mean(x_first) * static_cast<double>(x_first.size()) +
                         mean(x_second) * static_cast<double>(x_second.size())) /
                        n;
  out.first_adjusted = adjusted(y_first, x_first, out.theta, centre);
  out.second_adjusted = adjusted(y_second, x_second, out.theta, centre);
  return out;
}

}  // namespace mlregress::internal::stats
