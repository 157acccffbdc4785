// A paired rerun's cost on the baseline's stored spread of paired differences
// (analysis/paired_rerun_cost.h): the default design's likelihood-ratio looks catch a degradation
// of the margin with the power they are calibrated to and take seeds near Wald's bound; a spread
// twice as wide costs more seeds; a design that looks every 8 seeds only spends more (planted); no
// spread, no margin or too few seeds give nothing to state, and promote's sentence says so.
#include "analysis/paired_rerun_cost.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/gate_power.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

constexpr double kMargin = 0.005;
constexpr int kRuns = 2000;

// 52 stored seeds (values of no consequence to paired differences) and a spread of `sd`.
SeedSamples stored(double sd) {
  SeedSamples s;
  for (int i = 0; i < 52; ++i) {
    s.seeds.push_back(static_cast<std::uint64_t>(51 - i));  // stored out of order
    s.values.push_back(0.87 + 0.001 * std::sin(i));
  }
  s.paired_spread = PairedSpread{.sd = sd, .pairs = 52};
  return s;
}

SequentialPlan likelihood_ratio_plan(int first, int next) {
  SequentialPlan plan{.block = first, .cap = 52, .next_block = next};
  plan.likelihood_ratio = true;
  plan.pass_error = 0.2;
  plan.family = 2;
  return plan;
}

TEST(PairedRerunCost, TheDefaultDesignHasItsPowerAndComesNearTheBound) {
  const auto cost = paired_rerun_cost(stored(0.0057), likelihood_ratio_plan(2, 2),
                                      Direction::HigherIsBetter, kMargin, 0.01, kRuns);
  ASSERT_TRUE(cost.has_value());
  EXPECT_EQ(cost->pairs, 52);
  EXPECT_NEAR(cost->d, kMargin / 0.0057, 1e-12);
  // Calibrated to power 0.8 at the margin (its sd known to 51 degrees of freedom); 2000 reruns
  // leave a standard error of 0.9%.
  EXPECT_NEAR(cost->power_at_margin, 0.8, 0.03);
  EXPECT_GT(cost->mean_h0, cost->bound_h0);
  EXPECT_LT(cost->mean_h0, 1.3 * cost->bound_h0);
  EXPECT_LT(cost->mean_h1, 1.3 * cost->bound_h1);

  // The same rerun twice: the same draws.
  const auto again = paired_rerun_cost(stored(0.0057), likelihood_ratio_plan(2, 2),
                                       Direction::HigherIsBetter, kMargin, 0.01, kRuns);
  EXPECT_EQ(again->mean_h0, cost->mean_h0);
  EXPECT_EQ(again->power_at_margin, cost->power_at_margin);

  // Seeds that move twice as far make the margin half as many sds: more seeds.
  const auto wider = paired_rerun_cost(stored(0.0114), likelihood_ratio_plan(2, 2),
                                       Direction::HigherIsBetter, kMargin, 0.01, kRuns);
  EXPECT_GT(wider->mean_h0, 1.5 * cost->mean_h0);
  // Planted: looks every 8 seeds only spend at least 8 whatever the seeds say.
  const auto every_eight = paired_rerun_cost(stored(0.0057), likelihood_ratio_plan(8, 8),
                                             Direction::HigherIsBetter, kMargin, 0.01, kRuns);
  EXPECT_GE(every_eight->mean_h0, 8.0);
  EXPECT_GT(every_eight->mean_h0, 1.3 * every_eight->bound_h0);
}

// The 95th percentile under no change: a constant PASS boundary's long tail (14 seeds, 3.4 x
// Wald's bound on this shape, runner/docs/seeded-tests.md), cut to 10 by a PASS boundary rising by
// 2 from 10 seeds (pass_rise_frontier: 95.0% of unchanged runs stop by then), for more seeds on
// average; the default's looks choose such a rise for themselves, within 1.3 x the bound.
TEST(PairedRerunCost, APassBoundaryThatRisesCutsThe95thPercentile) {
  SequentialPlan constant_plan = likelihood_ratio_plan(2, 2);
  constant_plan.constant_pass = true;
  const auto constant = paired_rerun_cost(stored(0.0057), constant_plan, Direction::HigherIsBetter,
                                          kMargin, 0.01, kRuns);
  SequentialPlan rising = likelihood_ratio_plan(2, 2);
  rising.pass_rise = 2.0;
  rising.pass_rise_from = 10;
  const auto risen =
      paired_rerun_cost(stored(0.0057), rising, Direction::HigherIsBetter, kMargin, 0.01, kRuns);
  const auto chosen = paired_rerun_cost(stored(0.0057), likelihood_ratio_plan(2, 2),
                                        Direction::HigherIsBetter, kMargin, 0.01, kRuns);
  ASSERT_TRUE(constant && risen && chosen);
  EXPECT_GE(constant->p95_h0, 12);
  EXPECT_LE(risen->p95_h0, 10);
  EXPECT_GE(risen->p95_h0, constant->mean_h0);
  EXPECT_GT(risen->mean_h0, constant->mean_h0);
  EXPECT_NEAR(risen->power_at_margin, 0.8, 0.03);
  EXPECT_LT(chosen->p95_h0, constant->p95_h0);
  EXPECT_GT(chosen->mean_h0, constant->mean_h0);
  EXPECT_LE(chosen->mean_h0, 1.35 * chosen->bound_h0);
  EXPECT_NEAR(chosen->power_at_margin, 0.8, 0.03);
}

TEST(PairedRerunCost, NothingToStateWithoutASpreadAMarginOrTheSeeds) {
  SeedSamples none = stored(0.0057);
  none.paired_spread.reset();
  const SequentialPlan plan = likelihood_ratio_plan(2, 2);
  EXPECT_FALSE(paired_rerun_cost(none, plan, Direction::HigherIsBetter, kMargin, 0.01, kRuns));
  EXPECT_FALSE(
      paired_rerun_cost(stored(0.0057), plan, Direction::HigherIsBetter, 0.0, 0.01, kRuns));
  EXPECT_FALSE(paired_rerun_cost(stored(0.0057), plan, Direction::MustEqual, kMargin, 0.01, kRuns));
  SequentialPlan wider_cap = plan;
  wider_cap.cap = 60;  // more seeds than the baseline holds
  EXPECT_FALSE(paired_rerun_cost(stored(0.0057), wider_cap, Direction::HigherIsBetter, kMargin,
                                 0.01, kRuns));
}

TEST(PairedRerunCost, PromotesSentenceStatesItOrSaysHowToHaveIt) {
  GatePowerQuestion q{.direction = Direction::HigherIsBetter,
                      .margin = kMargin,
                      .baseline = stored(0.0057),
                      .block = 2,
                      .cap = 52,
                      .family = 2,
                      .pass_error = 0.2,
                      .next_block = 2,
                      .likelihood_ratio = true,
                      .runs = 400};
  const std::string with_spread = gate_power_sentence(q, gate_power(q));
  EXPECT_THAT(with_spread, HasSubstr("; a paired rerun on the stored seeds (the CI default), each "
                                     "seed moving by the stored spread of paired differences (sd "
                                     "0.0057, 52 pairs): expected seeds "));
  EXPECT_THAT(with_spread, ::testing::ContainsRegex("under no change \\(95% within [0-9]+\\) "
                                                    "and [0-9.]+ at the margin"));
  EXPECT_THAT(with_spread, HasSubstr("at the margin, where it is caught with "));
  EXPECT_THAT(with_spread, HasSubstr("(Wald's bound at d 0.88)"));
  q.baseline.paired_spread.reset();
  EXPECT_THAT(gate_power_sentence(q, gate_power(q)),
              HasSubstr("is not simulated: its power depends on how far each seed's value moves "
                        "between two builds, which these samples do not show (a stored spread of "
                        "paired differences would: promote --paired-spread)"));
}

}  // namespace
}  // namespace mlregress::internal
