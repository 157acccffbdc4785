// record_property: facts about what a test ran on ("sequence_length" = "16") that are not gated.
// They travel from the test body over the event wire into results.json and, by promote, into the
// baseline; a later run whose properties differ gets a note naming them beside verdicts that stay
// as judged. Planted: a key the files could not carry, a property lost on one of those ways, a
// note for a baseline that holds none, a verdict that changes because a property did.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "baselines/baseline_toml.h"
#include "builders.h"
#include "comparison/baseline_gate.h"
#include "execution/event_sink.h"
#include "execution/run_collector.h"
#include "execution/seed_runs.h"
#include "execution/test_context.h"
#include "execution/test_events.h"
#include "mlregress/ml_test.h"
#include "renderers/run_report.h"
#include "storage/results_json.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

using Properties = std::map<std::string, std::string>;

class CapturingSink final : public EventSink {
 public:
  void emit(const TestEvent& event) override { events.push_back(event); }
  std::vector<TestEvent> events;
};

class RecordPropertyTest : public ::testing::Test {
 protected:
  void SetUp() override { set_current_test_context(&context_); }
  void TearDown() override { set_current_test_context(nullptr); }

  // The key and value of each property event the test body sent, in order.
  std::vector<std::pair<std::string, std::string>> recorded() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const TestEvent& event : sink_.events) {
      if (const auto* p = std::get_if<PropertyRecorded>(&event)) out.emplace_back(p->key, p->value);
    }
    return out;
  }

  CapturingSink sink_;
  TestContext context_{.sink = &sink_};
};

TEST_F(RecordPropertyTest, NumbersAreWrittenAsTheyReadBack) {
  MlTest::record_property("tokenizer", "sentencepiece bpe, 40 pieces");
  MlTest::record_property("sequence_length", 16);
  MlTest::record_property("vocabulary_size", std::int64_t{18});
  MlTest::record_property("examples", std::size_t{4096});
  MlTest::record_property("causal", true);
  MlTest::record_property("lr", 1e-3);
  MlTest::record_property("eps", 1e-7);
  MlTest::record_property("dtype", std::string("float32"));
  EXPECT_THAT(
      recorded(),
      ElementsAre(Pair("tokenizer", "sentencepiece bpe, 40 pieces"), Pair("sequence_length", "16"),
                  Pair("vocabulary_size", "18"), Pair("examples", "4096"), Pair("causal", "true"),
                  Pair("lr", "0.001"), Pair("eps", "1e-07"), Pair("dtype", "float32")));
}

TEST_F(RecordPropertyTest, AKeyTheFilesCannotCarryIsATestErrorNamingIt) {
  for (const std::string key : {"", "sequence length", "dtype=", "naïve", "a\"b", "x/y"}) {
    try {
      MlTest::record_property(key, "1");
      ADD_FAILURE() << "accepted the key '" << key << "'";
    } catch (const std::invalid_argument& error) {
      EXPECT_THAT(error.what(), HasSubstr("record_property: the key '" + key + "'"));
    }
  }
  EXPECT_TRUE(sink_.events.empty());
  EXPECT_NO_THROW(MlTest::record_property("Model-v2.layers_3", 3));
}

TEST(RecordProperty, TheWireAndTheCollectorKeepTheLastValue) {
  const DecodedEvent decoded = decode_event_line(event_line(PropertyRecorded{"dtype", "float32"}));
  ASSERT_TRUE(decoded.event.has_value()) << decoded.error;
  const auto& property = std::get<PropertyRecorded>(*decoded.event);
  EXPECT_EQ(property.key, "dtype");
  EXPECT_EQ(property.value, "float32");

  const RegisteredTest lm = registered_test(Tier::Fast, "Fast", "Lm", "lm_test.cc", 3, {});
  const RunPlan plan = make_run_plan({&lm}, {}, {}, RunSettings{});
  RunResult run;
  RunCollector collector(plan, run, {});
  collector.start_run();
  collector.handle(TestStarted{"Fast.Lm", "2026-12-02T13:45:12.345Z"});
  collector.handle(PropertyRecorded{"sequence_length", "16"});
  collector.handle(PropertyRecorded{"dtype", "float32"});
  collector.handle(PropertyRecorded{"sequence_length", "32"});
  collector.handle(TestEnded{"Fast.Lm", true, false, 0.25});
  collector.finish_run();
  ASSERT_EQ(run.tests.size(), 1u);
  EXPECT_EQ(run.tests[0].properties, (Properties{{"dtype", "float32"}, {"sequence_length", "32"}}));
}

// A seeded test keeps its first seed's properties in plan order, whatever the others recorded.
TEST(RecordProperty, ASeededTestKeepsItsFirstSeedsProperties) {
  TestResult test;
  test.seeded = true;
  test.seed_runs.resize(3);
  for (std::size_t i = 0; i < 3; ++i) test.seed_runs[i].seed = i;
  test.seed_runs[0].properties = {{"dtype", "float32"}};
  test.seed_runs[1].properties = {{"dtype", "float64"}, {"sequence_length", "16"}};
  test.seed_runs[2].properties = {{"sequence_length", "32"}};
  summarize_seed_runs(test);
  EXPECT_EQ(test.properties, (Properties{{"dtype", "float32"}, {"sequence_length", "16"}}));
}

TEST(RecordProperty, ResultsJsonWritesThemOnlyWhenThereAreAny) {
  RunResult run{.tests = {finished_test("T", "Fast.T", "t.cc", {})}};
  TestResult& test = run.tests.front();
  const nlohmann::json without = run;
  EXPECT_FALSE(without.at("tests").at(0).contains("properties"))
      << "a test that records none is written as before";
  EXPECT_TRUE(without.get<RunResult>().tests.at(0).properties.empty());

  test.properties = {{"sequence_length", "16"}, {"dtype", "float32"}};
  const nlohmann::json with = run;
  EXPECT_EQ(with.at("tests").at(0).at("properties").dump(),
            R"({"dtype":"float32","sequence_length":"16"})");
  EXPECT_EQ(with.get<RunResult>().tests.at(0).properties, test.properties);

  nlohmann::json damaged = with;
  damaged["tests"][0]["properties"]["dtype"] = 32;
  EXPECT_THROW(damaged.get<RunResult>(), std::exception);
}

TEST(RecordProperty, PromoteKeepsThemAndTheBaselineFileReadsThemBack) {
  TestResult test = finished_test("T", "Fast.T", "t_test.cc",
                                  {MetricRecord{"accuracy", 0.9, HigherIsBetter, {}, {}, {}}});
  test.properties = {{"sequence_length", "16"}, {"tokenizer", "bpe, \"40\" pieces"}};
  const BaselineFile promoted = promoted_alone(
      run_record("runs/r1", "r1", "cpu-m1", "cpu-n1", test), BaselineSet::from_files({}));
  EXPECT_EQ(promoted.tests.at("T").properties, test.properties);

  const std::string rendered = render_baseline(promoted);
  EXPECT_THAT(rendered, HasSubstr("\nproperties = { sequence_length = \"16\", tokenizer = \"bpe, "
                                  "\\\"40\\\" pieces\" }\n"));
  BaselineFile back;
  ASSERT_NO_THROW(back = parse_baseline(rendered, "rendered.toml")) << rendered;
  EXPECT_EQ(back.tests.at("T").properties, test.properties) << rendered;

  BaselineFile none;
  none.tests["T"];
  EXPECT_THAT(render_baseline(none), ::testing::Not(HasSubstr("properties")));
}

// Test `T` with the properties `now` and accuracy 0.9, judged against the baseline that promote
// made of an earlier run of the same accuracy with the properties `then`.
TestResult judged(const Properties& now, const Properties& then) {
  const MetricRecord accuracy{"accuracy", 0.9, HigherIsBetter, {}, {}, {}};
  TestResult earlier_test = finished_test("T", "Medium.T", "t_test.cc", {accuracy});
  earlier_test.properties = then;
  const RunRecord earlier = run_record("runs/r1", "r1", "cpu-m1", "cpu-n1", earlier_test);
  std::vector<LoadedBaselineFile> files(1);
  files[0].path = "baselines/suite/t.toml";
  files[0].file = promoted_alone(earlier, BaselineSet::from_files({}));
  const BaselineSet set = BaselineSet::from_files(std::move(files));

  RunResult run;
  run.tests.push_back(finished_test("T", "Medium.T", "t_test.cc", {accuracy}));
  run.tests[0].properties = now;
  BaselineGate gate(set, earlier.profile, 0.05);
  gate.judge_run(run);
  const TestResult result = run.tests.front();
  EXPECT_EQ(result.status, TestStatus::kPassed);
  EXPECT_EQ(result.comparisons.at(0).verdict, Verdict::kPass) << "a property is not gated";
  return result;
}

TEST(RecordProperty, ANoteNamesThePropertiesThatChanged) {
  const Properties then = {{"dtype", "float32"}, {"sequence_length", "16"}};
  EXPECT_THAT(judged({{"dtype", "float32"}, {"sequence_length", "32"}}, then).environment_note,
              HasSubstr("config same · properties changed: sequence_length 16 → 32"));
  EXPECT_THAT(judged({{"sequence_length", "16"}}, then).environment_note,
              HasSubstr(" · properties changed: dtype float32 → (none)"));
  EXPECT_THAT(
      judged({{"dtype", "float32"}, {"sequence_length", "16"}, {"vocabulary_size", "18"}}, then)
          .environment_note,
      HasSubstr(" · properties changed: vocabulary_size (none) → 18"));
  EXPECT_THAT(judged({{"dtype", "bfloat16"}, {"vocabulary_size", "18"}}, then).environment_note,
              HasSubstr(" · properties changed: dtype float32 → bfloat16; sequence_length 16 → "
                        "(none); vocabulary_size (none) → 18"));
}

TEST(RecordProperty, NoNoteWhenTheyAreTheSameOrTheBaselineHoldsNone) {
  const Properties now = {{"dtype", "float32"}, {"sequence_length", "16"}};
  const TestResult same = judged(now, now);
  EXPECT_THAT(same.environment_note, HasSubstr("config same"));
  EXPECT_THAT(same.environment_note, ::testing::Not(HasSubstr("properties")));
  EXPECT_THAT(judged(now, {}).environment_note, ::testing::Not(HasSubstr("properties")))
      << "a baseline promoted before the test recorded any says nothing about them";
  EXPECT_THAT(judged({}, {}).environment_note, ::testing::Not(HasSubstr("properties")));
}

TEST(RecordProperty, TheReportListsThemInOneLine) {
  TestResult test;
  EXPECT_EQ(properties_line(test), "") << "nothing for a test that records none";
  test.properties = {{"vocabulary_size", "18"}, {"dtype", "float32"}, {"sequence_length", "16"}};
  EXPECT_EQ(properties_line(test),
            "Properties: dtype float32 · sequence_length 16 · vocabulary_size 18");
}

}  // namespace
}  // namespace mlregress::internal
