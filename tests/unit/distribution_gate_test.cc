// The multi-seed gate: per-seed samples of a candidate against the baseline's. The mistakes it
// must not make, each planted below: a significant but tiny shift called a REGRESSION (margin
// ignored), "not significant" read as PASS while the CI still allows a real degradation, the
// wrong tail or direction, paired seeds matched by position or analysed as independent arms,
// raw p-values compared with alpha when the run holds many checks, an untestable sample
// (one seed, NaN) passing quietly, and a false-alarm rate above alpha on A/A comparisons.
#include "analysis/distribution_gate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "statistics/power.h"

namespace mlregress::internal {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Eight seeds of an accuracy around 0.87 (sd about 0.008), and a second draw of the same
// distribution: an A/A pair.
const std::vector<double> kAccuracy{0.874, 0.861, 0.882, 0.868, 0.877, 0.859, 0.871, 0.866};
const std::vector<double> kAccuracyOtherDraw{0.866, 0.879, 0.858, 0.872,
                                             0.869, 0.884, 0.863, 0.870};

std::vector<std::uint64_t> seed_range(std::uint64_t first, std::size_t n) {
  std::vector<std::uint64_t> seeds(n);
  for (std::size_t i = 0; i < n; ++i) seeds[i] = first + i;
  return seeds;
}

std::vector<double> shifted(std::vector<double> values, double shift) {
  for (double& v : values) v += shift;
  return values;
}

// Baseline on seeds 1..n, candidate on seeds 101..: two independent arms (Welch).
SeedSamples baseline_arm(const std::vector<double>& values) {
  return {values, seed_range(1, values.size())};
}
SeedSamples independent_arm(const std::vector<double>& values) {
  return {values, seed_range(101, values.size())};
}

GateDecision decide_alone(const DistributionAnalysis& analysis, double alpha = kDefaultGateAlpha) {
  const std::vector<DistributionAnalysis> one{analysis};
  return decide_gate(one, alpha).at(0);
}

TEST(DistributionGate, ClearRegressionIsCaught) {
  const auto a = analyse_distribution("test_acc", HigherIsBetter, 0.01,
                                      independent_arm(shifted(kAccuracyOtherDraw, -0.05)),
                                      baseline_arm(kAccuracy));
  ASSERT_TRUE(a.problem.empty()) << a.problem;
  EXPECT_EQ(a.design, GateDesign::kIndependent);
  EXPECT_EQ(a.n_candidate, 8u);
  EXPECT_EQ(a.n_baseline, 8u);
  EXPECT_NEAR(a.difference, -0.049625, 1e-12);
  EXPECT_LT(a.ci_lower, a.difference);
  EXPECT_GT(a.ci_upper, a.difference);
  EXPECT_LT(a.ci_upper, -0.03);
  EXPECT_LT(a.p_worse, 1e-6);
  EXPECT_GT(a.p_better, 0.999999);
  EXPECT_LT(a.hedges_g, -3.0);
  EXPECT_EQ(a.probability_of_improvement, 0.0);

  const GateDecision d = decide_alone(a);
  EXPECT_EQ(d.verdict, Verdict::kRegression) << d.reason;
  EXPECT_EQ(d.p_worse_adjusted, a.p_worse);  // alone, Holm changes nothing
  EXPECT_THAT(d.reason, ::testing::HasSubstr("exceeds the margin 0.01")) << d.reason;
}

TEST(DistributionGate, SignificantShiftWithinTheMarginIsNotARegression) {
  // Planted: a gate that only asks for p < alpha. A drop of 0.02 is highly significant with
  // these seeds, but the practical margin is 0.05 and the CI rules out anything beyond it.
  const auto a = analyse_distribution("test_acc", HigherIsBetter, 0.05,
                                      independent_arm(shifted(kAccuracyOtherDraw, -0.02)),
                                      baseline_arm(kAccuracy));
  ASSERT_TRUE(a.problem.empty()) << a.problem;
  const GateDecision d = decide_alone(a);
  EXPECT_LT(d.p_worse_adjusted, kDefaultGateAlpha);
  EXPECT_GT(a.ci_lower, -0.05);
  EXPECT_EQ(d.verdict, Verdict::kPass) << d.reason;
}

TEST(DistributionGate, AaComparisonIsNeverARegression) {
  for (const double margin : {0.0, 0.002, 0.01, 0.05}) {
    SCOPED_TRACE(margin);
    // Another draw of the same distribution, and the very same values on other seeds.
    for (const auto& candidate : {kAccuracyOtherDraw, kAccuracy}) {
      const auto a = analyse_distribution("test_acc", HigherIsBetter, margin,
                                          independent_arm(candidate), baseline_arm(kAccuracy));
      ASSERT_TRUE(a.problem.empty()) << a.problem;
      const GateDecision d = decide_alone(a);
      EXPECT_NE(d.verdict, Verdict::kRegression) << d.reason;
      EXPECT_NE(d.verdict, Verdict::kImproved) << d.reason;
      EXPECT_GT(a.p_worse, 0.3);
    }
  }
}

TEST(DistributionGate, SmallEffectWithWideIntervalIsInconclusiveNotPass) {
  // Planted: "not significant" read as PASS. A drop of 0.004 is not significant with eight
  // noisy seeds, but the CI reaches well below -0.005: a degradation beyond the margin is
  // still possible.
  const auto a = analyse_distribution("test_acc", HigherIsBetter, 0.005,
                                      independent_arm(shifted(kAccuracyOtherDraw, -0.004)),
                                      baseline_arm(kAccuracy));
  ASSERT_TRUE(a.problem.empty()) << a.problem;
  EXPECT_GT(a.p_worse, kDefaultGateAlpha);
  EXPECT_LT(a.ci_lower, -0.005);
  const GateDecision d = decide_alone(a);
  EXPECT_EQ(d.verdict, Verdict::kInconclusive) << d.reason;
  EXPECT_THAT(d.reason, ::testing::HasSubstr("still allows")) << d.reason;
}

TEST(DistributionGate, ClearImprovementIsImproved) {
  const auto a = analyse_distribution("test_acc", HigherIsBetter, 0.01,
                                      independent_arm(shifted(kAccuracyOtherDraw, +0.05)),
                                      baseline_arm(kAccuracy));
  ASSERT_TRUE(a.problem.empty()) << a.problem;
  EXPECT_LT(a.p_better, 1e-6);
  EXPECT_GT(a.p_worse, 0.999999);
  EXPECT_EQ(a.probability_of_improvement, 1.0);
  const GateDecision d = decide_alone(a);
  EXPECT_EQ(d.verdict, Verdict::kImproved) << d.reason;
}

TEST(DistributionGate, LowerIsBetterMirrorsTheTails) {
  const std::vector<double> loss{0.351, 0.342, 0.360, 0.347, 0.355, 0.338, 0.349, 0.344};
  const std::vector<double> loss_other{0.346, 0.357, 0.340, 0.352, 0.348, 0.361, 0.343, 0.350};
  const auto higher_loss = independent_arm(shifted(loss_other, +0.05));
  const auto lower_loss = independent_arm(shifted(loss_other, -0.05));

  const auto rise =
      analyse_distribution("val_loss", LowerIsBetter, 0.01, higher_loss, baseline_arm(loss));
  EXPECT_LT(rise.p_worse, 1e-6);
  EXPECT_EQ(rise.probability_of_improvement, 0.0);
  EXPECT_EQ(decide_alone(rise).verdict, Verdict::kRegression) << decide_alone(rise).reason;

  const auto drop =
      analyse_distribution("val_loss", LowerIsBetter, 0.01, lower_loss, baseline_arm(loss));
  EXPECT_LT(drop.p_better, 1e-6);
  EXPECT_EQ(drop.probability_of_improvement, 1.0);
  EXPECT_EQ(decide_alone(drop).verdict, Verdict::kImproved) << decide_alone(drop).reason;

  // Planted: the direction ignored. The same rise of a higher-is-better metric is a gain.
  const auto gain =
      analyse_distribution("test_acc", HigherIsBetter, 0.01, higher_loss, baseline_arm(loss));
  EXPECT_EQ(decide_alone(gain).verdict, Verdict::kImproved);

  // Planted: the lower CI end read as the worst case of a loss. For a loss the bad end is the
  // upper one: a small, insignificant rise whose CI reaches beyond the margin is INCONCLUSIVE...
  const auto small_rise =
      analyse_distribution("val_loss", LowerIsBetter, 0.005,
                           independent_arm(shifted(loss_other, +0.003)), baseline_arm(loss));
  ASSERT_GT(small_rise.ci_upper, 0.005);
  ASSERT_GT(small_rise.ci_lower, -0.005);
  EXPECT_EQ(decide_alone(small_rise).verdict, Verdict::kInconclusive);
  // ...and a small drop whose CI stays below +margin passes, however far down it reaches.
  const auto small_drop =
      analyse_distribution("val_loss", LowerIsBetter, 0.005,
                           independent_arm(shifted(loss_other, -0.006)), baseline_arm(loss));
  ASSERT_LT(small_drop.ci_upper, 0.005);
  ASSERT_LT(small_drop.ci_lower, -0.005);
  EXPECT_EQ(decide_alone(small_drop).verdict, Verdict::kPass) << decide_alone(small_drop).reason;
}

// Seeds that vary a lot (0.80 .. 0.95); the candidate is 0.01 lower on every one of them.
const std::vector<std::uint64_t> kPairedSeeds{11, 12, 13, 14, 15, 16, 17, 18};
const std::vector<double> kPairedBaseline{0.80, 0.95, 0.86, 0.91, 0.83, 0.89, 0.84, 0.93};
const std::vector<std::uint64_t> kShuffledSeeds{15, 12, 18, 11, 17, 14, 16, 13};
const std::vector<double> kJitter{0.001, -0.0005, 0.0008, -0.001, 0.0002, -0.0007, 0.0004, 0.0};

// The candidate on the baseline's seeds in another order: value(seed) = baseline(seed) - 0.01
// plus a little per-seed jitter.
std::vector<double> paired_candidate_values() {
  std::vector<double> values;
  for (std::size_t i = 0; i < kShuffledSeeds.size(); ++i) {
    const std::size_t baseline_index = kShuffledSeeds[i] - kPairedSeeds.front();
    values.push_back(kPairedBaseline[baseline_index] - 0.01 + kJitter[i]);
  }
  return values;
}

TEST(DistributionGate, SameSeedsInAnyOrderArePairedBySeed) {
  const SeedSamples baseline{kPairedBaseline, kPairedSeeds};
  const SeedSamples candidate{paired_candidate_values(), kShuffledSeeds};
  const auto a = analyse_distribution("test_acc", HigherIsBetter, 0.005, candidate, baseline);
  ASSERT_TRUE(a.problem.empty()) << a.problem;
  EXPECT_EQ(a.design, GateDesign::kPaired);
  // Planted: pairing by position. The shuffled order would then pair unrelated seeds and the
  // per-seed differences would scatter by ±0.1 instead of sitting at -0.01.
  EXPECT_NEAR(a.difference, -0.01 + 0.0002 / 8, 1e-12);
  EXPECT_GT(a.ci_lower, -0.0115);
  EXPECT_LT(a.ci_upper, -0.0085);
  const GateDecision d = decide_alone(a);
  EXPECT_EQ(d.verdict, Verdict::kRegression) << d.reason;
  EXPECT_THAT(format_distribution(a, d), ::testing::HasSubstr(" · paired · "));
}

TEST(DistributionGate, PairedDesignFindsAConsistentShiftThatWelchMisses) {
  // Planted: paired seeds analysed as independent arms. The same values on seeds the baseline
  // never ran: the seed-to-seed spread (sd 0.05) swamps the 0.01 shift.
  const SeedSamples baseline{kPairedBaseline, kPairedSeeds};
  const auto welch =
      analyse_distribution("test_acc", HigherIsBetter, 0.005,
                           SeedSamples{paired_candidate_values(), seed_range(111, 8)}, baseline);
  ASSERT_TRUE(welch.problem.empty()) << welch.problem;
  EXPECT_EQ(welch.design, GateDesign::kIndependent);
  EXPECT_GT(welch.p_worse, 0.2);
  EXPECT_EQ(decide_alone(welch).verdict, Verdict::kInconclusive);

  const auto paired =
      analyse_distribution("test_acc", HigherIsBetter, 0.005,
                           SeedSamples{paired_candidate_values(), kShuffledSeeds}, baseline);
  EXPECT_LT(paired.p_worse, 1e-6);
  EXPECT_EQ(decide_alone(paired).verdict, Verdict::kRegression);
}

TEST(DistributionGate, OverlappingButDifferentSeedSetsAreIndependentArms) {
  std::vector<std::uint64_t> mostly_shared = seed_range(1, 8);
  mostly_shared.back() = 99;
  const auto a =
      analyse_distribution("test_acc", HigherIsBetter, 0.01,
                           SeedSamples{kAccuracyOtherDraw, mostly_shared}, baseline_arm(kAccuracy));
  EXPECT_EQ(a.design, GateDesign::kIndependent);
  const auto fewer = analyse_distribution("test_acc", HigherIsBetter, 0.01,
                                          SeedSamples{{0.87, 0.86, 0.88}, seed_range(1, 3)},
                                          baseline_arm(kAccuracy));
  EXPECT_EQ(fewer.design, GateDesign::kIndependent);
}

TEST(DistributionGate, IdenticalDeterministicSamplesPassWithAZeroInterval) {
  // A deterministic metric rerun on the same seeds: no spread anywhere. The t test has no
  // p-value (zero standard error); the gate must still not call it a regression or leave NaN.
  const std::vector<double> constant(6, 0.8125);
  for (const double margin : {0.0, 0.01}) {
    for (const auto& candidate : {SeedSamples{constant, seed_range(1, 6)},       // paired
                                  SeedSamples{constant, seed_range(101, 6)}}) {  // welch
      const auto a = analyse_distribution("test_acc", HigherIsBetter, margin, candidate,
                                          baseline_arm(constant));
      ASSERT_TRUE(a.problem.empty()) << a.problem;
      EXPECT_EQ(a.difference, 0.0);
      EXPECT_EQ(a.ci_lower, 0.0);
      EXPECT_EQ(a.ci_upper, 0.0);
      EXPECT_EQ(a.p_worse, 1.0);
      EXPECT_EQ(a.p_better, 1.0);
      EXPECT_EQ(a.hedges_g, 0.0);
      EXPECT_EQ(a.probability_of_improvement, 0.5);
      const GateDecision d = decide_alone(a);
      EXPECT_EQ(d.verdict, Verdict::kPass) << d.reason;
    }
  }
}

TEST(DistributionGate, ExactShiftWithoutSpreadIsKnownExactly) {
  const std::vector<double> base(5, 0.90);
  const std::vector<double> lower(5, 0.80);
  const auto a = analyse_distribution("test_acc", HigherIsBetter, 0.05, independent_arm(lower),
                                      baseline_arm(base));
  ASSERT_TRUE(a.problem.empty()) << a.problem;
  EXPECT_DOUBLE_EQ(a.difference, -0.1);
  EXPECT_EQ(a.ci_lower, a.difference);
  EXPECT_EQ(a.ci_upper, a.difference);
  EXPECT_EQ(a.p_worse, 0.0);
  EXPECT_EQ(a.p_better, 1.0);
  EXPECT_EQ(decide_alone(a).verdict, Verdict::kRegression);

  // The same exact drop inside a wider margin: the interval [d, d] rules out more.
  const auto within = analyse_distribution("test_acc", HigherIsBetter, 0.2, independent_arm(lower),
                                           baseline_arm(base));
  EXPECT_EQ(decide_alone(within).verdict, Verdict::kPass);

  // Paired: every seed lower by the same amount.
  const auto paired =
      analyse_distribution("test_acc", HigherIsBetter, 0.05, SeedSamples{{0.5, 0.75}, {1, 2}},
                           SeedSamples{{1.0, 1.25}, {1, 2}});
  EXPECT_EQ(paired.design, GateDesign::kPaired);
  EXPECT_EQ(paired.difference, -0.5);
  EXPECT_EQ(paired.p_worse, 0.0);
  EXPECT_EQ(decide_alone(paired).verdict, Verdict::kRegression);
}

// A hand-made analysis: a drop of 0.05 with margin 0.01, significance set by p_worse.
DistributionAnalysis degraded(double p_worse) {
  DistributionAnalysis a;
  a.metric = "test_acc";
  a.direction = HigherIsBetter;
  a.margin = 0.01;
  a.difference = -0.05;
  a.ci_lower = -0.08;
  a.ci_upper = -0.02;
  a.p_worse = p_worse;
  a.p_better = 1.0 - p_worse;
  return a;
}

// A check with nothing going on; `which` tells several apart (their samples differ, so each is
// a hypothesis of its own, unlike the same samples checked twice).
DistributionAnalysis unchanged(int which = 0) {
  DistributionAnalysis a;
  a.metric = "other";
  a.candidate_mean = 0.87 + 0.001 * which;
  a.baseline_mean = a.candidate_mean;
  a.direction = HigherIsBetter;
  a.margin = 0.01;
  a.difference = 0.0;
  a.ci_lower = -0.005;
  a.ci_upper = 0.005;
  a.p_worse = 0.5;
  a.p_better = 0.5;
  return a;
}

TEST(DistributionGateHolm, APValueThatPassesAloneDoesNotSurviveManyChecks) {
  // Alone, p = 0.006 < 0.01. (Were "worse" and "better" one family of two, it would already
  // become 0.012 here: they are separate families.)
  const GateDecision alone = decide_alone(degraded(0.006));
  EXPECT_EQ(alone.verdict, Verdict::kRegression) << alone.reason;
  EXPECT_DOUBLE_EQ(alone.p_worse_adjusted, 0.006);

  // Planted: raw p-values compared with alpha. With four more checks in the run, Holm
  // multiplies the smallest p by 5: 0.03, no longer significant; the CI still allows a large
  // drop, so the verdict is INCONCLUSIVE, not PASS.
  std::vector<DistributionAnalysis> run{unchanged(0), degraded(0.006), unchanged(1), unchanged(2),
                                        unchanged(3)};
  const auto decisions = decide_gate(run);
  ASSERT_EQ(decisions.size(), run.size());
  EXPECT_DOUBLE_EQ(decisions[1].p_worse_adjusted, 0.03);
  EXPECT_EQ(decisions[1].verdict, Verdict::kInconclusive) << decisions[1].reason;
  for (const std::size_t i : {0u, 2u, 3u, 4u}) {
    EXPECT_EQ(decisions[i].verdict, Verdict::kPass) << decisions[i].reason;
    EXPECT_DOUBLE_EQ(decisions[i].p_worse_adjusted, 1.0);
  }
}

// The same configuration run under two names (an ablation's baseline variant and a sweep's
// default point, on the same seeds) gives the same samples: one hypothesis. Planted: counting it
// twice makes Holm multiply by 3 instead of 2 and loses a regression.
TEST(DistributionGateHolm, IdenticalChecksAreOneHypothesis) {
  DistributionAnalysis twin = unchanged(1);
  twin.metric = "same_config_other_name";
  const std::vector<DistributionAnalysis> run{degraded(0.004), unchanged(1), twin};
  const auto decisions = decide_gate(run);
  EXPECT_DOUBLE_EQ(decisions[0].p_worse_adjusted, 0.008);  // 2 hypotheses, not 3
  EXPECT_EQ(decisions[0].verdict, Verdict::kRegression) << decisions[0].reason;
  EXPECT_EQ(decisions[2].verdict, decisions[1].verdict);
  EXPECT_THAT(decisions[2].reason, ::testing::HasSubstr("counted once"));
  EXPECT_THAT(decisions[1].reason, ::testing::Not(::testing::HasSubstr("counted once")));

  // Different samples are different hypotheses, however alike: 3 of them.
  const std::vector<DistributionAnalysis> three{degraded(0.004), unchanged(1), unchanged(2)};
  EXPECT_DOUBLE_EQ(decide_gate(three)[0].p_worse_adjusted, 0.012);
  EXPECT_EQ(decide_gate(three)[0].verdict, Verdict::kInconclusive);
}

TEST(DistributionGateHolm, UntestableChecksDoNotJoinTheFamily) {
  std::vector<DistributionAnalysis> run{degraded(0.006)};
  for (int i = 0; i < 5; ++i) {
    DistributionAnalysis broken = unchanged();
    broken.problem = "the candidate has 1 seed(s)";
    run.push_back(broken);
  }
  const auto decisions = decide_gate(run);
  EXPECT_EQ(decisions[0].verdict, Verdict::kRegression) << decisions[0].reason;
  EXPECT_DOUBLE_EQ(decisions[0].p_worse_adjusted, 0.006);
  for (std::size_t i = 1; i < decisions.size(); ++i) {
    EXPECT_EQ(decisions[i].verdict, Verdict::kInconclusive);
  }
}

TEST(DistributionGateHolm, RegressionNeedsPStrictlyBelowAlpha) {
  EXPECT_EQ(decide_alone(degraded(0.01)).verdict, Verdict::kInconclusive);
  EXPECT_EQ(decide_alone(degraded(0.0099)).verdict, Verdict::kRegression);
  EXPECT_EQ(decide_alone(degraded(0.0099), 0.001).verdict, Verdict::kInconclusive);
}

TEST(DistributionGateHolm, RejectsAnAlphaOutsideZeroOne) {
  const std::vector<DistributionAnalysis> run{unchanged()};
  EXPECT_THROW(decide_gate(run, 0.0), std::invalid_argument);
  EXPECT_THROW(decide_gate(run, 1.0), std::invalid_argument);
  EXPECT_THROW(decide_gate(run, kNaN), std::invalid_argument);
  EXPECT_TRUE(decide_gate(std::span<const DistributionAnalysis>{}).empty());
}

struct ProblemCase {
  const char* name;
  Direction direction;
  double margin;
  SeedSamples candidate;
  SeedSamples baseline;
  const char* expected;  ///< a piece of the problem text
};

TEST(DistributionGate, UntestableSamplesAreInconclusiveWithAReason) {
  const SeedSamples good = baseline_arm(kAccuracy);
  std::vector<double> with_inf = kAccuracyOtherDraw;
  with_inf[0] = std::numeric_limits<double>::infinity();
  std::vector<std::uint64_t> repeated_seed = seed_range(101, 8);
  repeated_seed[5] = 101;
  const std::vector<ProblemCase> cases{
      {"one seed", HigherIsBetter, 0.01, SeedSamples{{0.87}, {101}}, good, "1 seed(s)"},
      {"no seeds", HigherIsBetter, 0.01, SeedSamples{}, good, "0 seed(s)"},
      {"Inf in baseline", HigherIsBetter, 0.01, good, baseline_arm(with_inf), "seed 1 is inf"},
      {"must equal", MustEqual, 0.0, independent_arm(kAccuracyOtherDraw), good, "must-equal"},
      {"seeds missing", LowerIsBetter, 0.01, SeedSamples{kAccuracyOtherDraw, {1, 2}}, good,
       "8 values but 2 seeds"},
      {"seed twice", HigherIsBetter, 0.01, SeedSamples{kAccuracyOtherDraw, repeated_seed}, good,
       "seed 101 appears more than once"},
      {"negative margin", HigherIsBetter, -0.01, independent_arm(kAccuracyOtherDraw), good,
       "margin"},
      {"NaN margin", HigherIsBetter, kNaN, independent_arm(kAccuracyOtherDraw), good, "margin"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    DistributionAnalysis a;
    ASSERT_NO_THROW(a = analyse_distribution("m", c.direction, c.margin, c.candidate, c.baseline));
    EXPECT_THAT(a.problem, ::testing::HasSubstr(c.expected)) << a.problem;
    const GateDecision d = decide_alone(a);
    EXPECT_EQ(d.verdict, Verdict::kInconclusive);
    EXPECT_THAT(d.reason, ::testing::HasSubstr(a.problem)) << d.reason;
    EXPECT_THAT(format_distribution(a, d), ::testing::HasSubstr("not tested: " + a.problem));
  }
}

// A seed that diverged is a regression, never "not tested": one NaN, an Inf, or every seed.
TEST(DistributionGate, ANonFiniteCandidateValueIsARegression) {
  const SeedSamples good = baseline_arm(kAccuracy);
  std::vector<double> with_nan = kAccuracyOtherDraw;
  with_nan[3] = kNaN;
  std::vector<double> with_inf = kAccuracyOtherDraw;
  with_inf[0] = -std::numeric_limits<double>::infinity();
  const std::vector<double> all_nan(kAccuracyOtherDraw.size(), kNaN);
  const std::vector<std::pair<std::vector<double>, const char*>> cases{
      {with_nan, "seed 104 is nan"}, {with_inf, "seed 101 is -inf"}, {all_nan, "seed 101 is nan"}};
  for (const auto& [values, expected] : cases) {
    SCOPED_TRACE(expected);
    const DistributionAnalysis a =
        analyse_distribution("m", HigherIsBetter, 0.01, independent_arm(values), good);
    EXPECT_TRUE(a.candidate_not_finite);
    const GateDecision d = decide_alone(a);
    EXPECT_EQ(d.verdict, Verdict::kRegression);
    EXPECT_THAT(d.reason, ::testing::StartsWith("a seed diverged: "));
    EXPECT_THAT(d.reason, ::testing::HasSubstr(expected));
    EXPECT_THAT(format_distribution(a, d), ::testing::Not(::testing::HasSubstr("not tested")));
  }
  // A candidate of one diverged seed is named as such, not as "too few seeds".
  const DistributionAnalysis one =
      analyse_distribution("m", HigherIsBetter, 0.01, SeedSamples{{kNaN}, {7}}, good);
  EXPECT_EQ(decide_alone(one).verdict, Verdict::kRegression);
  EXPECT_THAT(one.problem, ::testing::HasSubstr("seed 7 is nan"));
}

TEST(DistributionGate, EachArmCarriesItsMeansStandardErrorAndInterval) {
  const SeedSamples baseline{{1.0, 2.0, 3.0}, {1, 2, 3}};
  const SeedSamples candidate{{2.0, 4.0}, {4, 5}};
  const DistributionAnalysis a =
      analyse_distribution("m", HigherIsBetter, 0.01, candidate, baseline);
  // Baseline: sd 1, sem 1/√3, t(0.975, 2) = 4.302652729749464.
  EXPECT_NEAR(a.baseline_sem, 1.0 / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(a.baseline_mean_low, 2.0 - 4.302652729749464 / std::sqrt(3.0), 1e-9);
  // Candidate: sd √2, sem 1, t(0.975, 1) = 12.706204736174705.
  EXPECT_NEAR(a.candidate_sem, 1.0, 1e-15);
  EXPECT_NEAR(a.candidate_mean_high, 3.0 + 12.706204736174705, 1e-9);
  // One seed has no standard error: NaN, never 0.
  const DistributionAnalysis one =
      analyse_distribution("m", HigherIsBetter, 0.01, SeedSamples{{2.0}, {4}}, baseline);
  EXPECT_TRUE(std::isnan(one.candidate_sem));
  EXPECT_TRUE(std::isnan(one.candidate_mean_low));
}

TEST(DistributionGate, FormatsOneReportLine) {
  DistributionAnalysis a;
  a.baseline_mean = 0.8743;
  a.baseline_sd = 0.0089;
  a.n_baseline = 8;
  a.candidate_mean = 0.8612;
  a.candidate_sd = 0.0101;
  a.n_candidate = 8;
  a.difference = -0.0131;
  a.ci_lower = -0.0232;
  a.ci_upper = -0.003;
  a.hedges_g = -1.31;
  a.probability_of_improvement = 0.16;
  a.p_worse = 0.0021;
  a.p_better = 0.9979;
  a.margin = 0.01;
  GateDecision d;
  d.p_worse_adjusted = 0.0042;
  d.p_better_adjusted = 1.0;
  // Without the arms' standard errors (one seed, or fields not set): mean ± sd (n) only.
  EXPECT_THAT(format_distribution(a, d),
              ::testing::StartsWith("0.8743±0.0089 (n=8) → 0.8612±0.0101 (n=8) · diff"));
  // Each arm's sem = sd/√8 and t interval mean ± t(0.975, 7) · sem (scipy.stats.t.interval:
  // [0.86686, 0.88174] and [0.85276, 0.86964]).
  set_mean_intervals(a);
  EXPECT_NEAR(a.baseline_sem, 0.0089 / std::sqrt(8.0), 1e-15);
  EXPECT_NEAR(a.baseline_mean_low, 0.8668594137974955, 1e-12);
  EXPECT_NEAR(a.candidate_mean_high, 0.86964381130846, 1e-12);
  EXPECT_EQ(format_distribution(a, d),
            "0.8743±0.0089 (n=8, sem 0.003147, 95% CI [0.8669, 0.8817]) → 0.8612±0.0101 (n=8, "
            "sem 0.003571, 95% CI [0.8528, 0.8696]) · diff -0.0131 [95% CI -0.0232, -0.003] "
            "· welch · g=-1.31 · P(improvement)=0.16 · p(worse)=0.0021 (Holm 0.0042) · "
            "margin 0.01");
  // An estimate on the good side shows the p-value that could make it IMPROVED.
  a.difference = 0.0131;
  EXPECT_THAT(format_distribution(a, d), ::testing::HasSubstr("p(better)=1 (Holm 1)"));
  EXPECT_EQ(gate_design_name(GateDesign::kPaired), "paired");
}

// Standard normal draws by Box–Muller on the raw 64-bit words of mt19937_64: the engine's
// output is fixed by the standard, std::normal_distribution's algorithm is not, so this keeps
// the property test's numbers the same on every standard library.
class Normal {
 public:
  explicit Normal(std::uint64_t seed) : engine_(seed) {}
  double operator()() {
    const double u1 = (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53;  // (0, 1)
    const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }

 private:
  std::mt19937_64 engine_;
};

// `trials` comparisons of 8 seeds per arm, unit noise, candidate shifted by `shift` standard
// deviations (negative: worse, HigherIsBetter), each decided alone at alpha 0.01, margin 0.
// Paired: both arms share the seeds and a per-seed effect (sd 1) that the pairing cancels.
double simulate(std::uint64_t rng_seed, int trials, double shift, bool paired) {
  constexpr std::size_t kSeeds = 8;
  Normal normal(rng_seed);
  int regressions = 0;
  for (int t = 0; t < trials; ++t) {
    SeedSamples baseline{{}, seed_range(1, kSeeds)};
    SeedSamples candidate{{}, seed_range(paired ? 1 : 101, kSeeds)};
    for (std::size_t i = 0; i < kSeeds; ++i) {
      const double seed_effect = paired ? normal() : 0.0;
      baseline.values.push_back(seed_effect + normal());
      candidate.values.push_back(seed_effect + shift + normal());
    }
    const auto a = analyse_distribution("m", HigherIsBetter, 0.0, candidate, baseline);
    EXPECT_TRUE(a.problem.empty()) << a.problem;
    EXPECT_EQ(a.design, paired ? GateDesign::kPaired : GateDesign::kIndependent);
    if (decide_alone(a, 0.01).verdict == Verdict::kRegression) ++regressions;
  }
  return static_cast<double>(regressions) / trials;
}

TEST(DistributionGateProperty, AaFalseAlarmRateStaysNearAlpha) {
  // 10000 A/A comparisons per design; the expected false REGRESSION rate is alpha = 1%, with a
  // binomial sd of 0.1 points: the 1.5% bound sits five sd above, so the fixed seed is not
  // what keeps this test green.
  for (const bool paired : {false, true}) {
    SCOPED_TRACE(paired ? "paired" : "welch");
    const double aa = simulate(20240611, 10000, 0.0, paired);
    std::printf("[ measured ] %s A/A false REGRESSION rate: %.2f%%\n", paired ? "paired" : "welch",
                100.0 * aa);
    EXPECT_LE(aa, 0.015);
  }
}

TEST(DistributionGateProperty, DetectsATrueOneSdDropAtTheTheoreticalPower) {
  // Planted: the wrong tail (detection near 0) or a two-sided p-value (its power is that of a
  // one-sided test at alpha / 2: 0.21 instead of 0.30 here). The reference is the one-sided
  // two-sample t power at df = 14 (Welch's estimated df is a little lower); 2000 trials give a
  // binomial sd of 1 point, and the tolerance of 4 points excludes the two-sided power.
  const double expected = stats::two_sample_power(1.0, 8, 1.0, 0.01);
  const double drop = simulate(7, 2000, -1.0, false);
  std::printf("[ measured ] welch 1-sd drop detection rate: %.2f%% (theory %.2f%%)\n", 100.0 * drop,
              100.0 * expected);
  EXPECT_GT(drop, 10 * 0.01);
  EXPECT_NEAR(drop, expected, 0.04);

  // Paired: the per-seed effect cancels, leaving differences of sd sqrt(2); the same 1-sd drop
  // is then a t test with n = 8 pairs, ncp = 1 / (sqrt(2) / sqrt(8)) = 2, df = 7: power 0.24
  // (two-sided: 0.16).
  const double expected_paired = stats::one_sided_t_power(2.0, 7.0, 0.01);
  const double paired_drop = simulate(8, 2000, -1.0, true);
  std::printf("[ measured ] paired 1-sd drop detection rate: %.2f%% (theory %.2f%%)\n",
              100.0 * paired_drop, 100.0 * expected_paired);
  EXPECT_GT(paired_drop, 10 * 0.01);
  EXPECT_NEAR(paired_drop, expected_paired, 0.04);
}

}  // namespace
}  // namespace mlregress::internal
