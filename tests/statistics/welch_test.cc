// Welch's t test against scipy.stats.ttest_ind(equal_var=False): statistic, Welch–Satterthwaite
// df, p-value for each alternative and the confidence interval of the mean difference.
// Planted: Student's pooled-variance t test, which differs on the unequal-variance vector.
#include "statistics/welch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "statistics/moments.h"
#include "vector_names.h"

namespace mlregress::internal::stats {
namespace {

const nlohmann::json& welch_case(const std::string& name) {
  for (const auto& c : vectors().at("welch")) {
    if (c.at("name") == name) return c;
  }
  throw std::runtime_error("no welch vector " + name);
}

TEST(Welch, MatchesScipy) {
  MaxError t_error("welch.t");
  MaxError df_error("welch.df");
  MaxError p_error("welch.p");
  MaxError ci_error("welch.ci");
  for (const auto& c : vectors().at("welch")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const auto x = numbers(c.at("x"));
    const auto y = numbers(c.at("y"));
    const auto r =
        welch_t_test(x, y, test_vectors::alternative(c.at("alternative")), number(c.at("level")));
    const double se = number(c.at("se"));
    EXPECT_LE(t_error.add(r.statistic, number(c.at("t"))), kRelativeTolerance);
    EXPECT_LE(df_error.add(r.df, number(c.at("df"))), kRelativeTolerance);
    EXPECT_LE(p_error.add(r.p_value, number(c.at("p"))), kRelativeTolerance);
    EXPECT_LE(relative_error(r.estimate, number(c.at("estimate")), se), kRelativeTolerance);
    EXPECT_LE(relative_error(r.standard_error, se), kRelativeTolerance);
    // Interval ends are compared on the scale of the standard error: an end near 0 is as
    // accurate as the others, only its relative error would look large.
    EXPECT_LE(ci_error.add(r.confidence_interval.lower, number(c.at("ci_lower")), se),
              kRelativeTolerance);
    EXPECT_LE(ci_error.add(r.confidence_interval.upper, number(c.at("ci_upper")), se),
              kRelativeTolerance);
    EXPECT_EQ(r.confidence_interval.level, number(c.at("level")));
  }
}

// Student's t test: the mistake. Variances pooled, df = nx + ny - 2.
TTestResult pooled_t_test(std::span<const double> x, std::span<const double> y) {
  const double nx = static_cast<double>(x.size());
  const double ny = static_cast<double>(y.size());
  const double pooled =
      ((nx - 1) * sample_variance(x) + (ny - 1) * sample_variance(y)) / (nx + ny - 2);
  TTestResult r;
  r.estimate = mean(x) - mean(y);
  r.standard_error = std::sqrt(pooled * (1 / nx + 1 / ny));
  r.statistic = r.estimate / r.standard_error;
  r.df = nx + ny - 2;
  r.p_value = t_p_value(r.statistic, r.df, Alternative::kTwoSided);
  return r;
}

TEST(Welch, PlantedPooledVarianceFailsTheUnequalVarianceVector) {
  // 4 noisy seeds (sd ~0.15) against 12 quiet ones (sd ~0.002), means 0.79 vs 0.80:
  // Welch: t = 0.25, df = 3.0, p = 0.82; pooled: df = 14, a standard error half the size.
  const auto& c = welch_case("unequal_variance_unequal_n");
  const auto x = numbers(c.at("x"));
  const auto y = numbers(c.at("y"));
  const auto welch = welch_t_test(x, y);
  const auto pooled = pooled_t_test(x, y);
  EXPECT_LE(relative_error(welch.p_value, number(c.at("p"))), kRelativeTolerance);
  EXPECT_LE(relative_error(welch.df, number(c.at("df"))), kRelativeTolerance);
  EXPECT_GT(relative_error(pooled.statistic, number(c.at("t"))), 0.5);
  EXPECT_GT(relative_error(pooled.df, number(c.at("df"))), 1.0);
  EXPECT_GT(relative_error(pooled.p_value, number(c.at("p"))), 0.01);
  // The two agree only where they should: equal sizes make the statistics equal.
  const std::vector<double> a{1.0, 2.0, 4.0, 7.0};
  const std::vector<double> b{2.0, 2.5, 2.9, 3.1};
  EXPECT_NEAR(welch_t_test(a, b).statistic, pooled_t_test(a, b).statistic, 1e-12);
}

TEST(Welch, OneSidedPValuesAreHalvesOfTheTwoSidedOne) {
  const std::vector<double> x{0.912, 0.905, 0.918, 0.909, 0.911};
  const std::vector<double> y{0.921, 0.917, 0.925, 0.919, 0.923};
  const auto two = welch_t_test(x, y, Alternative::kTwoSided);
  const auto less = welch_t_test(x, y, Alternative::kLess);
  const auto greater = welch_t_test(x, y, Alternative::kGreater);
  EXPECT_NEAR(less.p_value, two.p_value / 2, 1e-15);
  EXPECT_NEAR(greater.p_value, 1 - two.p_value / 2, 1e-15);
  EXPECT_TRUE(std::isinf(less.confidence_interval.lower));
  EXPECT_TRUE(std::isinf(greater.confidence_interval.upper));
  // Swapping the arms flips the sign and nothing else.
  const auto swapped = welch_t_test(y, x, Alternative::kGreater);
  EXPECT_DOUBLE_EQ(swapped.statistic, -less.statistic);
  EXPECT_DOUBLE_EQ(swapped.p_value, less.p_value);
}

TEST(Welch, ConstantSamplesGiveNoPValueInsteadOfAPass) {
  const std::vector<double> x{0.9, 0.9, 0.9};
  const std::vector<double> y{0.8, 0.8, 0.8};
  const auto r = welch_t_test(x, y, Alternative::kLess);
  EXPECT_TRUE(std::isinf(r.statistic));
  EXPECT_TRUE(std::isnan(r.p_value));
  EXPECT_TRUE(std::isnan(r.confidence_interval.lower));
  EXPECT_TRUE(std::isnan(welch_t_test(x, x).statistic));
}

TEST(Welch, RejectsTooFewOrNonFiniteSeeds) {
  const std::vector<double> ok{1.0, 2.0};
  const std::vector<double> one{1.0};
  const std::vector<double> nan{1.0, std::nan("")};
  const std::vector<double> inf{1.0, HUGE_VAL};
  EXPECT_THROW(welch_t_test(one, ok), std::invalid_argument);
  EXPECT_THROW(welch_t_test(ok, nan), std::invalid_argument);
  EXPECT_THROW(welch_t_test(inf, ok), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
