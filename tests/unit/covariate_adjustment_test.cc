// Variance reduction with a pre-registered covariate (Margin{.covariate}, CUPED): the slope and
// the variance it removes, A/A false alarms still within alpha, more power at the same seeds, and
// the cases where adjusting would be wrong, each planted: a covariate the change moved (its arms
// differ), a paired comparison (the covariate cancels), a covariate missing for a seed, and one
// the baseline did not pre-register.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "analysis/distribution_gate.h"
#include "comparison/comparator.h"
#include "statistics/control_variate.h"
#include "tests/support/clopper_pearson.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

TEST(ControlVariate, RecoversTheSlopeAndTheVarianceItExplains) {
  // y = 2x + e per arm, arms shifted by 1 in y only.
  const std::vector<double> x1{0.1, 0.4, -0.3, 0.2, -0.1, 0.0};
  const std::vector<double> e1{0.01, -0.02, 0.015, -0.005, 0.0, 0.01};
  const std::vector<double> x2{-0.2, 0.3, 0.1, -0.4, 0.25, 0.05};
  const std::vector<double> e2{-0.01, 0.02, 0.0, 0.005, -0.015, 0.01};
  std::vector<double> y1, y2;
  for (std::size_t i = 0; i < x1.size(); ++i) y1.push_back(2.0 * x1[i] + e1[i]);
  for (std::size_t i = 0; i < x2.size(); ++i) y2.push_back(1.0 + 2.0 * x2[i] + e2[i]);
  const stats::ControlVariateAdjustment a = stats::adjust_by_covariate(y1, x1, y2, x2);
  EXPECT_NEAR(a.theta, 2.0, 0.05);
  EXPECT_GT(a.variance_explained, 0.99);
  // The adjusted difference of means is the difference corrected for x's chance imbalance.
  double m1 = 0, m2 = 0;
  for (double v : a.first_adjusted) m1 += v / 6.0;
  for (double v : a.second_adjusted) m2 += v / 6.0;
  EXPECT_NEAR(m2 - m1, 1.0, 0.02);

  EXPECT_THROW(
      stats::adjust_by_covariate(y1, std::vector<double>(6, 0.5), y2, std::vector<double>(6, 0.5)),
      std::invalid_argument);  // a constant covariate explains nothing
  const std::vector<double> too_few{0.1, 0.2};
  EXPECT_THROW(stats::adjust_by_covariate(y1, too_few, y2, x2), std::invalid_argument);
}

// The XOR-like world: accuracy = data difficulty (the covariate, shared by any model trained on
// that seed's data) + training noise; rho² = 0.4 as measured on the XOR study.
struct World {
  std::mt19937_64 rng;
  double covariate_sd = 0.0075, training_sd = 0.0068;
  // `moved`: the change also shifts the covariate (it is not a property of the data alone).
  CovariateSamples arms(double shift, int n_candidate, int n_baseline, double moved = 0.0,
                        SeedSamples* candidate = nullptr, SeedSamples* baseline = nullptr) {
    std::normal_distribution<double> z(0.0, 1.0);
    CovariateSamples cov;
    cov.name = "test_set_rule_accuracy";
    for (int i = 0; i < n_baseline; ++i) {
      const double x = 0.88 + covariate_sd * z(rng);
      cov.baseline.values.push_back(x);
      cov.baseline.seeds.push_back(i);
      baseline->values.push_back(0.873 + 0.72 * (x - 0.88) + training_sd * z(rng));
      baseline->seeds.push_back(i);
    }
    for (int i = 0; i < n_candidate; ++i) {
      const double x = 0.88 + moved + covariate_sd * z(rng);
      cov.candidate.values.push_back(x);
      cov.candidate.seeds.push_back(1000 + i);
      candidate->values.push_back(0.873 + shift + 0.72 * (x - 0.88) + training_sd * z(rng));
      candidate->seeds.push_back(1000 + i);
    }
    return cov;
  }
};

struct Outcome {
  int regressions = 0, passes = 0;
};

// The gate's analysis of `test_accuracy` (higher is better, margin 0.005), without a covariate...
DistributionAnalysis accuracy_analysis(const SeedSamples& candidate, const SeedSamples& baseline) {
  return analyse_distribution("test_accuracy", Direction::HigherIsBetter, 0.005, candidate,
                              baseline);
}

// ...and with `covariate` (nullptr: none).
DistributionAnalysis accuracy_analysis(const SeedSamples& candidate, const SeedSamples& baseline,
                                       const CovariateSamples* covariate) {
  return analyse_distribution("test_accuracy", Direction::HigherIsBetter, 0.005, candidate,
                              baseline, covariate);
}

// One draw of 40 seeds an arm from World(seed), no shift, the change moving the covariate by
// `moved`: the analysis without the covariate and with it.
struct PlainAndAdjusted {
  DistributionAnalysis plain, adjusted;
};

PlainAndAdjusted analyse_both(std::uint64_t seed, double moved) {
  World world{std::mt19937_64(seed)};
  SeedSamples candidate, baseline;
  const CovariateSamples cov = world.arms(0.0, 40, 40, moved, &candidate, &baseline);
  return {accuracy_analysis(candidate, baseline), accuracy_analysis(candidate, baseline, &cov)};
}

Outcome simulate(double shift, bool with_covariate, int runs, std::uint64_t seed) {
  World world{std::mt19937_64(seed)};
  Outcome out;
  for (int r = 0; r < runs; ++r) {
    SeedSamples candidate, baseline;
    const CovariateSamples cov = world.arms(shift, 20, 40, 0.0, &candidate, &baseline);
    const std::vector<DistributionAnalysis> one{
        accuracy_analysis(candidate, baseline, with_covariate ? &cov : nullptr)};
    const Verdict v = decide_gate(one, 0.01)[0].verdict;
    out.regressions += v == Verdict::kRegression;
    out.passes += v == Verdict::kPass;
  }
  return out;
}

TEST(CovariateAdjustment, KeepsAlphaAndGainsPowerAndPasses) {
  constexpr int kRuns = 4000;
  const Outcome aa_plain = simulate(0.0, false, kRuns, 1);
  const Outcome aa_adjusted = simulate(0.0, true, kRuns, 1);
  const Outcome worse_plain = simulate(-0.008, false, kRuns, 2);
  const Outcome worse_adjusted = simulate(-0.008, true, kRuns, 2);
  std::cout << fmt::format(
      "A/A PASS {:.1f}% plain, {:.1f}% adjusted; false REGRESSION {} / {} of {}; a drop of 0.008 "
      "caught {:.1f}% plain, {:.1f}% adjusted\n",
      100.0 * aa_plain.passes / kRuns, 100.0 * aa_adjusted.passes / kRuns, aa_plain.regressions,
      aa_adjusted.regressions, kRuns, 100.0 * worse_plain.regressions / kRuns,
      100.0 * worse_adjusted.regressions / kRuns);
  EXPECT_LE(test_support::clopper_pearson(aa_adjusted.regressions, kRuns).low, 0.01);
  EXPECT_GT(aa_adjusted.passes, aa_plain.passes + kRuns / 20);
  EXPECT_GT(worse_adjusted.regressions, worse_plain.regressions + kRuns / 20);
}

TEST(CovariateAdjustment, ReportsTheSlopeAndTheVarianceRemoved) {
  const auto [plain, a] = analyse_both(3, 0.0);
  ASSERT_TRUE(a.covariate.has_value());
  EXPECT_TRUE(a.covariate->applied) << a.covariate->note;
  EXPECT_NEAR(a.covariate->theta, 0.72, 0.25);
  EXPECT_GT(a.covariate->variance_explained, 0.2);
  EXPECT_LT(a.standard_error, plain.standard_error);
  EXPECT_THAT(format_covariate_use(*a.covariate),
              HasSubstr("adjusted for 'test_set_rule_accuracy' (slope"));
  EXPECT_EQ(a.candidate_mean, plain.candidate_mean);  // the means shown stay the metric's own
}

// Planted: the change shifts the covariate by 3 of its sds. Adjusting would subtract theta times
// that shift from the difference — a bias the gate must not accept; the plain test runs.
TEST(CovariateAdjustment, ACovariateTheChangeMovedIsNotUsed) {
  const auto [plain, a] = analyse_both(4, 0.0225);
  ASSERT_TRUE(a.covariate.has_value());
  EXPECT_FALSE(a.covariate->applied);
  EXPECT_THAT(a.covariate->note, HasSubstr("differs between the arms"));
  EXPECT_EQ(a.difference, plain.difference);
  EXPECT_EQ(a.p_worse, plain.p_worse);
}

TEST(CovariateAdjustment, PairedSeedsAndMissingValuesAreNotAdjusted) {
  World world{std::mt19937_64(5)};
  SeedSamples candidate, baseline;
  CovariateSamples cov = world.arms(0.0, 20, 40, 0.0, &candidate, &baseline);
  // The same seeds as the baseline's first 20: paired; the covariate cancels.
  SeedSamples same = candidate;
  SeedSamples base20{{baseline.values.begin(), baseline.values.begin() + 20},
                     {baseline.seeds.begin(), baseline.seeds.begin() + 20}};
  for (std::size_t i = 0; i < same.seeds.size(); ++i) same.seeds[i] = i;
  const DistributionAnalysis paired = accuracy_analysis(same, base20, &cov);
  EXPECT_EQ(paired.design, GateDesign::kPaired);
  ASSERT_TRUE(paired.covariate.has_value());
  EXPECT_FALSE(paired.covariate->applied);
  EXPECT_THAT(paired.covariate->note, HasSubstr("paired on the same seeds"));

  // Two seeds in an arm leave no degree of freedom for the slope: not adjusted, and no throw.
  const SeedSamples two{{candidate.values[0], candidate.values[1]},
                        {candidate.seeds[0], candidate.seeds[1]}};
  const DistributionAnalysis few = accuracy_analysis(two, baseline, &cov);
  ASSERT_TRUE(few.covariate.has_value());
  EXPECT_FALSE(few.covariate->applied);
  EXPECT_THAT(few.covariate->note, HasSubstr("fewer than 3 seeds"));

  // A baseline promoted before the covariate was recorded: not adjusted, and it says so.
  cov.baseline = {};
  const DistributionAnalysis missing = accuracy_analysis(candidate, baseline, &cov);
  ASSERT_TRUE(missing.covariate.has_value());
  EXPECT_FALSE(missing.covariate->applied);
  EXPECT_THAT(missing.covariate->note, HasSubstr("the baseline lacks a finite"));
  EXPECT_THAT(missing.covariate->note, HasSubstr("promote a run that records it"));
}

// The baseline stores the covariate it was promoted with (`covariate = "..."`, its
// pre-registration). A test that now declares another one, or none, or one where the baseline
// registered none, is NOT_COMPARABLE with a note naming both: the analysis must not be chosen
// after the seeds fell. Planted: the same samples with the same covariate are compared.
TEST(CovariateAdjustment, ACovariateTheBaselineDidNotRegisterIsNotComparable) {
  BaselineMetric stored;
  stored.direction = Direction::HigherIsBetter;
  stored.policy = Margin{0.01, "difficulty"};
  stored.seeds = {0, 1, 2, 3};
  stored.samples = {0.87, 0.88, 0.86, 0.875};
  MetricRecord metric{"accuracy", 0.87, Direction::HigherIsBetter, Margin{0.01, "difficulty"}};
  metric.sample_seeds = {100, 101, 102, 103};
  metric.samples = {0.871, 0.869, 0.88, 0.866};
  EXPECT_EQ(compare_distribution(metric, &stored).verdict, Verdict::kInconclusive);  // pending

  metric.policy = Margin{0.01, "test_set_accuracy"};
  MetricComparison c = compare_distribution(metric, &stored);
  EXPECT_EQ(c.verdict, Verdict::kNotComparable);
  EXPECT_THAT(c.note, HasSubstr("the baseline pre-registered covariate 'difficulty', the test "
                                "now declares covariate 'test_set_accuracy'"));
  metric.policy = Margin{0.01};
  c = compare_distribution(metric, &stored);
  EXPECT_EQ(c.verdict, Verdict::kNotComparable);
  EXPECT_THAT(c.note, HasSubstr("now declares no covariate"));
  stored.policy = Margin{0.01};
  metric.policy = Margin{0.01, "difficulty"};
  EXPECT_THAT(compare_distribution(metric, &stored).note,
              HasSubstr("the baseline pre-registered no covariate, the test now declares "
                        "covariate 'difficulty'"));
}

}  // namespace
}  // namespace mlregress::internal
