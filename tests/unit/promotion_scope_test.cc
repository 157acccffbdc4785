// Where promote stores an exact value. Planted: every exact value kept per environment profile
// (a new CI runner would stop gating counts and steps), or a float stored portable (a runner
// with other math kernels would fail on a rounding difference), or the scope a test states
// ignored.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "baselines/promotion.h"

namespace mlregress::internal {
namespace {

RunRecord run_recording(const std::vector<MetricRecord>& metrics) {
  RunRecord record;
  record.path = "runs/r1";
  record.profile.id = "cpu-aaaa";
  record.run.info.run_id = "r1";
  record.run.info.binary = "suite";
  record.run.info.finished_at = "2026-12-04T00:00:00Z";
  TestResult test;
  test.name = "Clipping";
  test.full_name = "Fast.Clipping";
  test.file = "suites/fast/clipping_test.cc";
  test.finished = true;
  test.metrics = metrics;
  record.run.tests.push_back(test);
  return record;
}

BaselineMetric promoted(const std::vector<MetricRecord>& metrics, const std::string& name) {
  PromotionRequest request;
  request.force = true;
  request.now = "2026-12-04T00:00:00Z";
  const std::vector<PlannedFile> files =
      plan_promotion(run_recording(metrics), BaselineSet::from_files({}), request);
  EXPECT_EQ(files.size(), 1u);
  return files.at(0).after.tests.at("Clipping").metrics.at(name);
}

TEST(PromotionScope, AWholeNumberIsPortableAndAFloatIsBoundToItsProfile) {
  const std::vector<MetricRecord> metrics = {
      {"first_bad_step", 19.0, MustEqual, Exact{}},
      {"max_norm", 1.0831594709453898e19 + 0.5e3, MustEqual, Exact{}},
      {"final_loss", 0.13164301216602325, MustEqual, Exact{}},
      {"not_finite", std::numeric_limits<double>::infinity(), MustEqual, Exact{}},
  };
  const BaselineMetric step = promoted(metrics, "first_bad_step");
  EXPECT_EQ(step.policy, TolerancePolicy(Exact{Scope::Portable}));
  EXPECT_EQ(step.value, 19.0);
  EXPECT_TRUE(step.by_environment.empty());
  for (const std::string name : {"max_norm", "final_loss", "not_finite"}) {
    const BaselineMetric bound = promoted(metrics, name);
    EXPECT_EQ(bound.policy, TolerancePolicy(Exact{Scope::Numerics})) << name;
    EXPECT_FALSE(bound.value.has_value()) << name;
    EXPECT_EQ(bound.by_environment.count("cpu-aaaa"), 1u) << name;
  }
}

TEST(PromotionScope, TheScopeATestStatesWins) {
  const std::vector<MetricRecord> metrics = {
      {"loss_bits", 4.0, MustEqual, Exact{Scope::Numerics}},
      {"known_float", 0.25, MustEqual, Exact{Scope::Portable}},
  };
  EXPECT_EQ(promoted(metrics, "loss_bits").by_environment.count("cpu-aaaa"), 1u);
  EXPECT_FALSE(promoted(metrics, "loss_bits").value.has_value());
  EXPECT_EQ(promoted(metrics, "known_float").value, 0.25);
}

}  // namespace
}  // namespace mlregress::internal
