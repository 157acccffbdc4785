// A recorded batch (record_batch) on its way from the test body to the run folder: the event
// wire, the collector, the batch file and results.json. Planted: pixels that do not make whole
// images, labels that do not match the examples, a damaged batch file, a batch recorded twice,
// seeds that each record one (only the first seed's is kept, whatever order the seeds end in),
// and bytes that base64 would carry wrongly.
#include "mlregress/batch_view.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "execution/event_sink.h"
#include "execution/run_collector.h"
#include "execution/run_plan.h"
#include "execution/test_context.h"
#include "execution/test_events.h"
#include "mlregress/ml_test.h"
#include "storage/batch_view_file.h"
#include "storage/results_json.h"
#include "support/base64.h"
#include "support/errors.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Two 2x2 RGB images: the first all red, the second all blue; labelled "cat" and "dog".
BatchView two_images() {
  BatchView view;
  view.kind = BatchView::Kind::kImages;
  view.height = 2;
  view.width = 2;
  view.channels = 3;
  for (int i = 0; i < 4; ++i) view.pixels.insert(view.pixels.end(), {255, 0, 0});
  for (int i = 0; i < 4; ++i) view.pixels.insert(view.pixels.end(), {0, 0, 255});
  view.labels = {"cat", "dog"};
  view.clamped_fraction = 0.25;
  view.note = "un-normalised with mean [0.5] std [0.5]";
  return view;
}

BatchView text_rows() {
  BatchView view;
  view.kind = BatchView::Kind::kText;
  view.texts = {"the cat sat", "on the mat"};
  view.labels = {"1", "0"};
  return view;
}

BatchView table_rows() {
  BatchView view;
  view.kind = BatchView::Kind::kTable;
  view.columns = {"age", "income"};
  view.rows = {{31.0, 52000.5}, {45.0, std::numeric_limits<double>::quiet_NaN()}};
  view.labels = {"yes", "no"};
  return view;
}

TEST(Base64, EncodesTheStandardVectorsAndRefusesWhatIsNotBase64) {
  // RFC 4648's test vectors: padding of one and two characters.
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  std::vector<std::uint8_t> every_byte;
  for (int b = 0; b < 256; ++b) every_byte.push_back(static_cast<std::uint8_t>(b));
  const auto decoded = base64_decode(base64_encode(every_byte.data(), every_byte.size()));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(*decoded, every_byte);
  for (const char* bad : {"Zg=", "Zm9*", "Zg=a", "=Zm9", "Zg==Zg=="}) {
    EXPECT_FALSE(base64_decode(bad).has_value()) << bad;
  }
}

TEST(BatchView, AViewWhoseSizesDisagreeCannotBeStored) {
  EXPECT_EQ(batch_view_problem(two_images()), "");
  EXPECT_EQ(batch_examples(two_images()), 2);
  BatchView cut = two_images();
  cut.pixels.pop_back();  // planted: a last image cut short
  EXPECT_THAT(batch_view_problem(cut), HasSubstr("are not whole images of 2x2x3"));
  BatchView four_channels = two_images();
  four_channels.channels = 4;
  EXPECT_THAT(batch_view_problem(four_channels), HasSubstr("1 (grey) or 3 (RGB) channels"));
  BatchView one_label = text_rows();
  one_label.labels = {"1"};  // planted: a label lost, so every label after it would shift
  EXPECT_THAT(batch_view_problem(one_label), HasSubstr("1 labels for 2 examples"));
  BatchView ragged = table_rows();
  ragged.rows[1].pop_back();
  EXPECT_THAT(batch_view_problem(ragged), HasSubstr("row 1 has 1 values for 2 columns"));
  EXPECT_THAT(batch_view_problem(BatchView{.kind = BatchView::Kind::kText}),
              HasSubstr("no examples"));
}

TEST(BatchView, ImagesPastThePixelBudgetCannotBeStored) {
  // 32 RGB images of 512x512 (24 MiB), each within the side and count limits: refused, so a
  // report page never carries them inline.
  BatchView big;
  big.kind = BatchView::Kind::kImages;
  big.height = 512;
  big.width = 512;
  big.channels = 3;
  big.pixels.assign(static_cast<std::size_t>(32 * 512 * 512 * 3), 0);
  big.labels.assign(32, "x");
  EXPECT_THAT(batch_view_problem(big), HasSubstr("more than 4194304"));
  // At the budget exactly: stored.
  BatchView at_budget = big;
  at_budget.height = 256;
  at_budget.width = 256;
  at_budget.channels = 1;
  at_budget.pixels.assign(static_cast<std::size_t>(kMaxBatchPixelBytes), 0);
  at_budget.labels.assign(static_cast<std::size_t>(kMaxBatchPixelBytes / (256 * 256)), "x");
  EXPECT_EQ(batch_view_problem(at_budget), "");
}

TEST(BatchViewFile, EachKindReadsBackAsItWasWritten) {
  test_support::TempDir dir;
  for (const BatchView& view : {two_images(), text_rows(), table_rows()}) {
    const std::string path = dir / std::string(batch_kind_name(view.kind)) + ".json";
    write_batch_file(path, view);
    const BatchView read = read_batch_file(path);
    EXPECT_EQ(read.kind, view.kind);
    EXPECT_EQ(read.labels, view.labels);
    EXPECT_EQ(read.pixels, view.pixels);
    EXPECT_EQ(read.texts, view.texts);
    EXPECT_EQ(read.columns, view.columns);
    EXPECT_EQ(read.note, view.note);
    EXPECT_EQ(read.clamped_fraction, view.clamped_fraction);
    ASSERT_EQ(read.rows.size(), view.rows.size());
    if (view.kind == BatchView::Kind::kTable) {
      EXPECT_EQ(read.rows[0], view.rows[0]);
      EXPECT_TRUE(std::isnan(read.rows[1][1]));  // NaN travels as "NaN"
    }
  }
  EXPECT_EQ(batch_file_name("PreprocessedInputStatistics", "input"),
            "batches/PreprocessedInputStatistics.input.json");
}

TEST(BatchViewFile, ADamagedFileIsARunFolderErrorNamingTheFileAndTheProblem) {
  test_support::TempDir dir;
  const std::string path = dir / "damaged.json";
  nlohmann::json json = batch_view_to_json(two_images());
  json["height"] = 3;  // planted: 24 bytes are not whole 3x2x3 images
  std::ofstream(path) << json.dump();
  try {
    (void)read_batch_file(path);
    FAIL() << "a damaged batch file was read";
  } catch (const RunFolderError& error) {
    EXPECT_THAT(error.what(), HasSubstr(path));
    EXPECT_THAT(error.what(), HasSubstr("not whole images of 3x2x3"));
  }
  json = batch_view_to_json(two_images());
  json["pixels_base64"] = "not base64!";
  std::ofstream(path) << json.dump();
  EXPECT_THROW((void)read_batch_file(path), RunFolderError);
}

TEST(BatchRecorded, TravelsOverTheEventWireWhole) {
  for (const BatchView& view : {two_images(), text_rows(), table_rows()}) {
    const DecodedEvent decoded = decode_event_line(event_line(BatchRecorded{"input", view}));
    ASSERT_TRUE(decoded.event.has_value()) << decoded.error;
    const auto& batch = std::get<BatchRecorded>(*decoded.event);
    EXPECT_EQ(batch.name, "input");
    EXPECT_EQ(batch.view.pixels, view.pixels);
    EXPECT_EQ(batch.view.labels, view.labels);
    EXPECT_EQ(batch.view.texts, view.texts);
  }
  // A batch whose sizes disagree is a malformed event, not a view drawn wrongly.
  nlohmann::json json = nlohmann::json(TestEvent{BatchRecorded{"input", two_images()}});
  json["batch"]["labels"] = nlohmann::json::array({"cat"});
  EXPECT_FALSE(decode_event_line(json.dump()).event.has_value());
}

TEST(ResultsJson, ATestsBatchesAreListedWithTheirFiles) {
  RunResult run;
  TestResult test;
  test.name = "Cnn";
  test.full_name = "Fast.Cnn";
  test.finished = true;
  test.batches.push_back(
      {"input", BatchView::Kind::kImages, "batches/Cnn.input.json", 2, nullptr, ""});
  test.batches.push_back(
      {"tokens", BatchView::Kind::kText, "batches/Cnn.tokens.json", 8, nullptr, ""});
  run.tests.push_back(test);
  const nlohmann::json written(run);
  const nlohmann::json& batches = written["tests"][0]["batches"];
  ASSERT_EQ(batches.size(), 2u);
  EXPECT_EQ(batches[0]["name"], "input");
  EXPECT_EQ(batches[0]["kind"], "images");
  EXPECT_EQ(batches[0]["file"], "batches/Cnn.input.json");
  EXPECT_EQ(batches[1]["examples"], 8);
  const RunResult read = written.get<RunResult>();
  ASSERT_EQ(read.tests[0].batches.size(), 2u);
  EXPECT_EQ(read.tests[0].batches[1].kind, BatchView::Kind::kText);
  EXPECT_EQ(read.tests[0].batches[1].file, "batches/Cnn.tokens.json");
  EXPECT_EQ(nlohmann::json(read), written);
  // A test without batches writes no key: older readers and the golden files see no change.
  run.tests[0].batches.clear();
  EXPECT_FALSE(nlohmann::json(run)["tests"][0].contains("batches"));
}

class CapturingSink final : public EventSink {
 public:
  void emit(const TestEvent& event) override { events.push_back(event); }
  std::vector<TestEvent> events;
};

TEST(RecordBatch, ANameOrAViewThatCannotBeStoredIsRefusedInTheTest) {
  CapturingSink sink;
  TestContext context{.sink = &sink};
  set_current_test_context(&context);
  MlTest::record_batch("input", two_images());
  BatchView cut = two_images();
  cut.labels.pop_back();
  EXPECT_THROW(MlTest::record_batch("input", cut), std::invalid_argument);
  // The name becomes part of a file name and of the page: no path, no markup.
  EXPECT_THROW(MlTest::record_batch("../input", two_images()), std::invalid_argument);
  EXPECT_THROW(MlTest::record_batch("<b>", two_images()), std::invalid_argument);
  set_current_test_context(nullptr);
  ASSERT_EQ(sink.events.size(), 1u);
  EXPECT_EQ(std::get<BatchRecorded>(sink.events[0]).view, two_images());
}

// Tests live in unique_ptrs: the plan keeps pointers to them.
struct OneTestSuite {
  std::unique_ptr<RegisteredTest> test = std::make_unique<RegisteredTest>();
  RunPlan plan;
  explicit OneTestSuite(Seeds seeds) {
    test->tier = Tier::Fast;
    test->tier_token = "Fast";
    test->name = "Cnn";
    test->file = "suite_test.cc";
    test->line = 1;
    test->seeds = std::move(seeds);
    plan = make_run_plan({test.get()}, {}, {}, {});
  }
};

class BatchObserver : public RunObserver {
 public:
  void on_batch(const TestResult& test, const RecordedBatch& batch) override {
    files.push_back(test.full_name + " " + batch.file);
  }
  std::vector<std::string> files;
};

BatchView text_of(const std::string& text) {
  BatchView view;
  view.kind = BatchView::Kind::kText;
  view.texts = {text};
  return view;
}

TEST(RunCollector, ABatchRecordedTwiceKeepsTheLaterOneAndIsWrittenEachTime) {
  OneTestSuite suite(Seeds(0));
  RunResult run;
  BatchObserver observer;
  RunCollector collector(suite.plan, run, {&observer});
  collector.start_run();
  collector.handle(TestStarted{"Fast.Cnn", ""});
  collector.handle(BatchRecorded{"input", text_of("first")});
  collector.handle(BatchRecorded{"labels", table_rows()});
  collector.handle(BatchRecorded{"input", text_of("second")});
  collector.handle(TestEnded{"Fast.Cnn", true, false, 0.1});
  const TestResult& test = run.tests.at(0);
  ASSERT_EQ(test.batches.size(), 2u);
  EXPECT_EQ(test.batches[0].name, "labels");
  EXPECT_EQ(test.batches[0].examples, 2u);
  EXPECT_EQ(test.batches[1].file, "batches/Cnn.input.json");
  ASSERT_TRUE(test.batches[1].data);
  EXPECT_THAT(test.batches[1].data->texts, ElementsAre("second"));
  EXPECT_THAT(observer.files,
              ElementsAre("Fast.Cnn batches/Cnn.input.json", "Fast.Cnn batches/Cnn.labels.json",
                          "Fast.Cnn batches/Cnn.input.json"));
}

TEST(RunCollector, ASeededTestKeepsItsFirstSeedsBatchWhateverOrderTheSeedsEndIn) {
  OneTestSuite suite(Seeds(3));
  const PlannedTest& planned = suite.plan.tests.front();
  const std::vector<SeedJob> jobs = seed_jobs(planned);
  ASSERT_EQ(jobs.size(), 3u);
  RunResult run;
  RunCollector collector(suite.plan, run, {});
  collector.start_seeded_test(planned);
  // --jobs 3: the last seed ends first. Each seed's batch says which seed it is.
  for (std::size_t i = jobs.size(); i-- > 0;) {
    collector.add_seed_run(jobs[i],
                           {TestStarted{"Fast.Cnn", ""},
                            BatchRecorded{"input", text_of("seed " + std::to_string(jobs[i].seed))},
                            TestEnded{"Fast.Cnn", true, false, 0.1}},
                           "", 0.1);
  }
  collector.end_seeded_test(1.0);
  const TestResult& test = run.tests.at(0);
  ASSERT_EQ(test.batches.size(), 1u);
  ASSERT_TRUE(test.batches[0].data);
  EXPECT_THAT(test.batches[0].data->texts,
              ElementsAre("seed " + std::to_string(planned.seeds.front())));
}

}  // namespace
}  // namespace mlregress::internal
