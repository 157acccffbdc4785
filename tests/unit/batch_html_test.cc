// report.html's "Batches" block: what a person sees of a recorded batch. Planted: a BMP whose
// colours or rows come out swapped or flipped, a label drawn beside another example, a test,
// batch, label, text or column name that carries markup into the page, a batch file that could
// not be read, and a CSP that would block the inline images.
#include "renderers/batch_html.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "renderers/bmp_image.h"
#include "renderers/html_report.h"
#include "renderers/run_report.h"
#include "support/base64.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::uint8_t byte_at(const std::string& file, std::size_t at) {
  return static_cast<std::uint8_t>(file.at(at));
}

TEST(BmpImage, StoresRowsBottomUpAsBgrPaddedToFourBytes) {
  // 2 rows x 1 column: a red pixel above a blue one.
  const std::uint8_t pixels[] = {255, 0, 0, 0, 0, 255};
  const std::string file = bmp_file(pixels, 2, 1, 3);
  ASSERT_EQ(file.size(), 54u + 2 * 4);  // each 3-byte row padded to 4
  EXPECT_EQ(file.substr(0, 2), "BM");
  EXPECT_EQ(byte_at(file, 2), 62);   // the file's size
  EXPECT_EQ(byte_at(file, 18), 1);   // width
  EXPECT_EQ(byte_at(file, 22), 2);   // height (positive: bottom-up)
  EXPECT_EQ(byte_at(file, 28), 24);  // bits per pixel
  // The bottom row first: the blue pixel, as B, G, R.
  EXPECT_EQ(byte_at(file, 54), 255);
  EXPECT_EQ(byte_at(file, 56), 0);
  // Then the top row: red, as B, G, R.
  EXPECT_EQ(byte_at(file, 58), 0);
  EXPECT_EQ(byte_at(file, 60), 255);
  // Grey: one value for all three.
  const std::uint8_t grey[] = {7};
  const std::string g = bmp_file(grey, 1, 1, 1);
  EXPECT_EQ(byte_at(g, 54), 7);
  EXPECT_EQ(byte_at(g, 55), 7);
  EXPECT_EQ(byte_at(g, 56), 7);
  EXPECT_EQ(bmp_data_uri(grey, 1, 1, 1), "data:image/bmp;base64," + base64_encode(g));
}

RecordedBatch recorded(std::string name, BatchView view) {
  RecordedBatch batch;
  batch.name = std::move(name);
  batch.kind = view.kind;
  batch.file = "batches/T." + batch.name + ".json";
  batch.examples = static_cast<std::size_t>(batch_examples(view));
  batch.data = std::make_shared<const BatchView>(std::move(view));
  return batch;
}

BatchView images(std::vector<std::string> labels) {
  BatchView view;
  view.height = 1;
  view.width = 1;
  view.channels = 3;
  view.pixels = {255, 0, 0, 0, 0, 255};
  view.labels = std::move(labels);
  view.clamped_fraction = 0.5;
  return view;
}

TEST(BatchesHtml, ImagesAreInlineBmpsEachAboveItsLabel) {
  TestResult test;
  test.batches.push_back(recorded("input", images({"cat", "dog"})));
  const std::string html = batches_html(test);
  EXPECT_THAT(html, HasSubstr("<h3>Batches</h3>"));
  EXPECT_THAT(html, HasSubstr("data-batch=\"input\" data-kind=\"images\""));
  EXPECT_THAT(html, HasSubstr("50.0% of values clamped to [0, 255]"));
  const std::uint8_t red[] = {255, 0, 0};
  const std::uint8_t blue[] = {0, 0, 255};
  // Each image is followed by its own label: the pair, not two lists.
  EXPECT_THAT(html, HasSubstr(bmp_data_uri(red, 1, 1, 3) +
                              "\" width=\"64\" height=\"64\" "
                              "alt=\"example 0\" style=\"image-rendering:pixelated;border:1px "
                              "solid #ddd\"><figcaption>cat</figcaption>"));
  EXPECT_THAT(html, HasSubstr(bmp_data_uri(blue, 1, 1, 3) +
                              "\" width=\"64\" height=\"64\" "
                              "alt=\"example 1\" style=\"image-rendering:pixelated;border:1px "
                              "solid #ddd\"><figcaption>dog</figcaption>"));
  EXPECT_EQ(batches_html(TestResult{}), "") << "no batch, no block";
}

TEST(BatchesHtml, TextAndTablesAreTablesWithTheirLabels) {
  TestResult test;
  BatchView text;
  text.kind = BatchView::Kind::kText;
  text.texts = {"the cat sat", "on the mat"};
  text.labels = {"1", "0"};
  BatchView table;
  table.kind = BatchView::Kind::kTable;
  table.columns = {"age", "income"};
  table.rows = {{31.0, 52000.5}};
  test.batches.push_back(recorded("tokens", text));
  test.batches.push_back(recorded("rows", table));
  const std::string html = batches_html(test);
  EXPECT_THAT(html, HasSubstr("<tr><th>#</th><th>label</th><th>text</th></tr>"));
  EXPECT_THAT(html, HasSubstr("<tr><td class=\"num\">1</td><td>0</td><td><pre style=\"margin:0\">"
                              "on the mat</pre></td></tr>"));
  EXPECT_THAT(html, HasSubstr("<tr><th>#</th><th>age</th><th>income</th></tr>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">31</td>"));
  EXPECT_THAT(html, HasSubstr("rows: table 1 example, no labels"));
}

TEST(BatchesHtml, NoNameLabelTextOrColumnBecomesMarkup) {
  const std::string hostile = "<script>alert(1)</script>\"'&";
  TestResult test;
  BatchView text;
  text.kind = BatchView::Kind::kText;
  text.texts = {hostile};
  text.labels = {hostile};
  text.note = hostile;
  BatchView table;
  table.kind = BatchView::Kind::kTable;
  table.columns = {hostile};
  table.rows = {{1.0}};
  test.batches.push_back(recorded(hostile, text));
  test.batches.push_back(recorded("rows", table));
  test.batches.push_back(recorded("images", images({hostile, hostile})));
  RecordedBatch unreadable = recorded(hostile, text);
  unreadable.data.reset();
  unreadable.problem = hostile;
  test.batches.push_back(unreadable);
  const std::string html = batches_html(test);
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("\"'&")));
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"));

  // The whole page: a hostile test name too.
  RunReport report;
  report.headline = "PASSED";
  TestSection section;
  section.test = test;
  section.test.name = hostile;
  section.test.full_name = "Fast." + hostile;
  report.sections.push_back(section);
  const std::string page = render_html_report(report);
  EXPECT_THAT(page, Not(HasSubstr("<script")));
  EXPECT_THAT(page, HasSubstr("<h3>Batches</h3>"));
}

TEST(BatchesHtml, AnUnreadableBatchFileIsSaidNotSkipped) {
  TestResult test;
  RecordedBatch missing = recorded("input", images({}));
  missing.data.reset();
  missing.problem = "batches/T.input.json: cannot be read";
  test.batches.push_back(missing);
  EXPECT_THAT(batches_html(test),
              HasSubstr("input: not shown (batches/T.input.json: cannot be read)"));
}

TEST(BatchesHtml, TheReportPagesCspAllowsInlineImagesAndNothingElse) {
  RunReport report;
  report.headline = "PASSED";
  TestSection section;
  section.test.name = "Cnn";
  section.test.full_name = "Fast.Cnn";
  section.test.batches.push_back(recorded("input", images({"cat", "dog"})));
  report.sections.push_back(section);
  const std::string page = render_html_report(report);
  EXPECT_THAT(page, HasSubstr("content=\"default-src 'none'; style-src 'unsafe-inline'; "
                              "img-src data:; form-action 'none'; base-uri 'none'\""));
  // The section of the test holds its batch, after its curves.
  const std::size_t section_at = page.find("id=\"test-Cnn\"");
  ASSERT_NE(section_at, std::string::npos);
  EXPECT_GT(page.find("<h3>Batches</h3>"), section_at);
  EXPECT_THAT(page, HasSubstr("src=\"data:image/bmp;base64,"));
  EXPECT_THAT(page, Not(HasSubstr("src=\"http")));
}

}  // namespace
}  // namespace mlregress::internal
