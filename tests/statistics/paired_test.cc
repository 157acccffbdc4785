// The paired t test against scipy.stats.ttest_rel, including its confidence_interval().
// Planted: analysing paired seeds as independent arms throws away the pairing.
#include "statistics/paired.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "statistics/welch.h"
#include "vector_names.h"

namespace mlregress::internal::stats {
namespace {

TEST(PairedT, MatchesScipy) {
  MaxError t_error("paired.t");
  MaxError p_error("paired.p");
  MaxError ci_error("paired.ci");
  for (const auto& c : vectors().at("paired")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const auto r =
        paired_t_test(numbers(c.at("x")), numbers(c.at("y")),
                      test_vectors::alternative(c.at("alternative")), number(c.at("level")));
    EXPECT_LE(t_error.add(r.statistic, number(c.at("t"))), kRelativeTolerance);
    EXPECT_EQ(r.df, number(c.at("df")));
    EXPECT_LE(p_error.add(r.p_value, number(c.at("p"))), kRelativeTolerance);
    EXPECT_LE(relative_error(r.estimate, number(c.at("estimate")), r.standard_error),
              kRelativeTolerance);
    EXPECT_LE(ci_error.add(r.confidence_interval.lower, number(c.at("ci_lower")), r.standard_error),
              kRelativeTolerance);
    EXPECT_LE(ci_error.add(r.confidence_interval.upper, number(c.at("ci_upper")), r.standard_error),
              kRelativeTolerance);
  }
}

TEST(PairedT, PlantedIndependentAnalysisOfPairedSeedsMissesTheShift) {
  // Seeds vary a lot (0.80 .. 0.95) but the candidate is 0.01 lower on every one of them.
  const std::vector<double> baseline{0.80, 0.95, 0.86, 0.91, 0.83, 0.89};
  const std::vector<double> candidate{0.791, 0.939, 0.851, 0.899, 0.821, 0.880};
  EXPECT_LT(paired_t_test(candidate, baseline, Alternative::kLess).p_value, 1e-4);
  EXPECT_GT(welch_t_test(candidate, baseline, Alternative::kLess).p_value, 0.3);
}

TEST(PairedT, RejectsUnequalSizes) {
  const std::vector<double> a{1, 2, 3};
  const std::vector<double> b{1, 2};
  EXPECT_THROW(paired_t_test(a, b), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
