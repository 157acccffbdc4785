// Holm's step-down adjustment against a textbook implementation in Python (statsmodels is not
// installed on the build image; generate_vectors.py cross-checks it against the literal
// procedure). Planted: Bonferroni, and Holm without the running maximum.
#include "statistics/holm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "vector_names.h"

namespace mlregress::internal::stats {
namespace {

TEST(Holm, MatchesTheTextbookStepDown) {
  MaxError error("holm.adjusted");
  for (const auto& c : vectors().at("holm")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const auto p = numbers(c.at("p"));
    const auto expected = numbers(c.at("adjusted"));
    const auto adjusted = holm_adjust(p);
    ASSERT_EQ(adjusted.size(), expected.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
      EXPECT_LE(error.add(adjusted[i], expected[i]), kRelativeTolerance) << i;
    }
    EXPECT_EQ(holm_reject(p, 0.01), c.at("reject_001").get<std::vector<bool>>());
    EXPECT_EQ(holm_reject(p, 0.05), c.at("reject_005").get<std::vector<bool>>());
  }
}

// Adjusted p-values without the running maximum: the planted mistake.
std::vector<double> holm_without_running_max(const std::vector<double>& p) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return p[a] < p[b]; });
  std::vector<double> out(p.size());
  for (std::size_t k = 0; k < p.size(); ++k) {
    out[order[k]] = std::min(1.0, static_cast<double>(p.size() - k) * p[order[k]]);
  }
  return out;
}

TEST(Holm, PlantedMissingRunningMaximumRejectsAfterTheStop) {
  // p = 0.01 0.04 0.03 0.005 → sorted 0.005 0.01 0.03 0.04, scaled 0.02 0.03 0.06 0.04.
  // The step-down stops at 0.03 (0.06 > 0.05), so 0.04 must not be rejected at 0.05 either.
  const std::vector<double> p{0.01, 0.04, 0.03, 0.005};
  const auto adjusted = holm_adjust(p);
  EXPECT_DOUBLE_EQ(adjusted[1], 0.06);
  EXPECT_EQ(holm_reject(p, 0.05), (std::vector<bool>{true, false, false, true}));
  EXPECT_DOUBLE_EQ(holm_without_running_max(p)[1], 0.04);  // would be rejected: wrong
}

TEST(Holm, RejectsMoreThanBonferroni) {
  // Three checks at 0.003, 0.004, 0.009: Bonferroni (x3) rejects only the first at 0.01;
  // Holm (x3, x2, x1: 0.009, 0.008, 0.009) rejects all three.
  const std::vector<double> p{0.003, 0.004, 0.009};
  EXPECT_EQ(holm_reject(p, 0.01), (std::vector<bool>{true, true, true}));
  EXPECT_GT(3 * 0.004, 0.01);
}

TEST(Holm, EdgeCases) {
  EXPECT_TRUE(holm_adjust(std::vector<double>{}).empty());
  EXPECT_EQ(holm_adjust(std::vector<double>{0.3}), std::vector<double>{0.3});
  const std::vector<double> nan{0.1, std::nan("")};
  EXPECT_THROW(holm_adjust(nan), std::invalid_argument);
  EXPECT_THROW(holm_adjust(std::vector<double>{1.5}), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
