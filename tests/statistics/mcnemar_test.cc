// McNemar's exact test against SciPy (scipy.stats.binomtest for the one-sided p-values, and
// statsmodels' two-sided definition written out with scipy.stats.binom.cdf; statsmodels is not
// installed on the build image) and against exact rational sums from generate_vectors.py.
// Planted: the chi-square approximation (with and without continuity correction) in place of
// the exact test, b and c swapped, a two-sided value that is not capped at 1.
#include "statistics/mcnemar.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "vector_names.h"

namespace mlregress::internal::stats {
namespace {

// SciPy 1.10's own binomial tails are off from the exact values by up to 4.2e-13 relative at
// n = 10^5 (generate_vectors.py measures it), so agreement with SciPy can be asked to 1e-12 only.
constexpr double kScipyTolerance = 1e-12;
// Against the correctly rounded exact values, n up to 10^5 and p down to 1e-301: Boost 1.74's
// ibeta is within 4e-16 (2 ulp); the tolerance leaves room for other Boost versions only.
constexpr double kExactTolerance = 4e-15;

McNemarResult run(const nlohmann::json& c) {
  return mcnemar_exact(c.at("b").get<std::int64_t>(), c.at("c").get<std::int64_t>());
}

TEST(McNemar, MatchesScipy) {
  MaxError worse("mcnemar.p_worse"), better("mcnemar.p_better"), two("mcnemar.p_two_sided");
  for (const auto& c : vectors().at("mcnemar")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const McNemarResult r = run(c);
    EXPECT_EQ(r.b, c.at("b").get<std::int64_t>());
    EXPECT_EQ(r.c, c.at("c").get<std::int64_t>());
    EXPECT_EQ(r.n, r.b + r.c);
    EXPECT_LE(worse.add(r.p_worse, number(c.at("p_worse"))), kScipyTolerance);
    EXPECT_LE(better.add(r.p_better, number(c.at("p_better"))), kScipyTolerance);
    EXPECT_LE(two.add(r.p_two_sided, number(c.at("p_two_sided"))), kScipyTolerance);
  }
}

TEST(McNemar, MatchesExactRationalSums) {
  MaxError error("mcnemar.exact");
  for (const auto& c : vectors().at("mcnemar")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const McNemarResult r = run(c);
    EXPECT_LE(error.add(r.p_worse, number(c.at("exact_p_worse"))), kExactTolerance);
    EXPECT_LE(error.add(r.p_better, number(c.at("exact_p_better"))), kExactTolerance);
    EXPECT_LE(error.add(r.p_two_sided, number(c.at("exact_p_two_sided"))), kExactTolerance);
  }
}

TEST(McNemar, MotivatingExample) {
  // 91.2% -> 88.7% on 1,000 examples: 40 flipped correct -> wrong, 15 wrong -> correct.
  const McNemarResult r = mcnemar_exact(40, 15);
  EXPECT_EQ(r.n, 55);
  EXPECT_NEAR(r.p_worse, 5.079235970626427e-4, 1e-15);
  EXPECT_LT(r.p_worse, 0.001);
  EXPECT_GT(r.p_better, 0.999);
}

// McNemar's chi-square statistic with 1 degree of freedom: P(chi2_1 > x) = erfc(sqrt(x / 2)).
double chi_square_p(std::int64_t b, std::int64_t c, bool continuity_correction) {
  const double diff = std::fabs(static_cast<double>(b - c)) - (continuity_correction ? 1.0 : 0.0);
  const double statistic = std::pow(std::max(diff, 0.0), 2) / static_cast<double>(b + c);
  return std::erfc(std::sqrt(statistic / 2.0));
}

TEST(McNemar, PlantedChiSquareApproximationDiffersAtSmallN) {
  // b = 5, c = 0: exact two-sided 0.0625. The approximation is 0.025 (falsely significant at
  // 0.05) without the continuity correction and 0.074 with it.
  const auto& cases = vectors().at("mcnemar");
  const auto it = std::find_if(cases.begin(), cases.end(),
                               [](const auto& c) { return c.at("name") == "b5_c0"; });
  ASSERT_NE(it, cases.end());
  const double reference = number(it->at("p_two_sided"));
  // The C++ approximations are SciPy's chi2.sf, so the planted values are the real mistake.
  EXPECT_NEAR(chi_square_p(5, 0, false), number(it->at("chi_square_p")), 1e-12);
  EXPECT_NEAR(chi_square_p(5, 0, true), number(it->at("chi_square_corrected_p")), 1e-12);
  EXPECT_DOUBLE_EQ(mcnemar_exact(5, 0).p_two_sided, reference);
  EXPECT_GT(relative_error(chi_square_p(5, 0, false), reference), 0.5);
  EXPECT_GT(relative_error(chi_square_p(5, 0, true), reference), 0.15);
  // In the far tail the approximation is off by orders of magnitude (b = 120, c = 0).
  EXPECT_GT(chi_square_p(120, 0, true) / mcnemar_exact(120, 0).p_two_sided, 1e8);
}

TEST(McNemar, SwappingBAndCSwapsTheOneSidedValues) {
  for (const auto& [b, c] :
       {std::pair<std::int64_t, std::int64_t>{40, 15}, {30, 5}, {7, 12}, {52000, 48000}}) {
    SCOPED_TRACE(std::to_string(b) + "," + std::to_string(c));
    const McNemarResult r = mcnemar_exact(b, c), swapped = mcnemar_exact(c, b);
    EXPECT_DOUBLE_EQ(swapped.p_worse, r.p_better);
    EXPECT_DOUBLE_EQ(swapped.p_better, r.p_worse);
    EXPECT_DOUBLE_EQ(swapped.p_two_sided, r.p_two_sided);
    EXPECT_NE(r.p_worse, r.p_better);
  }
}

TEST(McNemar, TwoSidedIsCappedAtOne) {
  // b = c = 10: P(X <= 10 | 20) = 0.588, doubled 1.18.
  const McNemarResult r = mcnemar_exact(10, 10);
  EXPECT_GT(2.0 * r.p_worse, 1.0);
  EXPECT_EQ(r.p_two_sided, 1.0);
  EXPECT_EQ(mcnemar_exact(3, 2).p_two_sided, 1.0);
}

TEST(McNemar, EdgeCases) {
  const McNemarResult none = mcnemar_exact(0, 0);
  EXPECT_EQ(none.n, 0);
  EXPECT_EQ(none.p_worse, 1.0);
  EXPECT_EQ(none.p_better, 1.0);
  EXPECT_EQ(none.p_two_sided, 1.0);
  // 2^-1100 is below the smallest double: 0, not NaN.
  EXPECT_EQ(mcnemar_exact(1100, 0).p_worse, 0.0);
  EXPECT_EQ(mcnemar_exact(1100, 0).p_better, 1.0);
  // The tails of one distribution add up to 1 + P(X = b).
  const McNemarResult r = mcnemar_exact(40, 15);
  EXPECT_NEAR(r.p_worse + r.p_better, 1.0 + binomial_half_sf(40, 55) - binomial_half_sf(41, 55),
              1e-15);
  EXPECT_EQ(binomial_half_sf(0, 10), 1.0);
  EXPECT_EQ(binomial_half_sf(11, 10), 0.0);
  EXPECT_EQ(binomial_half_cdf(-1, 10), 0.0);
  EXPECT_EQ(binomial_half_cdf(10, 10), 1.0);
  EXPECT_DOUBLE_EQ(binomial_half_cdf(0, 10), std::ldexp(1.0, -10));
}

TEST(McNemar, RejectsNegativeCounts) {
  EXPECT_THROW(mcnemar_exact(-1, 3), std::invalid_argument);
  EXPECT_THROW(mcnemar_exact(3, -1), std::invalid_argument);
  EXPECT_THROW(mcnemar_exact(std::numeric_limits<std::int64_t>::max(), 1), std::invalid_argument);
  EXPECT_THROW(binomial_half_sf(1, -1), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
