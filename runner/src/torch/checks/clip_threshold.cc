#include "mlregress/checks/clip_threshold.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "mlregress/checks/gradient_norm_monitor.h"
#include "mlregress/ml_test.h"

namespace mlregress::checks {

namespace {

void validate(const ClipSuggestionOptions& o) {
  if (!(o.quantile > 0.0 && o.quantile <= 1.0) || !(o.headroom > 0.0) || !(o.spike_factor > 0.0) ||
      o.skip_steps < 0 || o.min_healthy_steps < 1) {
    throw std::invalid_argument(fmt::format(
        "suggest_clip_threshold: needs quantile in (0, 1], headroom > 0, spike_factor > 0, "
        "skip_steps >= 0 and min_healthy_steps >= 1; got {:g}, {:g}, {:g}, {}, {}",
        o.quantile, o.headroom, o.spike_factor, o.skip_steps, o.min_healthy_steps));
  }
}

// Linear interpolation between the order statistics of a sorted sample (numpy's default).
double quantile_of_sorted(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

}  // namespace

std::optional<ClipSuggestion> suggest_clip_threshold(const std::vector<double>& unclipped_norms,
                                                     const ClipSuggestionOptions& options) {
  validate(options);
  detail::RunningMedian running;
  std::vector<double> healthy;
  ClipSuggestion s;
  for (std::size_t step = 0; step < unclipped_norms.size(); ++step) {
    const double norm = unclipped_norms[step];
    const bool finite = std::isfinite(norm);
    if (static_cast<std::int64_t>(step) >= options.skip_steps) {
      const double median = running.median();  // NaN before the first finite norm
      const bool spike = finite && median > 0.0 && norm > options.spike_factor * median;
      if (finite && !spike) {
        healthy.push_back(norm);
      } else {
        ++s.excluded_steps;
      }
    }
    if (finite) running.add(norm);
  }
  s.healthy_steps = static_cast<std::int64_t>(healthy.size());
  if (s.healthy_steps < options.min_healthy_steps) return std::nullopt;
  std::sort(healthy.begin(), healthy.end());
  s.quantile_norm = quantile_of_sorted(healthy, options.quantile);
  s.median_norm = quantile_of_sorted(healthy, 0.5);
  s.threshold = s.quantile_norm * options.headroom;
  s.rule = fmt::format(
      "p{:g} of {} healthy steps x {:g} (skipped {}, excluded {})", 100.0 * options.quantile,
      s.healthy_steps, options.headroom,
      std::min<std::int64_t>(options.skip_steps, static_cast<std::int64_t>(unclipped_norms.size())),
      s.excluded_steps);
  return s;
}

void record_suggested_clip_threshold(std::string_view name, const ClipSuggestion& suggestion,
                                     std::optional<Band> band) {
  const std::string key = fmt::format("{}.suggested_clip_norm", name);
  if (band) {
    MlTest::record(key, suggestion.threshold, Direction::LowerIsBetter, *band);
    return;
  }
  MlTest::record_property(key, suggestion.threshold);
  MlTest::record_property(fmt::format("{}.suggested_clip_rule", name),
                          std::string_view(suggestion.rule));
}

}  // namespace mlregress::checks
