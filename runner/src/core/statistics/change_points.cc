#include "statistics/change_points.h"

#include <algorithm>
#include <cmath>

#include "statistics/welch.h"

namespace mlregress::internal::stats {
namespace {

// Σ_{i<k} |v_i − v_k| over [begin, end).
double within(std::span<const double> v, std::size_t begin, std::size_t end) {
  double sum = 0.0;
  for (std::size_t i = begin; i < end; ++i) {
    for (std::size_t k = i + 1; k < end; ++k) sum += std::fabs(v[i] - v[k]);
  }
  return sum;
}

double energy_statistic(std::span<const double> v, std::size_t begin, std::size_t split,
                        std::size_t end) {
  const double m = static_cast<double>(split - begin), n = static_cast<double>(end - split);
  double between = 0.0;
  for (std::size_t i = begin; i < split; ++i) {
    for (std::size_t j = split; j < end; ++j) between += std::fabs(v[i] - v[j]);
  }
  const double e = 2.0 * between / (m * n) - within(v, begin, split) / (m * (m - 1.0) / 2.0) -
                   within(v, split, end) / (n * (n - 1.0) / 2.0);
  return m * n / (m + n) * e;
}

double mean(std::span<const double> v) {
  double sum = 0.0;
  for (double x : v) sum += x;
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

void split_segment(std::span<const double> v, std::size_t begin, std::size_t end,
                   const ChangePointOptions& options, std::vector<ChangePoint>& found) {
  const std::size_t least = std::max<std::size_t>(options.min_segment, 2);
  if (end - begin < 2 * least) return;
  std::size_t best = 0, candidates = 0;
  double best_q = -1.0;
  for (std::size_t split = begin + least; split + least <= end; ++split, ++candidates) {
    const double q = energy_statistic(v, begin, split, end);
    if (q > best_q) best_q = q, best = split;
  }
  const std::span<const double> before = v.subspan(begin, best - begin);
  const std::span<const double> after = v.subspan(best, end - best);
  // The split was chosen as the most different of `candidates`: its raw p-value is too small by
  // up to that factor (measured: 5% of 50-point noise series pass p < 0.001 raw).
  const double raw = welch_t_test(before, after).p_value;
  const double p = std::isnan(raw) ? raw : std::min(1.0, raw * static_cast<double>(candidates));
  ChangePoint point{best, mean(before), mean(after), 0.0, p};
  if (point.mean_before != 0.0) point.relative_change = point.mean_after / point.mean_before - 1.0;
  // Constant sides that differ: p is NaN (no spread) but the change is certain.
  const bool significant =
      p < options.max_p || (std::isnan(p) && point.mean_before != point.mean_after);
  if (!significant || std::fabs(point.relative_change) < options.min_magnitude) return;
  point.p_value = std::isnan(p) ? 0.0 : p;
  found.push_back(point);
  split_segment(v, begin, best, options, found);
  split_segment(v, best, end, options, found);
}

}  // namespace

std::vector<ChangePoint> detect_change_points(std::span<const double> series,
                                              const ChangePointOptions& options) {
  std::vector<ChangePoint> found;
  split_segment(series, 0, series.size(), options, found);
  std::sort(found.begin(), found.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  return found;
}

}  // namespace mlregress::internal::stats
