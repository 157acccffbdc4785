// Every non-PASS verdict names its cause: each test plants one kind of evidence (a changed
// dataset or data order, moved input statistics, a diverging curve, a non-finite value, a changed
// kernel or machine field, moved compile, operator or allocation counters) and checks the class
// the gate reports, the rule it shows and that no other class is claimed; the last ones plant two
// kinds at once or only indirect evidence and check that `unknown` is offered beside the class.
#include "comparison/cause_classifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "comparison/baseline_gate.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kHashA = "sha256:3f2a000000000000000000000000000000000000";
constexpr const char* kHashB = "sha256:91c0000000000000000000000000000000000000";

EnvironmentProfile machine(int threads = 1, std::string framework = "2.13.0") {
  EnvironmentProfile p;
  p.framework = std::move(framework);
  p.build = "cpu";
  p.cpu = "Some CPU";
  p.machine = "x86_64";
  p.threads = threads;
  p.capability = "AVX2";
  p.isa = "GenuineIntel avx avx2 fma";
  p.id = "cpu-m" + std::to_string(threads) + p.framework;
  p.numerics_id = "cpu-avx2-n" + std::to_string(threads) + p.framework;
  return p;
}

BaselineMetric exact_for(const EnvironmentProfile& profile, double value) {
  BaselineMetric m;
  m.direction = LowerIsBetter;
  m.policy = Exact{.scope = Scope::Numerics};
  m.by_environment[profile.numerics_id] = value;
  return m;
}

BaselineMetric band(double value) {
  BaselineMetric m;
  m.direction = HigherIsBetter;
  m.policy = Band{.rtol = 0.0, .atol = 0.01};
  m.value = value;
  return m;
}

// A baseline file holding one test `T`, promoted on `promoted_on`.
BaselineSet baselines(BaselineTest test, const EnvironmentProfile& promoted_on = machine()) {
  LoadedBaselineFile loaded;
  loaded.path = "baselines/bin/t.toml";
  loaded.file.provenance.environment = promoted_on.id;
  loaded.file.environments[promoted_on.id] = machine_profile(promoted_on);
  loaded.file.environments[promoted_on.numerics_id] = numerics_profile(promoted_on);
  loaded.file.tests["T"] = std::move(test);
  std::vector<LoadedBaselineFile> files;
  files.push_back(std::move(loaded));
  return BaselineSet::from_files(std::move(files));
}

TestResult test_with(std::vector<MetricRecord> metrics) {
  TestResult t;
  t.name = "T";
  t.full_name = "Medium.T";
  t.finished = true;
  t.metrics = std::move(metrics);
  return t;
}

MetricRecord value(std::string name, double v, Direction d = HigherIsBetter) {
  return MetricRecord{std::move(name), v, d, {}, {}, {}};
}

// Runs the gate as `run` does and returns the test, its comparisons explained.
TestResult judged(TestResult test, const BaselineSet& set, const EnvironmentProfile& now) {
  BaselineGate gate(set, now, 0.05);
  gate.compare_test(test);
  RunResult run;
  run.tests.push_back(std::move(test));
  gate.decide_run(run);
  return run.tests.front();
}

// One kernel-bound value `name`: promoted as `promoted_value` on `promoted`, measured as
// `measured` on `now`.
TestResult judged_exact(const std::string& name, double promoted_value, double measured,
                        Direction direction, const EnvironmentProfile& promoted,
                        const EnvironmentProfile& now) {
  BaselineTest b;
  b.metrics[name] = exact_for(promoted, promoted_value);
  return judged(test_with({value(name, measured, direction)}), baselines(b, promoted), now);
}

const MetricComparison& comparison(const TestResult& t, const std::string& metric) {
  for (const MetricComparison& c : t.comparisons) {
    if (c.metric == metric) return c;
  }
  throw std::runtime_error("no comparison of " + metric);
}

std::vector<CauseClass> alternatives(const Cause& cause) {
  std::vector<CauseClass> out;
  for (const CauseRule& a : cause.alternatives) out.push_back(a.cause);
  return out;
}

// A test whose one comparison is a regressed predictions value `eval` with these flips:
// `correct_to_wrong` in all, `by_class` per class.
TestResult with_flips(std::size_t correct_to_wrong, std::vector<ClassFlips> by_class) {
  MetricComparison predictions;
  predictions.metric = "eval";
  predictions.kind = MetricKind::kPredictions;
  predictions.verdict = Verdict::kRegression;
  FlipsAnalysis flips;
  flips.correct_to_wrong = correct_to_wrong;
  flips.by_class = std::move(by_class);
  predictions.flips = flips;
  TestResult t = test_with({});
  t.comparisons = {predictions};
  return t;
}

// The checks every explained verdict shares: the verdict, a cause of class `cls`, and a rule that
// says `rule_part`. Fatal where there is no cause (callers wrap it in ASSERT_NO_FATAL_FAILURE).
void expect_cause(const MetricComparison& c, Verdict verdict, CauseClass cls,
                  const std::string& rule_part) {
  EXPECT_EQ(c.verdict, verdict);
  ASSERT_TRUE(c.cause);
  EXPECT_EQ(c.cause->cause, cls) << format_cause(*c.cause);
  EXPECT_THAT(c.cause->rule, HasSubstr(rule_part));
}

TEST(CauseClassifier, AChangedDatasetIsData) {
  BaselineTest b;
  b.metrics["accuracy"] = band(0.9);
  b.datasets["eval"] = kHashA;
  TestResult t = test_with({value("accuracy", 0.5)});
  t.datasets.push_back({"eval", kHashB, 10, FingerprintKind::kDataset});
  const TestResult r = judged(t, baselines(b), machine());
  const MetricComparison& c = comparison(r, "accuracy");
  ASSERT_NO_FATAL_FAILURE(expect_cause(c, Verdict::kNotComparable, CauseClass::kData,
                                       "the dataset hash of 'eval' differs from the baseline's "
                                       "(sha256:3f2a00000000… → sha256:91c000000000…)"));
  EXPECT_TRUE(c.cause->alternatives.empty());
}

TEST(CauseClassifier, AChangedDataOrderWithTheSameDatasetIsDataOrder) {
  const EnvironmentProfile now = machine();
  BaselineTest b;
  b.metrics["final_loss"] = exact_for(now, 0.25);
  b.datasets["train"] = kHashA;
  b.data_orders["train"] = kHashA;
  TestResult t = test_with({value("final_loss", 0.2500001, MustEqual)});
  t.datasets.push_back({"train", kHashA, 10, FingerprintKind::kDataset});
  t.datasets.push_back({"train", kHashB, 10, FingerprintKind::kDataOrder});
  const TestResult r = judged(t, baselines(b, now), now);
  const MetricComparison& c = comparison(r, "final_loss");
  ASSERT_NO_FATAL_FAILURE(expect_cause(c, Verdict::kRegression, CauseClass::kDataOrder,
                                       "the data-order hash of 'train' differs"));
  EXPECT_THAT(c.cause->rule, HasSubstr("the dataset hash is the same"));
  EXPECT_TRUE(c.cause->alternatives.empty());
}

TEST(CauseClassifier, AMovedInputStatisticIsPreprocessing) {
  BaselineTest b;
  b.metrics["input.c0.mean"] = band(0.0);
  b.metrics["input.c0.mean"].direction = MustEqual;
  const TestResult r =
      judged(test_with({value("input.c0.mean", 0.4, MustEqual)}), baselines(b), machine());
  const MetricComparison& c = comparison(r, "input.c0.mean");
  ASSERT_NO_FATAL_FAILURE(expect_cause(c, Verdict::kRegression, CauseClass::kPreprocessing,
                                       "'input.c0.mean' is an input statistic"));
  EXPECT_TRUE(c.cause->alternatives.empty());
}

TEST(CauseClassifier, ACurveThatLeavesItsBandIsOptimisation) {
  MetricComparison curve;
  curve.metric = "loss";
  curve.kind = MetricKind::kCurve;
  curve.verdict = Verdict::kRegression;
  curve.curve = CurveExcursion{.compared_steps = 200,
                               .first_exit_step = 2,
                               .largest_excess = 0.31,
                               .largest_excess_step = 5};
  TestResult t = test_with({});
  t.comparisons = {curve};
  const Cause cause = classify_cause(t.comparisons[0], t, CauseEvidence{});
  EXPECT_EQ(cause.cause, CauseClass::kOptimisation);
  EXPECT_THAT(cause.rule, HasSubstr("the gated curve 'loss' leaves its band from step 2"));
  EXPECT_TRUE(cause.alternatives.empty());
  // The curve inside its band says nothing.
  t.comparisons[0].curve->first_exit_step.reset();
  EXPECT_EQ(classify_cause(t.comparisons[0], t, CauseEvidence{}).cause, CauseClass::kUnknown);
}

// The class holding most of the lost examples is the one named, not the one first by net loss.
// Planted: reading only the top of by_class (ordered by net loss) misses class 7 below.
TEST(CauseClassifier, TheClassThatLostMostExamplesIsNamedWhateverItsNetLoss) {
  TestResult t =
      with_flips(9, {{.target = 2, .correct_to_wrong = 3, .wrong_to_correct = 0, .net_lost = 3},
                     {.target = 7, .correct_to_wrong = 6, .wrong_to_correct = 5, .net_lost = 1}});
  const Cause cause = classify_cause(t.comparisons[0], t, CauseEvidence{});
  EXPECT_EQ(cause.cause, CauseClass::kData) << format_cause(cause);
  EXPECT_THAT(cause.rule, HasSubstr("mostly in class 7 (6 of 9 correct → wrong)"));
}

TEST(CauseClassifier, ANonFiniteValueIsNumerics) {
  BaselineTest b;
  b.metrics["loss"] = band(0.1);
  const TestResult r =
      judged(test_with({value("loss", std::numeric_limits<double>::quiet_NaN(), LowerIsBetter)}),
             baselines(b), machine());
  const MetricComparison& c = comparison(r, "loss");
  ASSERT_NO_FATAL_FAILURE(
      expect_cause(c, Verdict::kRegression, CauseClass::kNumerics, "'loss' is nan"));
  EXPECT_TRUE(c.cause->alternatives.empty());
}

TEST(CauseClassifier, AnotherFrameworkForAKernelBoundValueIsNumerics) {
  const TestResult r =
      judged_exact("final_loss", 0.25, 0.25, MustEqual, machine(1, "2.13.0"), machine(1, "1.13.1"));
  const MetricComparison& c = comparison(r, "final_loss");
  ASSERT_NO_FATAL_FAILURE(
      expect_cause(c, Verdict::kUngated, CauseClass::kNumerics, "framework '2.13.0' → '1.13.1'"));
  EXPECT_TRUE(c.cause->alternatives.empty()) << format_cause(*c.cause);
}

TEST(CauseClassifier, AnotherThreadCountIsEnvironment) {
  const TestResult r =
      judged_exact("ops_per_step", 299, 299, LowerIsBetter, machine(1), machine(2));
  const MetricComparison& c = comparison(r, "ops_per_step");
  ASSERT_NO_FATAL_FAILURE(
      expect_cause(c, Verdict::kUngated, CauseClass::kEnvironment, "threads 1 → 2"));
  // Threads do not choose the kernels: numerics is not claimed, nor is the unmoved counter.
  EXPECT_TRUE(c.cause->alternatives.empty()) << format_cause(*c.cause);
}

// The counters a step records: each moved alone is its own class.
TEST(CauseClassifier, MovedCountersAreCompileOperatorCountAndAllocation) {
  const EnvironmentProfile now = machine();
  const std::vector<std::pair<std::string, CauseClass>> counters = {
      {"forward.specialisations", CauseClass::kCompile},
      {"forward.compiling_calls", CauseClass::kCompile},
      {"ops_per_step", CauseClass::kOperatorCount},
      {"allocations_per_step", CauseClass::kAllocation},
      {"peak_bytes_per_step", CauseClass::kAllocation}};
  for (const auto& [name, expected] : counters) {
    const TestResult r = judged_exact(name, 100, 101, LowerIsBetter, now, now);
    const MetricComparison& c = comparison(r, name);
    EXPECT_EQ(c.verdict, Verdict::kRegression) << name;
    ASSERT_TRUE(c.cause) << name;
    EXPECT_EQ(c.cause->cause, expected) << name << ": " << format_cause(*c.cause);
    EXPECT_THAT(c.cause->rule, HasSubstr("'" + name + "' is a")) << name;
    EXPECT_THAT(c.cause->rule, HasSubstr("it moved (100 → 101)")) << name;
    EXPECT_TRUE(c.cause->alternatives.empty()) << name;
  }
}

// A learning-rate setting that moved is optimisation: the rate per example when the batch
// changed with the rate kept, the schedule's peak step when the warmup was lost. A loss or an
// accuracy measured at a rate is the outcome, not the setting, and is left to the other rules.
TEST(CauseClassifier, MovedLearningRateSettingsAreOptimisation) {
  const EnvironmentProfile now = machine();
  const std::vector<std::pair<std::string, std::pair<double, double>>> settings = {
      {"lr_per_example", {0.000625, 0.00125}},
      {"schedule.lr_peak_step", {0, 19}},
      {"schedule.lr_floor_step", {20, 301}},
      {"warmup_steps", {0, 20}},
      {"peak_learning_rate", {0.01, 0.02}}};
  for (const auto& [name, values] : settings) {
    const TestResult r = judged_exact(name, values.first, values.second, LowerIsBetter, now, now);
    const MetricComparison& c = comparison(r, name);
    EXPECT_EQ(c.verdict, Verdict::kRegression) << name;
    ASSERT_TRUE(c.cause) << name;
    EXPECT_EQ(c.cause->cause, CauseClass::kOptimisation) << name << ": " << format_cause(*c.cause);
    EXPECT_THAT(c.cause->rule, HasSubstr("'" + name + "' is a learning-rate setting")) << name;
  }
  for (const std::string name : {"tail_loss_lr_0.1", "test_accuracy[lr_1e-3]", "learning_x_rate"}) {
    const TestResult r = judged_exact(name, 100, 101, LowerIsBetter, now, now);
    const MetricComparison& c = comparison(r, name);
    EXPECT_EQ(c.verdict, Verdict::kRegression) << name;
    ASSERT_TRUE(c.cause) << name;
    EXPECT_EQ(c.cause->cause, CauseClass::kUnknown) << name << ": " << format_cause(*c.cause);
  }
}

TEST(CauseClassifier, NoEvidenceIsUnknownAndSaysWhatWasLookedAt) {
  BaselineTest b;
  b.metrics["accuracy"] = band(0.9);
  const TestResult r = judged(test_with({value("accuracy", 0.5)}), baselines(b), machine());
  const MetricComparison& c = comparison(r, "accuracy");
  ASSERT_NO_FATAL_FAILURE(
      expect_cause(c, Verdict::kRegression, CauseClass::kUnknown, "no rule fired"));
  // Planted: a rule text that claims fingerprints were compared when the test records none.
  EXPECT_THAT(c.cause->rule, HasSubstr("the test records no dataset or data-order fingerprint"));
  EXPECT_THAT(c.cause->rule, Not(HasSubstr("match the baseline's")));
  EXPECT_TRUE(admits_unknown(*c.cause));
}

// A band's value is portable: gated on every machine. Where it moved and the file was promoted on
// another CPU, the CPU and its kernels are offered among the alternatives, named with the fields
// that changed (a p-value at chance moved 195% between an AMD and an Intel CPU with nothing else
// changed). Nothing shows that the machine moved it, so they are never the cause, and unknown
// stays; on the promoting machine itself neither is offered
// (NoEvidenceIsUnknownAndSaysWhatWasLookedAt).
TEST(CauseClassifier, ABandValueThatMovedOnAnotherCpuOffersNumericsAndEnvironment) {
  EnvironmentProfile promoted = machine();
  promoted.cpu = "AMD EPYC";
  promoted.isa = "AuthenticAMD avx avx2 fma avx512f";
  promoted.id = "cpu-amd";
  EnvironmentProfile now = machine();
  now.cpu = "Intel(R) Xeon(R) Processor";
  now.isa = "GenuineIntel avx avx2 fma avx512f amx_bf16";
  now.id = "cpu-intel";
  BaselineTest b;
  b.metrics["p_value"] = band(0.437);
  const TestResult r = judged(test_with({value("p_value", 0.148)}), baselines(b, promoted), now);
  const MetricComparison& c = comparison(r, "p_value");
  ASSERT_NO_FATAL_FAILURE(
      expect_cause(c, Verdict::kRegression, CauseClass::kUnknown, "no rule fired"));
  EXPECT_THAT(alternatives(*c.cause), ElementsAre(CauseClass::kNumerics, CauseClass::kEnvironment));
  EXPECT_THAT(c.cause->alternatives[0].rule, HasSubstr("'p_value' is one value for every machine"));
  EXPECT_THAT(c.cause->alternatives[0].rule,
              HasSubstr("promoted on cpu-amd, whose kernel fields differ"));
  EXPECT_THAT(c.cause->alternatives[0].rule, HasSubstr("AuthenticAMD"));
  EXPECT_THAT(c.cause->alternatives[1].rule, HasSubstr("CPU 'AMD EPYC' → 'Intel(R) Xeon"));

  // Only the threads differ: environment, not numerics.
  const TestResult threads =
      judged(test_with({value("p_value", 0.148)}), baselines(b, machine(1)), machine(2));
  const MetricComparison& t = comparison(threads, "p_value");
  ASSERT_TRUE(t.cause);
  EXPECT_EQ(t.cause->cause, CauseClass::kUnknown) << format_cause(*t.cause);
  EXPECT_THAT(alternatives(*t.cause), ElementsAre(CauseClass::kEnvironment));

  // Another rule decided (an input statistic moved): the machine comes after it, before unknown.
  BaselineTest inputs;
  inputs.metrics["input.c0.mean"] = band(0.5);
  const TestResult moved_input =
      judged(test_with({value("input.c0.mean", 0.3)}), baselines(inputs, promoted), now);
  const MetricComparison& i = comparison(moved_input, "input.c0.mean");
  ASSERT_TRUE(i.cause);
  EXPECT_EQ(i.cause->cause, CauseClass::kPreprocessing) << format_cause(*i.cause);
  EXPECT_THAT(alternatives(*i.cause), ElementsAre(CauseClass::kNumerics, CauseClass::kEnvironment));
}

// A value stored for a profile the baseline file does not describe: its fields could not be
// compared, and the rule says so instead of claiming the value is bound to no other environment.
TEST(CauseClassifier, AProfileTheBaselineDoesNotDescribeIsNamedNotClaimedCompared) {
  const EnvironmentProfile now = machine();
  BaselineTest b;
  BaselineMetric m;
  m.direction = HigherIsBetter;
  m.policy = Exact{.scope = Scope::Numerics};
  m.by_environment["cpu-undescribed"] = 0.5;
  b.metrics["accuracy"] = m;
  const TestResult r = judged(test_with({value("accuracy", 0.5)}), baselines(b, now), now);
  const MetricComparison& c = comparison(r, "accuracy");
  ASSERT_TRUE(c.cause) << verdict_name(c.verdict);
  EXPECT_EQ(c.cause->cause, CauseClass::kUnknown) << format_cause(*c.cause);
  EXPECT_THAT(c.cause->rule, HasSubstr("does not describe under [environments] (cpu-undescribed)"));
  EXPECT_THAT(c.cause->rule, Not(HasSubstr("not bound to an environment")));
}

TEST(CauseClassifier, APassHasNoCause) {
  BaselineTest b;
  b.metrics["accuracy"] = band(0.9);
  b.data_orders["train"] = kHashA;
  TestResult t = test_with({value("accuracy", 0.9)});
  t.datasets.push_back(
      {"train", kHashB, 10, FingerprintKind::kDataOrder});  // the order changed, the value did not
  const TestResult r = judged(t, baselines(b), machine());
  EXPECT_EQ(comparison(r, "accuracy").verdict, Verdict::kPass);
  EXPECT_FALSE(comparison(r, "accuracy").cause.has_value());
}

// Two kinds of evidence at once: the first in precedence is named, the other and `unknown` are
// shown as alternatives, never dropped.
TEST(CauseClassifier, SeveralRulesShowTheAlternativesAndUnknown) {
  const EnvironmentProfile now = machine();
  BaselineTest b;
  b.metrics["ops_per_step"] = exact_for(now, 299);
  b.data_orders["train"] = kHashA;
  TestResult t = test_with({value("ops_per_step", 300, LowerIsBetter)});
  t.datasets.push_back({"train", kHashB, 10, FingerprintKind::kDataOrder});
  const TestResult r = judged(t, baselines(b, now), now);
  const MetricComparison& c = comparison(r, "ops_per_step");
  ASSERT_TRUE(c.cause);
  EXPECT_EQ(c.cause->cause, CauseClass::kDataOrder);
  EXPECT_EQ(alternatives(*c.cause),
            (std::vector<CauseClass>{CauseClass::kOperatorCount, CauseClass::kUnknown}));
  EXPECT_THAT(c.cause->rule, HasSubstr("the test records no dataset hash"));
  EXPECT_THAT(format_cause(*c.cause),
              HasSubstr("data_order — rule: the data-order hash of 'train' differs"));
  EXPECT_THAT(format_cause(*c.cause), HasSubstr("; alternatives: operator_count ('ops_per_step'"));
}

// A value with no evidence of its own, beside an input statistic that moved: preprocessing, but
// only as indirect evidence, so unknown is offered too.
TEST(CauseClassifier, ASiblingThatMovedIsIndirectEvidence) {
  BaselineTest b;
  b.metrics["accuracy"] = band(0.9);
  b.metrics["input.c1.std"] = band(1.0);
  b.metrics["input.c1.std"].direction = MustEqual;
  const TestResult r =
      judged(test_with({value("accuracy", 0.5), value("input.c1.std", 2.0, MustEqual)}),
             baselines(b), machine());
  const MetricComparison& c = comparison(r, "accuracy");
  ASSERT_TRUE(c.cause);
  EXPECT_EQ(c.cause->cause, CauseClass::kPreprocessing);
  EXPECT_THAT(c.cause->rule, HasSubstr("other values of the test moved: 'input.c1.std'"));
  EXPECT_EQ(alternatives(*c.cause), (std::vector<CauseClass>{CauseClass::kUnknown}));
  // The statistic itself is certain.
  EXPECT_TRUE(comparison(r, "input.c1.std").cause->alternatives.empty());
}

TEST(CauseClassifier, FlipsCrowdedIntoOneClassPointToTheDataWithUnknown) {
  TestResult t =
      with_flips(40, {{.target = 0, .correct_to_wrong = 30, .wrong_to_correct = 1, .net_lost = 29},
                      {.target = 3, .correct_to_wrong = 10, .wrong_to_correct = 2, .net_lost = 8}});
  Cause cause = classify_cause(t.comparisons[0], t, CauseEvidence{});
  EXPECT_EQ(cause.cause, CauseClass::kData);
  EXPECT_THAT(cause.rule, HasSubstr("mostly in class 0 (30 of 40 correct → wrong)"));
  EXPECT_EQ(alternatives(cause), (std::vector<CauseClass>{CauseClass::kUnknown}));
  // Spread over the classes, the flips name nothing.
  t.comparisons[0].flips->by_class[0].correct_to_wrong = 15;
  EXPECT_EQ(classify_cause(t.comparisons[0], t, CauseEvidence{}).cause, CauseClass::kUnknown);
}

// A slice of a per-example attribute (analysis/slice_flips.h) for the flips of `with_flips`.
SliceFlips slice(const std::string& label, std::size_t compared, std::size_t lost, double p_holm) {
  SliceFlips s;
  s.attribute = "position";
  s.label = label;
  s.compared = compared;
  s.correct_to_wrong = lost;
  s.p_holm = p_holm;
  return s;
}

TEST(CauseClassifier, FlipsCrowdedIntoFewSlicesPointToTheDataWithUnknown) {
  // 40 lost over 4 classes evenly (no class rule), 36 of them in the late positions: a quarter of
  // the examples.
  TestResult t = with_flips(40, {{.target = 0, .correct_to_wrong = 10, .net_lost = 10},
                                 {.target = 1, .correct_to_wrong = 10, .net_lost = 10},
                                 {.target = 2, .correct_to_wrong = 10, .net_lost = 10},
                                 {.target = 3, .correct_to_wrong = 10, .net_lost = 10}});
  FlipsAnalysis& flips = *t.comparisons[0].flips;
  flips.compared = 400;
  flips.by_attribute = {slice("[0, 4)", 100, 2, 1.0), slice("[4, 8)", 100, 1, 1.0),
                        slice("[8, 12)", 100, 1, 1.0), slice("[12, 16)", 100, 36, 1e-9)};
  const Cause cause = classify_cause(t.comparisons[0], t, CauseEvidence{});
  EXPECT_EQ(cause.cause, CauseClass::kData);
  EXPECT_THAT(cause.rule, HasSubstr("lost their examples mostly in position [12, 16) (36 of 40 "
                                    "correct→wrong, on 100 of 400 examples)"));
  EXPECT_EQ(alternatives(cause), (std::vector<CauseClass>{CauseClass::kUnknown}));
  // Not significant in its slice: nothing named.
  flips.by_attribute[3].p_holm = 0.2;
  EXPECT_EQ(classify_cause(t.comparisons[0], t, CauseEvidence{}).cause, CauseClass::kUnknown);
  // Significant but on more than half the examples (a binary attribute's larger half): nothing.
  flips.by_attribute = {slice("0", 100, 4, 1.0), slice("1", 300, 36, 1e-9)};
  EXPECT_EQ(classify_cause(t.comparisons[0], t, CauseEvidence{}).cause, CauseClass::kUnknown);
  // Fewer than 5 lost: too few to point anywhere.
  flips.correct_to_wrong = 4;
  flips.by_attribute = {slice("0", 300, 0, 1.0), slice("1", 100, 4, 0.01)};
  EXPECT_EQ(classify_cause(t.comparisons[0], t, CauseEvidence{}).cause, CauseClass::kUnknown);
}

TEST(CauseClassifier, ClassNamesReadBack) {
  for (const CauseClass c : {CauseClass::kData, CauseClass::kDataOrder, CauseClass::kPreprocessing,
                             CauseClass::kOptimisation, CauseClass::kNumerics, CauseClass::kCompile,
                             CauseClass::kOperatorCount, CauseClass::kAllocation,
                             CauseClass::kEnvironment, CauseClass::kUnknown}) {
    EXPECT_EQ(parse_cause_class(cause_class_name(c)), c);
  }
  EXPECT_EQ(parse_cause_class("weather"), std::nullopt);
}

}  // namespace
}  // namespace mlregress::internal
