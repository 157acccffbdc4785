#include "analysis/paired_rerun_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <random>
#include <vector>

#include "analysis/sequential_seeds.h"
#include "statistics/robust_summary.h"
#include "statistics/sequential_bound.h"

namespace mlregress::internal {
namespace {

constexpr std::uint64_t kDrawSeed = 0x7061697265647231ULL;

// A uniform in (0, 1) from the top 53 bits of a raw draw: the same on every standard library.
double open_uniform(std::mt19937_64& rng) {
  return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
}

// Standard normals by Box-Muller, two per pair of uniforms.
std::vector<double> standard_normals(std::size_t count) {
  std::mt19937_64 rng(kDrawSeed);
  std::vector<double> z;
  z.reserve(count + 1);
  while (z.size() < count) {
    const double radius = std::sqrt(-2.0 * std::log(open_uniform(rng)));
    const double angle = 2.0 * std::numbers::pi * open_uniform(rng);
    z.push_back(radius * std::cos(angle));
    z.push_back(radius * std::sin(angle));
  }
  z.resize(count);
  return z;
}

struct Reruns {
  double mean_seeds = 0.0;
  int p95_seeds = 0;         // the fewest seeds within which 95% of the reruns stopped
  double regressions = 0.0;  // share
};

// `runs` paired reruns of the baseline's first plan.cap seeds (`stored`, ordered by seed), each
// seed moved by sd * z + the effect's shift in the worse direction, judged by the gate's looks.
Reruns simulate(const SeedSamples& stored, const SequentialPlan& plan, Direction direction,
                double margin, double alpha, double effect, const std::vector<double>& z) {
  const double shift = direction == Direction::HigherIsBetter ? -effect : effect;
  const auto cap = static_cast<std::size_t>(plan.cap);
  const std::size_t runs = z.size() / cap;
  std::vector<int> seeds;
  double regressions = 0.0;
  SeedSamples candidate;
  candidate.seeds.assign(stored.seeds.begin(), stored.seeds.begin() + plan.cap);
  for (std::size_t run = 0; run < runs; ++run) {
    candidate.values.clear();
    for (std::size_t i = 0; i < cap; ++i) {
      candidate.values.push_back(stored.values[i] + shift +
                                 stored.paired_spread->sd * z[run * cap + i]);
    }
    const std::vector<SequentialLook> looks =
        look_sequentially("simulated", direction, margin, candidate, stored, plan, alpha);
    seeds.push_back(looks.back().seeds);
    regressions += looks.back().outcome == LookOutcome::kRegression ? 1.0 : 0.0;
  }
  const double total = std::accumulate(seeds.begin(), seeds.end(), 0.0);
  return {total / static_cast<double>(runs), stats::inverted_cdf_quantile(seeds, 0.95),
          regressions / static_cast<double>(runs)};
}

// The baseline's values ordered by seed: a rerun on the default seeds takes the first ones.
SeedSamples by_seed(const SeedSamples& baseline) {
  std::vector<std::size_t> order(baseline.seeds.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return baseline.seeds[a] < baseline.seeds[b]; });
  SeedSamples sorted;
  sorted.paired_spread = baseline.paired_spread;
  for (const std::size_t i : order) {
    sorted.seeds.push_back(baseline.seeds[i]);
    sorted.values.push_back(baseline.values[i]);
  }
  return sorted;
}

}  // namespace

std::optional<PairedRerunCost> paired_rerun_cost(const SeedSamples& baseline,
                                                 const SequentialPlan& plan, Direction direction,
                                                 double margin, double alpha, int runs) {
  const auto finite = [](double v) { return std::isfinite(v); };
  if (plan.block <= 0 || plan.cap < 2 || !(margin > 0.0) || runs < 1 ||
      direction == Direction::MustEqual || !usable_spread(baseline.paired_spread) ||
      baseline.values.size() != baseline.seeds.size() ||
      baseline.values.size() < static_cast<std::size_t>(plan.cap) ||
      !std::all_of(baseline.values.begin(), baseline.values.end(), finite)) {
    return std::nullopt;
  }
  const SeedSamples stored = by_seed(baseline);
  const std::vector<double> z =
      standard_normals(static_cast<std::size_t>(runs) * static_cast<std::size_t>(plan.cap));
  const Reruns unchanged = simulate(stored, plan, direction, margin, alpha, 0.0, z);
  const Reruns degraded = simulate(stored, plan, direction, margin, alpha, margin, z);
  PairedRerunCost cost;
  cost.sd = stored.paired_spread->sd;
  cost.pairs = stored.paired_spread->pairs;
  cost.mean_h0 = unchanged.mean_seeds;
  cost.mean_h1 = degraded.mean_seeds;
  cost.p95_h0 = unchanged.p95_seeds;
  cost.power_at_margin = degraded.regressions;
  cost.d = margin / cost.sd;
  const double level = alpha / std::max(1, plan.family);
  if (cost.power_at_margin > level && cost.power_at_margin < 1.0 && std::isfinite(cost.d)) {
    const stats::ExpectedSeedsBound bound =
        stats::wald_expected_seeds(level, 1.0 - cost.power_at_margin, cost.d);
    cost.bound_h0 = bound.h0;
    cost.bound_h1 = bound.h1;
  }
  return cost;
}

}  // namespace mlregress::internal
