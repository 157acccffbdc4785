// Summaries of a handful of per-seed values beyond mean ± sd: the mean's standard error and its
// t interval (what "0.87 ± 0.006" leaves the reader to work out), type-7 quantiles (numpy's
// default, used by latency percentiles), the trimmed mean and the interquartile mean (IQM: the
// mean of the middle half, which one diverged seed cannot drag), and a percentile bootstrap
// interval for any such statistic.
//
// The bootstrap is deterministic: its resampling indices come from the raw 64-bit words of
// std::mt19937_64 (whose output the standard fixes), never from a std:: distribution (whose
// algorithm it does not), so a seed gives the same interval under every standard library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mlregress::internal::stats {

/// A mean with its standard error and two-sided t interval at `level`.
struct MeanInterval {
  std::size_t n = 0;
  double mean = 0.0;
  double sd = 0.0;               ///< divisor n - 1
  double sem = 0.0;              ///< sd / sqrt(n)
  double low = 0.0, high = 0.0;  ///< mean ∓ t_{(1+level)/2, n-1} · sem
  double level = 0.95;
};

/// The t interval of the mean of `values` (scipy.stats.t.interval(level, n - 1, mean, sem)).
/// Fewer than 2 values: sem and interval NaN (the mean NaN when empty). A NaN or Inf value gives
/// NaN throughout, as summarize_samples() does. Throws std::invalid_argument for a level outside
/// (0, 1).
MeanInterval mean_interval(std::span<const double> values, double level = 0.95);

/// The same from a stored summary (n, mean, sd), for records that hold no samples.
MeanInterval mean_interval_from(std::size_t n, double mean, double sd, double level = 0.95);

/// The q-quantile by linear interpolation between order statistics (Hyndman–Fan type 7,
/// numpy.percentile's default): x_(h) + (h - floor h)(x_(floor h + 1) - x_(floor h)), h = (n-1)q.
/// Throws std::invalid_argument on an empty or non-finite sample or q outside [0, 1].
double quantile(std::span<const double> values, double q);

/// quantile(values, 0.5).
double median(std::span<const double> values);

/// The smallest value at or below which a share q of the values lie (the inverted empirical
/// distribution, Hyndman–Fan type 1, numpy's method="inverted_cdf"): for the seeds runs took, the
/// fewest seeds within which a share q of them stopped (q 0.95: the 95th percentile a budget per
/// run must allow). Throws std::invalid_argument on an empty sample or q outside (0, 1].
int inverted_cdf_quantile(std::vector<int> values, double q);

/// scipy.stats.trim_mean: sort, cut floor(proportion · n) values from each end, average the
/// rest. Throws std::invalid_argument on an empty or non-finite sample, a proportion outside
/// [0, 0.5), or one that would cut every value.
double trimmed_mean(std::span<const double> values, double proportion);

/// The interquartile mean, trimmed_mean(values, 0.25): at n = 8, the mean of the middle 4.
double interquartile_mean(std::span<const double> values);

struct BootstrapInterval {
  double estimate = 0.0;  ///< the statistic of the sample itself
  double low = 0.0, high = 0.0;
  double level = 0.95;
  int resamples = 0;
};

/// The percentile bootstrap interval of `statistic`: `resamples` samples of size n drawn with
/// replacement (index floor(u · n), u = (word >> 11) · 2^-53 of std::mt19937_64(seed)), and the
/// type-7 quantiles (1 ∓ level) / 2 of their statistics. Its coverage is not guaranteed at small
/// n (see seeded-tests.md, "Few seeds: robust summaries"). Throws std::invalid_argument on an empty
/// or non-finite sample, a level outside (0, 1) or fewer than 100 resamples.
BootstrapInterval bootstrap_interval(std::span<const double> values,
                                     double (*statistic)(std::span<const double>),
                                     double level = 0.95, int resamples = 2000,
                                     std::uint64_t seed = 0x6d6c72);

}  // namespace mlregress::internal::stats
