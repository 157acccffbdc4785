#include "statistics/seed_law.h"

#include <algorithm>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "statistics/normal_tail.h"

namespace mlregress::internal::stats {
namespace {

// Below this skewness the gamma's shape (4 / skew^2 > 40,000 per seed) is the normal to within
// the recursion's own grid error, and the incomplete gamma of so large a shape is slow.
constexpr double kNormalSkew = 0.01;

// The gamma sum's shape j k and the point x on its G_j scale.
struct GammaPoint {
  double shape = 0.0, g = 0.0;
};

GammaPoint gamma_point(double skew, int seeds, double x) {
  const double k = 4.0 / (skew * skew);
  return {seeds * k, seeds * k + x * std::sqrt(k)};
}

double clamped(double skew) { return std::clamp(skew, 0.0, kLargestSeedSkew); }

}  // namespace

double seed_sum_upper_tail(double skew, int seeds, double x) {
  skew = clamped(skew);
  if (skew < kNormalSkew) return upper_tail(x / std::sqrt(static_cast<double>(seeds)));
  const GammaPoint p = gamma_point(skew, seeds, x);
  if (p.g <= 0.0) return 1.0;
  return boost::math::gamma_q(p.shape, p.g);
}

double seed_sum_lower_tail(double skew, int seeds, double x) {
  skew = clamped(skew);
  if (skew < kNormalSkew) return upper_tail(-x / std::sqrt(static_cast<double>(seeds)));
  const GammaPoint p = gamma_point(skew, seeds, x);
  if (p.g <= 0.0) return 0.0;
  return boost::math::gamma_p(p.shape, p.g);
}

namespace {
constexpr double kTableLowest = -10.0, kTableHighest = 16.0, kTableStep = 0.0025;
constexpr double kSmallestTail = 1e-300;
}  // namespace

SeedSumLaw::SeedSumLaw(double skew, int seeds)
    : skew_(clamped(skew)), root_seeds_(std::sqrt(static_cast<double>(seeds))) {
  if (skew_ < kNormalSkew) return;
  const int points = static_cast<int>(std::lround((kTableHighest - kTableLowest) / kTableStep)) + 1;
  log_upper_.reserve(static_cast<std::size_t>(points));
  log_lower_.reserve(static_cast<std::size_t>(points));
  for (int i = 0; i < points; ++i) {
    const double x = (kTableLowest + i * kTableStep) * root_seeds_;
    log_upper_.push_back(std::log(std::max(kSmallestTail, seed_sum_upper_tail(skew_, seeds, x))));
    log_lower_.push_back(std::log(std::max(kSmallestTail, seed_sum_lower_tail(skew_, seeds, x))));
  }
}

double SeedSumLaw::interpolated(const std::vector<double>& log_tail, double x, double below,
                                double above) const {
  const double at = (x / root_seeds_ - kTableLowest) / kTableStep;
  if (!(at >= 0.0)) return below;
  if (at >= static_cast<double>(log_tail.size() - 1)) return above;
  const auto i = static_cast<std::size_t>(at);
  const double f = at - static_cast<double>(i);
  return std::exp(log_tail[i] + f * (log_tail[i + 1] - log_tail[i]));
}

double SeedSumLaw::upper_tail(double x) const {
  if (log_upper_.empty()) return stats::upper_tail(x / root_seeds_);
  return interpolated(log_upper_, x, 1.0, 0.0);
}

double SeedSumLaw::lower_tail(double x) const {
  if (log_lower_.empty()) return stats::upper_tail(-x / root_seeds_);
  return interpolated(log_lower_, x, 0.0, 1.0);
}

const SeedSumLaw& seed_sum_law(double skew, int seeds) {
  static std::mutex mutex;
  static std::map<std::pair<double, int>, std::unique_ptr<SeedSumLaw>> built;
  const std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<SeedSumLaw>& law = built[{skew, seeds}];
  if (!law) law = std::make_unique<SeedSumLaw>(skew, seeds);
  return *law;
}

double sample_skewness(std::span<const double> values) {
  const double n = static_cast<double>(values.size());
  if (values.size() < 3) return 0.0;
  double mean = 0.0;
  for (const double v : values) mean += v;
  mean /= n;
  double m2 = 0.0, m3 = 0.0;
  for (const double v : values) {
    const double e = v - mean;
    m2 += e * e;
    m3 += e * e * e;
  }
  m2 /= n;
  m3 /= n;
  if (!(m2 > 0.0)) return 0.0;
  return std::sqrt(n * (n - 1.0)) / (n - 2.0) * m3 / std::pow(m2, 1.5);
}

}  // namespace mlregress::internal::stats
