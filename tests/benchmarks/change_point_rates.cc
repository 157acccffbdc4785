// What `history`'s change-point detection finds and misses, on synthetic series of 50 per-commit
// means with a known truth, 1,000 series per row: the share of series with a step of k noise
// standard deviations at commit 30 that get a change point within ±2 commits of it, the share
// of noise-only series that get any (false positives, with a 95% Clopper–Pearson upper bound),
// and a slow slide (1% per commit for ten commits). Prints a table; runner/docs/history.md
// quotes it.
//   build/tests/benchmarks/change_point_rates [--max-p P]
#include <fmt/format.h>

#include <boost/math/distributions/beta.hpp>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "statistics/change_points.h"

namespace {

using mlregress::internal::stats::ChangePointOptions;
using mlregress::internal::stats::detect_change_points;

constexpr int kSeries = 1000;
constexpr std::size_t kLength = 50, kStepAt = 30;

std::vector<double> series(double step_sd, std::mt19937_64& rng, double slide_per_commit = 0) {
  std::normal_distribution<double> noise(0.0, 0.01);  // 1% of a mean of 1
  std::vector<double> v(kLength);
  for (std::size_t i = 0; i < kLength; ++i) {
    double mean = 1.0 + (i >= kStepAt ? step_sd * 0.01 : 0.0);
    if (slide_per_commit > 0)
      mean = 1.0 + slide_per_commit * std::min<double>(10, i >= 20 ? i - 19 : 0);
    v[i] = mean + noise(rng);
  }
  return v;
}

double clopper_pearson_upper(int hits, int n) {
  if (hits == n) return 1.0;
  return boost::math::quantile(boost::math::beta_distribution<>(hits + 1, n - hits), 0.975);
}

}  // namespace

int main(int argc, char** argv) {
  ChangePointOptions options;
  if (argc == 3 && std::strcmp(argv[1], "--max-p") == 0) options.max_p = std::atof(argv[2]);
  std::mt19937_64 rng(20261203);
  fmt::print(
      "change points on {} series of {} commits each (noise sd 1% of the mean), max-p {}\n\n",
      kSeries, kLength, options.max_p);
  fmt::print("{:<34} {:>10} {:>12}\n", "series", "found", "95% CP upper");
  {
    int hits = 0;
    for (int s = 0; s < kSeries; ++s)
      hits += !detect_change_points(series(0, rng), options).empty();
    fmt::print("{:<34} {:>9.1f}% {:>11.1f}%   (false positives: any change point)\n", "noise only",
               100.0 * hits / kSeries, 100.0 * clopper_pearson_upper(hits, kSeries));
  }
  for (double k : {1.0, 1.5, 2.0, 3.0, 5.0}) {
    int hits = 0;
    for (int s = 0; s < kSeries; ++s) {
      for (const auto& c : detect_change_points(series(k, rng), options)) {
        if (c.index + 2 >= kStepAt && c.index <= kStepAt + 2) {
          ++hits;
          break;
        }
      }
    }
    fmt::print("{:<34} {:>9.1f}%\n", fmt::format("step of {} sd at commit 30", k),
               100.0 * hits / kSeries);
  }
  {
    int hits = 0;
    for (int s = 0; s < kSeries; ++s) {
      for (const auto& c : detect_change_points(series(0, rng, 0.01), options)) {
        if (c.index >= 20 && c.index <= 30 && c.relative_change > 0) {
          ++hits;
          break;
        }
      }
    }
    fmt::print("{:<34} {:>9.1f}%   (a change point inside the slide, upwards)\n",
               "slide: +1%/commit, commits 20-29", 100.0 * hits / kSeries);
  }
  return 0;
}
