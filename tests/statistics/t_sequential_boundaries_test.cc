// Exact t boundaries for paired looks: computed once per design by simulation with a fixed seed,
// checked here by a second, independent simulation (other generator seed, every value drawn, the
// t statistic computed from the values as paired_t_test would): the chance of ever crossing is
// the spent error within the Monte Carlo error, where the z boundaries used as nominal t p-values
// (the planted approximation they replace) cross measurably more often.
#include "statistics/t_sequential_boundaries.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "statistics/group_sequential.h"
#include "statistics/t_distribution.h"
#include "tests/support/clopper_pearson.h"

namespace mlregress::internal::stats {
namespace {

// The share of `sequences` null sequences of standard normal values (looked at after looks[k]
// values, one-sided t test at the nominal p thresholds[k]) that cross at some look.
double crossing_rate(const std::vector<int>& looks, const std::vector<double>& thresholds,
                     int sequences, std::uint64_t seed) {
  std::vector<double> critical;
  for (std::size_t k = 0; k < looks.size(); ++k) {
    critical.push_back(thresholds[k] > 0.0 ? t_upper_quantile(thresholds[k], looks[k] - 1)
                                           : INFINITY);
  }
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  int crossed = 0;
  std::vector<double> values(static_cast<std::size_t>(looks.back()));
  for (int s = 0; s < sequences; ++s) {
    for (double& v : values) v = normal(rng);
    double sum = 0.0;
    std::size_t n = 0;
    for (std::size_t k = 0; k < looks.size(); ++k) {
      for (; n < static_cast<std::size_t>(looks[k]); ++n) sum += values[n];
      const double mean = sum / static_cast<double>(n);
      double squares = 0.0;
      for (std::size_t i = 0; i < n; ++i) squares += (values[i] - mean) * (values[i] - mean);
      const double t =
          mean / std::sqrt(squares / static_cast<double>(n - 1) / static_cast<double>(n));
      if (t >= critical[k]) {
        ++crossed;
        break;
      }
    }
  }
  return static_cast<double>(crossed) / sequences;
}

std::vector<double> fractions(const std::vector<int>& looks) {
  std::vector<double> t;
  for (int n : looks) t.push_back(static_cast<double>(n) / looks.back());
  return t;
}

TEST(TSequentialBoundaries, TheFirstLookSpendsItsShareExactlyAndLaterLooksMoreThanTheUnionBound) {
  const std::vector<int> looks = {12, 20, 28, 36, 44, 52};
  const std::vector<double> p = t_nominal_p_thresholds(looks, 0.025, SpendingFunction::kPocock);
  ASSERT_EQ(p.size(), looks.size());
  const std::vector<double> increments =
      spent_increments(fractions(looks), 0.025, SpendingFunction::kPocock);
  fmt::print("looks 12..52, Pocock-type 2.5%: t thresholds");
  for (double x : p) fmt::print(" {:.5f}", x);
  fmt::print("\n");
  // The first look is a single t test: its threshold is its share (Monte Carlo error ~1.5%).
  EXPECT_NEAR(p[0] / increments[0], 1.0, 0.05);
  for (std::size_t k = 1; k < p.size(); ++k) EXPECT_GT(p[k], increments[k]);
  // Deterministic: the same design gets the same thresholds (from the cache or recomputed).
  EXPECT_EQ(t_nominal_p_thresholds(looks, 0.025, SpendingFunction::kPocock), p);
}

// 400,000 independent sequences per design (2 designs, about 4 s): the t boundaries cross at the
// spent error within its Monte Carlo interval; the z boundaries as nominal t p-values, planted,
// cross more often on the same sequences (2.61% and 2.65% against 2.54% and 2.49%).
TEST(TSequentialBoundaries, AnIndependentSimulationCrossesAtTheSpentError) {
  constexpr int kSequences = 400000;
  struct Design {
    std::vector<int> looks;
    SpendingFunction spending;
  };
  const std::vector<Design> designs = {
      {{12, 20, 28, 36, 44, 52}, SpendingFunction::kPocock},
      {{6, 12, 18, 24, 30, 36, 42, 48}, SpendingFunction::kPocock}};
  for (const Design& d : designs) {
    const double exact =
        crossing_rate(d.looks, t_nominal_p_thresholds(d.looks, 0.025, d.spending), kSequences, 99);
    const double z_as_t = crossing_rate(
        d.looks, nominal_p_thresholds(fractions(d.looks), 0.025, d.spending), kSequences, 99);
    const auto ci = test_support::clopper_pearson(static_cast<int>(std::lround(exact * kSequences)),
                                                  kSequences);
    fmt::print("looks {}..{}: t boundaries {:.3f}% [{:.3f}, {:.3f}], z boundaries as t {:.3f}%\n",
               d.looks.front(), d.looks.back(), 100.0 * exact, 100.0 * ci.low, 100.0 * ci.high,
               100.0 * z_as_t);
    // The calibration's own Monte Carlo error (400,000 paths) widens the check a little.
    EXPECT_LE(ci.low, 0.0255);
    EXPECT_GE(ci.high, 0.0245);
    // The same sequences under both: the z boundaries' excess is a difference of about 0.1
    // points, some 15 times its Monte Carlo error here (the sequences that cross under one set of
    // boundaries only are a few hundred).
    EXPECT_GT(z_as_t - exact, 0.0004) << "the planted z boundaries were expected to cross more";
    EXPECT_GT(z_as_t, 0.0255);
  }
}

// O'Brien–Fleming-type at 2.5% spends about 1e-9 at 4 of 40 values, far too little for 400,000
// simulated paths to place a boundary: the look gets its share itself (the union bound's level,
// never more than the share), and the next look still spends what is left.
TEST(TSequentialBoundaries, ALookTooSmallToResolveGetsItsShareAndBadDesignsAreRefused) {
  const std::vector<int> looks = {4, 40};
  const std::vector<double> p =
      t_nominal_p_thresholds(looks, 0.025, SpendingFunction::kOBrienFleming);
  const std::vector<double> shares =
      spent_increments(fractions(looks), 0.025, SpendingFunction::kOBrienFleming);
  EXPECT_LT(shares[0], 1e-6);
  EXPECT_NEAR(p[0], shares[0], 1e-9 * shares[0]);
  EXPECT_NEAR(p[1], 0.025, 0.0015);
  EXPECT_THROW(t_nominal_p_thresholds({1, 8}, 0.025, SpendingFunction::kPocock),
               std::invalid_argument);
  EXPECT_THROW(t_nominal_p_thresholds({8, 8}, 0.025, SpendingFunction::kPocock),
               std::invalid_argument);
  EXPECT_THROW(t_nominal_p_thresholds({8, 16}, 1.5, SpendingFunction::kPocock),
               std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
