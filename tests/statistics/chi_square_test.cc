// Chi-square quantiles against SciPy (scipy.stats.chi2.ppf, SciPy 1.17), and the interval of a
// standard deviation they give. Planted: the symmetric normal-theory interval sd
// ± 1.96·sd/√(2(n-1)), which at 8 seeds misses how far up the true spread may be.
#include "statistics/chi_square.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace mlregress::internal::stats {
namespace {

struct Reference {
  double q, df, ppf;
};

// python3 -c "from scipy.stats import chi2; print(repr(chi2.ppf(q, df)))"
constexpr Reference kScipy[] = {
    {0.025, 1, 0.0009820691171752555}, {0.975, 1, 5.023886187314888},
    {0.025, 7, 1.689869180677355},     {0.975, 7, 16.012764274629326},
    {0.5, 2, 1.386294361119891},       {0.95, 3, 7.814727903251179},
    {0.025, 19, 8.906516481987971},    {0.975, 19, 32.85232686172969},
    {0.001, 4, 0.09080403553897909},   {0.999, 50, 86.66081519040317},
    {0.5, 0.5, 0.0873476047057468},
};

TEST(ChiSquare, QuantilesMatchScipy) {
  for (const Reference& r : kScipy) {
    SCOPED_TRACE(::testing::Message() << "q=" << r.q << " df=" << r.df);
    EXPECT_NEAR(chi_square_quantile(r.q, r.df), r.ppf, 1e-10 * r.ppf);
  }
}

TEST(ChiSquare, BadArgumentsThrow) {
  EXPECT_THROW(chi_square_quantile(0.0, 3), std::invalid_argument);
  EXPECT_THROW(chi_square_quantile(1.0, 3), std::invalid_argument);
  EXPECT_THROW(chi_square_quantile(0.5, 0), std::invalid_argument);
  EXPECT_THROW(chi_square_quantile(0.5, std::nan("")), std::invalid_argument);
  EXPECT_THROW(sd_interval(1.0, 1), std::invalid_argument);
}

TEST(ChiSquare, SdIntervalAtEightSeedsIsWideAndLopsided) {
  const SdInterval i = sd_interval(1.0, 8);
  EXPECT_NEAR(i.lower, std::sqrt(7.0 / 16.012764274629326), 1e-9);  // 0.661
  EXPECT_NEAR(i.upper, std::sqrt(7.0 / 1.689869180677355), 1e-9);   // 2.035
  // The planted normal-theory interval is symmetric and stops at 1.52: it would call a true
  // spread of twice the estimate implausible, which 8 seeds cannot rule out.
  const double normal_upper = 1.0 + 1.96 / std::sqrt(2.0 * 7.0);
  EXPECT_LT(normal_upper, 1.6);
  EXPECT_GT(i.upper, 2.0);
  EXPECT_GT(i.upper - 1.0, 1.0 - i.lower);  // lopsided: further up than down
  // Scales with the estimate; an sd of 0 has the interval [0, 0].
  EXPECT_NEAR(sd_interval(0.5, 8).upper, 0.5 * i.upper, 1e-12);
  EXPECT_EQ(sd_interval(0.0, 8).upper, 0.0);
}

}  // namespace
}  // namespace mlregress::internal::stats
