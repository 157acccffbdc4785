#include "statistics/robust_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "statistics/moments.h"
#include "statistics/t_distribution.h"

namespace mlregress::internal::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void require_level(double level, const char* what) {
  if (!(level > 0.0 && level < 1.0)) {
    throw std::invalid_argument(std::string(what) + ": the level must lie in (0, 1)");
  }
}

std::vector<double> sorted_copy(std::span<const double> values) {
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

double sorted_quantile(const std::vector<double>& sorted, double q) {
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const auto lower = static_cast<std::size_t>(std::floor(h));
  if (lower + 1 >= sorted.size()) return sorted.back();
  return sorted[lower] + (h - static_cast<double>(lower)) * (sorted[lower + 1] - sorted[lower]);
}

}  // namespace

MeanInterval mean_interval_from(std::size_t n, double mean, double sd, double level) {
  require_level(level, "mean_interval");
  MeanInterval m{n, mean, sd, kNaN, kNaN, kNaN, level};
  if (n < 2 || !std::isfinite(mean) || !std::isfinite(sd)) return m;
  m.sem = sd / std::sqrt(static_cast<double>(n));
  const double half = t_quantile(0.5 + level / 2.0, static_cast<double>(n - 1)) * m.sem;
  m.low = mean - half;
  m.high = mean + half;
  return m;
}

MeanInterval mean_interval(std::span<const double> values, double level) {
  const SampleSummary s = summarize_samples(values);
  return mean_interval_from(s.n, s.mean, s.sd, level);
}

double quantile(std::span<const double> values, double q) {
  require_finite_sample(values, 1, "values");
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("quantile: q must lie in [0, 1]");
  return sorted_quantile(sorted_copy(values), q);
}

double median(std::span<const double> values) { return quantile(values, 0.5); }

int inverted_cdf_quantile(std::vector<int> values, double q) {
  if (values.empty() || !(q > 0.0 && q <= 1.0)) {
    throw std::invalid_argument("inverted_cdf_quantile: needs values and q in (0, 1]");
  }
  std::sort(values.begin(), values.end());
  // The first order statistic whose rank reaches q n (the slack keeps 0.95 * 100 at 95).
  const auto rank =
      static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size()) - 1e-9));
  return values[std::max<std::size_t>(rank, 1) - 1];
}

double trimmed_mean(std::span<const double> values, double proportion) {
  require_finite_sample(values, 1, "values");
  if (!(proportion >= 0.0 && proportion < 0.5)) {
    throw std::invalid_argument("trimmed_mean: the proportion must lie in [0, 0.5)");
  }
  const std::vector<double> sorted = sorted_copy(values);
  const auto cut =
      static_cast<std::size_t>(std::floor(proportion * static_cast<double>(sorted.size())));
  if (2 * cut >= sorted.size()) {
    throw std::invalid_argument("trimmed_mean: the proportion cuts every value");
  }
  double sum = 0.0;
  for (std::size_t i = cut; i < sorted.size() - cut; ++i) sum += sorted[i];
  return sum / static_cast<double>(sorted.size() - 2 * cut);
}

double interquartile_mean(std::span<const double> values) { return trimmed_mean(values, 0.25); }

BootstrapInterval bootstrap_interval(std::span<const double> values,
                                     double (*statistic)(std::span<const double>), double level,
                                     int resamples, std::uint64_t seed) {
  require_finite_sample(values, 1, "values");
  require_level(level, "bootstrap_interval");
  if (resamples < 100) throw std::invalid_argument("bootstrap_interval: fewer than 100 resamples");
  std::mt19937_64 engine(seed);
  const std::size_t n = values.size();
  std::vector<double> resample(n), statistics;
  statistics.reserve(static_cast<std::size_t>(resamples));
  for (int r = 0; r < resamples; ++r) {
    for (double& value : resample) {
      const double u = static_cast<double>(engine() >> 11) * 0x1.0p-53;  // [0, 1)
      value = values[std::min(n - 1, static_cast<std::size_t>(u * static_cast<double>(n)))];
    }
    statistics.push_back(statistic(resample));
  }
  std::sort(statistics.begin(), statistics.end());
  BootstrapInterval interval;
  interval.estimate = statistic(values);
  interval.low = sorted_quantile(statistics, (1.0 - level) / 2.0);
  interval.high = sorted_quantile(statistics, (1.0 + level) / 2.0);
  interval.level = level;
  interval.resamples = resamples;
  return interval;
}

}  // namespace mlregress::internal::stats
