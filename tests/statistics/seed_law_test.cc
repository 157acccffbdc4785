// The law of a sum of standardized seeds (statistics/seed_law.h) against SciPy's gamma
// (scipy.stats.gamma(j k).sf(j k + x sqrt(k)), k = 4 / skew^2) and the normal it must reduce to,
// and the tabulated law against the exact one.
#include "statistics/seed_law.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "statistics/normal_tail.h"

namespace mlregress::internal::stats {
namespace {

TEST(SeedLaw, SumsOfSkewedSeedsAreSciPysGammaTails) {
  struct Case {
    double skew;
    int seeds;
    double x, upper;
  };
  const Case cases[] = {
      {0.9, 2, 3.0, 0.0304228871747}, {0.9, 1, -1.0, 0.85343451411},
      {2.0, 1, 3.0, 0.0183156388887}, {0.5, 4, 2.0, 0.158076390975},
      {0.9, 2, -2.5, 0.985072054798},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message()
                 << "skew " << c.skew << ", " << c.seeds << " seeds, x " << c.x);
    EXPECT_NEAR(seed_sum_upper_tail(c.skew, c.seeds, c.x), c.upper, 1e-10);
    EXPECT_NEAR(seed_sum_lower_tail(c.skew, c.seeds, c.x), 1.0 - c.upper, 1e-10);
  }
}

TEST(SeedLaw, AtSkewZeroItIsTheNormal) {
  for (const int seeds : {1, 2, 8}) {
    for (const double x : {-3.0, 0.0, 1.5, 6.0}) {
      EXPECT_DOUBLE_EQ(seed_sum_upper_tail(0.0, seeds, x), upper_tail(x / std::sqrt(seeds)));
      EXPECT_DOUBLE_EQ(seed_sum_lower_tail(0.0, seeds, x), upper_tail(-x / std::sqrt(seeds)));
    }
  }
}

TEST(SeedLaw, ASkewedLawHasTheLongerTailOnTheRegressionSide) {
  // The same sd, a heavier right tail: the mean of 2 seeds 3 sds out is 3 times as likely at
  // skew 0.9 as for normal seeds (the XOR accuracy's real seeds: 1.16% against 0.33%).
  const double normal = seed_sum_upper_tail(0.0, 2, 3.0 * std::sqrt(2.0) * std::sqrt(2.0));
  const double skewed = seed_sum_upper_tail(0.9, 2, 3.0 * std::sqrt(2.0) * std::sqrt(2.0));
  EXPECT_GT(skewed, 3.0 * normal);
  // and the lighter left one: the law is bounded below at -sqrt(k) per seed.
  EXPECT_EQ(seed_sum_lower_tail(2.0, 1, -1.0), 0.0);
  EXPECT_LT(seed_sum_lower_tail(0.9, 2, -3.0), seed_sum_lower_tail(0.0, 2, -3.0));
}

TEST(SeedLaw, TheTableAgreesWithTheExactTails) {
  for (const double skew : {0.3, 0.9, 2.0}) {
    for (const int seeds : {1, 2, 10, 52}) {
      const SeedSumLaw law(skew, seeds);
      for (double x = -4.0; x <= 8.0; x += 0.37) {
        SCOPED_TRACE(::testing::Message() << "skew " << skew << ", " << seeds << " seeds, x " << x);
        const double upper = seed_sum_upper_tail(skew, seeds, x);
        const double lower = seed_sum_lower_tail(skew, seeds, x);
        EXPECT_NEAR(law.upper_tail(x), upper, 1e-4 * upper + 1e-15);
        EXPECT_NEAR(law.lower_tail(x), lower, 1e-4 * lower + 1e-15);
      }
    }
  }
  const SeedSumLaw normal(0.0, 4);
  EXPECT_DOUBLE_EQ(normal.upper_tail(1.0), upper_tail(0.5));
}

TEST(SeedLaw, SampleSkewnessIsSciPysUnbiasedOne) {
  // scipy.stats.skew(v, bias=False)
  const std::vector<double> v{0.1, 0.4, 0.35, 0.9, 0.2, 2.5, 0.3};
  EXPECT_NEAR(sample_skewness(v), 2.19989011317, 1e-9);
  std::vector<double> mirrored;
  for (const double x : v) mirrored.push_back(-x);
  EXPECT_NEAR(sample_skewness(mirrored), -2.19989011317, 1e-9);
  EXPECT_EQ(sample_skewness(std::vector<double>{1.0, 2.0}), 0.0);
  EXPECT_EQ(sample_skewness(std::vector<double>{3.0, 3.0, 3.0}), 0.0);
}

}  // namespace
}  // namespace mlregress::internal::stats
