// The inverse normal combination of block tests and its sequential p-value: the combined
// statistics of independent blocks are a Brownian motion at the information fractions, so the
// exact boundaries hold their level; the p-value is exact at the Holm levels and the union bound's
// elsewhere. The level is checked end to end, with t tests on simulated seeds, in
// tests/unit/sequential_seeds_test.cc.
#include "statistics/block_combination.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "statistics/group_sequential.h"
#include "tests/support/clopper_pearson.h"

namespace mlregress::internal::stats {
namespace {

const std::vector<double> kFractions = {12.0 / 52, 20.0 / 52, 28.0 / 52, 36.0 / 52, 44.0 / 52, 1.0};
const std::vector<int> kBlocks = {12, 8, 8, 8, 8, 8};

TEST(BlockCombination, BlockZIsTheUpperNormalQuantile) {
  EXPECT_NEAR(block_z(0.5), 0.0, 1e-12);
  EXPECT_NEAR(block_z(0.025), 1.959964, 1e-6);
  EXPECT_NEAR(block_z(0.975), -1.959964, 1e-6);
  EXPECT_EQ(block_z(0.0), 38.0);  // a block with no spread, worse on every seed
  EXPECT_EQ(block_z(1.0), -38.0);
  EXPECT_EQ(block_z(NAN), 0.0);
}

TEST(BlockCombination, CombinedZWeighsBlocksBySeeds) {
  EXPECT_NEAR(combined_z({2.0}, {12}), 2.0, 1e-12);
  // The same z in every block: the evidence adds up as sqrt of the seeds.
  EXPECT_NEAR(combined_z({1.0, 1.0}, {12, 8}), (std::sqrt(12.0) + std::sqrt(8.0)) / std::sqrt(20.0),
              1e-12);
  EXPECT_NEAR(combined_z({1.0, -1.0}, {8, 8}), 0.0, 1e-12);
  EXPECT_THROW(combined_z({1.0}, {12, 8}), std::invalid_argument);
  EXPECT_THROW(combined_z({1.0}, {0}), std::invalid_argument);
}

TEST(BlockCombination, TheFirstLookIsTheSpentShare) {
  const double alpha = 0.01;
  const double w1 = spent_increments(kFractions, alpha, SpendingFunction::kPocock)[0] / alpha;
  // Not crossed at alpha: the union bound's p / w1.
  const double z = 1.0;
  EXPECT_NEAR(crossing_p_value({z}, kFractions, alpha, 1, SpendingFunction::kPocock),
              std::min(1.0, 0.5 * std::erfc(z / std::sqrt(2.0)) / w1), 1e-12);
}

TEST(BlockCombination, ThePValueIsExactAtTheHolmLevels) {
  const double alpha = 0.01;
  const auto spending = SpendingFunction::kPocock;
  for (int family : {1, 2, 5}) {
    const double level = alpha / family;
    const std::vector<double> c = upper_boundaries(kFractions, level, spending);
    // Just over the third boundary, below the first two: crossed at this level, at the third look.
    const std::vector<double> over = {0.0, 0.5, c[2] + 1e-4};
    EXPECT_LT(crossing_p_value(over, kFractions, alpha, family, spending), level);
    const std::vector<double> under = {0.0, 0.5, c[2] - 1e-4};
    EXPECT_GE(crossing_p_value(under, kFractions, alpha, family, spending), level);
    // The union bound's p-value at the same point lies above the level: the exact boundary is
    // lower than the union bound's.
    const double w3 = spent_increments(kFractions, alpha, spending)[2] / alpha;
    EXPECT_GT(0.5 * std::erfc(over[2] / std::sqrt(2.0)) / w3, level);
  }
  EXPECT_THROW(crossing_p_value({}, kFractions, alpha, 1, spending), std::invalid_argument);
  EXPECT_THROW(crossing_p_value(std::vector<double>(7, 0.0), kFractions, alpha, 1, spending),
               std::invalid_argument);
}

// Independent standard normal block z values, combined: the chance of ever crossing the exact
// boundaries of level alpha is alpha (Monte Carlo), where the union bound's p-value crosses
// measurably less often (the alpha it leaves unspent).
TEST(BlockCombination, CombinedBlocksCrossTheExactBoundariesAtTheirLevel) {
  constexpr int kSequences = 200000;
  const double alpha = 0.01;
  std::mt19937_64 rng(29);
  std::normal_distribution<double> normal(0.0, 1.0);
  const std::vector<double> increments =
      spent_increments(kFractions, alpha, SpendingFunction::kPocock);
  int exact = 0, union_bound = 0;
  for (int s = 0; s < kSequences; ++s) {
    std::vector<double> zs, combined;
    std::vector<int> sizes;
    bool crossed_union = false;
    for (std::size_t k = 0; k < kBlocks.size(); ++k) {
      zs.push_back(normal(rng));
      sizes.push_back(kBlocks[k]);
      combined.push_back(combined_z(zs, sizes));
      crossed_union =
          crossed_union || 0.5 * std::erfc(combined.back() / std::sqrt(2.0)) < increments[k];
    }
    exact += crossing_p_value(combined, kFractions, alpha, 1, SpendingFunction::kPocock) < alpha;
    union_bound += crossed_union;
  }
  const auto exact_ci = test_support::clopper_pearson(exact, kSequences);
  const auto union_ci = test_support::clopper_pearson(union_bound, kSequences);
  std::cout << "crossed the exact boundaries " << 100.0 * exact / kSequences << "% ["
            << 100.0 * exact_ci.low << ", " << 100.0 * exact_ci.high << "], the union bound's "
            << 100.0 * union_bound / kSequences << "% [" << 100.0 * union_ci.low << ", "
            << 100.0 * union_ci.high << "] at alpha 1%\n";
  EXPECT_LE(exact_ci.low, alpha);
  EXPECT_GE(exact_ci.high, alpha);
  EXPECT_LT(union_ci.high, exact_ci.low);
}

}  // namespace
}  // namespace mlregress::internal::stats
