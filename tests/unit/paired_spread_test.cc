// The spread of paired differences a baseline stores (analysis/paired_spread.h): promote measures
// it when it replaces the values of seeds the baseline holds, keeps it otherwise, and the file
// carries it through a write and a read; a hand edit that breaks it is refused with its line.
// Planted: a spread measured on fresh seeds (no pairs), one overwritten by a promotion that moved
// nothing, a pair count above the seeds.
#include "analysis/paired_spread.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "baseline_edits.h"
#include "baselines/baseline_toml.h"
#include "baselines/promotion.h"
#include "builders.h"
#include "statistics/moments.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

constexpr int kSeeds = 10;

std::vector<std::uint64_t> seeds_from(std::uint64_t first) {
  std::vector<std::uint64_t> seeds;
  for (int i = 0; i < kSeeds; ++i) seeds.push_back(first + static_cast<std::uint64_t>(i));
  return seeds;
}

// Seed i's value: 0.87 + step * sin(i + phase), so two phases move every seed differently.
std::vector<double> values(double step, double phase) {
  std::vector<double> v;
  for (int i = 0; i < kSeeds; ++i) v.push_back(0.87 + step * std::sin(i + phase));
  return v;
}

RunRecord seeded_run(std::vector<std::uint64_t> seeds, std::vector<double> samples) {
  MetricRecord metric{"accuracy", 0.0, HigherIsBetter, Margin{0.01}};
  metric.sample_seeds = std::move(seeds);
  metric.samples = std::move(samples);
  TestResult test =
      finished_test("Study", "Full.Study", "suites/full/study_test.cc", {std::move(metric)});
  test.config_hash = "0123456789abcdef";
  RunRecord record = run_record("runs/r3", "r3", "", "", test);
  record.profile.id = "cpu-aaaa";
  record.profile.numerics_id = "cpu-avx2-bbbb";
  return record;
}

// The file promote writes for `record` over `existing` (empty: a first promotion).
BaselineFile promoted(const RunRecord& record, const BaselineFile* existing,
                      std::vector<std::string>* effects = nullptr) {
  const BaselineSet set =
      existing == nullptr
          ? BaselineSet::from_files({})
          : BaselineSet::from_files({{"baselines/suite/study_test.toml", *existing}});
  const std::vector<PlannedFile> plan =
      plan_promotion(record, set, promotion_request("e2e", "2026-12-06T00:00:00Z"));
  if (plan.empty()) return *existing;
  if (effects != nullptr) *effects = plan[0].detectable_effects;
  return plan[0].after;
}

const BaselineMetric& accuracy_of(const BaselineFile& file) {
  return file.tests.at("Study").metrics.at("accuracy");
}

TEST(PairedSpreadPromotion, ValuesOfTheSameSeedsStoreTheSpreadOfTheirDifferences) {
  const BaselineFile first = promoted(seeded_run(seeds_from(0), values(0.01, 0.0)), nullptr);
  EXPECT_FALSE(accuracy_of(first).paired_spread.has_value());

  std::vector<std::string> effects;
  const BaselineFile moved =
      promoted(seeded_run(seeds_from(0), values(0.01, 0.5)), &first, &effects);
  const std::optional<PairedSpread>& spread = accuracy_of(moved).paired_spread;
  ASSERT_TRUE(spread.has_value());
  std::vector<double> differences;
  for (int i = 0; i < kSeeds; ++i)
    differences.push_back(values(0.01, 0.5)[i] - values(0.01, 0.0)[i]);
  EXPECT_NEAR(spread->sd, stats::summarize_samples(differences).sd, 1e-15);
  EXPECT_EQ(spread->pairs, kSeeds);
  EXPECT_EQ(spread->source_run, "r3");
  EXPECT_EQ(spread->measured_at, "2026-12-06T00:00:00Z");
  ASSERT_EQ(effects.size(), 1u);
  EXPECT_THAT(effects[0], HasSubstr("Study.accuracy: its seeds moved by an sd of"));
  EXPECT_THAT(effects[0], HasSubstr("(10 seeds in both)"));

  // Fresh seeds pair with nothing, and the same values again moved nothing: the spread stays.
  const BaselineFile fresh = promoted(seeded_run(seeds_from(100), values(0.02, 1.0)), &moved);
  EXPECT_EQ(accuracy_of(fresh).paired_spread, spread);
  const BaselineFile again = promoted(seeded_run(seeds_from(100), values(0.02, 1.0)), &fresh);
  EXPECT_EQ(accuracy_of(again).paired_spread, spread);
  // Fewer shared seeds than kFewestStoredPairs measure nothing either.
  std::vector<std::uint64_t> few = seeds_from(100);
  for (std::size_t i = kFewestStoredPairs - 1; i < few.size(); ++i) few[i] += 1000;
  const BaselineFile partial = promoted(seeded_run(few, values(0.02, 2.0)), &again);
  EXPECT_EQ(accuracy_of(partial).paired_spread, spread);
}

TEST(PairedSpreadPromotion, PairedSpreadAloneLeavesTheSamplesAndRefusesWhatMeasuresNothing) {
  const BaselineFile first = promoted(seeded_run(seeds_from(0), values(0.01, 0.0)), nullptr);
  PromotionRequest request = promotion_request("spread", "2026-12-06T00:00:00Z");
  request.paired_spread = true;
  const BaselineSet set = BaselineSet::from_files({{"baselines/suite/study_test.toml", first}});
  const std::vector<PlannedFile> plan =
      plan_promotion(seeded_run(seeds_from(0), values(0.01, 0.5)), set, request);
  ASSERT_EQ(plan.size(), 1u);
  const BaselineMetric& after = accuracy_of(plan[0].after);
  ASSERT_TRUE(after.paired_spread.has_value());
  EXPECT_EQ(after.paired_spread->pairs, kSeeds);
  EXPECT_EQ(after.samples, accuracy_of(first).samples);
  EXPECT_EQ(after.seeds, accuracy_of(first).seeds);
  EXPECT_EQ(after.pool, accuracy_of(first).pool);
  EXPECT_EQ(plan[0].after.provenance.version, first.provenance.version + 1);

  const auto refusal = [&](const RunRecord& record, const BaselineSet& against) {
    try {
      plan_promotion(record, against, request);
    } catch (const PromotionRefused& refused) {
      return std::string(refused.what());
    }
    return std::string();
  };
  EXPECT_THAT(refusal(seeded_run(seeds_from(100), values(0.01, 0.5)), set),
              HasSubstr("shares fewer than 9 seeds with the baseline"));
  EXPECT_THAT(refusal(seeded_run(seeds_from(0), values(0.01, 0.0)), set),
              HasSubstr("none of its seeded metrics moved against the baseline's values"));
  EXPECT_THAT(refusal(seeded_run(seeds_from(0), values(0.01, 0.5)), BaselineSet::from_files({})),
              HasSubstr("no baseline in"));
  // What moved the seeds may be a parameter: another configuration measures a spread too.
  RunRecord other = seeded_run(seeds_from(0), values(0.01, 0.5));
  other.run.tests[0].config_hash = "fedcba9876543210";
  EXPECT_EQ(plan_promotion(other, set, request).size(), 1u);
}

// The run's `accuracy` moved, its covariate (a value of the data alone) did not.
RunRecord run_with_covariate(const std::vector<double>& accuracy) {
  RunRecord record = seeded_run(seeds_from(0), accuracy);
  MetricRecord covariate{"rule_accuracy", 0.0, HigherIsBetter, Margin{0.02}};
  covariate.sample_seeds = seeds_from(0);
  covariate.samples = values(0.005, 3.0);
  record.run.tests[0].metrics.push_back(covariate);
  return record;
}

TEST(PairedSpreadPromotion, AMetricNoSeedOfWhichMovedGetsNoSpreadAndTheOthersStillDo) {
  PromotionRequest request = promotion_request("spread", "2026-12-06T00:00:00Z");
  const std::vector<PlannedFile> first_plan =
      plan_promotion(run_with_covariate(values(0.01, 0.0)), BaselineSet::from_files({}), request);
  ASSERT_EQ(first_plan.size(), 1u);
  const BaselineSet set =
      BaselineSet::from_files({{"baselines/suite/study_test.toml", first_plan[0].after}});
  request.paired_spread = true;
  const std::vector<PlannedFile> plan =
      plan_promotion(run_with_covariate(values(0.01, 0.5)), set, request);
  ASSERT_EQ(plan.size(), 1u);
  const BaselineTest& test = plan[0].after.tests.at("Study");
  EXPECT_TRUE(test.metrics.at("accuracy").paired_spread.has_value());
  EXPECT_FALSE(test.metrics.at("rule_accuracy").paired_spread.has_value());
  EXPECT_THAT(plan[0].detectable_effects,
              ::testing::Contains(HasSubstr(
                  "Study.rule_accuracy: none of its 10 seeds in both moved: no spread stored")));
}

// --- promote --paired-spread --add-pairs: a pool's spread grows past one run's seeds.

// Seeds 0-9 and 100-109, a baseline of both blocks.
std::vector<std::uint64_t> two_blocks() {
  std::vector<std::uint64_t> seeds = seeds_from(0);
  const std::vector<std::uint64_t> more = seeds_from(100);
  seeds.insert(seeds.end(), more.begin(), more.end());
  return seeds;
}

std::vector<double> joined(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> all = a;
  all.insert(all.end(), b.begin(), b.end());
  return all;
}

// Each block's moved values: the second block moved by more and further down, so the two blocks'
// differences differ in mean as well as spread.
std::vector<double> first_moved() { return values(0.01, 0.5); }
std::vector<double> second_moved() {
  std::vector<double> v = values(0.02, 2.0);
  for (double& x : v) x -= 0.004;
  return v;
}

struct SpreadPromotion {
  BaselineFile file;
  std::vector<std::string> effects;
  std::string refusal;
};

SpreadPromotion spread_promotion(const RunRecord& record, const BaselineFile& existing,
                                 bool add_pairs) {
  PromotionRequest request = promotion_request("spread", "2026-12-07T00:00:00Z");
  request.paired_spread = true;
  request.add_pairs = add_pairs;
  const BaselineSet set = BaselineSet::from_files({{"baselines/suite/study_test.toml", existing}});
  SpreadPromotion result{.file = existing};
  try {
    const std::vector<PlannedFile> plan = plan_promotion(record, set, request);
    if (!plan.empty()) {
      result.file = plan[0].after;
      result.effects = plan[0].detectable_effects;
    }
  } catch (const PromotionRefused& refused) {
    result.refusal = refused.what();
  }
  return result;
}

TEST(PairedSpreadAddPairs, TwoRunsOfOtherSeedsStoreTheSpreadOfAllTheirDifferences) {
  const std::vector<double> before = joined(values(0.01, 0.0), values(0.01, 1.0));
  const BaselineFile pool = promoted(seeded_run(two_blocks(), before), nullptr);
  const SpreadPromotion first =
      spread_promotion(seeded_run(seeds_from(0), first_moved()), pool, /*add_pairs=*/true);
  ASSERT_EQ(first.refusal, "");
  // No spread stored yet: --add-pairs stores the run's, with the seeds it was measured on.
  ASSERT_TRUE(accuracy_of(first.file).paired_spread.has_value());
  EXPECT_EQ(accuracy_of(first.file).paired_spread->seeds, seeds_from(0));

  const SpreadPromotion second =
      spread_promotion(seeded_run(seeds_from(100), second_moved()), first.file, true);
  ASSERT_EQ(second.refusal, "");
  const PairedSpread& all = *accuracy_of(second.file).paired_spread;
  // Independently: every difference at once.
  std::vector<double> differences;
  const std::vector<double> after = joined(first_moved(), second_moved());
  for (std::size_t i = 0; i < after.size(); ++i) differences.push_back(after[i] - before[i]);
  const stats::SampleSummary expected = stats::summarize_samples(differences);
  EXPECT_EQ(all.pairs, 2 * kSeeds);
  EXPECT_NEAR(all.sd, expected.sd, 1e-15);
  EXPECT_NEAR(all.mean, expected.mean, 1e-15);
  EXPECT_EQ(all.seeds, two_blocks());
  EXPECT_EQ(all.source_run, "r3");
  // The blocks' means differ, so a sum that left out their spread about the joint mean (each
  // block's squares only) would be caught above.
  const double first_sd = accuracy_of(first.file).paired_spread->sd;
  const double second_sd =
      stats::summarize_samples(std::vector<double>(differences.begin() + kSeeds, differences.end()))
          .sd;
  const double within_only = std::sqrt(
      ((kSeeds - 1.0) * (first_sd * first_sd + second_sd * second_sd)) / (2.0 * kSeeds - 1.0));
  EXPECT_GT(std::abs(within_only - expected.sd), 1e-4);
  ASSERT_EQ(second.effects.size(), 1u);
  EXPECT_THAT(second.effects[0], HasSubstr("added to the 10 stored pairs: an sd of"));
  EXPECT_THAT(second.effects[0], HasSubstr("over 20 pairs (seeds 0-9, 100-109)"));
  // Its samples stay the pool's.
  EXPECT_EQ(accuracy_of(second.file).samples, before);

  // Without --add-pairs the run's pairs replace the stored ones.
  const SpreadPromotion replaced =
      spread_promotion(seeded_run(seeds_from(100), second_moved()), first.file, false);
  EXPECT_EQ(accuracy_of(replaced.file).paired_spread->pairs, kSeeds);
  EXPECT_EQ(accuracy_of(replaced.file).paired_spread->seeds, seeds_from(100));
}

TEST(PairedSpreadAddPairs, ASeedCountsOnceAndASpreadWithoutItsSeedsIsNotAddedTo) {
  const std::vector<double> before = joined(values(0.01, 0.0), values(0.01, 1.0));
  const BaselineFile pool = promoted(seeded_run(two_blocks(), before), nullptr);
  const SpreadPromotion first =
      spread_promotion(seeded_run(seeds_from(0), first_moved()), pool, false);
  ASSERT_EQ(first.refusal, "");
  // The same seeds again, moved otherwise: refused, nothing written.
  const SpreadPromotion again =
      spread_promotion(seeded_run(seeds_from(0), values(0.03, 4.0)), first.file, true);
  EXPECT_THAT(again.refusal, HasSubstr("seeds 0-9 are already among the stored spread's 10 pairs"));
  EXPECT_EQ(again.file, first.file);
  // A spread stored before its seeds were kept can be replaced, not added to.
  BaselineFile legacy = first.file;
  legacy.tests.at("Study").metrics.at("accuracy").paired_spread->seeds.clear();
  const SpreadPromotion onto_legacy =
      spread_promotion(seeded_run(seeds_from(100), second_moved()), legacy, true);
  EXPECT_THAT(onto_legacy.refusal,
              HasSubstr("its stored spread (10 pairs, from run r3) does not record its seeds"));
  EXPECT_EQ(spread_promotion(seeded_run(seeds_from(100), second_moved()), legacy, false)
                .file.tests.at("Study")
                .metrics.at("accuracy")
                .paired_spread->seeds,
            seeds_from(100));
}

// A file whose Study.accuracy, on seeds 0-9, stores `spread`.
BaselineFile file_with_spread(const PairedSpread& spread) {
  BaselineMetric m = four_seed_accuracy({});
  m.seeds = seeds_from(0);
  m.samples = values(0.01, 0.0);
  m.paired_spread = spread;
  BaselineFile file;
  file.tests["Study"].config_hash = "0123456789abcdef";
  file.tests["Study"].metrics["accuracy"] = m;
  return file;
}

// The file's text, checked to read back as `file` and to write the same text again.
std::string round_trip(const BaselineFile& file) {
  const std::string text = render_baseline(file);
  const BaselineFile read = parse_baseline(text, "b.toml");
  EXPECT_EQ(read, file);
  EXPECT_EQ(render_baseline(read), text);
  return text;
}

// What the reader says of `text` with `from` replaced by `to`.
std::string error_after_edit(const std::string& text, const std::string& from,
                             const std::string& to) {
  return error_of(replace(text, from, to));
}

TEST(PairedSpreadToml, TheSpreadSurvivesAWriteAndARead) {
  const BaselineFile file = file_with_spread(PairedSpread{
      .sd = 0.0025, .pairs = kSeeds, .source_run = "r3", .measured_at = "2026-12-06T00:00:00Z"});
  const std::string text = round_trip(file);
  EXPECT_THAT(text, HasSubstr("paired_spread = { sd = 0.0025, pairs = 10, source_run = \"r3\", "
                              "measured_at = \"2026-12-06T00:00:00Z\" }"))
      << text;

  const auto refused = [&](const std::string& from, const std::string& to) {
    return error_after_edit(text, from, to);
  };
  std::string error = refused("sd = 0.0025", "sd = 0");
  EXPECT_THAT(error, HasSubstr(".paired_spread.sd must be > 0")) << error;
  EXPECT_THAT(error, ::testing::MatchesRegex("b\\.toml:[0-9]+:[0-9]+: .*")) << error;
  error = refused("pairs = 10", "pairs = 4");
  EXPECT_THAT(error, HasSubstr(".paired_spread.pairs must be between 9 and")) << error;
  error = refused("pairs = 10", "pairs = 11");
  EXPECT_THAT(error, HasSubstr("counts 11 pairs, more than the 10 seeds")) << error;
  error = refused("pairs = 10,", "pairs = 10, spread = 1,");
  EXPECT_THAT(error, HasSubstr("unknown key 'spread'")) << error;
  error = refused("sd = 0.0025, ", "");
  EXPECT_THAT(error, HasSubstr("is missing 'sd'")) << error;
}

TEST(PairedSpreadToml, TheSeedsOfItsPairsSurviveAWriteAndAReadAndMustMatchTheCount) {
  const BaselineFile file = file_with_spread(PairedSpread{.sd = 0.0025,
                                                          .pairs = kSeeds,
                                                          .mean = -0.0005,
                                                          .seeds = seeds_from(0),
                                                          .source_run = "r3",
                                                          .measured_at = "2026-12-07T00:00:00Z"});
  const std::string text = round_trip(file);
  EXPECT_THAT(text, HasSubstr("paired_spread = { sd = 0.0025, pairs = 10, mean = -0.0005, seeds = "
                              "\"0-9\", source_run = \"r3\""))
      << text;

  const auto refused = [&](const std::string& from, const std::string& to) {
    return error_after_edit(text, from, to);
  };
  std::string error = refused("seeds = \"0-9\"", "seeds = \"0-8\"");
  EXPECT_THAT(error, HasSubstr(".paired_spread.seeds must name the 10 seeds of its pairs"))
      << error;
  EXPECT_THAT(error, ::testing::MatchesRegex("b\\.toml:[0-9]+:[0-9]+: .*")) << error;
  error = refused("seeds = \"0-9\"", "seeds = \"9-0\"");
  EXPECT_THAT(error, HasSubstr("not \"9-0\"")) << error;
  error = refused("mean = -0.0005, ", "");
  EXPECT_THAT(error, HasSubstr("needs both 'mean' and 'seeds'")) << error;
}

}  // namespace
}  // namespace mlregress::internal
