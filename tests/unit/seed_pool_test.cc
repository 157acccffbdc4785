// A growing seeded baseline (promote --add-seeds): the blocks of the pool survive a write and a
// read, a hand edit that breaks them is refused with its line, and the merge rule appends new
// seeds, leaves a seed measured again with the same value out, and refuses one with another
// value, another configuration, other numerics, another margin or a metric with no baseline.
// Planted: a second block written over the first, a repeated seed appended twice, a changed
// value overwriting the stored one, samples of another numerics profile pooled.
#include "baselines/seed_pool.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "baseline_edits.h"
#include "baselines/baseline_toml.h"
#include "baselines/seed_ranges.h"
#include "builders.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

TEST(SeedRanges, RunsOfConsecutiveSeedsAreWrittenAsRangesAndReadBack) {
  EXPECT_EQ(seed_ranges_text({103, 0, 1, 2, 100, 101, 102, 7}), "0-2, 7, 100-103");
  EXPECT_EQ(seed_ranges_text({5}), "5");
  EXPECT_EQ(parse_seed_ranges("0-2, 7, 100-103"),
            (std::vector<std::uint64_t>{0, 1, 2, 7, 100, 101, 102, 103}));
  for (const char* bad : {"3-1", "1, 1", "7, 0-2", "a", "1,", "-1", "1-", "0-99999999999"})
    EXPECT_EQ(parse_seed_ranges(bad), std::nullopt) << bad;
}

EnvironmentProfile numerics(const std::string& id) {
  EnvironmentProfile env;
  env.id = id;
  env.framework = "libtorch 2.13.0";
  env.build = "cpu";
  env.capability = "AVX2";
  return env;
}

PoolBlock block(const std::string& run, std::vector<std::uint64_t> seeds) {
  PoolBlock b;
  b.source_run = run;
  b.seeds = std::move(seeds);
  b.added_at = "2026-12-04T00:00:00Z";
  b.git_commit = "abc123";
  b.reason = "nightly";
  b.environment = "cpu-avx2-bbbb";
  return b;
}

BaselineMetric pooled_metric() {
  BaselineMetric m = four_seed_accuracy({0, 1, 100, 101});
  m.pool = {block("r1", {0, 1}), block("r2", {100, 101})};
  return m;
}

BaselineFile file_with(const BaselineMetric& metric) {
  BaselineFile file;
  file.provenance.version = 2;
  file.provenance.source_run = "r2";
  file.provenance.environment = "cpu-aaaa";
  file.environments["cpu-aaaa"] = numerics("cpu-aaaa");
  file.environments["cpu-avx2-bbbb"] = numerics("cpu-avx2-bbbb");
  file.tests["Study"].config_hash = "0123456789abcdef";
  file.tests["Study"].metrics["accuracy"] = metric;
  return file;
}

TEST(SeedPoolToml, BlocksSurviveAWriteAndARead) {
  const BaselineFile file = file_with(pooled_metric());
  const std::string text = render_baseline(file);
  EXPECT_THAT(text, HasSubstr("[[tests.Study.metrics.accuracy.pool]]\nsource_run = \"r1\"\n"
                              "seeds = \"0-1\"\nadded_at = \"2026-12-04T00:00:00Z\"\n"
                              "git_commit = \"abc123\"\nreason = \"nightly\"\n"
                              "environment = \"cpu-avx2-bbbb\"\n"))
      << text;
  EXPECT_THAT(text, HasSubstr("seeds = \"100-101\"")) << text;
  EXPECT_THAT(text, HasSubstr("summary = { n = 4, mean = ")) << text;
  const BaselineFile read = parse_baseline(text, "b.toml");
  EXPECT_EQ(read, file);
  EXPECT_EQ(render_baseline(read), text);
}

TEST(SeedPoolToml, AMetricWithoutBlocksIsReadAsBefore) {
  BaselineMetric m = pooled_metric();
  m.pool.clear();
  EXPECT_EQ(parse_baseline(render_baseline(file_with(m)), "b.toml"), file_with(m));
}

TEST(SeedPoolToml, AHandEditThatBreaksABlockIsRefusedWithItsLine) {
  const std::string text = render_baseline(file_with(pooled_metric()));
  std::string error = error_of(replace(text, "reason = \"nightly\"", "reson = \"nightly\""));
  EXPECT_THAT(error, HasSubstr("b.toml:")) << error;
  EXPECT_THAT(error, HasSubstr("unknown key 'reson'")) << error;
  error = error_of(replace(text, "seeds = \"0-1\"", "seeds = 2"));
  EXPECT_THAT(error, HasSubstr(".pool.seeds must be a string")) << error;
  error = error_of(replace(text, "seeds = \"0-1\"", "seeds = \"1-0\""));
  EXPECT_THAT(error, HasSubstr("not \"1-0\"")) << error;
  // A block that names a seed the samples lack, or two blocks holding one seed.
  error = error_of(replace(text, "seeds = \"0-1\"", "seeds = \"0-2\""));
  EXPECT_THAT(error, HasSubstr("the blocks hold seeds 0-2, 100-101, the samples seeds 0-1, "
                               "100-101"))
      << error;
  error = error_of(replace(text, "seeds = \"0-1\"", "seeds = \"0-1, 100\""));
  EXPECT_THAT(error, HasSubstr("seed 100 is in two blocks")) << error;
  error = error_of(replace(text, "seeds = \"100-101\"", "seeds = \"100\""));
  EXPECT_THAT(error, HasSubstr("the samples seeds 0-1, 100-101")) << error;
  error = error_of(replace(text, "environment = \"cpu-avx2-bbbb\"", "environment = \"cpu-zzz\""));
  EXPECT_THAT(error, HasSubstr("names 'cpu-zzz', which [environments] does not define")) << error;
  error = error_of(replace(text, "source_run = \"r1\"\n", ""));
  EXPECT_THAT(error, HasSubstr("is missing 'source_run'")) << error;
  // Every error names its line: the reader's format is file:line:column.
  EXPECT_THAT(error, ::testing::MatchesRegex("b\\.toml:[0-9]+:[0-9]+: .*")) << error;
}

MetricRecord run_metric(std::vector<std::uint64_t> seeds, std::vector<double> samples,
                        double margin = 0.01) {
  MetricRecord m{"accuracy", 0.0, HigherIsBetter, Margin{margin}};
  m.sample_seeds = std::move(seeds);
  m.samples = std::move(samples);
  return m;
}

EnvironmentProfile run_profile(const std::string& numerics_id = "cpu-avx2-bbbb") {
  EnvironmentProfile p = numerics("cpu-aaaa");
  p.numerics_id = numerics_id;
  p.cpu = "Some CPU";
  return p;
}

TEST(SeedPoolMerge, NewSeedsAreAppendedAsOneMoreBlockAndARepeatedSeedIsLeftOut) {
  const SeedAddition a = add_seeds_to_metric("Study.accuracy", pooled_metric(),
                                             run_metric({101, 200, 201}, {0.871, 0.86, 0.875}),
                                             block("r3", {}), run_profile());
  ASSERT_THAT(a.refusals, ::testing::IsEmpty());
  EXPECT_EQ(a.added, (std::vector<std::uint64_t>{200, 201}));
  EXPECT_EQ(a.repeated, (std::vector<std::uint64_t>{101}));
  EXPECT_EQ(a.merged.seeds, (std::vector<std::uint64_t>{0, 1, 100, 101, 200, 201}));
  EXPECT_EQ(a.merged.samples, (std::vector<double>{0.87, 0.88, 0.865, 0.871, 0.86, 0.875}));
  ASSERT_EQ(a.merged.pool.size(), 3u);
  EXPECT_EQ(a.merged.pool[0], block("r1", {0, 1}));
  EXPECT_EQ(a.merged.pool[2].source_run, "r3");
  EXPECT_EQ(a.merged.pool[2].seeds, (std::vector<std::uint64_t>{200, 201}));
  // What is written reads back, with the summary over the whole pool.
  const BaselineFile read = parse_baseline(render_baseline(file_with(a.merged)), "b.toml");
  EXPECT_EQ(read.tests.at("Study").metrics.at("accuracy"), a.merged);
}

TEST(SeedPoolMerge, ASeedWithAnotherValueIsRefused) {
  const SeedAddition a =
      add_seeds_to_metric("Study.accuracy", pooled_metric(), run_metric({1, 300}, {0.8801, 0.86}),
                          block("r3", {}), run_profile());
  ASSERT_EQ(a.refusals.size(), 1u);
  EXPECT_THAT(a.refusals[0], HasSubstr("Study.accuracy: seed 1 is in the baseline as 0.88 but the "
                                       "run measured 0.8801"));
}

TEST(SeedPoolMerge, OtherNumericsMarginDirectionOrNoSamplesAreRefused) {
  const std::string name = "Study.accuracy";
  SeedAddition a = add_seeds_to_metric(name, pooled_metric(), run_metric({300}, {0.86}),
                                       block("r3", {}), run_profile("cpu-avx512-cccc"));
  ASSERT_EQ(a.refusals.size(), 1u);
  EXPECT_THAT(a.refusals[0], HasSubstr("measured on environment 'cpu-avx2-bbbb', this run on "
                                       "'cpu-avx512-cccc'"));
  a = add_seeds_to_metric(name, pooled_metric(), run_metric({300}, {0.86}, 0.02), block("r3", {}),
                          run_profile());
  ASSERT_EQ(a.refusals.size(), 1u);
  EXPECT_THAT(a.refusals[0], HasSubstr("margin is 0.01, the run's 0.02"));
  BaselineMetric lower = pooled_metric();
  lower.direction = Direction::LowerIsBetter;
  a = add_seeds_to_metric(name, lower, run_metric({300}, {0.86}), block("r3", {}), run_profile());
  ASSERT_EQ(a.refusals.size(), 1u);
  EXPECT_THAT(a.refusals[0], HasSubstr("the baseline is lower_is_better, the run higher"));
  a = add_seeds_to_metric(name, pooled_metric(), MetricRecord{"accuracy", 0.86, HigherIsBetter},
                          block("r3", {}), run_profile());
  ASSERT_EQ(a.refusals.size(), 1u);
  EXPECT_THAT(a.refusals[0], HasSubstr("the run did not measure it on seeds"));
  // The covariate is the baseline's pre-registration: a run declaring another one does not add.
  MetricRecord adjusted = run_metric({300}, {0.86});
  adjusted.policy = Margin{0.01, "difficulty"};
  a = add_seeds_to_metric(name, pooled_metric(), adjusted, block("r3", {}), run_profile());
  ASSERT_EQ(a.refusals.size(), 1u);
  EXPECT_THAT(a.refusals[0], HasSubstr("the baseline pre-registered no covariate, the run declares "
                                       "covariate 'difficulty'"));
}

// A block made of an older file's provenance names a machine id: the same machine may add.
TEST(SeedPoolMerge, AMetricWithoutBlocksIsTheFilesLastPromotion) {
  BaselineMetric m = pooled_metric();
  m.pool.clear();
  const BaselineFile file = file_with(m);
  const std::vector<PoolBlock> pool = pool_of(m, file);
  ASSERT_EQ(pool.size(), 1u);
  EXPECT_EQ(pool[0].source_run, "r2");
  EXPECT_EQ(pool[0].environment, "cpu-aaaa");
  EXPECT_EQ(pool[0].seeds, m.seeds);
  EXPECT_TRUE(same_numerics(pool[0], run_profile()));
  EnvironmentProfile other = run_profile();
  other.id = "cpu-dddd";
  EXPECT_FALSE(same_numerics(pool[0], other));
}

RunRecord seeded_run(const std::string& config_hash, std::vector<MetricRecord> metrics) {
  TestResult test =
      finished_test("Study", "Full.Study", "suites/full/study_test.cc", std::move(metrics));
  test.config_hash = config_hash;
  RunRecord record = run_record("runs/r3", "r3", "", "", test);
  record.profile = run_profile();
  record.run.info.finished_at = "2026-12-05T00:00:00Z";
  return record;
}

BaselineSet stored_set(const BaselineFile& file) {
  return BaselineSet::from_files({{"baselines/suite/study_test.toml", file}});
}

PromotionRequest add_seeds_request() {
  PromotionRequest request = promotion_request("nightly", "2026-12-05T00:00:00Z");
  request.add_seeds = true;
  return request;
}

TEST(SeedPoolPlan, APromotionWithAddSeedsGrowsThePoolAndBumpsTheVersion) {
  const std::vector<PlannedFile> plan =
      plan_promotion(seeded_run("0123456789abcdef", {run_metric({300, 301}, {0.86, 0.862})}),
                     stored_set(file_with(pooled_metric())), add_seeds_request());
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].after.provenance.version, 3);
  EXPECT_EQ(plan[0].after.provenance.source_run, "r3");
  const BaselineMetric& m = plan[0].after.tests.at("Study").metrics.at("accuracy");
  EXPECT_EQ(m.seeds.size(), 6u);
  ASSERT_EQ(m.pool.size(), 3u);
  EXPECT_EQ(m.pool[2].seeds, (std::vector<std::uint64_t>{300, 301}));
  EXPECT_EQ(m.pool[2].environment, "cpu-avx2-bbbb");
  ASSERT_EQ(plan[0].detectable_effects.size(), 1u);
  EXPECT_THAT(plan[0].detectable_effects[0],
              HasSubstr("Study.accuracy: seeds 300-301 added; the baseline holds 6 seeds in 3 "
                        "blocks"));
  // The power of the gate against the grown pool is the promote command's line.
  EXPECT_EQ(plan[0].seeded_metrics,
            (std::vector<std::pair<std::string, std::string>>{{"Study", "accuracy"}}));
}

std::string refusal_of(const RunRecord& record, const BaselineSet& existing) {
  try {
    plan_promotion(record, existing, add_seeds_request());
  } catch (const PromotionRefused& refused) {
    return refused.what();
  }
  return "";
}

TEST(SeedPoolPlan, AnotherConfigurationOrNoBaselineIsRefusedNamingFileTestAndMetric) {
  std::string error = refusal_of(seeded_run("fedcba9876543210", {run_metric({300}, {0.86})}),
                                 stored_set(file_with(pooled_metric())));
  EXPECT_THAT(error, HasSubstr("baselines/suite/study_test.toml: test Study: config_hash "
                               "0123456789abcdef in the baseline, fedcba9876543210 in the run"))
      << error;
  MetricRecord loss = run_metric({300}, {0.3});
  loss.name = "loss";
  error = refusal_of(seeded_run("0123456789abcdef", {run_metric({300}, {0.86}), loss}),
                     stored_set(file_with(pooled_metric())));
  EXPECT_THAT(error, HasSubstr("Study.loss: no baseline yet; promote the run without "
                               "--add-seeds first"))
      << error;
  error = refusal_of(seeded_run("0123456789abcdef", {run_metric({300}, {0.86})}),
                     BaselineSet::from_files({}));
  EXPECT_THAT(error, HasSubstr("test Study: no baseline in")) << error;
  error = refusal_of(seeded_run("0123456789abcdef", {{"accuracy", 0.86, HigherIsBetter}}),
                     stored_set(file_with(pooled_metric())));
  EXPECT_THAT(error, HasSubstr("test Study: not a seeded test in run r3")) << error;
}

// A run that lacks a seeded metric the baseline holds per seed (here the covariate of accuracy)
// cannot add its seeds: accuracy would have seeds its covariate lacks, and its adjustment would
// be off against every later run. Refused naming file, test, metric and whose covariate it is.
// Planted: the pool grown without it (the refusal is what stops the write; the plan without the
// stored covariate goes through).
TEST(SeedPoolPlan, ARunWithoutAStoredSeededMetricOrItsCovariateIsRefused) {
  BaselineMetric accuracy = pooled_metric();
  accuracy.policy = Margin{0.01, "difficulty"};
  BaselineFile file = file_with(accuracy);
  BaselineMetric difficulty = pooled_metric();
  difficulty.policy = Margin{0.02};
  file.tests["Study"].metrics["difficulty"] = difficulty;
  MetricRecord adjusted = run_metric({300, 301}, {0.86, 0.862});
  adjusted.policy = Margin{0.01, "difficulty"};
  const std::string error =
      refusal_of(seeded_run("0123456789abcdef", {adjusted}), stored_set(file));
  EXPECT_THAT(error, HasSubstr("baselines/suite/study_test.toml: Study.difficulty: in the "
                               "baseline on 4 seeds (the covariate of 'accuracy'), but the run "
                               "did not record it per seed"))
      << error;
  EXPECT_THAT(error, HasSubstr("nothing was written"));
  // A plain stored metric the run lacks is refused the same way, without the covariate clause.
  file.tests["Study"].metrics.at("accuracy").policy = Margin{0.01};
  adjusted.policy = Margin{0.01};
  EXPECT_THAT(refusal_of(seeded_run("0123456789abcdef", {adjusted}), stored_set(file)),
              HasSubstr("Study.difficulty: in the baseline on 4 seeds, but the run"));
  // With the metric recorded, the same run adds its seeds to both.
  MetricRecord recorded = run_metric({300, 301}, {0.4, 0.41});
  recorded.name = "difficulty";
  recorded.policy = Margin{0.02};
  const std::vector<PlannedFile> plan = plan_promotion(
      seeded_run("0123456789abcdef", {adjusted, recorded}), stored_set(file), add_seeds_request());
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].after.tests.at("Study").metrics.at("difficulty").seeds.size(), 6u);
}

// A metric without blocks is read as one block of the file's last [provenance]. Promoting another
// test of the same file (promote --filter) replaces that provenance; the implied block is then
// written out from the provenance it came from. Planted: without it, reading the file back would
// name the other promotion's run and machine as the source of these samples.
TEST(SeedPoolPlan, ARewriteWritesTheImpliedBlockOutSoItIsNeverGuessedAgain) {
  BaselineMetric old = pooled_metric();
  old.pool.clear();  // promoted before blocks were recorded
  BaselineFile file = file_with(old);
  file.provenance.promoted_at = "2026-11-01T00:00:00Z";
  file.provenance.git_commit = "0ld0ld";
  file.tests["Other"].config_hash = "aaaa";
  PromotionRequest request = add_seeds_request();
  request.add_seeds = false;
  RunRecord record = seeded_run("aaaa", {run_metric({0, 1}, {0.5, 0.6})});
  record.run.tests[0].name = "Other";
  record.run.tests[0].full_name = "Full.Other";
  const std::vector<PlannedFile> plan = plan_promotion(record, stored_set(file), request);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].after.provenance.source_run, "r3");
  const BaselineFile read = parse_baseline(render_baseline(plan[0].after), "b.toml");
  const BaselineMetric& kept = read.tests.at("Study").metrics.at("accuracy");
  ASSERT_EQ(kept.pool.size(), 1u);
  EXPECT_EQ(kept.pool[0].source_run, "r2");
  EXPECT_EQ(kept.pool[0].environment, "cpu-aaaa");
  EXPECT_EQ(kept.pool[0].git_commit, "0ld0ld");
  EXPECT_EQ(kept.pool[0].added_at, "2026-11-01T00:00:00Z");
  EXPECT_EQ(kept.pool[0].seeds, (std::vector<std::uint64_t>{0, 1, 100, 101}));
  EXPECT_EQ(pool_of(kept, read)[0].source_run, "r2");
  EXPECT_TRUE(read.environments.contains("cpu-aaaa"));
}

TEST(SeedPoolPlan, APlainPromotionIsTheFirstBlockAndTheSameRunTwiceChangesNothing) {
  PromotionRequest request = add_seeds_request();
  request.add_seeds = false;
  const RunRecord record = seeded_run("0123456789abcdef", {run_metric({0, 1}, {0.86, 0.87})});
  const std::vector<PlannedFile> plan =
      plan_promotion(record, BaselineSet::from_files({}), request);
  ASSERT_EQ(plan.size(), 1u);
  const BaselineMetric& m = plan[0].after.tests.at("Study").metrics.at("accuracy");
  ASSERT_EQ(m.pool.size(), 1u);
  EXPECT_EQ(m.pool[0].source_run, "r3");
  EXPECT_EQ(m.pool[0].environment, "cpu-avx2-bbbb");
  EXPECT_TRUE(plan[0].after.environments.contains("cpu-avx2-bbbb"));
  const BaselineFile written = parse_baseline(render_baseline(plan[0].after), "b.toml");
  EXPECT_THAT(plan_promotion(record, stored_set(written), request), ::testing::IsEmpty());
}

}  // namespace
}  // namespace mlregress::internal
