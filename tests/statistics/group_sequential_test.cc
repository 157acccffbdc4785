// Group-sequential boundaries: against the published Lan–DeMets boundaries (Jennison and
// Turnbull 2000; the same values gsDesign prints), and by simulation of 10,000 A/A sequences per
// design with the t tests the gate uses: the false-alarm rate over all looks is near alpha with
// the boundaries and at or below it with the spent increments (Clopper–Pearson 95% intervals),
// while testing every look at the nominal alpha — the peeking both exist to prevent — is caught
// exceeding it.
#include "statistics/group_sequential.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "statistics/paired.h"
#include "statistics/welch.h"
#include "tests/support/clopper_pearson.h"

namespace mlregress::internal::stats {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::Pointwise;

const std::vector<double> kFiveEqualLooks = {0.2, 0.4, 0.6, 0.8, 1.0};

TEST(GroupSequential, OneLookIsTheFixedSampleTest) {
  EXPECT_NEAR(upper_boundaries({1.0}, 0.025, SpendingFunction::kPocock)[0], 1.959964, 1e-5);
  EXPECT_NEAR(upper_boundaries({1.0}, 0.01, SpendingFunction::kOBrienFleming)[0], 2.326348, 1e-5);
  EXPECT_NEAR(nominal_p_thresholds({1.0}, 0.01, SpendingFunction::kPocock)[0], 0.01, 1e-7);
}

// Jennison and Turnbull (2000), Table 7.5-like values for five equally spaced looks at one-sided
// 0.025 (two-sided 0.05): O'Brien–Fleming-type 4.877 3.357 2.680 2.290 2.031, Pocock-type
// 2.438 2.427 2.410 2.397 2.386.
TEST(GroupSequential, FiveEqualLooksMatchThePublishedBoundaries) {
  EXPECT_THAT(upper_boundaries(kFiveEqualLooks, 0.025, SpendingFunction::kOBrienFleming),
              Pointwise(DoubleNear(0.002), {4.877, 3.357, 2.680, 2.290, 2.031}));
  EXPECT_THAT(upper_boundaries(kFiveEqualLooks, 0.025, SpendingFunction::kPocock),
              Pointwise(DoubleNear(0.002), {2.438, 2.427, 2.410, 2.397, 2.386}));
}

// The thresholds group_sequential.h quotes: five Pocock-type looks at 1%.
TEST(GroupSequential, PocockThresholdsAtOnePercent) {
  const auto exact = nominal_p_thresholds(kFiveEqualLooks, 0.01, SpendingFunction::kPocock);
  const auto increments = spent_increments(kFiveEqualLooks, 0.01, SpendingFunction::kPocock);
  std::cout << fmt::format("exact {:.5f}\nspent {:.5f}\n", fmt::join(exact, " "),
                           fmt::join(increments, " "));
  // Pocock: about the same threshold at every look; the union bound spends less late.
  EXPECT_THAT(exact, Pointwise(DoubleNear(5e-5), {0.00295, 0.00289, 0.00292, 0.00297, 0.00300}));
  EXPECT_THAT(increments,
              Pointwise(DoubleNear(5e-5), {0.00295, 0.00228, 0.00185, 0.00156, 0.00135}));
}

TEST(GroupSequential, SpendingFunctionsSpendAlphaByTheEnd) {
  for (const auto spending : {SpendingFunction::kPocock, SpendingFunction::kOBrienFleming}) {
    EXPECT_NEAR(alpha_spent(spending, 0.01, 1.0), 0.01, 1e-15);
    EXPECT_EQ(alpha_spent(spending, 0.01, 0.0), 0.0);
    EXPECT_LT(alpha_spent(spending, 0.01, 0.2), alpha_spent(spending, 0.01, 0.4));
  }
  // Pocock spends about 30% at the first of five looks, O'Brien–Fleming almost nothing.
  EXPECT_NEAR(alpha_spent(SpendingFunction::kPocock, 0.01, 0.2), 0.002954, 1e-6);
  EXPECT_LT(alpha_spent(SpendingFunction::kOBrienFleming, 0.01, 0.2), 1e-7);
}

TEST(GroupSequential, InformationFractions) {
  EXPECT_THAT(information_fractions({8, 16, 24, 32, 40}),
              Pointwise(DoubleNear(1e-15), kFiveEqualLooks));
  // Fresh candidate seeds against a fixed baseline of 40: the baseline's own noise makes the
  // early looks carry relatively more of the final information.
  const std::vector<double> welch = information_fractions({8, 16, 24, 32, 40}, 40);
  EXPECT_NEAR(welch[0], (1.0 / (1.0 / 8 + 1.0 / 40)) / 20.0, 1e-15);
  EXPECT_GT(welch[0], 0.2);
  EXPECT_EQ(welch.back(), 1.0);
}

TEST(GroupSequential, BadDesignsAreRefused) {
  EXPECT_THROW(upper_boundaries({}, 0.01, SpendingFunction::kPocock), std::invalid_argument);
  EXPECT_THROW(upper_boundaries({0.5, 0.5}, 0.01, SpendingFunction::kPocock),
               std::invalid_argument);
  EXPECT_THROW(upper_boundaries({0.0, 1.0}, 0.01, SpendingFunction::kPocock),
               std::invalid_argument);
  EXPECT_THROW(upper_boundaries({0.5, 1.5}, 0.01, SpendingFunction::kPocock),
               std::invalid_argument);
  EXPECT_THROW(upper_boundaries({1.0}, 0.0, SpendingFunction::kPocock), std::invalid_argument);
  EXPECT_THROW(upper_boundaries({1.0}, std::nan(""), SpendingFunction::kPocock),
               std::invalid_argument);
  EXPECT_THROW(information_fractions({}), std::invalid_argument);
  EXPECT_THROW(information_fractions({0, 8}), std::invalid_argument);
}

using test_support::clopper_pearson;

// A/A sequences: 40 seeds per arm drawn once, looked at after 8, 16, ..., 40 seeds with a
// one-sided t test ("the candidate is worse"), stopping at the first look whose p is below its
// threshold. Returns how many of `sequences` ever crossed.
int false_alarms(const std::vector<double>& thresholds, bool paired, int sequences,
                 std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  const std::vector<int> looks = {8, 16, 24, 32, 40};
  int alarms = 0;
  std::vector<double> baseline(40), candidate(40);
  for (int s = 0; s < sequences; ++s) {
    for (int i = 0; i < 40; ++i) {
      const double seed_effect = noise(rng);  // shared by both arms of one seed when paired
      baseline[i] = (paired ? seed_effect : 0.0) + noise(rng);
      candidate[i] = (paired ? seed_effect : 0.0) + noise(rng);
    }
    for (std::size_t k = 0; k < looks.size(); ++k) {
      const std::span<const double> c(candidate.data(), looks[k]);
      // Paired: the same seeds on both sides; unpaired: fresh candidate seeds against all 40.
      const TTestResult r =
          paired ? paired_t_test(c, std::span<const double>(baseline.data(), looks[k]),
                                 Alternative::kLess)
                 : welch_t_test(c, baseline, Alternative::kLess);
      if (r.p_value < thresholds[k]) {
        ++alarms;
        break;
      }
    }
  }
  return alarms;
}

constexpr int kSequences = 10000;
constexpr double kAlpha = 0.01;

// With the z boundaries the false-alarm rate over all five looks is near alpha: its
// Clopper–Pearson interval contains alpha (a design spending more would have its lower end above).
// With t tests on 8 seeds the point estimates run a little over (1.04% and 1.16% in 100,000
// sequences); spent_increments below is the version that stays at or under alpha.
TEST(GroupSequential, TheBoundariesKeepTenThousandAASequencesNearAlpha) {
  for (const bool paired : {true, false}) {
    for (const auto spending : {SpendingFunction::kPocock, SpendingFunction::kOBrienFleming}) {
      const std::vector<double> t = information_fractions({8, 16, 24, 32, 40}, paired ? 0 : 40);
      const int alarms =
          false_alarms(nominal_p_thresholds(t, kAlpha, spending), paired, kSequences, 20261203);
      const test_support::RateInterval ci = clopper_pearson(alarms, kSequences);
      const std::string design =
          fmt::format("{} {}: {} false alarms in {} A/A sequences, 95% CI [{:.4f}, {:.4f}]",
                      paired ? "paired" : "fresh seeds",
                      spending == SpendingFunction::kPocock ? "Pocock" : "O'Brien-Fleming", alarms,
                      kSequences, ci.low, ci.high);
      std::cout << design << "\n";
      EXPECT_LE(ci.low, kAlpha) << design;
      EXPECT_GT(alarms, 0) << design;  // the boundaries are not so strict that nothing crosses
    }
  }
}

// The union bound over the spent increments: at or below alpha for both designs, with the t
// tests of few seeds where the z boundaries run slightly over (the point estimates above).
TEST(GroupSequential, SpentIncrementsKeepTheTTestsWithinAlpha) {
  for (const bool paired : {true, false}) {
    const std::vector<double> t = information_fractions({8, 16, 24, 32, 40}, paired ? 0 : 40);
    const std::vector<double> thresholds = spent_increments(t, kAlpha, SpendingFunction::kPocock);
    double total = 0.0;
    for (double p : thresholds) total += p;
    EXPECT_NEAR(total, kAlpha, 1e-15);
    const int alarms = false_alarms(thresholds, paired, kSequences, 20261204);
    const test_support::RateInterval ci = clopper_pearson(alarms, kSequences);
    std::cout << (paired ? "paired" : "fresh seeds") << " Pocock, spent increments: " << alarms
              << " false alarms in " << kSequences << " A/A sequences, 95% CI [" << ci.low << ", "
              << ci.high << "]\n";
    EXPECT_LE(ci.low, kAlpha);
    EXPECT_LE(alarms, kSequences * kAlpha + 10);  // at alpha or below, give or take the noise
  }
}

// The mistake the boundaries prevent: alpha at every look. It is caught above alpha.
TEST(GroupSequential, PeekingAtNominalAlphaEveryLookExceedsAlpha) {
  const int alarms = false_alarms(std::vector<double>(5, kAlpha), true, kSequences, 20261203);
  const test_support::RateInterval ci = clopper_pearson(alarms, kSequences);
  std::cout << "naive peeking: " << alarms << " false alarms in " << kSequences << "\n";
  EXPECT_GT(ci.low, kAlpha);
}

}  // namespace
}  // namespace mlregress::internal::stats
