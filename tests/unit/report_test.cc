// The report's parts that a person trusts without checking: a plot that hides a spike or a NaN,
// a Markdown summary that grows past a pull-request comment's limit, a curve file read wrongly,
// markup from a test name that escapes into the page.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <regex>

#include "builders.h"
#include "observers/regression_report.h"
#include "renderers/html_report.h"
#include "renderers/markdown_report.h"
#include "renderers/run_report.h"
#include "renderers/svg_plot.h"
#include "storage/curve_csv.h"
#include "support/errors.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The smallest y pixel of every polyline point: where the highest value was drawn.
double highest_point(const std::string& svg) {
  static const std::regex point(R"(([0-9.]+),([0-9.]+) )");
  double top = 1e9;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), point); it != std::sregex_iterator();
       ++it) {
    top = std::min(top, std::stod((*it)[2]));
  }
  return top;
}

TEST(SvgPlotTest, ALongCurveKeepsItsOneStepSpike) {
  PlotLine flat{"loss", {}, {}, false};
  for (int i = 0; i < 20000; ++i) {
    flat.x.push_back(i);
    flat.y.push_back(i == 12345 ? 5.0 : 1.0);
  }
  PlotLine spiked = flat;
  const std::string with_spike = line_chart_svg({"loss", "step", {spiked}, {}, "", "curve"});
  // The same line without the spike, on the spike's axis: an extra invisible line holds the range.
  flat.y[12345] = 1.0;
  const std::string without = line_chart_svg(
      {"loss", "step", {flat, PlotLine{"range", {0.0}, {5.0}, true}}, {}, "", "curve"});
  EXPECT_LT(highest_point(with_spike) + 50.0, highest_point(without));
  EXPECT_LT(with_spike.size(), 40000u);  // reduced to a few points per pixel column
}

TEST(SvgPlotTest, ANonFiniteValueIsMarkedAtItsStep) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::string svg =
      line_chart_svg({"loss",
                      "step",
                      {PlotLine{"loss", {0, 1, 2, 3}, {1.0, 0.5, nan, nan}, false}},
                      {},
                      "",
                      "curve"});
  EXPECT_THAT(svg, HasSubstr("nan from step 2"));
  EXPECT_THAT(svg, HasSubstr("loss is nan at step 2"));
}

TEST(SvgPlotTest, ALossSpanningDecadesGetsALogAxis) {
  const std::string svg = line_chart_svg(
      {"loss", "step", {PlotLine{"loss", {0, 1, 2}, {2.3, 0.01, 1e-4}, false}}, {}, "", "curve"});
  EXPECT_THAT(svg, HasSubstr("(log scale)"));
  const std::string linear = line_chart_svg(
      {"acc", "step", {PlotLine{"acc", {0, 1, 2}, {0.5, 0.7, 0.9}, false}}, {}, "", "curve"});
  EXPECT_THAT(linear, Not(HasSubstr("(log scale)")));
}

TEST(SvgPlotTest, NamesCannotBreakOutOfTheMarkup) {
  const std::string svg = line_chart_svg({"<script>alert(1)</script>\"",
                                          "step",
                                          {PlotLine{"x", {0, 1}, {1, 2}, false}},
                                          {},
                                          "",
                                          "curve"});
  EXPECT_THAT(svg, Not(HasSubstr("<script")));
  EXPECT_THAT(svg, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;&quot;"));
}

TEST(SvgPlotTest, TheSeedStripShadesTheWorseSideOfTheMargin) {
  SeedStrip strip{
      "accuracy", Direction::HigherIsBetter, {0.87, 0.88}, {0.85, 0.86}, -0.02, -0.03, -0.01,
      0.01,       Verdict::kRegression};
  const std::string svg = seed_strip_svg(strip);
  EXPECT_THAT(svg, HasSubstr("worse than the margin (-0.01)"));
  EXPECT_THAT(svg, HasSubstr("95% CI [-0.03, -0.01]"));
  strip.direction = Direction::LowerIsBetter;
  EXPECT_THAT(seed_strip_svg(strip), HasSubstr("worse than the margin (0.01)"));
}

// A sequential test's strip marks each look: a row per look with its seeds, the interval it saw
// at its level and what it decided, the deciding (last) look in the verdict's colour; an
// infinite end is drawn to the axis' edge; the strip grows a row per look. Planted: a strip
// that dropped the looks (the one-look strip) has none of these rows.
TEST(SvgPlotTest, TheSeedStripMarksEachLookOfASequentialTest) {
  SeedStrip strip{"accuracy",
                  Direction::HigherIsBetter,
                  {0.87, 0.88, 0.86},
                  {0.85, 0.86, 0.84},
                  -0.02,
                  -0.03,
                  -0.01,
                  0.005,
                  Verdict::kRegression};
  const std::string one_look = seed_strip_svg(strip);
  EXPECT_THAT(one_look, Not(HasSubstr("class=\"looks\"")));
  strip.looks = {
      {.seeds = 12,
       .lower = -0.05,
       .upper = std::numeric_limits<double>::infinity(),
       .level = 0.999999,
       .outcome = "continue"},
      {.seeds = 20, .lower = -0.03, .upper = -0.01, .level = 0.971, .outcome = "regression"}};
  const std::string svg = seed_strip_svg(strip);
  EXPECT_THAT(svg, HasSubstr("look 1 · 12 seeds"));
  EXPECT_THAT(svg, HasSubstr("look 2 · 20 seeds"));
  EXPECT_THAT(svg, HasSubstr("look 1 (12 seeds): 99.9999% CI [-0.05, inf]; continue"));
  EXPECT_THAT(svg, HasSubstr("look 2 (20 seeds): 97.1% CI [-0.03, -0.01]; regression"));
  EXPECT_LT(svg.find("look 1 ·"), svg.find("look 2 ·"));
  // The deciding look in the verdict's colour, the earlier one grey.
  const std::size_t second = svg.find("<line class=\"look\"", svg.find("look 2 ·"));
  ASSERT_NE(second, std::string::npos);
  EXPECT_NE(svg.find(std::string(verdict_colour(Verdict::kRegression)), second), std::string::npos);
  EXPECT_THAT(svg.substr(0, svg.find("look 2 ·")), HasSubstr("stroke=\"#9e9e9e\""));
  EXPECT_THAT(one_look, HasSubstr("height=\"168\""));
  EXPECT_THAT(svg, HasSubstr("height=\"208\""));  // 136 + 40 + 2 rows of 16
}

RunReport many_regressions(std::size_t tests) {
  RunReport report;
  report.headline = "REGRESSION";
  report.compared = true;
  report.info.binary = "suite";
  for (std::size_t i = 0; i < tests; ++i) {
    TestSection section;
    section.test.name = "Test" + std::to_string(i);
    section.test.full_name = "Full.Test" + std::to_string(i);
    MetricComparison c;
    c.metric = "a_rather_long_metric_name_" + std::to_string(i);
    c.verdict = i % 2 == 0 ? Verdict::kRegression : Verdict::kPass;
    c.observed = 2.0;
    c.baseline = 1.0;
    c.delta = 1.0;
    section.test.comparisons.push_back(c);
    report.counts.metrics[c.verdict] += 1;
    report.sections.push_back(std::move(section));
  }
  return report;
}

TEST(MarkdownReportTest, StaysUnderTheLimitAndSaysHowManyRowsItCut) {
  const std::string markdown = render_markdown_report(many_regressions(5000));
  EXPECT_LE(markdown.size(), kMarkdownLimit);
  EXPECT_THAT(markdown, HasSubstr("## ❌ mlregress: REGRESSION — 2500 regressions, 2500 passed"));
  EXPECT_THAT(markdown, HasSubstr("more rows cut to keep this summary under 64 KB"));
  EXPECT_THAT(markdown, HasSubstr("<sub>Method:"));  // the footer survives the cut
  // Regressions come first: the first table row is one.
  EXPECT_LT(markdown.find("❌ REGRESSION |"), markdown.find("✅ PASS |") == std::string::npos
                                                 ? markdown.size()
                                                 : markdown.find("✅ PASS |"));

  const std::string small = render_markdown_report(many_regressions(4));
  EXPECT_THAT(small, Not(HasSubstr("cut to keep")));
  EXPECT_THAT(small, HasSubstr("<details><summary>2 metrics within tolerance</summary>"));
}

TEST(MarkdownReportTest, ATableCellCannotBreakTheTable) {
  RunReport report = many_regressions(1);
  report.sections[0].test.comparisons[0].metric = "a|b\nc<img>";
  const std::string markdown = render_markdown_report(report);
  EXPECT_THAT(markdown, HasSubstr("| a\\|b c&lt;img&gt; |"));
}

// A row that is not a PASS says why: a NOT_COMPARABLE with "✅ PASSED — 1 not comparable" above
// it and no reason left the reader guessing. Planted: the note left out of the table.
TEST(MarkdownReportTest, ARowThatIsNotAPassSaysWhy) {
  RunReport report = many_regressions(1);
  MetricComparison& c = report.sections[0].test.comparisons[0];
  c.verdict = Verdict::kNotComparable;
  c.delta.reset();
  c.note = "the dataset 'eval' changed (sha256:ab12 → sha256:cd34)";
  const std::string markdown = render_markdown_report(report);
  EXPECT_THAT(markdown, HasSubstr("| verdict | why |"));
  EXPECT_THAT(
      markdown,
      HasSubstr("| ➖ NOT_COMPARABLE | the dataset 'eval' changed (sha256:ab12 → sha256:cd34) |"));
}

// A cost counter's REGRESSION names its operators in the Markdown row and in report.html.
// Planted: the operators left out of either page (they are not in the comparison's note).
TEST(MarkdownReportTest, ACostCountersRegressionNamesItsOperatorsInBothPages) {
  RunReport report = many_regressions(1);
  MetricComparison& c = report.sections[0].test.comparisons[0];
  report.sections[0].test.metrics = {{c.metric, c.observed, LowerIsBetter, Exact{}}};
  c.operators = diff_operators({BreakdownUnit::Calls, {{"aten::add", 3}}},
                               {BreakdownUnit::Calls, {{"aten::add", 3}, {"aten::mul", 2}}});
  EXPECT_THAT(render_markdown_report(report),
              HasSubstr("| ❌ REGRESSION | operators: aten::mul +2 calls (100%) |"));
  EXPECT_THAT(render_html_report(report), HasSubstr("operators: aten::mul +2 calls (100%)"));
}

// Every format a person reads shows a non-PASS verdict's cause with its rule and alternatives:
// the Markdown table, report.html and the regression report the console and JUnit print.
// Planted: the cause left out of any of them, or shown for a PASS.
TEST(ReportsTest, EveryFormatShowsTheCauseOfAVerdictThatIsNotAPass) {
  RunReport report = many_regressions(2);
  report.sections[0].test.comparisons[0].cause =
      Cause{.cause = CauseClass::kDataOrder,
            .rule = "the data-order hash of 'train' differs from the baseline's",
            .alternatives = {{CauseClass::kUnknown, "several rules fired"}}};
  for (TestSection& section : report.sections) {  // report.html lists the recorded metrics
    const MetricComparison& c = section.test.comparisons[0];
    section.test.metrics.push_back({c.metric, c.observed, LowerIsBetter, {}, {}, {}});
  }
  const std::string expected =
      "cause: data_order — rule: the data-order hash of 'train' differs from the baseline's; "
      "alternatives: unknown (several rules fired)";
  EXPECT_THAT(render_markdown_report(report), HasSubstr(expected));
  EXPECT_THAT(render_html_report(report),
              HasSubstr("<div class=\"cause\">cause: data_order — rule: the data-order hash of "
                        "&#39;train&#39; differs"));
  EXPECT_THAT(format_regression_report("run", report.sections[0].test), HasSubstr(expected));
  // A long note is cut on its own: the cause and its alternatives survive it.
  report.sections[0].test.comparisons[0].note = std::string(400, 'n');
  EXPECT_THAT(render_markdown_report(report), HasSubstr("nnn...; " + expected));
  // The PASS of the second test has none.
  EXPECT_THAT(format_regression_report("run", report.sections[1].test), Not(HasSubstr("cause:")));
}

// A run that could not gate every metric says so at the top of report.html and in the Markdown
// summary, with the command that fixes it; with --strict-env its headline is NOT_GATED, not
// PASSED. Planted: the summary left out of either page, or a strict run headed PASSED.
TEST(RunReportTest, AMetricNotGatedIsSummarisedAtTheTopOfBothPages) {
  test_support::TempDir folder;
  TestResult test = finished_test("Clipping", "Fast.Clipping", "", {});
  MetricComparison c;
  c.metric = "final_loss";
  c.verdict = Verdict::kUngated;
  c.observed = 0.25;
  c.note = "no value for this machine's numerics profile cpu-avx2-1a2b3c4d";
  test.comparisons.push_back(c);
  RunRecord record = run_record(folder.path(), "r1", "", "", test);
  record.run.info.run_folder = folder.path();
  record.run.info.baselines = "baselines";

  RunReport lenient = build_run_report(record, ReportReference{});
  EXPECT_EQ(lenient.headline, "PASSED");
  EXPECT_THAT(lenient.not_gated_summary,
              HasSubstr("1 metric not gated on this machine — 1 UNGATED"));
  EXPECT_THAT(lenient.not_gated_summary, HasSubstr("`suite baselines adopt " + folder.path()));
  EXPECT_THAT(render_html_report(lenient),
              HasSubstr("<p class=\"not-gated\">1 metric not gated on this machine"));
  EXPECT_THAT(render_markdown_report(lenient), HasSubstr("**1 metric not gated on this machine"));

  record.run.info.strict_env = true;
  const RunReport strict = build_run_report(record, ReportReference{});
  EXPECT_EQ(strict.headline, "NOT_GATED");
  EXPECT_THAT(render_markdown_report(strict), HasSubstr("mlregress: NOT_GATED"));

  record.run.tests[0].comparisons[0].verdict = Verdict::kPass;
  EXPECT_EQ(build_run_report(record, ReportReference{}).not_gated_summary, "");
}

TEST(CurveCsvReaderTest, ReadsWhatTheWriterWritesAndNamesTheBadLine) {
  test_support::TempDir dir;
  const std::string path = dir.path() + "/c.csv";
  std::ofstream(path) << "step,value\n0,1.5\n10,nan\n20,-inf\n";
  const CurveRecord curve = read_curve_csv(path);
  ASSERT_EQ(curve.steps, (std::vector<std::int64_t>{0, 10, 20}));
  EXPECT_EQ(curve.values[0], 1.5);
  EXPECT_TRUE(std::isnan(curve.values[1]));
  EXPECT_EQ(curve.values[2], -std::numeric_limits<double>::infinity());

  std::ofstream(path) << "step,value\n0,1.5\n1,1.5x\n";
  try {
    read_curve_csv(path);
    FAIL() << "a bad value was read";
  } catch (const RunFolderError& error) {
    EXPECT_THAT(error.what(), HasSubstr(path + ":3: expected 'step,value'"));
  }
  std::ofstream(path) << "x,y\n";
  EXPECT_THROW(read_curve_csv(path), RunFolderError);
}

}  // namespace
}  // namespace mlregress::internal

namespace mlregress::internal {
namespace {

// Recorded predictions show their confusion matrix in report.html (the diagonal shaded, the
// label balance beside each row) and a line in the Markdown summary, with the accuracy against
// the majority rate: a model at 0.85 on 85/15 labels is marked. Planted: the block left out, a
// prediction set's name carrying markup into the page.
TEST(PredictionsReportTest, TheMatrixAndTheMajorityRateReachBothPages) {
  RunReport report = many_regressions(1);
  RecordedPredictions p;
  p.name = "eval<script>";
  p.examples = 100;
  p.accuracy = 0.85;
  std::vector<std::int64_t> target(100, 1);
  for (std::size_t i = 0; i < 15; ++i) target[i] = 0;
  p.confusion = confusion_matrix(std::vector<std::int64_t>(100, 1), target);
  report.sections[0].test.predictions.push_back(p);

  const std::string html = render_html_report(report);
  EXPECT_THAT(html, HasSubstr("<h3>Predictions</h3>"));
  EXPECT_THAT(html, HasSubstr("data-at-prior=\"true\""));
  EXPECT_THAT(html, HasSubstr("eval&lt;script&gt;: accuracy 0.8500 vs majority rate 0.8500"));
  EXPECT_THAT(html, Not(HasSubstr("eval<script>")));
  EXPECT_THAT(html, HasSubstr("<tr><th>0</th><td class=\"num diag\" style=\"background:#e8f5e9\">"
                              "0</td><td class=\"num\">15</td><td class=\"num\">15 (15%)</td>"));
  EXPECT_THAT(html, HasSubstr("<tr><th>predicted</th><td class=\"num\">0</td>"
                              "<td class=\"num\">100</td><td class=\"num\">100</td></tr>"));

  const std::string markdown = render_markdown_report(report);
  EXPECT_THAT(markdown, HasSubstr("<details><summary>Predictions of 1 tests</summary>"));
  EXPECT_THAT(markdown, HasSubstr("predicts class 1 for 100% of 100 examples; labels 0: 15%, "
                                  "1: 85%"));

  // A test without a matrix (a results.json from before it) shows no block.
  report.sections[0].test.predictions[0].confusion.reset();
  EXPECT_THAT(render_html_report(report), Not(HasSubstr("<h3>Predictions</h3>")));
}

}  // namespace
}  // namespace mlregress::internal
