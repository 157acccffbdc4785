// Where promote stores an exact value. Planted: every exact value kept per environment profile
// (a new CI runner would stop gating counts and steps), or a float stored portable (a runner
// with other math kernels would fail on a rounding difference), or the scope a test states
// ignored.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <map>

#include "baselines/promotion.h"
#include "builders.h"

namespace mlregress::internal {
namespace {

RunRecord run_recording(const std::vector<MetricRecord>& metrics) {
  RunRecord record = run_record(
      "runs/r1", "r1", "cpu-aaaa", "cpu-avx2-bbbb",
      finished_test("Clipping", "Fast.Clipping", "suites/fast/clipping_test.cc", metrics));
  record.profile.cpu = "Some CPU";
  record.profile.capability = "AVX2";
  return record;
}

BaselineFile promoted_file(const std::vector<MetricRecord>& metrics,
                           const BaselineSet& existing = BaselineSet::from_files({})) {
  return promoted_alone(run_recording(metrics), existing);
}

BaselineMetric promoted(const std::vector<MetricRecord>& metrics, const std::string& name) {
  return promoted_file(metrics).tests.at("Clipping").metrics.at(name);
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
    EXPECT_EQ(bound.by_environment.count("cpu-avx2-bbbb"), 1u) << name;
  }
}

// numerics values go under the numerics id (described without the CPU's name), machine values
// under the machine id. Planted: a numerics value under the machine id (another runner with the
// same capability would not gate it), or the CPU's name in the numerics description.
TEST(PromotionScope, EachScopeIsStoredUnderItsOwnProfile) {
  const BaselineFile file = promoted_file({
      {"final_loss", 0.13164301216602325, MustEqual, Exact{}},
      {"peak_bytes", 4096.0, MustEqual, Exact{Scope::Machine}},
  });
  const auto& metrics = file.tests.at("Clipping").metrics;
  EXPECT_EQ(metrics.at("final_loss").by_environment,
            (std::map<std::string, double>{{"cpu-avx2-bbbb", 0.13164301216602325}}));
  EXPECT_EQ(metrics.at("peak_bytes").by_environment,
            (std::map<std::string, double>{{"cpu-aaaa", 4096.0}}));
  ASSERT_EQ(file.environments.count("cpu-avx2-bbbb"), 1u);
  EXPECT_EQ(file.environments.at("cpu-avx2-bbbb").cpu, "");
  EXPECT_EQ(file.environments.at("cpu-avx2-bbbb").capability, "AVX2");
  ASSERT_EQ(file.environments.count("cpu-aaaa"), 1u);
  EXPECT_EQ(file.environments.at("cpu-aaaa").cpu, "Some CPU");
}

// A numerics value an older promotion stored under this machine's id moves to the numerics id;
// other machines' values stay as they were. Planted: both kept (two values for one machine), or
// another machine's value dropped.
TEST(PromotionScope, AnOldFormValueOfThisMachineMovesAndOtherMachinesKeepTheirs) {
  BaselineFile before;
  before.provenance.version = 1;
  before.provenance.environment = "cpu-aaaa";
  before.environments["cpu-aaaa"] = EnvironmentProfile{.id = "cpu-aaaa", .cpu = "Some CPU"};
  before.environments["cpu-cccc"] = EnvironmentProfile{.id = "cpu-cccc", .cpu = "Other CPU"};
  BaselineMetric& loss = before.tests["Clipping"].metrics["final_loss"];
  loss.direction = MustEqual;
  loss.policy = Exact{};
  loss.by_environment = {{"cpu-aaaa", 0.5}, {"cpu-cccc", 0.75}};
  const BaselineFile after =
      promoted_file({{"final_loss", 0.25, MustEqual, Exact{}}},
                    BaselineSet::from_files({{"baselines/suite/clipping_test.toml", before}}));
  const BaselineMetric& moved = after.tests.at("Clipping").metrics.at("final_loss");
  EXPECT_EQ(moved.by_environment,
            (std::map<std::string, double>{{"cpu-avx2-bbbb", 0.25}, {"cpu-cccc", 0.75}}));
  ASSERT_EQ(moved.history.size(), 1u);
  EXPECT_EQ(moved.history[0].old_value, 0.5);
  EXPECT_EQ(after.environments.count("cpu-cccc"), 1u);
}

TEST(PromotionScope, TheScopeATestStatesWins) {
  const std::vector<MetricRecord> metrics = {
      {"loss_bits", 4.0, MustEqual, Exact{Scope::Numerics}},
      {"known_float", 0.25, MustEqual, Exact{Scope::Portable}},
  };
  EXPECT_EQ(promoted(metrics, "loss_bits").by_environment.count("cpu-avx2-bbbb"), 1u);
  EXPECT_FALSE(promoted(metrics, "loss_bits").value.has_value());
  EXPECT_EQ(promoted(metrics, "known_float").value, 0.25);
}

}  // namespace
}  // namespace mlregress::internal
