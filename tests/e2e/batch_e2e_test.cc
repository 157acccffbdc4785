// record_batch end to end, through a torch-free fixture: each batch becomes a file of the run
// folder (batches/<test>.<name>.json), results.json lists it, report.html draws it (images as
// inline BMP data: URIs, text and rows as tables, each example beside its label) and the `report`
// command draws it again from the folder. Planted: markup in a label, a text and a column name;
// a batch file deleted after the run; seeds that each record a batch (the first seed's is kept).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class BatchE2eTest : public FixtureRunnerTest {
 protected:
  ProcessResult batches(const std::string& args) {
    return run_fixture_in(temp_.path(), MLREGRESS_BATCH_FIXTURE_BINARY, args);
  }
  ProcessResult run_batches(const std::string& args) {
    return batches("run --color never --out " + runs() + " " + args);
  }
};

// Every src= of the page is an inline BMP: nothing to fetch, no image file beside the page.
::testing::AssertionResult images_are_inline(const std::string& html) {
  static const std::regex src(R"re(\bsrc\s*=\s*"([^"]{0,30}))re", std::regex::icase);
  std::size_t images = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), src); it != std::sregex_iterator();
       ++it, ++images) {
    if (!(*it)[1].str().starts_with("data:image/bmp;base64,"))
      return ::testing::AssertionFailure() << "an image that is not inline: " << it->str();
  }
  return ::testing::AssertionSuccess() << images << " inline images";
}

TEST_F(BatchE2eTest, EachBatchIsAFileListedInResultsAndDrawnInTheReport) {
  const ProcessResult ran = run_batches("--filter LooksAtItsBatch");
  ASSERT_EQ(ran.exit_code, kPassed) << ran.out << ran.err;
  const json test = test_named(results(), "LooksAtItsBatch");
  ASSERT_EQ(test.at("batches").size(), 3u) << test.dump(2);
  EXPECT_EQ(test.at("batches")[0].at("name"), "input");
  EXPECT_EQ(test.at("batches")[0].at("kind"), "images");
  EXPECT_EQ(test.at("batches")[0].at("file"), "batches/LooksAtItsBatch.input.json");
  EXPECT_EQ(test.at("batches")[0].at("examples"), 4);
  EXPECT_EQ(test.at("batches")[1].at("kind"), "text");
  EXPECT_EQ(test.at("batches")[2].at("kind"), "table");

  // The file holds the view: the labels beside the examples, the clamped share, the pixels.
  const json input = json::parse(read_file(latest() + "/batches/LooksAtItsBatch.input.json"));
  EXPECT_EQ(input.at("labels"), json({"red", "green", "blue", "white"}));
  EXPECT_EQ(input.at("clamped_fraction"), 0.125);
  EXPECT_EQ(input.at("height"), 2);
  EXPECT_EQ(input.at("channels"), 3);
  EXPECT_EQ(input.at("pixels_base64").get<std::string>().size(), 64u);  // 48 bytes
  const json tokens = json::parse(read_file(latest() + "/batches/LooksAtItsBatch.tokens.json"));
  EXPECT_EQ(tokens.at("texts"), json({"the cat sat", "on the mat"}));

  const std::string html = read_file(latest() + "/report.html");
  EXPECT_THAT(html, HasSubstr("<h3>Batches</h3>"));
  EXPECT_THAT(html, HasSubstr("data-batch=\"input\" data-kind=\"images\""));
  EXPECT_EQ(count(html, "src=\"data:image/bmp;base64,"), 4u);
  EXPECT_THAT(html, HasSubstr("<figcaption>white</figcaption>"));
  EXPECT_THAT(html, HasSubstr("12.5% of values clamped to [0, 255]"));
  EXPECT_THAT(html, HasSubstr("on the mat</pre>"));
  EXPECT_THAT(html, HasSubstr("<th>income</th>"));
  EXPECT_THAT(html, HasSubstr("img-src data:"));
  EXPECT_TRUE(images_are_inline(html));

  // `report` draws the same block from the folder's files.
  const std::string out = temp_.path() + "/again.html";
  const ProcessResult report = batches("report " + latest() + " --out " + out);
  ASSERT_EQ(report.exit_code, kPassed) << report.out << report.err;
  const std::string again = read_file(out);
  EXPECT_EQ(count(again, "src=\"data:image/bmp;base64,"), 4u);
  EXPECT_THAT(again, HasSubstr("on the mat</pre>"));
}

TEST_F(BatchE2eTest, NoLabelTextOrColumnNameBecomesMarkup) {
  ASSERT_EQ(run_batches("--filter LooksAtItsBatch --set LooksAtItsBatch.hostile=true").exit_code,
            kPassed);
  const std::string html = read_file(latest() + "/report.html");
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_GE(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;"), 3u);  // label, text, column
  EXPECT_TRUE(images_are_inline(html));
  // The file keeps the text as it was: escaping is the page's business.
  const json tokens = json::parse(read_file(latest() + "/batches/LooksAtItsBatch.tokens.json"));
  EXPECT_EQ(tokens.at("texts")[1], "<script>alert(1)</script>");
}

TEST_F(BatchE2eTest, AMissingBatchFileIsSaidInTheReportAndBlocksNothing) {
  ASSERT_EQ(run_batches("--filter LooksAtItsBatch").exit_code, kPassed);
  std::filesystem::remove(latest() + "/batches/LooksAtItsBatch.input.json");
  const std::string out = temp_.path() + "/again.html";
  const ProcessResult report = batches("report " + latest() + " --out " + out);
  ASSERT_EQ(report.exit_code, kPassed) << report.out << report.err;
  EXPECT_THAT(read_file(out), HasSubstr("input: not shown ("));
  EXPECT_THAT(read_file(out), HasSubstr("LooksAtItsBatch.input.json: cannot be read)"));
  // Commands that read the folder for its values still do.
  const ProcessResult promote =
      batches("promote " + latest() + " --baselines " + baselines() + " --reason e2e");
  EXPECT_EQ(promote.exit_code, kPassed) << promote.out << promote.err;
}

TEST_F(BatchE2eTest, ASeededTestKeepsItsFirstSeedsBatch) {
  const ProcessResult ran = run_batches("--filter SeededBatch --jobs 3");
  ASSERT_EQ(ran.exit_code, kPassed) << ran.out << ran.err;
  const json test = test_named(results(), "SeededBatch");
  ASSERT_EQ(test.at("batches").size(), 1u) << test.dump(2);
  const json input = json::parse(read_file(latest() + "/batches/SeededBatch.input.json"));
  EXPECT_EQ(input.at("texts")[0], "seed " + std::to_string(test.at("seed").get<std::uint64_t>()));
  EXPECT_EQ(input.at("texts")[0],
            "seed " + std::to_string(test.at("seed_runs")[0].at("seed").get<std::uint64_t>()));
}

}  // namespace
}  // namespace mlregress::e2e
