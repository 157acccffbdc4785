// The simulated power of the gate that will run: it agrees with the analytic power of one look
// where that is known, it exposes the single-Welch detectable effect promote used to print as
// an overstatement once a margin and a sequential plan judge the candidate, the effect it states
// is the smallest with 80% power, and it is deterministic and sentence-safe on unusable samples.
#include "analysis/gate_power.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "baselines/stored_samples_power.h"
#include "statistics/moments.h"
#include "statistics/power.h"
#include "statistics/sequential_bound.h"
#include "statistics/t_distribution.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

// n normal samples, rescaled to mean `mean` and sample sd `sd` exactly.
SeedSamples normal_samples(std::size_t n, double mean, double sd, std::uint64_t rng_seed = 7) {
  std::mt19937_64 rng(rng_seed);
  std::normal_distribution<double> normal;
  SeedSamples s;
  for (std::size_t i = 0; i < n; ++i) {
    s.values.push_back(normal(rng));
    s.seeds.push_back(1000 + i);
  }
  const stats::SampleSummary summary = stats::summarize_samples(s.values);
  for (double& v : s.values) v = mean + (v - summary.mean) / summary.sd * sd;
  return s;
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Binomial standard error of a simulated power.
double simulation_error(double power, int runs) { return std::sqrt(power * (1 - power) / runs); }

TEST(GatePowerTest, OneLookAtLargeNAgreesWithTheAnalyticPowerAgainstAFixedArm) {
  // n fresh seeds against n stored ones that stay fixed: the Welch statistic's numerator varies
  // with the candidate's mean only (sd/sqrt(n)), its standard error is sd·sqrt(2/n), so
  //   power = Phi((delta/se - t_crit) · sqrt(2)),
  // steeper than the two-sample non-central t power, which also lets the baseline arm vary
  // (the two agree at 50%: delta/se = t_crit).
  const std::size_t n = 200;
  const double sd = 1.0, alpha = 0.01;
  GatePowerQuestion q{.direction = Direction::HigherIsBetter,
                      .margin = 0.0,
                      .baseline = normal_samples(n, 0.5, sd),
                      .block = 0,
                      .cap = static_cast<int>(n),
                      .family = 1,
                      .alpha = alpha,
                      .runs = 4000};
  const double se = sd * std::sqrt(2.0 / n);
  const double t_crit = stats::t_upper_quantile(alpha, 2.0 * n - 2.0);
  for (const double ncp : {t_crit, t_crit + 0.5}) {
    const double analytic = normal_cdf((ncp - t_crit) * std::sqrt(2.0));
    const GatePowerAtEffect simulated = simulated_gate_power(q, ncp * se);
    // 4 simulation errors, plus the bootstrap's plug-in variance (n-1)/n and the t's tails.
    EXPECT_NEAR(simulated.power, analytic, 4 * simulation_error(analytic, q.runs) + 0.01)
        << "at ncp " << ncp;
    EXPECT_EQ(simulated.median_seeds, n);
  }
  // At 50% (ncp = t_crit) the two-sample non-central t power is the same number.
  EXPECT_NEAR(stats::two_sample_power(t_crit * se, n, sd, alpha), 0.5, 0.01);
}

GatePowerQuestion sequential_question(double margin_in_sd, int family = 1) {
  return GatePowerQuestion{.direction = Direction::HigherIsBetter,
                           .margin = margin_in_sd,
                           .baseline = normal_samples(40, 0.9, 1.0),
                           .block = 8,
                           .cap = 40,
                           .family = family,
                           .alpha = 0.01};
}

TEST(GatePowerTest, TheSingleWelchDetectableEffectIsAnOverstatementUnderTheRealGate) {
  const GatePowerQuestion q = sequential_question(0.55);
  const double old_effect = stats::minimum_detectable_effect(40, 1.0, 0.01, 0.8);
  const GatePowerAtEffect at_old = simulated_gate_power(q, old_effect);
  EXPECT_LT(at_old.power, 0.6) << "the old sentence promised 80% at " << old_effect;
  EXPECT_GT(gate_power(q).detectable.effect, old_effect);
  // The margin is part of the gate (at 0.55 sd the p-value binds first; at 1 sd the margin
  // does): a drop of exactly the margin must also be estimated beyond it, so without a margin
  // the same drop is caught more often.
  const double at_margin = simulated_gate_power(sequential_question(1.0), 1.0).power;
  EXPECT_GT(simulated_gate_power(sequential_question(0.0), 1.0).power, at_margin + 0.1);
}

TEST(GatePowerTest, TheStatedEffectIsTheSmallestWithEightyPercentPower) {
  for (const int family : {1, 3}) {
    const GatePowerQuestion q = sequential_question(0.55, family);
    const GatePower power = gate_power(q);
    ASSERT_TRUE(power.problem.empty()) << power.problem;
    EXPECT_GE(simulated_gate_power(q, power.detectable.effect).power, 0.8);
    EXPECT_LT(simulated_gate_power(q, 0.9 * power.detectable.effect).power, 0.8);
    EXPECT_EQ(power.detectable.power, simulated_gate_power(q, power.detectable.effect).power);
    EXPECT_GT(power.at_two_margins.power, power.at_margin.power);
  }
}

TEST(GatePowerTest, AFixedSeedTestIsOneLookAtAlphaOverTheFamily) {
  GatePowerQuestion q = sequential_question(0.2);
  q.block = 0;
  q.cap = 40;
  const GatePower one = gate_power(q);
  q.family = 4;
  const GatePower four = gate_power(q);
  EXPECT_EQ(one.detectable.median_seeds, 40);
  EXPECT_GT(four.detectable.effect, one.detectable.effect);
  EXPECT_GE(four.detectable.power, 0.8);
  EXPECT_THAT(gate_power_sentence(q, four), HasSubstr("40 of them in one look, alpha 0.01 / 4 "
                                                      "hypotheses, Holm's first step"));
}

TEST(GatePowerTest, TheSameInputsGiveTheSameSentence) {
  const GatePowerQuestion q = sequential_question(0.55, 2);
  const GatePower a = gate_power(q), b = gate_power(q);
  EXPECT_EQ(a.detectable.effect, b.detectable.effect);
  EXPECT_EQ(a.detectable.power, b.detectable.power);
  EXPECT_EQ(a.at_margin.power, b.at_margin.power);
  EXPECT_EQ(gate_power_sentence(q, a), gate_power_sentence(q, b));
  EXPECT_THAT(gate_power_sentence(q, a),
              HasSubstr("(fresh seeds, 8 at a time up to 40, alpha 0.01 / 2 hypotheses, margin "
                        "0.55) catches a drop of "));
  EXPECT_THAT(gate_power_sentence(q, a), HasSubstr("% power (median "));
  EXPECT_THAT(gate_power_sentence(q, a), HasSubstr("simulated from these 40 samples, 2000 runs)"));
  EXPECT_THAT(gate_power_sentence(q, a), HasSubstr("; at the margin 0.55: "));
  EXPECT_THAT(gate_power_sentence(q, a), HasSubstr("paired rerun"));
}

TEST(GatePowerTest, UnusableSamplesGiveASentenceNotACrash) {
  GatePowerQuestion q = sequential_question(0.55);
  q.baseline = SeedSamples{{0.9}, {1}};
  EXPECT_THAT(gate_power_sentence(q, gate_power(q)),
              HasSubstr("no power of the gate stated: the baseline holds 1 sample(s)"));
  q.baseline = SeedSamples{{0.9, 0.9, 0.9}, {1, 2, 3}};
  EXPECT_THAT(gate_power_sentence(q, gate_power(q)),
              HasSubstr("the 3 stored samples are all 0.9: there is no spread"));
  q.baseline = SeedSamples{};
  EXPECT_THAT(gate_power_sentence(q, gate_power(q)), HasSubstr("no power of the gate stated"));
  q = sequential_question(0.55);
  q.direction = Direction::MustEqual;
  EXPECT_THAT(gate_power_sentence(q, gate_power(q)), HasSubstr("must-equal"));
  EXPECT_THROW(simulated_gate_power(q, 1.0), std::invalid_argument);
}

// A metric adjusted by a covariate (Margin{.covariate}) is simulated adjusted: each simulated
// seed draws its value and its covariate together. With a covariate that explains most of the
// spread, the gate catches a much smaller drop than the same samples unadjusted. Planted: a
// simulation that ignored the covariate would state the same effect for both.
TEST(GatePowerTest, ACovariateIsSimulatedWithItsMetric) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  SeedSamples stored;
  std::vector<double> covariate;
  for (std::uint64_t i = 0; i < 40; ++i) {
    const double x = normal(rng);
    covariate.push_back(x);
    stored.values.push_back(0.87 + 0.008 * x + 0.003 * normal(rng));  // rho² about 0.88
    stored.seeds.push_back(i);
  }
  GatePowerQuestion plain{.direction = Direction::HigherIsBetter,
                          .margin = 0.0,
                          .baseline = stored,
                          .block = 8,
                          .cap = 40,
                          .family = 1,
                          .runs = 600};
  GatePowerQuestion adjusted = plain;
  adjusted.covariate = "difficulty";
  adjusted.covariate_values = covariate;
  const GatePower without = gate_power(plain);
  const GatePower with = gate_power(adjusted);
  ASSERT_TRUE(without.problem.empty()) << without.problem;
  ASSERT_TRUE(with.problem.empty()) << with.problem;
  EXPECT_LT(with.detectable.effect, 0.6 * without.detectable.effect);
  EXPECT_THAT(gate_power_sentence(adjusted, with), HasSubstr("adjusted by 'difficulty'"));
  // Its floor counts one seed's sd after the covariate: sd · sqrt(1 - r²), r the stored values'
  // correlation with it (computed here by hand).
  ASSERT_TRUE(with.expected_seeds.has_value());
  const stats::SampleSummary y = stats::summarize_samples(stored.values);
  const stats::SampleSummary x = stats::summarize_samples(covariate);
  double sxy = 0.0;
  for (std::size_t i = 0; i < covariate.size(); ++i) {
    sxy += (stored.values[i] - y.mean) * (covariate[i] - x.mean);
  }
  const double r = sxy / (static_cast<double>(covariate.size() - 1) * y.sd * x.sd);
  EXPECT_NEAR(with.expected_seeds->d, with.detectable.effect / (y.sd * std::sqrt(1.0 - r * r)),
              1e-9);
  EXPECT_THAT(gate_power_sentence(adjusted, with),
              HasSubstr("sd of one seed after the covariate)"));

  adjusted.covariate_values.pop_back();
  EXPECT_THAT(gate_power(adjusted).problem, HasSubstr("has 39 stored values for 40 samples"));
}

// Seeds(8).up_to(40) against 200 stored samples of sd 0.006 (exactly), margin 0.005, 2 hypotheses.
GatePowerQuestion eight_up_to_forty(int runs) {
  return {.direction = Direction::HigherIsBetter,
          .margin = 0.005,
          .baseline = normal_samples(200, 0.87, 0.006),
          .block = 8,
          .cap = 40,
          .family = 2,
          .runs = runs};
}

// A sequential design states what it costs: its mean seeds under no change and at the effect it
// states, beside Wald's floor at the metric's level (alpha / family), the target power and d =
// effect / sd of one seed. The floor is computed from the formula, checked here against
// stats::wald_expected_seeds with d taken from the samples' own sd (exactly 0.006 by
// construction); the simulated means lie above it, as every test's must. Planted: a floor at
// the run's alpha instead of alpha / family is lower, and a fixed-seed test states no expected
// seeds (it always runs cap).
TEST(GatePowerTest, ASequentialDesignStatesItsExpectedSeedsBesideWaldsBound) {
  GatePowerQuestion q = eight_up_to_forty(600);
  const GatePower power = gate_power(q);
  ASSERT_TRUE(power.problem.empty()) << power.problem;
  ASSERT_TRUE(power.expected_seeds.has_value());
  const ExpectedSeeds& e = *power.expected_seeds;
  EXPECT_NEAR(e.d, power.detectable.effect / 0.006, 1e-9);
  const stats::ExpectedSeedsBound floor = stats::wald_expected_seeds(0.01 / 2, 0.2, e.d);
  EXPECT_DOUBLE_EQ(e.bound_h0, floor.h0);
  EXPECT_DOUBLE_EQ(e.bound_h1, floor.h1);
  EXPECT_LT(stats::wald_expected_seeds(0.01, 0.2, e.d).h0, e.bound_h0);  // the planted level
  EXPECT_EQ(e.mean_h1, power.detectable.mean_seeds);
  EXPECT_GE(e.mean_h0, 8.0);  // at least the first block
  EXPECT_LE(e.mean_h0, 40.0);
  EXPECT_GT(e.mean_h0, e.bound_h0);
  EXPECT_GT(e.mean_h1, e.bound_h1);
  EXPECT_NEAR(simulated_gate_power(q, 0.0).mean_seeds, e.mean_h0, 1e-12);
  EXPECT_THAT(gate_power_sentence(q, power), HasSubstr("; expected seeds "));
  // The 95th percentile under no change, of the same simulated runs: a look's seeds (8 to 40).
  EXPECT_GE(e.p95_h0, e.mean_h0);
  EXPECT_LE(e.p95_h0, 40);
  EXPECT_EQ(e.p95_h0 % 8, 0);
  EXPECT_EQ(simulated_gate_power(q, 0.0).p95_seeds, e.p95_h0);
  EXPECT_THAT(gate_power_sentence(q, power),
              HasSubstr(fmt::format(" under no change (95% within {}) and ", e.p95_h0)));
  EXPECT_THAT(gate_power_sentence(q, power),
              HasSubstr(fmt::format("can average fewer than {:.1f} and {:.1f} (Wald's bound at d "
                                    "{:.2f} sd of one seed)",
                                    floor.h0, floor.h1, e.d)));

  GatePowerQuestion fixed = q;
  fixed.block = 0;
  const GatePower fixed_power = gate_power(fixed);
  ASSERT_TRUE(fixed_power.problem.empty()) << fixed_power.problem;
  EXPECT_FALSE(fixed_power.expected_seeds.has_value());
  EXPECT_THAT(gate_power_sentence(fixed, fixed_power), ::testing::Not(HasSubstr("expected seeds")));
}

// A test declared Seeds(8).up_to(40).pass_early() is simulated with the PASS error spent
// Pocock-type, as the gate will spend it: unchanged candidates stop at an earlier look (the
// median seeds promote prints), and the sentence names the design. Planted: a simulation that
// ignored the option would give the same seeds as the default design.
TEST(GatePowerTest, PassingEarlyIsSimulatedAsTheGateWillSpendIt) {
  GatePowerQuestion late = eight_up_to_forty(1000);
  GatePowerQuestion early = late;
  early.pass_spending = stats::SpendingFunction::kPocock;
  const GatePowerAtEffect unchanged_late = simulated_gate_power(late, 0.0);
  const GatePowerAtEffect unchanged_early = simulated_gate_power(early, 0.0);
  EXPECT_LT(unchanged_early.median_seeds, unchanged_late.median_seeds);
  EXPECT_LE(unchanged_early.power, 0.01);
  const GatePower power = gate_power(early);
  ASSERT_TRUE(power.problem.empty()) << power.problem;
  EXPECT_THAT(gate_power_sentence(early, power),
              HasSubstr("(fresh seeds, 8 at a time up to 40, PASS error spent early, alpha"));
  EXPECT_THAT(gate_power_sentence(late, gate_power(late)),
              ::testing::Not(HasSubstr("PASS error spent early")));

  // What promote and report.html ask: the test's recorded design, not the default.
  TestResult test;
  test.seeded = true;
  test.seed_block = 8;
  test.seed_cap = 40;
  test.seed_pass_spending = stats::SpendingFunction::kPocock;
  MetricRecord metric;
  metric.name = "accuracy";
  metric.direction = Direction::HigherIsBetter;
  metric.policy = Margin{.delta = 0.005};
  BaselineMetric stored;
  stored.samples = early.baseline.values;
  stored.seeds = early.baseline.seeds;
  EXPECT_EQ(stored_samples_question(metric, stored, test, 2).pass_spending,
            stats::SpendingFunction::kPocock);
  test.seed_pass_spending = stats::SpendingFunction::kOBrienFleming;
  EXPECT_EQ(stored_samples_question(metric, stored, test, 2).pass_spending,
            stats::SpendingFunction::kOBrienFleming);
}

}  // namespace
}  // namespace mlregress::internal
