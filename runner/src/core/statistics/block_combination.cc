#include "statistics/block_combination.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "statistics/normal_tail.h"

namespace mlregress::internal::stats {
namespace {

// Beyond any boundary a design at a level above 1e-300 can have, and small enough that sums of
// a few dozen blocks stay finite.
constexpr double kZLimit = 38.0;

// Just below a level, so that a p-value set to it compares below the level.
double just_below(double level) { return level * (1.0 - 1e-12); }

}  // namespace

double block_z(double one_sided_p) {
  if (std::isnan(one_sided_p)) return 0.0;
  if (one_sided_p <= 0.0) return kZLimit;
  if (one_sided_p >= 1.0) return -kZLimit;
  const boost::math::normal normal;
  const double z = boost::math::quantile(boost::math::complement(normal, one_sided_p));
  return std::clamp(z, -kZLimit, kZLimit);
}

double combined_z(const std::vector<double>& block_zs, const std::vector<int>& block_sizes) {
  if (block_zs.size() != block_sizes.size() || block_zs.empty()) {
    throw std::invalid_argument(
        fmt::format("{} block z values for {} block sizes", block_zs.size(), block_sizes.size()));
  }
  double weighted = 0.0;
  double seeds = 0.0;
  for (std::size_t j = 0; j < block_zs.size(); ++j) {
    if (block_sizes[j] < 1) {
      throw std::invalid_argument(fmt::format("block {} has {} seeds", j + 1, block_sizes[j]));
    }
    weighted += std::sqrt(static_cast<double>(block_sizes[j])) * block_zs[j];
    seeds += block_sizes[j];
  }
  return weighted / std::sqrt(seeds);
}

double crossing_p_value(const std::vector<double>& z, const std::vector<double>& t, double alpha,
                        int family, SpendingFunction spending) {
  if (z.empty() || z.size() > t.size()) {
    throw std::invalid_argument(
        fmt::format("{} looks taken of a design with {} looks", z.size(), t.size()));
  }
  // The union bound's p-value: valid at every level, exact at none.
  const std::vector<double> increments = spent_increments(t, alpha, spending);
  double p = std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < z.size(); ++j) {
    if (increments[j] > 0.0) p = std::min(p, upper_tail(z[j]) / (increments[j] / alpha));
  }
  // The exact levels Holm compares with, strictest first: the first one crossed bounds p.
  for (int i = std::max(1, family); i >= 1; --i) {
    const double level = alpha / i;
    if (!(p >= level)) break;  // already below: the union bound crossed this level
    const std::vector<double> thresholds = nominal_p_thresholds(t, level, spending);
    bool crossed = false;
    for (std::size_t j = 0; j < z.size() && !crossed; ++j)
      crossed = upper_tail(z[j]) <= thresholds[j];
    if (crossed) {
      p = just_below(level);
      break;
    }
  }
  return std::min(1.0, p);
}

}  // namespace mlregress::internal::stats
