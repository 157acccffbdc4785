// Which shard runs which unit: every unit in exactly one shard, the documented environment
// variables read the documented way, and weights that balance the shards' work.
#include "execution/shard.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "support/errors.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

EnvironmentLookup environment(std::map<std::string, std::string> values) {
  return [values](const std::string& name) -> std::optional<std::string> {
    const auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

std::vector<WorkUnit> seed_units(std::size_t seeds) {
  std::vector<WorkUnit> units;
  for (std::size_t s = 0; s < seeds; ++s) units.push_back({"Full.Study", true, "", {0, s}});
  return units;
}

TEST(ShardAssignmentTest, RoundRobinPutsEveryUnitInExactlyOneShard) {
  const std::vector<std::size_t> shard = assign_units(seed_units(10), 4, {});
  EXPECT_EQ(shard, (std::vector<std::size_t>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1}));
  // More shards than units: the rest are empty, and valid.
  EXPECT_EQ(assign_units(seed_units(2), 5, {}), (std::vector<std::size_t>{0, 1}));
}

TEST(ShardAssignmentTest, WeightsBalanceTheWork) {
  // One unit as long as the four others together: round-robin would give shard 0 five of the
  // eight seconds; by weight it gets the long unit alone.
  std::vector<WorkUnit> units = seed_units(5);
  std::map<std::string, double> weights;
  for (const WorkUnit& u : units) weights[u.key()] = 1.0;
  weights[units[2].key()] = 4.0;
  const std::vector<std::size_t> shard = assign_units(units, 2, weights);
  std::vector<double> load(2, 0.0);
  for (std::size_t i = 0; i < units.size(); ++i) load[shard[i]] += weights[units[i].key()];
  EXPECT_EQ(load[0], 4.0);
  EXPECT_EQ(load[1], 4.0);
  // A unit the previous run did not have weighs the mean of the others, not zero.
  weights.erase(units[4].key());
  EXPECT_EQ(assign_units(units, 2, weights).size(), units.size());
}

TEST(ShardAssignmentTest, UnitKeysNameTestVariantAndSeed) {
  EXPECT_EQ((WorkUnit{"Fast.Cnn", false, "", {}}.key()), "Fast.Cnn");
  EXPECT_EQ((WorkUnit{"Full.Xor", true, "", {0, 3}}.key()), "Full.Xor#seed3");
  EXPECT_EQ((WorkUnit{"Full.Xor", true, "half", {1, 3}}.key()), "Full.Xor[half]#seed3");
}

TEST(ResolveShardTest, TheFlagWinsThenGoogleTestBazelSlurmKubernetes) {
  EXPECT_FALSE(resolve_shard("", 0, environment({})));
  const auto flag = resolve_shard("1/4", 0, environment({{"GTEST_TOTAL_SHARDS", "9"}}));
  ASSERT_TRUE(flag);
  EXPECT_EQ(flag->index, 1u);
  EXPECT_EQ(flag->count, 4u);

  const auto gtest = resolve_shard("", 0,
                                   environment({{"GTEST_TOTAL_SHARDS", "3"},
                                                {"GTEST_SHARD_INDEX", "2"},
                                                {"GTEST_SHARD_STATUS_FILE", "/tmp/s"}}));
  ASSERT_TRUE(gtest);
  EXPECT_EQ(gtest->index, 2u);
  EXPECT_EQ(gtest->status_file, "/tmp/s");
  EXPECT_EQ(gtest->source, "GTEST_TOTAL_SHARDS");

  const auto bazel =
      resolve_shard("", 0, environment({{"TEST_TOTAL_SHARDS", "2"}, {"TEST_SHARD_INDEX", "1"}}));
  ASSERT_TRUE(bazel);
  EXPECT_EQ(bazel->index, 1u);

  // An array --array=10-16:2 has tasks 10, 12, 14, 16: task 14 is shard 2 of 4.
  const auto slurm = resolve_shard("", 0,
                                   environment({{"SLURM_ARRAY_TASK_ID", "14"},
                                                {"SLURM_ARRAY_TASK_MIN", "10"},
                                                {"SLURM_ARRAY_TASK_STEP", "2"},
                                                {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  ASSERT_TRUE(slurm);
  EXPECT_EQ(slurm->index, 2u);
  EXPECT_EQ(slurm->count, 4u);

  const auto k8s = resolve_shard("", 5, environment({{"JOB_COMPLETION_INDEX", "4"}}));
  ASSERT_TRUE(k8s);
  EXPECT_EQ(k8s->index, 4u);
  EXPECT_EQ(k8s->count, 5u);
}

TEST(ResolveShardTest, BadValuesAreUsageErrorsThatSayWhatWasExpected) {
  const auto message = [](const std::string& flag, std::map<std::string, std::string> env) {
    try {
      resolve_shard(flag, 0, environment(std::move(env)));
    } catch (const ConfigError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(message("4/4", {}), HasSubstr("shard index 4 is not below the shard count 4"));
  EXPECT_THAT(message("0/0", {}), HasSubstr("at least 1"));
  EXPECT_THAT(message("x", {}), HasSubstr("expected INDEX/COUNT"));
  EXPECT_THAT(message("-1/2", {}), HasSubstr("expected a whole number"));
  EXPECT_THAT(message("", {{"GTEST_SHARD_INDEX", "0"}}), HasSubstr("must be set together"));
  EXPECT_THAT(message("", {{"JOB_COMPLETION_INDEX", "0"}}), HasSubstr("--shard-count"));
  EXPECT_THAT(message("", {{"SLURM_ARRAY_TASK_ID", "3"}}), HasSubstr("SLURM_ARRAY_TASK_COUNT"));
  EXPECT_THAT(message("", {{"SLURM_ARRAY_TASK_ID", "3"},
                           {"SLURM_ARRAY_TASK_MIN", "4"},
                           {"SLURM_ARRAY_TASK_COUNT", "2"}}),
              HasSubstr("not in the array"));
}

}  // namespace
}  // namespace mlregress::internal
