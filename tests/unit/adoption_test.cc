// `baselines adopt`: a new machine fills only the gaps its UNGATED verdicts point at. Planted:
// a portable value or another machine's value changed, this machine's existing value replaced,
// a value adopted from two runs that disagree, a test measured on other data adopted, or an
// adoption without provenance and history.
#include "baselines/adoption.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "builders.h"
#include "comparison/baseline_gate.h"

namespace mlregress::internal {
namespace {

constexpr const char* kPath = "baselines/suite/clipping_test.toml";

EnvironmentProfile new_runner() {
  return EnvironmentProfile{.id = "cpu-newm",
                            .numerics_id = "cpu-avx2-newn",
                            .framework = "libtorch 2.13.0",
                            .build = "cpu",
                            .cpu = "New CPU",
                            .machine = "x86_64",
                            .capability = "AVX2"};
}

RunRecord run_on(const EnvironmentProfile& profile, const std::string& id, double loss,
                 double steps_per_s = 100.0) {
  RunRecord record;
  record.path = "runs/" + id;
  record.profile = profile;
  record.run.info.run_id = id;
  record.run.info.binary = "suite";
  record.run.info.finished_at = "2026-12-04T00:00:00Z";
  record.run.info.environment = {{"git", {{"commit", "abc123"}, {"dirty", false}}}};
  TestResult test;
  test.name = "Clipping";
  test.full_name = "Fast.Clipping";
  test.file = "suites/fast/clipping_test.cc";
  test.config_hash = "c0ffee";
  test.finished = true;
  test.metrics = {{"first_bad_step", 19.0, MustEqual, Exact{}},
                  {"final_loss", loss, MustEqual, Exact{}},
                  {"peak_bytes", 4096.0, MustEqual, Exact{Scope::Machine}},
                  {"steps_per_s", steps_per_s, HigherIsBetter, Timing{.cv = 0.01}}};
  record.run.tests.push_back(test);
  return record;
}

// Promoted on another machine: a portable step, a numerics loss, a machine value, a timing.
BaselineFile promoted_elsewhere() {
  BaselineFile file;
  file.provenance.version = 3;
  // The promoting machine holds no value of its own any more: adopt must keep its description.
  file.provenance.environment = "cpu-prov";
  file.provenance.reason = "first promotion";
  file.environments["cpu-prov"] = EnvironmentProfile{.id = "cpu-prov", .cpu = "Promoting CPU"};
  file.environments["cpu-oldm"] = EnvironmentProfile{.id = "cpu-oldm", .cpu = "Old CPU"};
  file.environments["cpu-avx512-oldn"] =
      EnvironmentProfile{.id = "cpu-avx512-oldn", .capability = "AVX512"};
  BaselineTest& test = file.tests["Clipping"];
  test.config_hash = "c0ffee";
  test.metrics["first_bad_step"] = {
      .direction = MustEqual, .policy = Exact{Scope::Portable}, .value = 19.0};
  test.metrics["final_loss"] = {.direction = MustEqual,
                                .policy = Exact{Scope::Numerics},
                                .by_environment = {{"cpu-avx512-oldn", 0.125}}};
  test.metrics["peak_bytes"] = {.direction = MustEqual,
                                .policy = Exact{Scope::Machine},
                                .by_environment = {{"cpu-oldm", 8192.0}}};
  test.metrics["steps_per_s"] = {.direction = HigherIsBetter,
                                 .policy = Timing{},
                                 .by_environment = {{"cpu-oldm", 50.0}},
                                 .cv_by_environment = {{"cpu-oldm", 0.02}}};
  return file;
}

BaselineSet existing(const BaselineFile& file) { return BaselineSet::from_files({{kPath, file}}); }

PromotionRequest request() { return promotion_request("new CI runner", "2026-12-04T12:00:00Z"); }

TEST(Adoption, FillsOnlyThisMachinesGapsAndRecordsWhoWhenWhy) {
  const BaselineFile before = promoted_elsewhere();
  const RunRecord run = run_on(new_runner(), "r1", 0.25);
  const RunRecord again = run_on(new_runner(), "r1b", 0.25);
  const AdoptionPlan plan = plan_adoption(run, &again, existing(before), request());
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_TRUE(plan.refused.empty());
  EXPECT_EQ(plan.adopted.size(), 3u);  // loss, peak bytes, timing; not the portable step
  const BaselineFile& after = plan.files[0].after;
  const auto& metrics = after.tests.at("Clipping").metrics;
  EXPECT_EQ(metrics.at("first_bad_step"), before.tests.at("Clipping").metrics.at("first_bad_step"));
  EXPECT_EQ(metrics.at("final_loss").by_environment,
            (std::map<std::string, double>{{"cpu-avx512-oldn", 0.125}, {"cpu-avx2-newn", 0.25}}));
  EXPECT_EQ(metrics.at("peak_bytes").by_environment,
            (std::map<std::string, double>{{"cpu-oldm", 8192.0}, {"cpu-newm", 4096.0}}));
  EXPECT_EQ(metrics.at("steps_per_s").by_environment.at("cpu-newm"), 100.0);
  EXPECT_EQ(metrics.at("steps_per_s").cv_by_environment.at("cpu-newm"), 0.01);
  EXPECT_EQ(metrics.at("steps_per_s").by_environment.at("cpu-oldm"), 50.0);
  // Who, when, why: the provenance and each added value's history, as promote writes them.
  EXPECT_EQ(after.provenance.version, 4);
  EXPECT_EQ(after.provenance.source_run, "r1");
  EXPECT_EQ(after.provenance.reason, "adopt (confirmed by run r1b): new CI runner");
  EXPECT_EQ(after.provenance.promoted_at, "2026-12-04T12:00:00Z");
  ASSERT_EQ(metrics.at("final_loss").history.size(), 1u);
  const HistoryEntry& entry = metrics.at("final_loss").history[0];
  EXPECT_EQ(entry.version, 4);
  EXPECT_EQ(entry.environment, "cpu-avx2-newn");
  EXPECT_FALSE(entry.old_value.has_value());
  EXPECT_EQ(entry.new_value, 0.25);
  EXPECT_EQ(after.environments.at("cpu-avx2-newn").cpu, "");
  EXPECT_EQ(after.environments.at("cpu-newm").cpu, "New CPU");
  EXPECT_EQ(after.environments.count("cpu-oldm"), 1u);
  for (const auto& [id, description] : before.environments) {
    EXPECT_EQ(after.environments.at(id), description) << id;  // adopt only adds
  }

  // Adopted, the same run gates every metric on this machine: nothing is UNGATED any more.
  TestResult judged = run.run.tests[0];
  BaselineGate(existing(after), run.profile, 0.01).compare_test(judged);
  for (const MetricComparison& c : judged.comparisons) {
    EXPECT_EQ(c.verdict, Verdict::kPass) << c.metric << ": " << c.note;
  }
  // And a second adoption finds nothing left to do.
  EXPECT_TRUE(plan_adoption(run, &again, existing(after), request()).files.empty());
}

TEST(Adoption, NeverReplacesAValueThisMachineAlreadyHas) {
  BaselineFile before = promoted_elsewhere();
  before.tests["Clipping"].metrics["final_loss"].by_environment["cpu-avx2-newn"] = 0.5;
  const RunRecord again = run_on(new_runner(), "r1b", 0.25);
  const AdoptionPlan plan =
      plan_adoption(run_on(new_runner(), "r1", 0.25), &again, existing(before), request());
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0]
                .after.tests.at("Clipping")
                .metrics.at("final_loss")
                .by_environment.at("cpu-avx2-newn"),
            0.5);  // promote replaces values; adopt only adds them
}

TEST(Adoption, TwoRunsThatDisagreeOnAnExactValueLeaveItUngated) {
  const BaselineFile before = promoted_elsewhere();
  const RunRecord first = run_on(new_runner(), "r1", 0.25, 100.0);
  const RunRecord second = run_on(new_runner(), "r2", 0.25000001, 90.0);
  const AdoptionPlan plan = plan_adoption(first, &second, existing(before), request());
  ASSERT_EQ(plan.refused.size(), 1u);
  EXPECT_THAT(plan.refused[0], ::testing::HasSubstr("Clipping.final_loss: the two runs differ"));
  ASSERT_EQ(plan.files.size(), 1u);
  const auto& metrics = plan.files[0].after.tests.at("Clipping").metrics;
  EXPECT_EQ(metrics.at("final_loss").by_environment.count("cpu-avx2-newn"), 0u);
  EXPECT_EQ(metrics.at("peak_bytes").by_environment.at("cpu-newm"), 4096.0);  // they agree
  // A timing's band must hold both processes: the spread is at least their difference (10%).
  EXPECT_NEAR(metrics.at("steps_per_s").cv_by_environment.at("cpu-newm"), 0.1, 1e-12);
  EXPECT_THAT(plan.files[0].after.provenance.reason, ::testing::HasSubstr("confirmed by run r2"));

  const RunRecord agreeing = run_on(new_runner(), "r3", 0.25);
  EXPECT_TRUE(plan_adoption(first, &agreeing, existing(before), request()).refused.empty());
}

TEST(Adoption, AConfirmingRunFromAnotherMachineOrCommitIsRefused) {
  const BaselineFile before = promoted_elsewhere();
  const RunRecord run = run_on(new_runner(), "r1", 0.25);
  EnvironmentProfile elsewhere = new_runner();
  elsewhere.id = "cpu-else";
  const RunRecord other_machine = run_on(elsewhere, "r2", 0.25);
  EXPECT_THROW(plan_adoption(run, &other_machine, existing(before), request()), PromotionRefused);
  RunRecord other_commit = run_on(new_runner(), "r3", 0.25);
  other_commit.run.info.environment["git"]["commit"] = "def456";
  EXPECT_THROW(plan_adoption(run, &other_commit, existing(before), request()), PromotionRefused);
}

TEST(Adoption, ATestMeasuredOnOtherDataOrConfigurationIsNotAdopted) {
  BaselineFile before = promoted_elsewhere();
  before.tests["Clipping"].datasets["eval"] = "sha256:aaaa";
  RunRecord run = run_on(new_runner(), "r1", 0.25);
  run.run.tests[0].datasets.push_back({"eval", "sha256:bbbb", 0, FingerprintKind::kDataset});
  AdoptionPlan plan = plan_adoption(run, nullptr, existing(before), request());
  EXPECT_TRUE(plan.files.empty());
  ASSERT_EQ(plan.refused.size(), 1u);
  EXPECT_THAT(plan.refused[0], ::testing::HasSubstr("the dataset 'eval' changed"));

  RunRecord reconfigured = run_on(new_runner(), "r2", 0.25);
  reconfigured.run.tests[0].config_hash = "beef";
  plan = plan_adoption(reconfigured, nullptr, existing(promoted_elsewhere()), request());
  EXPECT_TRUE(plan.files.empty());
  ASSERT_EQ(plan.refused.size(), 1u);
  EXPECT_THAT(plan.refused[0], ::testing::HasSubstr("configuration changed"));
}

// One run cannot show that an exact value repeats on this machine; a timing needs no second run.
// Planted: an exact value adopted from a single run without --force.
TEST(Adoption, AnExactValueNeedsASecondRunUnlessForced) {
  const RunRecord run = run_on(new_runner(), "r1", 0.25);
  const AdoptionPlan plan = plan_adoption(run, nullptr, existing(promoted_elsewhere()), request());
  EXPECT_EQ(plan.refused.size(), 2u);  // final_loss, peak_bytes
  EXPECT_THAT(plan.refused[0], ::testing::HasSubstr("--confirm RUN2"));
  ASSERT_EQ(plan.adopted.size(), 1u);
  EXPECT_THAT(plan.adopted[0], ::testing::HasSubstr("Clipping.steps_per_s"));
  PromotionRequest forced = request();
  forced.force = true;
  EXPECT_EQ(plan_adoption(run, nullptr, existing(promoted_elsewhere()), forced).adopted.size(), 3u);
}

// A test that regressed against the baselines is not adopted beside them; a description this
// machine's id already has stays as it is; a portable value never gets per-profile values.
TEST(Adoption, ARegressedTestAPortableValueAndAnExistingDescriptionAreLeftAlone) {
  RunRecord run = run_on(new_runner(), "r1", 0.25);
  RunRecord again = run_on(new_runner(), "r1b", 0.25);
  run.run.tests[0].status = TestStatus::kRegressed;
  AdoptionPlan plan = plan_adoption(run, &again, existing(promoted_elsewhere()), request());
  EXPECT_TRUE(plan.files.empty());
  ASSERT_EQ(plan.refused.size(), 1u);
  EXPECT_THAT(plan.refused[0], ::testing::HasSubstr("regressed"));

  BaselineFile before = promoted_elsewhere();
  before.environments["cpu-newm"] = EnvironmentProfile{.id = "cpu-newm", .cpu = "As Promoted"};
  BaselineMetric& loss = before.tests["Clipping"].metrics["final_loss"];
  loss.policy = Exact{};  // no scope key, a portable value: nothing for adopt to add
  loss.value = 0.125;
  loss.by_environment.clear();
  run.run.tests[0].status = TestStatus::kPassed;
  plan = plan_adoption(run, &again, existing(before), request());
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0].after.environments.at("cpu-newm").cpu, "As Promoted");
  EXPECT_TRUE(
      plan.files[0].after.tests.at("Clipping").metrics.at("final_loss").by_environment.empty());
}

TEST(Adoption, AFailedRunIsRefusedLikeAPromotion) {
  RunRecord run = run_on(new_runner(), "r1", 0.25);
  run.run.tests[0].status = TestStatus::kFailed;
  EXPECT_THROW(plan_adoption(run, nullptr, existing(promoted_elsewhere()), request()),
               PromotionRefused);
}

}  // namespace
}  // namespace mlregress::internal
