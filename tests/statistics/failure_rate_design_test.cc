// The failure-rate gate's design: the issue's target (2% -> 20% at alpha 0.01 detected with
// power >= 0.9 in a median of <= 12 attempts) met with an exact size <= alpha; the dynamic
// programme checked against an enumeration of every path and against a Monte Carlo simulation
// of decide_at_look; Clopper–Pearson against published values; the fixed-n design against a
// brute force over Pascal's triangle. Planted: Wald's nominal thresholds (size far below alpha,
// so more attempts than needed) and a binomial test at alpha on every look (size above alpha),
// both of which the exact calculation exposes.
#include "statistics/failure_rate_design.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "tests/support/clopper_pearson.h"

namespace mlregress::internal::stats {
namespace {

constexpr double kP0 = 0.02, kP1 = 0.2, kAlpha = 0.01, kPowerGoal = 0.9;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

FailureRateDesign issue_design(int block) {
  return design_failure_rate_test(kP0, kP1, kAlpha, kPowerGoal, failure_rate_looks(block, 60));
}

TEST(FailureRateLooks, BlocksUpToTheCap) {
  EXPECT_EQ(failure_rate_looks(4, 12), (std::vector<int>{4, 8, 12}));
  EXPECT_EQ(failure_rate_looks(7, 20), (std::vector<int>{7, 14, 20}));  // a last smaller block
  EXPECT_EQ(failure_rate_looks(5, 5), (std::vector<int>{5}));
  EXPECT_EQ(failure_rate_looks(1, 60).size(), 60u);
  EXPECT_EQ(failure_rate_looks(4, 60).size(), 15u);
  EXPECT_THROW(failure_rate_looks(0, 60), std::invalid_argument);
  EXPECT_THROW(failure_rate_looks(8, 4), std::invalid_argument);
}

// The issue's target, looking after every attempt and after every 4.
TEST(FailureRateDesign, TwoToTwentyPercentMeetsTheTarget) {
  for (const int block : {1, 4}) {
    SCOPED_TRACE(block);
    const FailureRateDesign design = issue_design(block);
    EXPECT_LE(design.size, kAlpha);
    EXPECT_GT(design.size, 0.8 * kAlpha);  // calibrated: little alpha left unused
    EXPECT_GE(design.power, kPowerGoal);
    EXPECT_LE(design.median_trials_p0, 12);
    EXPECT_LE(design.median_trials_p1, 12);
    // The fields agree with the operating characteristics computed afresh.
    const OperatingCharacteristics at_p0 = operating_characteristics(design, kP0);
    const OperatingCharacteristics at_p1 = operating_characteristics(design, kP1);
    EXPECT_DOUBLE_EQ(at_p0.p_regression, design.size);
    EXPECT_DOUBLE_EQ(at_p1.p_regression, design.power);
    EXPECT_DOUBLE_EQ(at_p0.expected_trials, design.expected_trials_p0);
    EXPECT_EQ(at_p1.median_trials, design.median_trials_p1);
    EXPECT_NEAR(at_p0.p_regression + at_p0.p_pass + at_p0.p_inconclusive, 1.0, 1e-12);
    EXPECT_NEAR(at_p1.p_regression + at_p1.p_pass + at_p1.p_inconclusive, 1.0, 1e-12);
    EXPECT_LE(at_p0.median_trials, at_p0.p90_trials);
  }
}

// A look whose REGRESSION boundary lies beyond its trials never rejects: one failure in the
// first attempt is no evidence at alpha 0.01.
TEST(FailureRateDesign, BoundariesBeyondTheTrialsNeverDecide) {
  const FailureRateDesign design = issue_design(1);
  EXPECT_GT(design.reject_from[0], design.looks[0]);
  EXPECT_EQ(decide_at_look(design, 0, 1), RateDecision::kContinue);
  EXPECT_EQ(design.accept_up_to[0], -1);
  EXPECT_EQ(decide_at_look(design, 0, 0), RateDecision::kContinue);
  for (std::size_t k = 0; k < design.looks.size(); ++k) {
    EXPECT_LT(design.accept_up_to[k], design.reject_from[k]);
    EXPECT_GE(design.accept_up_to[k], -1);
    EXPECT_LE(design.reject_from[k], design.looks[k] + 1);
    if (k > 0) {  // both boundaries rise with the trials
      EXPECT_GE(design.reject_from[k], design.reject_from[k - 1]);
      EXPECT_GE(design.accept_up_to[k], design.accept_up_to[k - 1]);
    }
  }
}

TEST(FailureRateDesign, DecisionsAtALook) {
  const FailureRateDesign design = issue_design(4);
  const std::size_t last = design.looks.size() - 1;
  for (std::size_t k = 0; k <= last; ++k) {
    for (int f = 0; f <= design.looks[k]; ++f) {
      const RateDecision d = decide_at_look(design, k, f);
      if (f >= design.reject_from[k]) {
        EXPECT_EQ(d, RateDecision::kRegression);
      } else if (f <= design.accept_up_to[k]) {
        EXPECT_EQ(d, RateDecision::kPass);
      } else {
        EXPECT_EQ(d, k == last ? RateDecision::kInconclusive : RateDecision::kContinue);
      }
    }
  }
}

// The dynamic programme against the sum over all 2^12 sequences of a 12-attempt design, each
// decided by decide_at_look: the same probabilities, to rounding.
TEST(FailureRateDesign, DynamicProgrammeMatchesEveryPath) {
  const FailureRateDesign design =
      failure_rate_design_from_thresholds(0.1, 0.4, 0.05, 0.8, {3, 6, 9, 12}, 1.5, -0.8);
  for (const double p : {0.0, 0.1, 0.25, 0.4, 1.0}) {
    SCOPED_TRACE(p);
    double regression = 0, pass = 0, inconclusive = 0, trials = 0;
    for (unsigned path = 0; path < (1u << 12); ++path) {
      int done = 0;
      double probability = 1.0;
      for (int i = 0; i < 12; ++i) probability *= (path >> i) & 1u ? p : 1.0 - p;
      // Decide on the path's prefix at each look.
      for (std::size_t k = 0; k < design.looks.size(); ++k) {
        const int n = design.looks[k];
        const int so_far = std::popcount(path & ((1u << n) - 1u));
        const RateDecision d = decide_at_look(design, k, so_far);
        if (d == RateDecision::kContinue) continue;
        (d == RateDecision::kRegression ? regression
         : d == RateDecision::kPass     ? pass
                                        : inconclusive) += probability;
        trials += probability * n;
        done = 1;
        break;
      }
      EXPECT_EQ(done, 1);
    }
    const OperatingCharacteristics oc = operating_characteristics(design, p);
    EXPECT_NEAR(oc.p_regression, regression, 1e-13);
    EXPECT_NEAR(oc.p_pass, pass, 1e-13);
    EXPECT_NEAR(oc.p_inconclusive, inconclusive, 1e-13);
    EXPECT_NEAR(oc.expected_trials, trials, 1e-11);
  }
}

// 20,000 simulated sequences per rate through decide_at_look: every outcome's share and the
// distribution of attempts taken (its CDF at every look) within 4 standard errors of the exact
// figures.
TEST(FailureRateDesign, ExactFiguresMatchSimulation) {
  constexpr int kSequences = 20'000;
  std::mt19937_64 rng(20260611);
  for (const int block : {1, 4}) {
    const FailureRateDesign design = issue_design(block);
    for (const double p : {0.02, 0.1, 0.2}) {
      SCOPED_TRACE(testing::Message() << "block " << block << ", p " << p);
      std::bernoulli_distribution fails(p);
      std::vector<int> stopped_at(design.looks.size(), 0);
      int regression = 0, pass = 0, inconclusive = 0;
      for (int s = 0; s < kSequences; ++s) {
        int failures = 0, trials = 0;
        for (std::size_t k = 0; k < design.looks.size(); ++k) {
          for (; trials < design.looks[k]; ++trials) failures += fails(rng);
          const RateDecision d = decide_at_look(design, k, failures);
          if (d == RateDecision::kContinue) continue;
          ++(d == RateDecision::kRegression ? regression
             : d == RateDecision::kPass     ? pass
                                            : inconclusive);
          ++stopped_at[k];
          break;
        }
      }
      const OperatingCharacteristics oc = operating_characteristics(design, p);
      const auto within_4_se = [&](double exact, int count) {
        const double se = std::sqrt(std::max(exact * (1 - exact), 1e-4) / kSequences);
        EXPECT_NEAR(static_cast<double>(count) / kSequences, exact, 4 * se);
      };
      within_4_se(oc.p_regression, regression);
      within_4_se(oc.p_pass, pass);
      within_4_se(oc.p_inconclusive, inconclusive);
      // The exact CDF of the attempts taken, from designs truncated at each look.
      int cumulative = 0;
      for (std::size_t k = 0; k < design.looks.size(); ++k) {
        cumulative += stopped_at[k];
        FailureRateDesign truncated = design;
        truncated.looks.resize(k + 1);
        truncated.reject_from.resize(k + 1);
        truncated.accept_up_to.resize(k + 1);
        const OperatingCharacteristics by_k = operating_characteristics(truncated, p);
        within_4_se(by_k.p_regression + by_k.p_pass +
                        (k + 1 == design.looks.size() ? by_k.p_inconclusive : 0.0),
                    cumulative);
      }
    }
  }
}

// A single look is the fixed-sample binomial test.
TEST(FailureRateDesign, OneLookIsTheFixedSampleTest) {
  const FixedSampleDesign fixed = fixed_sample_binomial_design(kP0, kP1, kAlpha, kPowerGoal);
  const FailureRateDesign one_look =
      design_failure_rate_test(kP0, kP1, kAlpha, kPowerGoal, {fixed.trials});
  EXPECT_EQ(one_look.reject_from[0], fixed.reject_from);
  EXPECT_NEAR(one_look.size, fixed.size, 1e-14);
  EXPECT_NEAR(one_look.power, fixed.power, 1e-14);
}

// Short of the goal within the looks: the most powerful design at size <= alpha, and its power
// field says so. With ten attempts the fixed test (3 failures of 10: size 0.00086, power 0.322)
// is a member of the family, so the sequential design does at least as well.
TEST(FailureRateDesign, UnreachableGoalGivesTheMostPower) {
  const FailureRateDesign design =
      design_failure_rate_test(kP0, kP1, kAlpha, kPowerGoal, failure_rate_looks(1, 10));
  EXPECT_LE(design.size, kAlpha);
  EXPECT_LT(design.power, kPowerGoal);
  EXPECT_GE(design.power, 0.3222);
  const FailureRateDesign single = design_failure_rate_test(kP0, kP1, kAlpha, kPowerGoal, {10});
  EXPECT_EQ(single.reject_from[0], 3);
  EXPECT_NEAR(single.power, 0.32220, 1e-5);
}

// Other rates and caps: the guarantee holds whatever the design.
TEST(FailureRateDesign, SizeNeverExceedsAlpha) {
  struct Case {
    double p0, p1, alpha, power;
    int block, cap;
  };
  for (const Case& c : {Case{0.01, 0.05, 0.01, 0.9, 5, 300}, Case{0.1, 0.3, 0.05, 0.8, 2, 100},
                        Case{0.3, 0.5, 0.01, 0.95, 10, 400}, Case{0.001, 0.1, 0.001, 0.9, 1, 80},
                        Case{0.02, 0.2, 0.01, 0.9, 60, 60}}) {
    SCOPED_TRACE(testing::Message() << c.p0 << " -> " << c.p1 << ", block " << c.block);
    const FailureRateDesign design =
        design_failure_rate_test(c.p0, c.p1, c.alpha, c.power, failure_rate_looks(c.block, c.cap));
    EXPECT_LE(design.size, c.alpha);
    EXPECT_DOUBLE_EQ(operating_characteristics(design, c.p0).p_regression, design.size);
  }
}

// Planted: Wald's nominal thresholds ignore the count's overshoot and the truncation; their
// exact size is far below alpha, and they need more attempts than the calibrated design.
TEST(FailureRateDesign, PlantedWaldThresholdsWasteAlpha) {
  const std::vector<int> looks = failure_rate_looks(1, 60);
  const double beta = 1 - kPowerGoal;
  const FailureRateDesign wald = failure_rate_design_from_thresholds(
      kP0, kP1, kAlpha, kPowerGoal, looks, std::log((1 - beta) / kAlpha),
      std::log(beta / (1 - kAlpha)));
  const FailureRateDesign calibrated = issue_design(1);
  EXPECT_LT(wald.size, 0.5 * kAlpha);
  EXPECT_LT(std::abs(calibrated.size - kAlpha), std::abs(wald.size - kAlpha));
  EXPECT_LE(std::max(calibrated.median_trials_p0, calibrated.median_trials_p1),
            std::max(wald.median_trials_p0, wald.median_trials_p1));
  EXPECT_LT(calibrated.expected_trials_p0 + calibrated.expected_trials_p1,
            wald.expected_trials_p0 + wald.expected_trials_p1);
}

// P(X >= c) for X ~ Bin(n, p), by Pascal's triangle of probabilities.
std::vector<double> upper_tails(int n, double p) {
  std::vector<double> pmf{1.0};
  for (int i = 0; i < n; ++i) {
    std::vector<double> next(pmf.size() + 1, 0.0);
    for (std::size_t f = 0; f < pmf.size(); ++f) {
      next[f] += pmf[f] * (1 - p);
      next[f + 1] += pmf[f] * p;
    }
    pmf = std::move(next);
  }
  std::vector<double> tails(n + 2, 0.0);
  for (int c = n; c >= 0; --c) tails[c] = tails[c + 1] + pmf[c];
  return tails;
}

// Planted: a binomial test at alpha on each of 60 looks. Each look alone has size <= alpha; the
// chance that any of them rejects is more than twice alpha, which the exact calculation shows.
TEST(FailureRateDesign, PlantedPeekingAtEveryLookExceedsAlpha) {
  FailureRateDesign naive;
  naive.p0 = kP0;
  naive.p1 = kP1;
  naive.looks = failure_rate_looks(1, 60);
  for (const int n : naive.looks) {
    const std::vector<double> tails = upper_tails(n, kP0);
    int c = 0;
    while (tails[c] >= kAlpha) ++c;
    naive.reject_from.push_back(c);
    naive.accept_up_to.push_back(-1);
  }
  const OperatingCharacteristics oc = operating_characteristics(naive, kP0);
  EXPECT_GT(oc.p_regression, 2 * kAlpha);
  EXPECT_LE(issue_design(1).size, kAlpha);
}

// Against a brute force over n and c with Pascal's triangle: 32 attempts, 4 failures.
TEST(FailureRateDesign, FixedSampleDesignMatchesBruteForce) {
  const FixedSampleDesign fixed = fixed_sample_binomial_design(kP0, kP1, kAlpha, kPowerGoal);
  int n = 1, c = 0;
  double size = 0, power = 0;
  for (;; ++n) {
    const std::vector<double> t0 = upper_tails(n, kP0), t1 = upper_tails(n, kP1);
    c = 0;
    while (t0[c] > kAlpha) ++c;
    if (t1[c] >= kPowerGoal) {
      size = t0[c];
      power = t1[c];
      break;
    }
  }
  EXPECT_EQ(fixed.trials, n);
  EXPECT_EQ(fixed.reject_from, c);
  EXPECT_NEAR(fixed.size, size, 1e-14);
  EXPECT_NEAR(fixed.power, power, 1e-14);
  EXPECT_EQ(fixed.trials, 32);
  EXPECT_EQ(fixed.reject_from, 4);
  EXPECT_LE(fixed.size, kAlpha);
  EXPECT_GE(fixed.power, kPowerGoal);
}

// SciPy's beta.ppf gives the same values to all printed digits.
TEST(ClopperPearson, KnownValues) {
  // 0 of 10: upper = 1 - 0.025^(1/10) = 0.30850; 10 of 10 the mirror image.
  RateInterval r = clopper_pearson(0, 10, 0.95);
  EXPECT_EQ(r.lower, 0.0);
  EXPECT_NEAR(r.upper, 1 - std::pow(0.025, 0.1), 1e-13);
  EXPECT_NEAR(r.upper, 0.30850, 5e-6);
  r = clopper_pearson(10, 10, 0.95);
  EXPECT_NEAR(r.lower, 0.69150, 5e-6);
  EXPECT_EQ(r.upper, 1.0);
  r = clopper_pearson(2, 100, 0.95);
  EXPECT_NEAR(r.lower, 0.0024313368, 1e-9);
  EXPECT_NEAR(r.upper, 0.0703839325, 1e-9);
  r = clopper_pearson(5, 10, 0.95);
  EXPECT_NEAR(r.lower, 0.1870860284, 1e-9);
  EXPECT_NEAR(r.upper, 0.8129139716, 1e-9);
  // 0 of n at 90%: upper = 1 - 0.05^(1/n).
  EXPECT_NEAR(clopper_pearson(0, 20, 0.9).upper, 1 - std::pow(0.05, 1.0 / 20), 1e-12);
  // The test support's 95% interval is the same computation, written separately.
  for (const int hits : {0, 1, 7, 50}) {
    const test_support::RateInterval other = test_support::clopper_pearson(hits, 50);
    EXPECT_NEAR(clopper_pearson(hits, 50, 0.95).lower, other.low, 1e-12);
    EXPECT_NEAR(clopper_pearson(hits, 50, 0.95).upper, other.high, 1e-12);
  }
}

TEST(FailureRateDesign, ReferenceRates) {
  EXPECT_DOUBLE_EQ(reference_failure_rate(0, 50), 0.5 / 51);
  EXPECT_DOUBLE_EQ(reference_failure_rate(2, 100), 2.5 / 101);
  EXPECT_LT(reference_failure_rate(1, 1), 1.0);
  EXPECT_GT(reference_failure_rate(0, 1), 0.0);
  // The conservative rate lies above the estimate, and closer to it with more trials.
  EXPECT_GT(conservative_reference_failure_rate(1, 50, 0.9), reference_failure_rate(1, 50));
  EXPECT_LT(conservative_reference_failure_rate(4, 200, 0.9) - reference_failure_rate(4, 200),
            conservative_reference_failure_rate(1, 50, 0.9) - reference_failure_rate(1, 50));
  EXPECT_LT(conservative_reference_failure_rate(49, 50, 0.9), 1.0);
  EXPECT_LT(conservative_reference_failure_rate(50, 50, 0.9), 1.0);
}

TEST(FailureRateDesign, InvalidArgumentsThrow) {
  const std::vector<int> looks = failure_rate_looks(1, 60);
  for (const auto& [p0, p1] : {std::pair{0.0, 0.2}, std::pair{0.2, 0.2}, std::pair{0.3, 0.2},
                               std::pair{0.02, 1.0}, std::pair{kNaN, 0.2}, std::pair{0.02, kNaN}}) {
    EXPECT_THROW(design_failure_rate_test(p0, p1, kAlpha, kPowerGoal, looks),
                 std::invalid_argument);
    EXPECT_THROW(fixed_sample_binomial_design(p0, p1, kAlpha, kPowerGoal), std::invalid_argument);
  }
  for (const auto& [alpha, power] :
       {std::pair{0.0, 0.9}, std::pair{0.5, 0.9}, std::pair{0.01, 0.01}, std::pair{0.01, 1.0},
        std::pair{kNaN, 0.9}, std::pair{0.01, kNaN}}) {
    EXPECT_THROW(design_failure_rate_test(kP0, kP1, alpha, power, looks), std::invalid_argument);
    EXPECT_THROW(fixed_sample_binomial_design(kP0, kP1, alpha, power), std::invalid_argument);
  }
  for (const std::vector<int>& bad :
       {std::vector<int>{}, std::vector<int>{0, 4}, std::vector<int>{4, 4}, {8, 4}}) {
    EXPECT_THROW(design_failure_rate_test(kP0, kP1, kAlpha, kPowerGoal, bad),
                 std::invalid_argument);
  }
  const FailureRateDesign design = issue_design(4);
  EXPECT_THROW(decide_at_look(design, design.looks.size(), 0), std::invalid_argument);
  EXPECT_THROW(decide_at_look(design, 0, 5), std::invalid_argument);
  EXPECT_THROW(decide_at_look(design, 0, -1), std::invalid_argument);
  EXPECT_THROW(operating_characteristics(design, kNaN), std::invalid_argument);
  EXPECT_THROW(operating_characteristics(design, 1.5), std::invalid_argument);
  FailureRateDesign mismatched = design;
  mismatched.reject_from.pop_back();
  EXPECT_THROW(operating_characteristics(mismatched, kP0), std::invalid_argument);
  EXPECT_THROW(failure_rate_design_from_thresholds(kP0, kP1, kAlpha, kPowerGoal, looks, 1.0, 2.0),
               std::invalid_argument);
  EXPECT_THROW(clopper_pearson(0, 0, 0.95), std::invalid_argument);
  EXPECT_THROW(clopper_pearson(3, 2, 0.95), std::invalid_argument);
  EXPECT_THROW(clopper_pearson(1, 2, 1.0), std::invalid_argument);
  EXPECT_THROW(clopper_pearson(1, 2, kNaN), std::invalid_argument);
  EXPECT_THROW(reference_failure_rate(0, 0), std::invalid_argument);
  EXPECT_THROW(reference_failure_rate(-1, 10), std::invalid_argument);
  EXPECT_THROW(conservative_reference_failure_rate(1, 10, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
