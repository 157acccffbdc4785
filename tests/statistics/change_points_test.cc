// Change-point detection on synthetic series with known steps: a step is found where it is, a
// noise-only series gives none at the rate the threshold promises, a slow slide is found as a
// change, two steps are both found.
#include "statistics/change_points.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace mlregress::internal::stats {
namespace {

std::vector<double> noise(std::size_t n, double mean, double sd, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(mean, sd);
  std::vector<double> v(n);
  for (double& x : v) x = normal(rng);
  return v;
}

TEST(ChangePointsTest, AStepIsFoundWhereItIs) {
  std::vector<double> series = noise(30, 1.0, 0.01, 1);
  const std::vector<double> after = noise(20, 1.05, 0.01, 2);  // +5% at index 30
  series.insert(series.end(), after.begin(), after.end());
  const std::vector<ChangePoint> found = detect_change_points(series);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 30u);
  EXPECT_NEAR(found[0].relative_change, 0.05, 0.01);
  EXPECT_LT(found[0].p_value, 1e-6);
}

TEST(ChangePointsTest, TwoStepsAreBothFound) {
  std::vector<double> series = noise(20, 1.0, 0.01, 3);
  for (double x : noise(20, 1.1, 0.01, 4)) series.push_back(x);
  for (double x : noise(20, 0.95, 0.01, 5)) series.push_back(x);
  const std::vector<ChangePoint> found = detect_change_points(series);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].index, 20u);
  EXPECT_EQ(found[1].index, 40u);
}

TEST(ChangePointsTest, NoiseGivesNoChangePointAtTheDocumentedRate) {
  // 500 series of 50 noise points: with the p-value adjusted for the 44 splits tried, a change
  // at p < 0.001 by chance must stay rare: at most 1% (5 series); the raw p-value gave 26.
  std::size_t with_change = 0;
  for (std::uint64_t seed = 0; seed < 500; ++seed) {
    with_change += !detect_change_points(noise(50, 1.0, 0.02, 1000 + seed)).empty();
  }
  EXPECT_LE(with_change, 5u) << with_change << " of 500 noise series had a change point";
  RecordProperty("noise_series_with_a_change_point", static_cast<int>(with_change));
}

TEST(ChangePointsTest, ASlowSlideIsFoundAsAChangeInTheRightDirection) {
  // 1% worse per commit for ten commits, between two flat stretches ("boiling frog").
  std::vector<double> series = noise(20, 1.0, 0.005, 7);
  for (int i = 1; i <= 10; ++i) series.push_back(1.0 + 0.01 * i);
  for (double x : noise(20, 1.1, 0.005, 8)) series.push_back(x);
  const std::vector<ChangePoint> found = detect_change_points(series);
  ASSERT_FALSE(found.empty());
  EXPECT_GT(found[0].relative_change, 0.0);
  EXPECT_GE(found[0].index, 20u);
  EXPECT_LE(found.back().index, 30u);
}

TEST(ChangePointsTest, ASmallChangeBelowTheMagnitudeIsNotReported) {
  std::vector<double> series = noise(30, 1.0, 0.001, 9);
  for (double x : noise(30, 1.004, 0.001, 10)) series.push_back(x);  // +0.4%, significant
  EXPECT_EQ(detect_change_points(series).size(), 1u);
  EXPECT_TRUE(detect_change_points(series, {.min_magnitude = 0.01}).empty());
  // Constant sides that differ: no spread, a certain change.
  const std::vector<double> constant = {1, 1, 1, 1, 2, 2, 2, 2};
  ASSERT_EQ(detect_change_points(constant).size(), 1u);
  EXPECT_EQ(detect_change_points(constant)[0].index, 4u);
  EXPECT_TRUE(detect_change_points(std::vector<double>{1, 2, 3}).empty());  // too short
}

// The energy statistic as written in the paper, O(n²) per split: the reference the O(n²)-per-
// segment running sums must agree with.
double naive_energy(const std::vector<double>& v, std::size_t split) {
  const double m = static_cast<double>(split), n = static_cast<double>(v.size() - split);
  double between = 0.0, before = 0.0, after = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    for (std::size_t k = i + 1; k < v.size(); ++k) {
      const double d = std::fabs(v[i] - v[k]);
      (k < split ? before : i >= split ? after : between) += d;
    }
  }
  return m * n / (m + n) *
         (2.0 * between / (m * n) - before / (m * (m - 1.0) / 2.0) - after / (n * (n - 1.0) / 2.0));
}

TEST(ChangePointsTest, TheSplitIsTheOneTheNaiveEnergyStatisticPicks) {
  // Steps of every size at every place, and noise: the first change point found (the split of
  // the whole series) is the maximum of the statistic computed term by term.
  int compared = 0;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const std::size_t n = 12 + seed % 40, at = 3 + seed % (n - 6);
    std::vector<double> series = noise(n, 1.0, 0.01, 100 + seed);
    for (std::size_t i = at; i < n; ++i) series[i] += 0.002 * static_cast<double>(seed % 20);
    std::size_t best = 0;
    double best_q = -1.0;
    for (std::size_t split = 3; split + 3 <= n; ++split) {
      if (const double q = naive_energy(series, split); q > best_q) best_q = q, best = split;
    }
    const std::vector<ChangePoint> found = detect_change_points(series, {.max_p = 0.5});
    if (found.empty()) continue;  // the best split was not significant even at 0.5
    ++compared;
    // Of the splits found, the first one made is the best of the whole series.
    bool has_best = false;
    for (const ChangePoint& c : found) has_best = has_best || c.index == best;
    EXPECT_TRUE(has_best) << "seed " << seed << ": naive best split " << best;
  }
  EXPECT_GE(compared, 40);
}

}  // namespace
}  // namespace mlregress::internal::stats
