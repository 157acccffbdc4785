// Hedges' g and the probability of improvement against numbers computed from SciPy
// (special.gammaln for the correction, mannwhitneyu's U for the pairs).
// Planted: Cohen's d reported as g, the approximate correction, and ties not counted as 1/2.
#include "statistics/effect_size.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "vector_names.h"

namespace mlregress::internal::stats {
namespace {

TEST(EffectSize, MatchesScipy) {
  MaxError g_error("hedges_g");
  MaxError j_error("hedges_correction");
  MaxError p_error("probability_greater");
  for (const auto& c : vectors().at("effect_size")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const auto x = numbers(c.at("x"));
    const auto y = numbers(c.at("y"));
    const double df = static_cast<double>(x.size() + y.size()) - 2.0;
    EXPECT_LE(j_error.add(hedges_correction(df), number(c.at("correction"))), kRelativeTolerance);
    // g near 0 is compared on the scale of 1 standard deviation.
    EXPECT_LE(g_error.add(hedges_g(x, y), number(c.at("hedges_g")), 1e-3), kRelativeTolerance);
    EXPECT_LE(relative_error(cohens_d(x, y), number(c.at("cohens_d")), 1e-3), kRelativeTolerance);
    EXPECT_LE(p_error.add(probability_greater(x, y), number(c.at("probability_greater"))),
              kRelativeTolerance);
  }
}

TEST(EffectSize, PlantedCohensDOrApproximateCorrectionIsNotHedgesG) {
  // 3 + 3 seeds: J(4) = 0.7979; Cohen's d overstates g by a quarter, and the approximation
  // 1 - 3/(4 df - 1) = 0.8 is off by 2.6e-3 relative.
  const auto& c = vectors().at("effect_size").at(0);
  const auto x = numbers(c.at("x"));
  const auto y = numbers(c.at("y"));
  const double g = number(c.at("hedges_g"));
  EXPECT_NEAR(hedges_correction(4.0), 0.7978845608, 1e-10);
  EXPECT_GT(relative_error(cohens_d(x, y), g), 0.2);
  EXPECT_GT(relative_error((1 - 3.0 / 15.0) * cohens_d(x, y), g), 1e-3);
  EXPECT_LE(relative_error(hedges_g(x, y), g), kRelativeTolerance);
}

TEST(EffectSize, TiesCountHalf) {
  // x = 1 2 2 3, y = 2 2 4 1 2: 6 wins, 7 ties (x=1 with y=1, each x=2 with three y=2),
  // 7 losses → (6 + 3.5) / 20. Ties counted as losses would give 0.30, as wins 0.65.
  const auto& c = vectors().at("effect_size").at(1);
  const auto x = numbers(c.at("x"));
  const auto y = numbers(c.at("y"));
  EXPECT_DOUBLE_EQ(probability_greater(x, y), 9.5 / 20.0);
  EXPECT_DOUBLE_EQ(number(c.at("probability_greater")), 9.5 / 20.0);
  EXPECT_DOUBLE_EQ(probability_greater(x, y) + probability_greater(y, x), 1.0);
}

TEST(EffectSize, ProbabilityOfImprovementFollowsTheDirection) {
  const std::vector<double> candidate{0.10, 0.12, 0.11};  // a loss: lower is better
  const std::vector<double> baseline{0.13, 0.14, 0.12};
  // Pairs: candidate lower in 8 of 9, one tie (0.12 vs 0.12).
  EXPECT_DOUBLE_EQ(probability_of_improvement(candidate, baseline, Direction::LowerIsBetter),
                   8.5 / 9.0);
  EXPECT_DOUBLE_EQ(probability_of_improvement(candidate, baseline, Direction::HigherIsBetter),
                   0.5 / 9.0);
  EXPECT_THROW(probability_of_improvement(candidate, baseline, Direction::MustEqual),
               std::invalid_argument);
}

TEST(EffectSize, ConstantArmsAndBadInput) {
  const std::vector<double> a{1.0, 1.0};
  const std::vector<double> b{2.0, 2.0};
  EXPECT_TRUE(std::isinf(hedges_g(a, b)));
  EXPECT_LT(hedges_g(a, b), 0.0);
  EXPECT_TRUE(std::isnan(hedges_g(a, a)));
  EXPECT_THROW(hedges_correction(1.0), std::invalid_argument);
  const std::vector<double> nan{std::nan("")};
  EXPECT_THROW(probability_greater(a, nan), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
