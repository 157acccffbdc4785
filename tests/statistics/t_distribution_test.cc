// Student's t tails and quantiles against SciPy. Planted: a normal tail in place of the t tail
// (what a z test would use) is far too small at the gate's seed counts.
#include "statistics/t_distribution.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "vector_names.h"

namespace mlregress::internal::stats {
namespace {

TEST(TDistribution, TailsMatchScipy) {
  MaxError sf_error("t.sf");
  MaxError cdf_error("t.cdf");
  for (const auto& c : vectors().at("t_tails")) {
    const double t = number(c.at("t"));
    const double df = number(c.at("df"));
    SCOPED_TRACE(::testing::Message() << "t=" << t << " df=" << df);
    EXPECT_LE(sf_error.add(t_sf(t, df), number(c.at("sf"))), kRelativeTolerance);
    EXPECT_LE(cdf_error.add(t_cdf(t, df), number(c.at("cdf"))), kRelativeTolerance);
  }
}

TEST(TDistribution, QuantilesMatchScipy) {
  MaxError error("t.ppf");
  for (const auto& c : vectors().at("t_quantiles")) {
    const double q = number(c.at("q"));
    const double df = number(c.at("df"));
    SCOPED_TRACE(::testing::Message() << "q=" << q << " df=" << df);
    // The median is 0; SciPy returns ~7e-17 there, Boost 0. The scale 1e-6 (far below every
    // other quantile in the file, the smallest being 1.29) keeps that from reading as an error.
    EXPECT_LE(error.add(t_quantile(q, df), number(c.at("ppf")), 1e-6), kRelativeTolerance);
  }
}

TEST(TDistribution, UpperTailIsAComplementNotOneMinusCdf) {
  // P(T > 35) at df 30 is about 1e-26; 1 - cdf would round it to 0.
  const double sf = t_sf(35.0, 30.0);
  EXPECT_GT(sf, 0.0);
  EXPECT_LT(sf, 1e-20);
  EXPECT_EQ(1.0 - t_cdf(35.0, 30.0), 0.0);
}

TEST(TDistribution, PValueSidesAndTwoSidedDoubling) {
  EXPECT_DOUBLE_EQ(t_p_value(2.0, 5.0, Alternative::kGreater), t_sf(2.0, 5.0));
  EXPECT_DOUBLE_EQ(t_p_value(2.0, 5.0, Alternative::kLess), t_cdf(2.0, 5.0));
  EXPECT_DOUBLE_EQ(t_p_value(-2.0, 5.0, Alternative::kTwoSided), 2.0 * t_sf(2.0, 5.0));
  EXPECT_EQ(t_p_value(0.0, 5.0, Alternative::kTwoSided), 1.0);
  EXPECT_TRUE(std::isnan(t_p_value(std::nan(""), 5.0, Alternative::kLess)));
}

TEST(TDistribution, PlantedNormalTailIsAntiConservativeAtFewSeeds) {
  // 3 + 3 seeds give df = 4: the t tail at 3.0 is 0.020, the normal one 0.0013 — a z test
  // would call this significant at alpha = 0.01.
  const double t_tail = t_sf(3.0, 4.0);
  const double normal_tail = 0.5 * std::erfc(3.0 / std::sqrt(2.0));
  EXPECT_GT(t_tail, 0.01);
  EXPECT_LT(normal_tail, 0.01);
}

TEST(TDistribution, RejectsMeaninglessArguments) {
  EXPECT_THROW(t_sf(1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(t_sf(1.0, std::nan("")), std::invalid_argument);
  EXPECT_THROW(t_quantile(1.0, 3.0), std::invalid_argument);
  EXPECT_THROW(t_confidence_interval(0.0, 1.0, 3.0, 1.0, Alternative::kTwoSided),
               std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
