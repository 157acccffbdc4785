// RunCollector decides every test's status from its process's events. Planted: a dataset and
// a predictions set recorded twice, a failure before a "skipped" end, a process that dies or is
// killed in the middle of a test, events outside any test, an observer whose file cannot be
// written, a metric worse than its baseline, seeds that finish out of order and a seed whose
// process died. Each must land in the record as the reports and the exit code need it.
#include "execution/run_collector.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "baseline_edits.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The run's family-wise level, as run --alpha gives it by default.
constexpr double kAlpha = 0.01;

RegisteredTest registered(std::string name, Seeds seeds = Seeds(0)) {
  RegisteredTest test;
  test.tier = Tier::Fast;
  test.tier_token = "Fast";
  test.name = std::move(name);
  test.file = "suite_test.cc";
  test.line = 12;
  test.params = {{"width", 32}};
  test.seeds = std::move(seeds);
  return test;
}

// Tests live in a deque-like list of unique_ptrs: the plan keeps pointers to them.
struct Suite {
  std::vector<std::unique_ptr<RegisteredTest>> tests;
  RunPlan plan;

  explicit Suite(std::vector<RegisteredTest> list, RunSettings settings = {}) {
    std::vector<const RegisteredTest*> selected;
    for (RegisteredTest& test : list) {
      tests.push_back(std::make_unique<RegisteredTest>(std::move(test)));
      selected.push_back(tests.back().get());
    }
    plan = make_run_plan(selected, {}, {}, settings);
  }
};

// Writes down every call in order, with the status the test had when the observer saw it.
class Recorder : public RunObserver {
 public:
  std::vector<std::string> calls;

  void on_run_start(const RunResult&) override { calls.push_back("run_start"); }
  void on_test_start(const TestResult& test) override {
    calls.push_back("test_start " + test.full_name);
  }
  void on_failure(const TestResult& test, const TestFailure& failure) override {
    calls.push_back("failure " + test.full_name + " " + failure.message);
  }
  void on_metric(const TestResult& test, const MetricRecord& metric) override {
    calls.push_back("metric " + test.full_name + " " + metric.name);
  }
  void on_curve(const TestResult& test, const RecordedCurve& curve) override {
    calls.push_back("curve " + test.full_name + " " + curve.csv_file);
  }
  void on_seed_end(const TestResult& test, const SeedRun& run, const RunResult&) override {
    calls.push_back("seed_end " + test.full_name + " " + seed_label(run));
  }
  void on_test_end(const TestResult& test, const RunResult&) override {
    calls.push_back("test_end " + test.full_name + " " +
                    std::string(test_status_name(test.status)) +
                    (test.finished ? "" : " (unfinished)"));
  }
  void on_run_end(const RunResult&) override { calls.push_back("run_end"); }
};

// An observer whose output cannot be written, as a JUnit file on a full disk.
class UnwritableOutput : public RunObserver {
 public:
  void on_test_end(const TestResult& test, const RunResult&) override {
    throw OutputError("cannot write junit.xml while ending " + test.full_name);
  }
};

MetricRecorded metric(std::string name, double value, Direction direction = LowerIsBetter,
                      TolerancePolicy policy = {}) {
  MetricRecord record;
  record.name = std::move(name);
  record.value = value;
  record.direction = direction;
  record.policy = policy;
  return MetricRecorded{record};
}

TestEnded passed(const std::string& test) { return TestEnded{test, true, false, 0.25}; }

TEST(RunCollector, EventsOfAPlainTestBecomeItsResult) {
  Suite suite({registered("Cnn")}, RunSettings{.seed = 7, .threads = 3});
  RunResult run;
  RunCollector collector(suite.plan, run, {});
  collector.start_run();
  collector.handle(TestStarted{"Fast.Cnn", "2026-12-02T13:45:12.345Z"});
  EXPECT_EQ(collector.running_test(), "Fast.Cnn");
  collector.handle(metric("loss", 0.125));
  collector.handle(CurveRecorded{CurveRecord{"loss", {0, 1, 2}, {1.0, 0.5, 0.25}, {}}});
  // Recorded twice: the later fingerprint counts, the data order is a separate entry.
  collector.handle(DatasetRecorded{"eval", "sha256:old", 10, FingerprintKind::kDataset});
  collector.handle(DatasetRecorded{"eval", "sha256:new", 12, FingerprintKind::kDataset});
  collector.handle(DatasetRecorded{"eval", "sha256:order", 8, FingerprintKind::kDataOrder});
  collector.handle(PredictionsRecorded{"eval", {{0, 1}, {1, 1}, {1, 0}}});
  collector.handle(PredictionsRecorded{"eval", {{0, 1, 2}, {1, 1, 0}, {1, 0, 0}}});
  collector.handle(passed("Fast.Cnn"));
  collector.finish_run();

  ASSERT_EQ(run.tests.size(), 1u);
  const TestResult& test = run.tests.front();
  EXPECT_EQ(test.full_name, "Fast.Cnn");
  EXPECT_EQ(test.name, "Cnn");
  EXPECT_EQ(test.file, "suite_test.cc");
  EXPECT_EQ(test.config_hash, suite.plan.tests.front().config_hash);
  EXPECT_EQ(test.seed, 7u);
  EXPECT_EQ(test.threads, 3);
  EXPECT_EQ(test.started_at, "2026-12-02T13:45:12.345Z");
  EXPECT_EQ(test.status, TestStatus::kPassed);
  EXPECT_TRUE(test.finished);
  EXPECT_EQ(test.duration_s, 0.25);
  ASSERT_EQ(test.metrics.size(), 1u);
  EXPECT_EQ(test.metrics[0].name, "loss");
  EXPECT_EQ(test.metrics[0].value, 0.125);
  ASSERT_EQ(test.curves.size(), 1u);
  EXPECT_EQ(test.curves[0].csv_file, "curves/Cnn.loss.csv");
  EXPECT_EQ(test.curves[0].points, 3u);
  ASSERT_EQ(test.datasets.size(), 2u);
  EXPECT_EQ(test.datasets[0].sha256, "sha256:new");
  EXPECT_EQ(test.datasets[0].bytes, 12u);
  EXPECT_EQ(test.datasets[1].kind, FingerprintKind::kDataOrder);
  ASSERT_EQ(test.predictions.size(), 1u);
  EXPECT_EQ(test.predictions[0].examples, 3u);
  EXPECT_DOUBLE_EQ(test.predictions[0].accuracy, 2.0 / 3.0);
  EXPECT_EQ(test.predictions[0].csv_file, "predictions/Cnn.eval.csv");
  // Without a gate nothing is judged.
  EXPECT_TRUE(test.comparisons.empty());
  EXPECT_TRUE(collector.running_test().empty());
  EXPECT_TRUE(run.runner_errors.empty());
}

TEST(RunCollector, TwoCurvesOfTheSameNameGetTwoFiles) {
  Suite suite({registered("Cnn")});
  RunResult run;
  RunCollector collector(suite.plan, run, {});
  collector.handle(TestStarted{"Fast.Cnn", ""});
  collector.handle(CurveRecorded{CurveRecord{"loss", {0}, {1.0}, {}}});
  collector.handle(CurveRecorded{CurveRecord{"loss", {0}, {2.0}, {}}});
  collector.handle(passed("Fast.Cnn"));
  ASSERT_EQ(run.tests.front().curves.size(), 2u);
  EXPECT_NE(run.tests.front().curves[0].csv_file, run.tests.front().curves[1].csv_file);
  // A start without a timestamp gets the runner's clock, not an empty field.
  EXPECT_FALSE(run.tests.front().started_at.empty());
}

TEST(RunCollector, ObserversSeeEveryStepInOrderWithTheStatusAlreadyDecided) {
  Suite suite({registered("Cnn"), registered("Mlp")});
  RunResult run;
  Recorder recorder;
  RunCollector collector(suite.plan, run, {&recorder});
  collector.start_run();
  collector.handle(TestStarted{"Fast.Cnn", ""});
  collector.handle(metric("loss", 0.5));
  collector.handle(AssertionFailed{{"cnn_test.cc", 3, "loss too high", false}});
  collector.handle(TestEnded{"Fast.Cnn", false, false, 0.1});
  collector.handle(TestStarted{"Fast.Mlp", ""});
  collector.handle(CurveRecorded{CurveRecord{"acc", {0}, {0.9}, {}}});
  collector.handle(passed("Fast.Mlp"));
  collector.finish_run();

  EXPECT_THAT(recorder.calls,
              ElementsAre("run_start", "test_start Fast.Cnn", "metric Fast.Cnn loss",
                          "failure Fast.Cnn loss too high", "test_end Fast.Cnn failed",
                          "test_start Fast.Mlp", "curve Fast.Mlp curves/Mlp.acc.csv",
                          "test_end Fast.Mlp passed", "run_end"));
}

TEST(RunCollector, AFailureWinsOverASkippedOrPassedEnd) {
  // GoogleTest calls a test whose SetUp failed and then skipped "skipped".
  Suite suite({registered("Cnn"), registered("Mlp"), registered("Gpu")});
  RunResult run;
  RunCollector collector(suite.plan, run, {});
  collector.handle(TestStarted{"Fast.Cnn", ""});
  collector.handle(AssertionFailed{{"cnn_test.cc", 3, "SetUp failed", true}});
  collector.handle(TestSkipped{"no data"});
  collector.handle(TestEnded{"Fast.Cnn", false, true, 0.0});
  collector.handle(TestStarted{"Fast.Mlp", ""});
  collector.handle(AssertionFailed{{"mlp_test.cc", 4, "late failure", false}});
  collector.handle(passed("Fast.Mlp"));
  // A clean skip stays a skip, with its reason.
  collector.handle(TestStarted{"Fast.Gpu", ""});
  collector.handle(TestSkipped{"needs a GPU"});
  collector.handle(TestEnded{"Fast.Gpu", false, true, 0.0});

  ASSERT_EQ(run.tests.size(), 3u);
  EXPECT_EQ(run.tests[0].status, TestStatus::kFailed);
  EXPECT_EQ(run.tests[1].status, TestStatus::kFailed);
  EXPECT_EQ(run.tests[2].status, TestStatus::kSkipped);
  EXPECT_EQ(run.tests[2].skip_message, "needs a GPU");
}

TEST(RunCollector, ATestWhoseProcessDiesIsCrashedAndKeepsWhatItRecorded) {
  Suite suite({registered("Cnn"), registered("Mlp")});
  RunResult run;
  Recorder recorder;
  RunCollector collector(suite.plan, run, {&recorder});
  collector.handle(TestStarted{"Fast.Cnn", ""});
  collector.handle(metric("loss", 0.5));
  collector.handle(AssertionFailed{{"cnn_test.cc", 3, "loss too high", false}});
  // No end: the process was killed by a signal.
  collector.crash_running_test("the test process was killed by signal 11 (Segmentation fault)");

  ASSERT_EQ(run.tests.size(), 1u);
  const TestResult& test = run.tests.front();
  // Crashed, not merely failed: the failure must not hide the crash.
  EXPECT_EQ(test.status, TestStatus::kCrashed);
  EXPECT_EQ(test.crash_message, "the test process was killed by signal 11 (Segmentation fault)");
  EXPECT_TRUE(test.finished);
  EXPECT_GE(test.duration_s, 0.0);
  ASSERT_EQ(test.metrics.size(), 1u);
  EXPECT_EQ(test.metrics[0].value, 0.5);
  EXPECT_EQ(test.failures.size(), 1u);
  EXPECT_TRUE(collector.running_test().empty());
  EXPECT_EQ(recorder.calls.back(), "test_end Fast.Cnn crashed");

  // The process died again between tests: nothing ran, so nothing more is recorded.
  collector.crash_running_test("exited with code 3");
  EXPECT_EQ(run.tests.size(), 1u);
  EXPECT_EQ(run.tests.front().crash_message,
            "the test process was killed by signal 11 (Segmentation fault)");

  // The next test, in a fresh process, starts clean.
  collector.handle(TestStarted{"Fast.Mlp", ""});
  collector.handle(passed("Fast.Mlp"));
  ASSERT_EQ(run.tests.size(), 2u);
  EXPECT_EQ(run.tests[1].status, TestStatus::kPassed);
  EXPECT_TRUE(run.tests[1].crash_message.empty());
}

TEST(RunCollector, AKilledTestIsTimedOutWithWhatItRecorded) {
  Suite suite({registered("Cnn")});
  RunResult run;
  RunCollector collector(suite.plan, run, {});
  EXPECT_EQ(collector.running_for_s(), 0.0);
  collector.handle(TestStarted{"Fast.Cnn", ""});
  EXPECT_GE(collector.running_for_s(), 0.0);
  collector.handle(metric("loss", 0.5));
  collector.handle(AssertionFailed{{"cnn_test.cc", 3, "loss too high", false}});
  collector.time_out_running_test("timed out: killed with its processes after 2 s (--timeout)");

  const TestResult& test = run.tests.front();
  EXPECT_EQ(test.status, TestStatus::kTimedOut);
  EXPECT_THAT(test.crash_message, HasSubstr("timed out"));
  EXPECT_EQ(test.metrics.size(), 1u);
  EXPECT_TRUE(test.finished);
  EXPECT_EQ(collector.running_for_s(), 0.0);
}

TEST(RunCollector, EventsOutsideATestAreRunnerErrorsNotResults) {
  Suite suite({registered("Cnn")});
  RunResult run;
  RunCollector collector(suite.plan, run, {});
  collector.handle(metric("loss", 0.5));
  collector.handle(TestStarted{"Fast.NotPlanned", ""});
  collector.handle(passed("Fast.NotPlanned"));

  EXPECT_TRUE(run.tests.empty());
  ASSERT_EQ(run.runner_errors.size(), 3u);
  EXPECT_EQ(run.runner_errors[0], "an event arrived outside a test");
  EXPECT_THAT(run.runner_errors[1], HasSubstr("unplanned test 'Fast.NotPlanned'"));
  EXPECT_EQ(run.runner_errors[2], "an event arrived outside a test");
}

TEST(RunCollector, AnObserverThatCannotWriteLosesNoResultAndNoOtherOutput) {
  Suite suite({registered("Cnn"), registered("Mlp")});
  RunResult run;
  UnwritableOutput broken;
  Recorder recorder;
  RunCollector collector(suite.plan, run, {&broken, &recorder});
  collector.start_run();
  collector.handle(TestStarted{"Fast.Cnn", ""});
  collector.handle(passed("Fast.Cnn"));
  collector.handle(TestStarted{"Fast.Mlp", ""});
  collector.handle(passed("Fast.Mlp"));
  collector.finish_run();

  ASSERT_EQ(run.tests.size(), 2u);
  EXPECT_TRUE(run.tests[0].finished);
  EXPECT_TRUE(run.tests[1].finished);
  EXPECT_EQ(run.tests[1].status, TestStatus::kPassed);
  EXPECT_THAT(collector.output_errors(),
              ElementsAre("cannot write junit.xml while ending Fast.Cnn",
                          "cannot write junit.xml while ending Fast.Mlp"));
  // The observer after the broken one still heard every test end and the run end.
  EXPECT_THAT(recorder.calls,
              ElementsAre("run_start", "test_start Fast.Cnn", "test_end Fast.Cnn passed",
                          "test_start Fast.Mlp", "test_end Fast.Mlp passed", "run_end"));
  // An output error is its own exit code, not a test failure.
  EXPECT_EQ(run_exit_code(run, collector.output_errors()), ExitCode::kOutputError);
}

// A baseline file holding "loss" = 0.1 (band ±10%) for Cnn, Mlp and Broken.
BaselineSet loss_baselines() {
  BaselineFile file = file_of_one_environment(3);
  BaselineMetric loss;
  loss.direction = LowerIsBetter;
  loss.policy = Band{.rtol = 0.1};
  loss.value = 0.1;
  for (const char* name : {"Cnn", "Mlp", "Broken"}) file.tests[name].metrics["loss"] = loss;
  return BaselineSet::from_files({{"baselines/suite/suite_test.toml", file}});
}

TEST(RunCollector, AMetricWorseThanItsBaselineMakesAPassingTestRegressed) {
  Suite suite({registered("Cnn"), registered("Mlp"), registered("Broken"), registered("Fresh")});
  const BaselineSet baselines = loss_baselines();
  EnvironmentProfile profile;
  profile.id = "cpu-aaaa";
  const BaselineGate gate(baselines, profile, kAlpha);
  RunResult run;
  Recorder recorder;
  RunCollector collector(suite.plan, run, {&recorder});
  collector.compare_with(&gate);
  const auto run_test = [&](const std::string& name, double loss, bool body_passed) {
    collector.handle(TestStarted{"Fast." + name, ""});
    collector.handle(metric("loss", loss, LowerIsBetter, Band{.rtol = 0.1}));
    collector.handle(TestEnded{"Fast." + name, body_passed, false, 0.1});
  };
  run_test("Cnn", 0.2, true);      // twice the baseline's loss
  run_test("Mlp", 0.105, true);    // inside the band
  run_test("Broken", 0.2, false);  // worse, but the body failed first
  run_test("Fresh", 9.0, true);    // no baseline yet

  ASSERT_EQ(run.tests.size(), 4u);
  EXPECT_EQ(run.tests[0].status, TestStatus::kRegressed);
  ASSERT_EQ(run.tests[0].comparisons.size(), 1u);
  EXPECT_EQ(run.tests[0].comparisons[0].verdict, Verdict::kRegression);
  EXPECT_EQ(run.tests[0].baseline_file, "baselines/suite/suite_test.toml");
  EXPECT_EQ(run.tests[0].baseline_version, 3);
  EXPECT_EQ(run.tests[1].status, TestStatus::kPassed);
  EXPECT_EQ(run.tests[1].comparisons.at(0).verdict, Verdict::kPass);
  EXPECT_EQ(run.tests[2].status, TestStatus::kFailed);
  EXPECT_EQ(run.tests[2].comparisons.at(0).verdict, Verdict::kRegression);
  EXPECT_EQ(run.tests[3].status, TestStatus::kPassed);
  EXPECT_EQ(run.tests[3].comparisons.at(0).verdict, Verdict::kNew);
  // Judged before the observers hear of the end: the console and JUnit show the regression.
  EXPECT_THAT(recorder.calls, ::testing::Contains("test_end Fast.Cnn regressed"));
  EXPECT_EQ(run_exit_code(run, {}), ExitCode::kTestFailed);
  run.tests.erase(run.tests.begin() + 2);
  EXPECT_EQ(run_exit_code(run, {}), ExitCode::kRegression);
}

// Jobs of a seeded test with two variants and three seeds, in plan order.
struct SeededSuite {
  Suite suite{{registered("Study", Seeds(3).variants({{"base", {}}, {"half", {{"width", 16}}}}))}};
  const PlannedTest& planned() const { return suite.plan.tests.front(); }
  std::vector<SeedJob> jobs() const { return seed_jobs(planned()); }
};

std::vector<TestEvent> seed_events(double accuracy, bool seed_passed = true) {
  return {TestStarted{"Fast.Study", ""}, metric("accuracy", accuracy, HigherIsBetter, Margin{0.01}),
          TestEnded{"Fast.Study", seed_passed, false, 0.1}};
}

TEST(RunCollector, SeedRunsAreKeptInPlanOrderWhateverOrderTheyFinish) {
  SeededSuite seeded;
  const std::vector<SeedJob> jobs = seeded.jobs();
  ASSERT_EQ(jobs.size(), 6u);
  RunResult run;
  Recorder recorder;
  RunCollector collector(seeded.suite.plan, run, {&recorder});
  collector.start_seeded_test(seeded.planned());
  EXPECT_EQ(collector.running_test(), "Fast.Study");
  // --jobs 6: the last planned seed finishes first, the first one last. (Values exact in binary.)
  for (std::size_t i = jobs.size(); i-- > 0;) {
    collector.add_seed_run(jobs[i], seed_events(0.5 + 0.0625 * static_cast<double>(i)), "", 0.1);
  }
  collector.end_seeded_test(1.0);

  ASSERT_EQ(run.tests.size(), 1u);
  const TestResult& test = run.tests.front();
  EXPECT_TRUE(test.seeded);
  EXPECT_EQ(test.seed_runs_planned, 6u);
  EXPECT_EQ(test.status, TestStatus::kPassed);
  ASSERT_EQ(test.seed_runs.size(), 6u);
  std::vector<std::string> order;
  for (const SeedRun& r : test.seed_runs) order.push_back(seed_label(r));
  EXPECT_THAT(order, ElementsAre("seed 0 [base]", "seed 1 [base]", "seed 2 [base]", "seed 0 [half]",
                                 "seed 1 [half]", "seed 2 [half]"));
  // One distribution per variant, its samples in seed order: results must not depend on --jobs.
  ASSERT_EQ(test.metrics.size(), 2u);
  const MetricRecord* base = &test.metrics[0];
  const MetricRecord* half = &test.metrics[1];
  if (base->name != "accuracy[base]") std::swap(base, half);
  EXPECT_EQ(base->name, "accuracy[base]");
  EXPECT_EQ(half->name, "accuracy[half]");
  EXPECT_THAT(base->samples, ElementsAre(0.5, 0.5625, 0.625));
  EXPECT_THAT(base->sample_seeds, ElementsAre(0u, 1u, 2u));
  EXPECT_THAT(half->samples, ElementsAre(0.6875, 0.75, 0.8125));
  EXPECT_EQ(base->value, 0.5625);
  // Each seed is announced as it ends; the distributions when the test ends.
  EXPECT_EQ(std::count_if(recorder.calls.begin(), recorder.calls.end(),
                          [](const std::string& c) { return c.starts_with("seed_end "); }),
            6);
  EXPECT_THAT(recorder.calls, ::testing::Contains("metric Fast.Study accuracy[half]"));
  EXPECT_EQ(recorder.calls.back(), "test_end Fast.Study passed");
}

TEST(RunCollector, ASeedWhoseProcessDiedCrashesTheSeededTest) {
  SeededSuite seeded;
  const std::vector<SeedJob> jobs = seeded.jobs();
  RunResult run;
  RunCollector collector(seeded.suite.plan, run, {});
  collector.start_seeded_test(seeded.planned());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (i == 1) {
      // Started and recorded, but its process was killed before the end.
      collector.add_seed_run(jobs[i], {TestStarted{"Fast.Study", ""}, metric("accuracy", 0.5)},
                             "the test process was killed by signal 9 (Killed)", 0.3);
    } else {
      collector.add_seed_run(jobs[i], seed_events(0.8), "", 0.1);
    }
  }
  collector.end_seeded_test(1.0);

  const TestResult& test = run.tests.front();
  EXPECT_EQ(test.status, TestStatus::kCrashed);
  EXPECT_EQ(test.crash_message, "1 of 6 seed runs did not finish");
  EXPECT_EQ(test.seed_runs[1].status, TestStatus::kCrashed);
  EXPECT_THAT(test.failures, ::testing::Contains(::testing::Field(
                                 &TestFailure::message,
                                 "seed 1 [base]: the test process was killed by signal "
                                 "9 (Killed)")));
  // The dead seed's value is no sample: only the seeds that passed make the distribution.
  for (const MetricRecord& m : test.metrics) {
    if (m.name == "accuracy[base]") EXPECT_THAT(m.sample_seeds, ElementsAre(0u, 2u));
  }
}

TEST(RunCollector, MoreSeedsAreNeededOnlyWhileTheGateHasSomethingToDecide) {
  SeededSuite seeded;
  const std::vector<SeedJob> jobs = seeded.jobs();
  const BaselineSet no_baselines = BaselineSet::from_files({});
  const BaselineGate gate(no_baselines, EnvironmentProfile{}, kAlpha);

  {
    // Without baselines every seed runs, so that one promotion stores them all.
    RunResult run;
    RunCollector collector(seeded.suite.plan, run, {});
    collector.start_seeded_test(seeded.planned());
    collector.add_seed_run(jobs[0], seed_events(0.8), "", 0.1);
    EXPECT_TRUE(collector.seeded_test_needs_more_seeds());
  }
  {
    // A new metric has no baseline to stop on: every seed, for its promotion.
    RunResult run;
    RunCollector collector(seeded.suite.plan, run, {});
    collector.compare_with(&gate);
    collector.start_seeded_test(seeded.planned());
    collector.add_seed_run(jobs[0], seed_events(0.8), "", 0.1);
    EXPECT_TRUE(collector.seeded_test_needs_more_seeds());
    // Asking does not judge the test itself: that happens once, when it ends.
    EXPECT_TRUE(run.tests.front().comparisons.empty());
    EXPECT_TRUE(run.tests.front().metrics.empty());
  }
  {
    // A failed seed fails the test; more seeds cannot change that.
    RunResult run;
    RunCollector collector(seeded.suite.plan, run, {});
    collector.compare_with(&gate);
    collector.start_seeded_test(seeded.planned());
    collector.add_seed_run(jobs[0], seed_events(0.8, /*seed_passed=*/false), "", 0.1);
    EXPECT_FALSE(collector.seeded_test_needs_more_seeds());
  }
  {
    // Nothing recorded: nothing to decide.
    RunResult run;
    RunCollector collector(seeded.suite.plan, run, {});
    collector.compare_with(&gate);
    collector.start_seeded_test(seeded.planned());
    collector.add_seed_run(jobs[0], {TestStarted{"Fast.Study", ""}, passed("Fast.Study")}, "", 0.1);
    EXPECT_FALSE(collector.seeded_test_needs_more_seeds());
  }
}

}  // namespace
}  // namespace mlregress::internal
