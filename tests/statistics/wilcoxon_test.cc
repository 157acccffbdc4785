// The Wilcoxon signed-rank test against scipy.stats.wilcoxon: exact p-values without ties
// (n = 1 .. 50), zeros dropped, and the tie-corrected normal approximation.
// Planted: ties fed to the exact distribution (SciPy 1.10's own "exact" answer), zeros ranked
// instead of dropped, and a two-sided p-value that is not twice the smaller tail.
#include "statistics/wilcoxon.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "vector_names.h"

namespace mlregress::internal::stats {
namespace {

TEST(Wilcoxon, ExactPValuesMatchScipy) {
  MaxError error("wilcoxon.exact.p");
  for (const auto& c : vectors().at("wilcoxon_exact")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const auto alt = test_vectors::alternative(c.at("alternative"));
    const auto r = wilcoxon_signed_rank(numbers(c.at("x")), numbers(c.at("y")), alt);
    EXPECT_EQ(r.method, WilcoxonMethod::kExact);
    EXPECT_FALSE(r.has_ties);
    EXPECT_EQ(r.r_plus, number(c.at("r_plus")));
    // SciPy's statistic: r_plus one-sided, min(r_plus, r_minus) two-sided.
    EXPECT_EQ(alt == Alternative::kTwoSided ? std::min(r.r_plus, r.r_minus) : r.r_plus,
              number(c.at("statistic")));
    if (c.contains("n_zero")) {
      EXPECT_EQ(r.n_zero, c.at("n_zero").get<std::size_t>());
    }
    EXPECT_LE(error.add(r.p_value, number(c.at("p"))), kRelativeTolerance);
  }
}

TEST(Wilcoxon, TiesAndLargeSamplesUseTheTieCorrectedNormalApproximation) {
  MaxError error("wilcoxon.approx.p");
  for (const auto& c : vectors().at("wilcoxon_approx")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const auto alt = test_vectors::alternative(c.at("alternative"));
    const auto r = wilcoxon_signed_rank(numbers(c.at("x")), numbers(c.at("y")), alt);
    EXPECT_EQ(r.method, WilcoxonMethod::kNormalApproximation);
    EXPECT_EQ(r.r_plus, number(c.at("r_plus")));
    // SciPy's z is of its statistic, min(r_plus, r_minus) when two-sided: -|z| there.
    const double z = alt == Alternative::kTwoSided ? -std::fabs(r.z) : r.z;
    EXPECT_LE(relative_error(z, number(c.at("z")), 1.0), kRelativeTolerance);
    EXPECT_LE(error.add(r.p_value, number(c.at("p"))), kRelativeTolerance);
  }
}

TEST(Wilcoxon, ExactDistributionIsTheSubsetSumCount) {
  for (std::size_t n : {0u, 1u, 2u, 5u, 10u, 50u, 63u}) {
    const auto counts = wilcoxon_rank_sum_counts(n);
    ASSERT_EQ(counts.size(), n * (n + 1) / 2 + 1);
    // 2^n patterns in all (for n = 63 the sum is 2^63, still exact in uint64).
    const auto total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
    EXPECT_EQ(total, std::uint64_t{1} << n) << n;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      ASSERT_EQ(counts[r], counts[counts.size() - 1 - r]) << "symmetry, n=" << n;
    }
  }
  // n = 4: rank sums 0..10 with counts 1 1 1 2 2 2 2 2 1 1 1.
  EXPECT_EQ(wilcoxon_rank_sum_counts(4),
            (std::vector<std::uint64_t>{1, 1, 1, 2, 2, 2, 2, 2, 1, 1, 1}));
  EXPECT_THROW(wilcoxon_rank_sum_counts(64), std::invalid_argument);
}

TEST(Wilcoxon, FewPairsCannotReachTheGateAlpha) {
  // All differences positive gives the smallest one-sided p-value, 2^-n: 1/32 at n = 5 and
  // 1/64 at n = 6 — above 0.01 — and 1/128 at n = 7.
  for (std::size_t n : {5u, 6u, 7u}) {
    std::vector<double> d(n);
    std::iota(d.begin(), d.end(), 1.0);
    EXPECT_DOUBLE_EQ(wilcoxon_signed_rank(d, Alternative::kGreater).p_value,
                     std::ldexp(1.0, -static_cast<int>(n)));
  }
  EXPECT_DOUBLE_EQ(wilcoxon_exact_sf(6, 21), 1.0 / 64);
  EXPECT_DOUBLE_EQ(wilcoxon_exact_cdf(6, 0), 1.0 / 64);
}

TEST(Wilcoxon, PlantedExactPValueWithTiesIsNotWhatIsReported) {
  // d = 1 2 2 3 -1.5 4 4 5: mid-ranks give r_plus = 33.0; SciPy 1.10's method="exact"
  // truncates the mid-rank sum and reports an "exact" p-value that assumes no ties.
  const auto& c = vectors().at("wilcoxon_planted_ties");
  const auto r = wilcoxon_signed_rank(numbers(c.at("d")), Alternative::kGreater);
  EXPECT_TRUE(r.has_ties);
  EXPECT_EQ(r.method, WilcoxonMethod::kNormalApproximation);
  EXPECT_LE(relative_error(r.p_value, number(c.at("approx_p"))), kRelativeTolerance);
  EXPECT_GT(relative_error(r.p_value, number(c.at("scipy_exact_with_ties_p"))), 0.03);
}

TEST(Wilcoxon, PlantedZeroDifferencesAreDroppedNotRanked) {
  // Two seeds reproduce the baseline exactly. Ranked as zeros (zero_method "pratt"/"zsplit"
  // style) they would take ranks 1 and 2 and change r_plus; "wilcox" drops them.
  const std::vector<double> d{0.0, 0.0, 0.3, 0.5, -0.1, 0.7, 0.9, 1.1};
  const auto r = wilcoxon_signed_rank(d, Alternative::kGreater);
  EXPECT_EQ(r.n_zero, 2u);
  EXPECT_EQ(r.n_used, 6u);
  EXPECT_EQ(r.method, WilcoxonMethod::kExact);
  EXPECT_EQ(r.r_plus, 20.0);  // ranks 2..6 of the six non-zero differences
  EXPECT_EQ(r.r_minus, 1.0);
  EXPECT_DOUBLE_EQ(r.p_value, wilcoxon_exact_sf(6, 20));  // 2/64
}

TEST(Wilcoxon, TwoSidedIsTwiceTheSmallerTail) {
  const std::vector<double> d{0.4, -0.2, 0.9, 1.3, 0.7, -0.05, 0.6, 1.1};
  const double less = wilcoxon_signed_rank(d, Alternative::kLess).p_value;
  const double greater = wilcoxon_signed_rank(d, Alternative::kGreater).p_value;
  EXPECT_DOUBLE_EQ(wilcoxon_signed_rank(d, Alternative::kTwoSided).p_value,
                   2 * std::min(less, greater));
  // The tails overlap at the observed value, so they sum to more than 1.
  EXPECT_GT(less + greater, 1.0);
}

TEST(Wilcoxon, AllZeroDifferencesAreNoEvidence) {
  const std::vector<double> same{0.5, 0.25, 0.125};
  const auto r = wilcoxon_signed_rank(same, same, Alternative::kLess);
  EXPECT_EQ(r.method, WilcoxonMethod::kNoData);
  EXPECT_EQ(r.p_value, 1.0);
  EXPECT_EQ(r.n_zero, 3u);
}

TEST(Wilcoxon, RejectsNonFiniteOrUnpairedInput) {
  const std::vector<double> a{1.0, 2.0};
  const std::vector<double> b{1.0};
  const std::vector<double> nan{1.0, std::nan("")};
  EXPECT_THROW(wilcoxon_signed_rank(a, b), std::invalid_argument);
  EXPECT_THROW(wilcoxon_signed_rank(nan), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
