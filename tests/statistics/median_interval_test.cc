// The order-statistic interval for the median. Exact coverages are sums of binomial
// coefficients over 2^n, written out here by hand. Planted: an off-by-one in the binomial tail
// (P(B <= k) instead of P(B <= k - 1)), which picks a narrower interval than the level allows,
// and a level that small samples cannot reach reported as if it were reached.
#include "statistics/median_interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace mlregress::internal::stats {
namespace {

std::vector<double> one_to(int n) {
  std::vector<double> values;
  for (int i = n; i >= 1; --i) values.push_back(i);  // unsorted on purpose
  return values;
}

TEST(MedianInterval, TenValuesGiveRanksTwoAndNine) {
  // P(B <= 1) = 11/1024, so [x_(2), x_(9)] covers 1 - 22/1024; [x_(3), x_(8)] only 1 - 112/1024.
  const MedianInterval ci = median_interval(one_to(10), 0.95);
  EXPECT_EQ(ci.low_rank, 2u);
  EXPECT_EQ(ci.high_rank, 9u);
  EXPECT_EQ(ci.low, 2.0);
  EXPECT_EQ(ci.high, 9.0);
  EXPECT_NEAR(ci.coverage, 1.0 - 22.0 / 1024.0, 1e-12);
  EXPECT_EQ(ci.median, 5.5);
}

TEST(MedianInterval, TwentyValuesGiveRanksSixAndFifteen) {
  // P(B <= 5) = (1 + 20 + 190 + 1140 + 4845 + 15504) / 2^20 = 21700 / 1048576.
  const MedianInterval ci = median_interval(one_to(20), 0.95);
  EXPECT_EQ(ci.low_rank, 6u);
  EXPECT_EQ(ci.high_rank, 15u);
  EXPECT_NEAR(ci.coverage, 1.0 - 2.0 * 21700.0 / 1048576.0, 1e-12);
}

TEST(MedianInterval, FiveValuesCannotReachNinetyFivePercentAndSaySo) {
  const MedianInterval ci = median_interval(one_to(5), 0.95);
  EXPECT_EQ(ci.low, 1.0);
  EXPECT_EQ(ci.high, 5.0);
  EXPECT_NEAR(ci.coverage, 1.0 - 2.0 / 32.0, 1e-12);  // 93.75%, below the level asked for
  EXPECT_EQ(ci.median, 3.0);
}

TEST(MedianInterval, AnOutlierMovesNeitherTheMedianNorTheInterval) {
  std::vector<double> values = {10, 11, 9, 10.5, 9.5, 10.2, 9.8, 10.1, 9.9, 1000};
  const MedianInterval ci = median_interval(values, 0.95);
  EXPECT_DOUBLE_EQ(ci.median, 10.05);
  EXPECT_EQ(ci.high, 11.0);  // x_(9): the outlier is x_(10)
  EXPECT_EQ(ci.low, 9.5);
}

TEST(MedianInterval, RejectsWhatHasNoMedian) {
  EXPECT_THROW(median_interval(std::vector<double>{}), std::invalid_argument);
  EXPECT_THROW(median_interval(std::vector<double>{1.0, std::numeric_limits<double>::quiet_NaN()}),
               std::invalid_argument);
  EXPECT_THROW(median_interval(one_to(10), 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
