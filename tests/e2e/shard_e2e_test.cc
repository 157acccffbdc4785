// Sharded runs end to end, through the torch-free seed fixture: every way of naming a shard
// selects the documented units; the shards of a plan merged give the run one machine gives —
// the same per-seed samples, verdicts and gate numbers — for 1 shard, 4, and more shards than
// units; merge refuses what does not belong together and names what is missing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "e2e_fixture.h"
#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

inline constexpr int kMergeRefused = 9;
constexpr std::size_t kUnits = 8 + 6 * 2;  // NoisyAccuracy's seeds, WidthAblation's 2 variants × 6

class ShardE2eTest : public FixtureBinaryTest {
 protected:
  ShardE2eTest() : FixtureBinaryTest(MLREGRESS_SEED_FIXTURE_BINARY) {}
  std::string folder(const std::string& name) const { return temp_.path() + "/" + name; }
  // Runs into OUT (a runs folder) and returns the run folder it made.
  std::string run_into(const std::string& out, const std::string& args,
                       const std::string& environment = "", int expected = kPassed) {
    const ProcessResult result =
        fixture("run --color never --out " + folder(out) + " " + args, environment);
    EXPECT_EQ(result.exit_code, expected) << result.out << result.err;
    return std::filesystem::canonical(folder(out) + "/latest").string();
  }
  std::vector<std::string> shards(std::size_t count, const std::string& args) {
    std::vector<std::string> folders;
    for (std::size_t i = 0; i < count; ++i) {
      folders.push_back(
          run_into("shard-runs-" + std::to_string(count), fmt_shard(i, count) + " " + args));
    }
    return folders;
  }
  static std::string fmt_shard(std::size_t i, std::size_t n) {
    return "--shard " + std::to_string(i) + "/" + std::to_string(n);
  }
  ProcessResult merge(const std::vector<std::string>& folders, const std::string& args = "") {
    std::string command = "merge --color never --out " + folder("merged") + " " + args;
    for (const std::string& f : folders) command += " " + f;
    return fixture(command);
  }
  // What one machine and a merge must agree on: everything but times and where files are.
  static json comparable(const std::string& run_folder) {
    json results = json::parse(read_file(run_folder + "/results.json"));
    json tests = json::array();
    for (json test : results.at("tests")) {
      test.erase("duration_s");
      test.erase("started_at");
      test.erase("curves");
      for (json& seed_run : test["seed_runs"]) seed_run.erase("duration_s");
      tests.push_back(test);
    }
    return {{"tests", tests}, {"summary", results.at("summary")}};
  }
  std::vector<std::string> units_of(const std::string& run_folder) const {
    std::vector<std::string> units;
    const json results = json::parse(read_file(run_folder + "/results.json"));
    for (const json& test : results.at("tests")) {
      for (const json& r : test.at("seed_runs")) {
        units.push_back(test.at("name").get<std::string>() + "[" +
                        r.at("variant").get<std::string>() + "]#" +
                        std::to_string(r.at("seed").get<int>()));
      }
    }
    return units;
  }
};

TEST_F(ShardE2eTest, MergedShardsGiveTheRunOneMachineGives) {
  // A baseline, then a candidate shifted by -0.05: the gate finds REGRESSIONs with p-values
  // and CIs that depend on every seed of every shard.
  run_into("baseline-runs", "");
  ASSERT_EQ(fixture("promote " + folder("baseline-runs/latest") + " --baselines " + folder("b") +
                    " --reason r")
                .exit_code,
            kPassed);
  const std::string args =
      "--baselines " + folder("b") + " --seed 100 --set NoisyAccuracy.shift=-0.05";
  const std::string single = run_into("single", args, "", kRegression);
  const json expected = comparable(single);
  ASSERT_THAT(read_file(single + "/results.json"), HasSubstr("\"verdict\": \"REGRESSION\""));

  for (const std::size_t count : {std::size_t{1}, std::size_t{4}, kUnits + 3}) {
    SCOPED_TRACE("shards: " + std::to_string(count));
    const std::vector<std::string> parts = shards(count, args);
    // A shard decides no seeded verdict: its exit code is its own failures only.
    EXPECT_THAT(read_file(parts[0] + "/results.json"), HasSubstr("decided at merge"));
    const ProcessResult merged = merge(parts);
    EXPECT_EQ(merged.exit_code, kRegression) << merged.out << merged.err;
    const std::string folder_merged = std::filesystem::canonical(folder("merged/latest")).string();
    EXPECT_EQ(comparable(folder_merged), expected);
    const json results = json::parse(read_file(folder_merged + "/results.json"));
    EXPECT_EQ(results.at("run").at("merged_from").size(), count);
    EXPECT_FALSE(results.at("run").contains("shard"));
    const auto lines = [](const std::string& text) {
      return std::count(text.begin(), text.end(), '\n');
    };
    EXPECT_EQ(lines(read_file(folder_merged + "/seeds.jsonl")),
              lines(read_file(single + "/seeds.jsonl")));
    EXPECT_TRUE(std::filesystem::exists(folder_merged + "/report.html"));
    EXPECT_THAT(read_file(folder_merged + "/junit.xml"), HasSubstr("name=\"NoisyAccuracy\""));
  }
}

// Each seed recorded its data and the order it served it in, which depends on the seed. One
// machine keeps the first seed's; a merge keeps the same, whatever order the shards are given in.
TEST_F(ShardE2eTest, AMergedSeededTestKeepsTheDataOfItsFirstSeed) {
  const std::string args = "--filter NoisyAccuracy --set NoisyAccuracy.data=v1";
  const json single = comparable(run_into("single", args));
  std::vector<std::string> parts = shards(4, args);
  std::reverse(parts.begin(), parts.end());
  const ProcessResult merged = merge(parts);
  ASSERT_EQ(merged.exit_code, kPassed) << merged.out << merged.err;
  const json joined = comparable(std::filesystem::canonical(folder("merged/latest")).string());
  ASSERT_EQ(single.at("tests").size(), 1u);
  EXPECT_EQ(joined.at("tests").at(0).at("datasets"), single.at("tests").at(0).at("datasets"));
  EXPECT_EQ(joined.at("tests").at(0).at("datasets").size(), 2u);
  EXPECT_EQ(joined.at("tests").at(0).at("properties"), single.at("tests").at(0).at("properties"));
}

TEST_F(ShardE2eTest, EveryWayOfNamingAShardSelectsTheSameUnits) {
  const std::vector<std::string> by_flag = units_of(run_into("flag", "--shard 2/3"));
  ASSERT_EQ(by_flag.size(), kUnits / 3 + (kUnits % 3 > 2 ? 1 : 0));  // units 2, 5, 8, ...
  const std::string status_file = folder("gtest-status");
  EXPECT_EQ(units_of(run_into("gtest", "",
                              "GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=2 "
                              "GTEST_SHARD_STATUS_FILE=" +
                                  status_file)),
            by_flag);
  EXPECT_TRUE(std::filesystem::exists(status_file)) << "GoogleTest's status file is not touched";
  EXPECT_EQ(units_of(run_into("bazel", "", "TEST_TOTAL_SHARDS=3 TEST_SHARD_INDEX=2")), by_flag);
  EXPECT_EQ(
      units_of(run_into("slurm", "",
                        "SLURM_ARRAY_TASK_ID=7 SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_COUNT=3")),
      by_flag);
  EXPECT_EQ(units_of(run_into("k8s", "--shard-count 3", "JOB_COMPLETION_INDEX=2")), by_flag);
  EXPECT_EQ(units_of(run_into("k8s-env", "", "JOB_COMPLETION_INDEX=2 MLREGRESS_SHARD_COUNT=3")),
            by_flag);
  // The shards' units are disjoint and together the plan.
  std::vector<std::string> all;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::vector<std::string> part = units_of(run_into("all", fmt_shard(i, 3)));
    all.insert(all.end(), part.begin(), part.end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "a unit in two shards";
  EXPECT_EQ(all.size(), kUnits);

  // --no-shard: the whole plan, whatever the environment says.
  EXPECT_EQ(
      units_of(run_into("no-shard", "--no-shard", "SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3"))
          .size(),
      kUnits);
  EXPECT_EQ(fixture("run --no-shard --shard 0/2 --out " + folder("bad")).exit_code, kUsageError);
  for (const char* bad : {"--shard 3/3", "--shard 1", "--shard a/2"}) {
    EXPECT_EQ(fixture(std::string("run --out ") + folder("bad") + " " + bad).exit_code, kUsageError)
        << bad;
  }
  EXPECT_EQ(fixture("run --out " + folder("bad"), "JOB_COMPLETION_INDEX=1").exit_code, kUsageError);
  EXPECT_EQ(fixture("run --out " + folder("bad"), "GTEST_SHARD_INDEX=1").exit_code, kUsageError);
  EXPECT_FALSE(std::filesystem::exists(folder("bad")));
}

TEST_F(ShardE2eTest, AShardsExitCodeIsItsOwnFailuresOnly) {
  // Seed 1 crashes: it is unit 1, in shard 1 of 4 (round-robin).
  const std::string set = "--set NoisyAccuracy.crash_seed=1";
  run_into("s", "--shard 0/4 " + set, "", kPassed);
  const std::string crashed = run_into("s", "--shard 1/4 " + set, "", kTestFailed);
  EXPECT_THAT(read_file(crashed + "/results.json"), HasSubstr("seed 1"));
}

TEST_F(ShardE2eTest, MergeNamesMissingShardsAndRefusesWhatDoesNotBelongTogether) {
  const std::vector<std::string> parts = shards(4, "");
  // Shard 2 missing: its seeds are like crashed seeds, named, and the tests fail.
  const ProcessResult missing = merge({parts[0], parts[1], parts[3]});
  EXPECT_EQ(missing.exit_code, kTestFailed) << missing.out << missing.err;
  EXPECT_THAT(missing.out, HasSubstr("merge: 3 of 4 shards; missing: 2/4"));
  EXPECT_THAT(read_file(folder("merged/latest/results.json")),
              HasSubstr("missing: no shard given ran it (shards not given: 2/4)"));

  // Another plan (a --set that changes the config): refused, unless --force.
  const std::string other = run_into("other", "--shard 3/4 --set NoisyAccuracy.sd=0.02");
  const ProcessResult refused = merge({parts[0], parts[1], parts[2], other});
  EXPECT_EQ(refused.exit_code, kMergeRefused) << refused.out << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("plan: plan"));
  EXPECT_THAT(refused.err, HasSubstr("merge --force joins them anyway"));
  EXPECT_EQ(merge({parts[0], parts[1], parts[2], other}, "--force").exit_code, kPassed);
  // A shard run under another determinism mode belongs to another plan too.
  const std::string strict = run_into("strict", "--shard 3/4 --determinism strict");
  const ProcessResult mixed_modes = merge({parts[0], parts[1], parts[2], strict});
  EXPECT_EQ(mixed_modes.exit_code, kMergeRefused) << mixed_modes.out << mixed_modes.err;
  EXPECT_THAT(mixed_modes.err, HasSubstr("plan: plan"));

  // The same shard twice agrees with itself; a copy with one value changed does not.
  EXPECT_EQ(merge({parts[0], parts[0], parts[1], parts[2], parts[3]}).exit_code, kPassed);
  const std::string copy = folder("copy");
  std::filesystem::copy(parts[0], copy, std::filesystem::copy_options::recursive);
  std::string results = read_file(copy + "/results.json");
  const std::size_t at = results.find("\"accuracy\": 0.8");
  ASSERT_NE(at, std::string::npos);
  results.replace(at, 16, "\"accuracy\": 0.1");
  std::ofstream(copy + "/results.json") << results;
  const ProcessResult conflict = merge({parts[0], copy, parts[1], parts[2], parts[3]}, "--force");
  EXPECT_EQ(conflict.exit_code, kMergeRefused) << conflict.out << conflict.err;
  EXPECT_THAT(conflict.err, HasSubstr("with different results"));

  // A folder that is not a shard is named.
  const std::string plain = run_into("plain", "");
  const ProcessResult not_shard = merge({plain});
  EXPECT_EQ(not_shard.exit_code, kRunFolderError);
  EXPECT_THAT(not_shard.err, HasSubstr("not a shard's run folder"));
}

}  // namespace
}  // namespace mlregress::e2e
