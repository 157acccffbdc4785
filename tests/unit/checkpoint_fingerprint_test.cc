// record_checkpoint: the checkpoint a test loads is a fingerprint like a dataset. Its hash
// survives the baseline file, results.json and the event wire; a run from another checkpoint
// is NOT_COMPARABLE naming it (cause `data`), and a run from the same one is compared.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "baselines/baseline_toml.h"
#include "builders.h"
#include "comparison/baseline_gate.h"
#include "execution/test_events.h"
#include "renderers/run_report.h"
#include "storage/results_json.h"
#include "support/dataset_hasher.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

constexpr const char* kHashA = "sha256:3f2a000000000000000000000000000000000000";
constexpr const char* kHashB = "sha256:91c0000000000000000000000000000000000000";

// A baseline of test `T` whose accuracy 0.9 was measured from the checkpoint `pretrained` of
// hash kHashA.
BaselineSet baseline_from_checkpoint(const EnvironmentProfile& now) {
  LoadedBaselineFile loaded;
  loaded.path = "baselines/bin/t.toml";
  loaded.file.provenance.environment = now.id;
  BaselineTest& test = loaded.file.tests["T"];
  test.checkpoints["pretrained"] = kHashA;
  BaselineMetric& accuracy = test.metrics["accuracy"];
  accuracy.direction = HigherIsBetter;
  accuracy.policy = Band{.rtol = 0.0, .atol = 0.01};
  accuracy.value = 0.9;
  std::vector<LoadedBaselineFile> files;
  files.push_back(std::move(loaded));
  return BaselineSet::from_files(std::move(files));
}

// Test `T` measured accuracy 0.9 from the checkpoint `pretrained` of hash `sha`, judged as
// `run` judges it.
TestResult judged_from(const std::string& sha) {
  EnvironmentProfile now;
  now.id = "cpu-m1";
  now.numerics_id = "cpu-n1";
  RunResult run;
  TestResult& t = run.tests.emplace_back();
  t.name = "T";
  t.full_name = "Medium.T";
  t.finished = true;
  t.metrics = {MetricRecord{"accuracy", 0.9, HigherIsBetter, {}, {}, {}}};
  t.datasets.push_back({"pretrained", sha, 1024, FingerprintKind::kCheckpoint});
  const BaselineSet set = baseline_from_checkpoint(now);
  BaselineGate gate(set, now, 0.05);
  gate.judge_run(run);
  return run.tests.front();
}

TEST(CheckpointFingerprint, TheBaselineFileKeepsCheckpointHashes) {
  BaselineFile file;
  file.provenance.version = 1;
  BaselineTest& test = file.tests["T"];
  test.datasets = {{"eval", "sha256:ab12"}};
  test.checkpoints = {{"pretrained", "sha256:cd34"}, {"resumed \"2\"", "sha256:ef56"}};
  const std::string rendered = render_baseline(file);
  EXPECT_THAT(rendered, HasSubstr("datasets = { eval = \"sha256:ab12\" }\ncheckpoints = { "
                                  "pretrained = \"sha256:cd34\", \"resumed \\\"2\\\"\" = "
                                  "\"sha256:ef56\" }\n"));
  BaselineFile back;
  ASSERT_NO_THROW(back = parse_baseline(rendered, "rendered.toml")) << rendered;
  EXPECT_EQ(back, file) << rendered;
}

TEST(CheckpointFingerprint, TheSameCheckpointIsCompared) {
  const TestResult t = judged_from(kHashA);
  ASSERT_EQ(t.comparisons.size(), 1u);
  EXPECT_EQ(t.comparisons[0].verdict, Verdict::kPass);
  EXPECT_EQ(t.status, TestStatus::kPassed);
}

TEST(CheckpointFingerprint, AnotherCheckpointIsNotComparableNamingIt) {
  const TestResult t = judged_from(kHashB);
  ASSERT_EQ(t.comparisons.size(), 1u);
  const MetricComparison& c = t.comparisons[0];
  EXPECT_EQ(c.verdict, Verdict::kNotComparable);
  EXPECT_EQ(c.note,
            "the checkpoint 'pretrained' changed (sha256:3f2a00000000 → sha256:91c000000000)");
  ASSERT_TRUE(c.cause);
  EXPECT_EQ(c.cause->cause, CauseClass::kData) << format_cause(*c.cause);
  EXPECT_EQ(c.cause->rule,
            "the checkpoint hash of 'pretrained' differs from the baseline's "
            "(sha256:3f2a00000000… → sha256:91c000000000…)");
  EXPECT_EQ(count_not_gated(RunResult{.tests = {t}}), 1u);
}

TEST(CheckpointFingerprint, ResultsJsonAndTheWireKeepTheKind) {
  RunResult run{.tests = {finished_test("T", "Medium.T", "t.cc", {})}};
  TestResult& test = run.tests.front();
  test.datasets = {{"eval", kHashA, 10, FingerprintKind::kDataset},
                   {"train", kHashA, 8, FingerprintKind::kDataOrder},
                   {"pretrained", kHashB, 1024, FingerprintKind::kCheckpoint}};
  const nlohmann::json written = run;
  const nlohmann::json& datasets = written.at("tests").at(0).at("datasets");
  EXPECT_FALSE(datasets.at(0).contains("kind")) << "a dataset is written as before";
  EXPECT_FALSE(datasets.at(1).contains("kind"));
  EXPECT_EQ(datasets.at(2).at("kind"), "checkpoint");
  EXPECT_EQ(datasets.at(2).at("order"), false);
  const RunResult read = written.get<RunResult>();
  ASSERT_EQ(read.tests.size(), 1u);
  ASSERT_EQ(read.tests[0].datasets.size(), 3u);
  EXPECT_EQ(read.tests[0].datasets[0].kind, FingerprintKind::kDataset);
  EXPECT_EQ(read.tests[0].datasets[1].kind, FingerprintKind::kDataOrder);
  EXPECT_EQ(read.tests[0].datasets[2].kind, FingerprintKind::kCheckpoint);

  const DecodedEvent decoded = decode_event_line(
      event_line(DatasetRecorded{"pretrained", kHashB, 1024, FingerprintKind::kCheckpoint}));
  ASSERT_TRUE(decoded.event.has_value()) << decoded.error;
  EXPECT_EQ(std::get<DatasetRecorded>(*decoded.event).kind, FingerprintKind::kCheckpoint);
}

TEST(CheckpointFingerprint, TheReportListsTheFingerprintsInOneLine) {
  TestResult test;
  EXPECT_EQ(fingerprints_line(test), "") << "nothing for a test that records none";
  test.datasets = {{"eval", kHashA, 10, FingerprintKind::kDataset},
                   {"pretrained", kHashB, 1024, FingerprintKind::kCheckpoint}};
  EXPECT_EQ(fingerprints_line(test),
            "Fingerprints: dataset eval sha256:3f2a00000000… · checkpoint pretrained "
            "sha256:91c000000000…");
}

// A checkpoint that cannot be read is an error naming record_checkpoint and the file; a dataset's
// keeps naming record_dataset.
TEST(CheckpointFingerprint, AnUnreadableFileNamesTheCallAndTheFile) {
  const std::string missing = "/nonexistent/pretrained.pt";
  try {
    fingerprint_files_for("record_checkpoint 'pretrained'", {missing});
    ADD_FAILURE() << "an unreadable checkpoint was hashed";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(),
                 "record_checkpoint 'pretrained': cannot read '/nonexistent/pretrained.pt'");
  }
  try {
    fingerprint_files({missing});
    ADD_FAILURE() << "an unreadable dataset file was hashed";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "record_dataset: cannot read '/nonexistent/pretrained.pt'");
  }
}

}  // namespace
}  // namespace mlregress::internal
