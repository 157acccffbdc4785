#include "statistics/t_sequential_boundaries.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <tuple>

#include "statistics/t_distribution.h"

namespace mlregress::internal::stats {
namespace {

// Any fixed seed: the boundaries of a design must not change between runs.
constexpr std::uint64_t kGeneratorSeed = 20261205;
// A look whose share is fewer crossings than this among the simulated paths (a share below
// 5·10⁻⁴ of 400,000) is not placed by the simulation: its Monte Carlo error would be 7% or more.
constexpr std::size_t kFewestResolvedCrossings = 200;

void check(const std::vector<int>& looks, double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) {
    throw std::invalid_argument(fmt::format("alpha must be in (0, 1), not {}", alpha));
  }
  if (looks.empty() || looks.front() < 2 ||
      std::adjacent_find(looks.begin(), looks.end(), std::greater_equal<>()) != looks.end()) {
    throw std::invalid_argument(
        "t boundaries need looks at strictly increasing sample sizes, the first at least 2");
  }
}

// The t statistic of every simulated sequence at every look: t[k][path].
std::vector<std::vector<double>> simulate_statistics(const std::vector<int>& looks) {
  std::mt19937_64 rng(kGeneratorSeed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::chi_squared_distribution<double>> within;
  int previous = 0;
  for (int n : looks) {
    within.emplace_back(std::max(1, n - previous - 1));
    previous = n;
  }
  std::vector<std::vector<double>> t(looks.size(), std::vector<double>(kTBoundaryPaths));
  for (int path = 0; path < kTBoundaryPaths; ++path) {
    // Running sum and sum of squares about 0 of the values so far, from each block's sum (normal,
    // variance m) and its sum of squares about its own mean (chi-squared, m - 1 df).
    double sum = 0.0, squares = 0.0;
    int n = 0;
    for (std::size_t k = 0; k < looks.size(); ++k) {
      const int m = looks[k] - n;
      const double block_sum = std::sqrt(static_cast<double>(m)) * normal(rng);
      const double block_within = m > 1 ? within[k](rng) : 0.0;
      sum += block_sum;
      squares += block_within + block_sum * block_sum / m;
      n = looks[k];
      const double mean = sum / n;
      const double variance = (squares - n * mean * mean) / (n - 1);
      t[k][static_cast<std::size_t>(path)] =
          variance > 0.0 ? mean * std::sqrt(n / variance) : std::numeric_limits<double>::infinity();
    }
  }
  return t;
}

std::vector<double> compute(const std::vector<int>& looks, double alpha,
                            SpendingFunction spending) {
  const std::vector<std::vector<double>> t = simulate_statistics(looks);
  std::vector<char> crossed(kTBoundaryPaths, 0);
  std::vector<double> thresholds;
  double spent_before = 0.0, previous_fraction = 0.0;
  for (std::size_t k = 0; k < looks.size(); ++k) {
    const double fraction = static_cast<double>(looks[k]) / looks.back();
    const double spent = alpha_spent(spending, alpha, fraction);
    const auto crossings = static_cast<std::size_t>(
        std::llround((spent - spent_before) * static_cast<double>(kTBoundaryPaths)));
    spent_before = spent;
    std::vector<double> alive;
    alive.reserve(kTBoundaryPaths);
    for (int path = 0; path < kTBoundaryPaths; ++path) {
      if (!crossed[static_cast<std::size_t>(path)])
        alive.push_back(t[k][static_cast<std::size_t>(path)]);
    }
    const double df = looks[k] - 1;
    double c = std::numeric_limits<double>::infinity();
    if (crossings < kFewestResolvedCrossings || crossings >= alive.size()) {
      // Too small a share for the simulation to place the boundary (O'Brien–Fleming-type at an
      // early look): the look's t test at its share itself, exact on its own and, as the union
      // bound, never more than its share jointly.
      const double share = spent - (k == 0 ? 0.0 : alpha_spent(spending, alpha, previous_fraction));
      if (share > 0.0) c = t_upper_quantile(std::min(share, 0.5), df);
    } else {
      // c_k halfway between the last statistic that crosses and the first that does not.
      std::nth_element(alive.begin(), alive.begin() + static_cast<std::ptrdiff_t>(crossings - 1),
                       alive.end(), std::greater<>());
      const double last_in = alive[crossings - 1];
      const double first_out =
          *std::max_element(alive.begin() + static_cast<std::ptrdiff_t>(crossings), alive.end());
      c = 0.5 * (last_in + first_out);
    }
    previous_fraction = fraction;
    for (int path = 0; path < kTBoundaryPaths; ++path) {
      if (t[k][static_cast<std::size_t>(path)] > c) crossed[static_cast<std::size_t>(path)] = 1;
    }
    thresholds.push_back(std::isfinite(c) ? t_sf(c, df) : 0.0);
  }
  return thresholds;
}

}  // namespace

std::vector<double> t_nominal_p_thresholds(const std::vector<int>& looks, double alpha,
                                           SpendingFunction spending) {
  check(looks, alpha);
  using Key = std::tuple<std::vector<int>, double, SpendingFunction>;
  static std::mutex mutex;
  static std::map<Key, std::vector<double>> cache;
  const Key key{looks, alpha, spending};
  {
    const std::lock_guard lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  std::vector<double> thresholds = compute(looks, alpha, spending);
  const std::lock_guard lock(mutex);
  return cache.emplace(key, std::move(thresholds)).first->second;
}

}  // namespace mlregress::internal::stats
