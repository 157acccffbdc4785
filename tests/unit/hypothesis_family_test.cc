// The run's Holm family counted before any seed runs: every seeded metric with per-seed baseline
// samples once, the same samples under two names once, everything else not at all.
#include "comparison/hypothesis_family.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace mlregress::internal {
namespace {

BaselineMetric seeded(std::vector<double> samples, Direction direction = HigherIsBetter,
                      double margin = 0.005) {
  BaselineMetric m;
  m.direction = direction;
  m.policy = Margin{.delta = margin};
  m.samples = std::move(samples);
  for (std::size_t i = 0; i < m.samples.size(); ++i) m.seeds.push_back(i);
  return m;
}

BaselineSet set_of(std::map<std::string, BaselineTest> tests) {
  LoadedBaselineFile loaded;
  loaded.path = "baselines/bin/studies.toml";
  loaded.file.tests = std::move(tests);
  std::vector<LoadedBaselineFile> files;
  files.push_back(std::move(loaded));
  return BaselineSet::from_files(std::move(files));
}

TEST(HypothesisFamily, CountsEachDistinctSeededMetricOfThePlannedTests) {
  BaselineTest ablation, sweep, other;
  ablation.metrics["acc[baseline]"] = seeded({0.86, 0.87, 0.88});
  ablation.metrics["acc[half_width]"] = seeded({0.84, 0.85, 0.86});
  sweep.metrics["acc[lr_1e-3]"] = seeded({0.86, 0.87, 0.88});  // the ablation's baseline again
  sweep.metrics["acc[lr_1e-2]"] = seeded({0.83, 0.84, 0.85});
  sweep.metrics["steps"].value = 400.0;                   // a single value: no hypothesis
  sweep.metrics["one_seed"] = seeded({0.9});              // cannot be tested
  sweep.metrics["hash"] = seeded({1.0, 2.0}, MustEqual);  // not a statistical check
  other.metrics["loss"] = seeded({0.2, 0.3});
  const BaselineSet set = set_of({{"Ablation", ablation}, {"Sweep", sweep}, {"NotPlanned", other}});

  EXPECT_EQ(planned_hypotheses(set, {{"Ablation", ""}, {"Sweep", ""}}), 3);
  EXPECT_EQ(planned_hypotheses(set, {{"Ablation", ""}}), 2);
  EXPECT_EQ(planned_hypotheses(set, {{"Ablation", ""}, {"Sweep", ""}, {"NotPlanned", ""}}), 4);
  // A test whose configuration the run changes asks another question than its twin.
  EXPECT_EQ(planned_hypotheses(set, {{"Ablation", "aaaa"}, {"Sweep", "aaaa"}}), 3);
  EXPECT_EQ(planned_hypotheses(set, {{"Ablation", "aaaa"}, {"Sweep", "bbbb"}}), 4);
  // The same samples with another direction or margin ask another question.
  sweep.metrics["acc[lr_1e-3]"] = seeded({0.86, 0.87, 0.88}, HigherIsBetter, 0.01);
  EXPECT_EQ(planned_hypotheses(set_of({{"Ablation", ablation}, {"Sweep", sweep}}),
                               {{"Ablation", ""}, {"Sweep", ""}}),
            4);
}

// record_predictions checks (McNemar) join the same Holm families: each reference file of a
// planned test is one more hypothesis. Planted: leaving them out lets a look settle at a level
// Holm then does not confirm.
TEST(HypothesisFamily, PredictionsReferencesCountAsHypotheses) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "mlregress_hypothesis_family_test";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder / "predictions");
  for (const char* file : {"Classifier.val.csv", "Classifier.test.csv", "Other.val.csv"}) {
    std::ofstream(folder / "predictions" / file) << "id,predicted,target\n";
  }
  BaselineTest classifier;
  classifier.metrics["acc"] = seeded({0.86, 0.87, 0.88});
  LoadedBaselineFile loaded;
  loaded.path = "baselines/bin/classifier.toml";
  loaded.file.tests["Classifier"] = classifier;
  std::vector<LoadedBaselineFile> files;
  files.push_back(std::move(loaded));
  const BaselineSet set = BaselineSet::from_files(std::move(files), folder.string());
  EXPECT_EQ(planned_hypotheses(set, {{"Classifier", ""}}), 3);  // acc + two predictions checks
  EXPECT_EQ(planned_hypotheses(set, {{"Classifier", ""}, {"Other", ""}}), 4);
  std::filesystem::remove_all(folder);
}

TEST(HypothesisFamily, NothingPlannedOrNoBaselinesIsAFamilyOfOne) {
  EXPECT_EQ(planned_hypotheses(set_of({}), {{"Anything", ""}}), 1);
  EXPECT_EQ(planned_hypotheses(set_of({}), {}), 1);
}

}  // namespace
}  // namespace mlregress::internal
