// The report command and report.html end to end, through the torch-free fixtures: every run
// folder gets a self-contained page; `report` judges a run against another run or a baseline
// folder with the verdicts `compare` gives; Markdown stays under its limit; bad input is a named
// exit code that writes nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "fixture_runner.h"
#include "tests/support/files.h"

namespace mlregress::e2e {
namespace {

using test_support::read_file;
using ::testing::HasSubstr;
using ::testing::Not;

// Anything a browser would fetch: a script, a stylesheet or image by URL, a frame, a font.
::testing::AssertionResult loads_nothing(const std::string& html) {
  static const std::regex load(
      R"re(<script|<link|<iframe|<img|<object|<embed|\bsrc\s*=|url\(|@import|href\s*=\s*"(?!#))re",
      std::regex::icase);
  std::smatch match;
  if (std::regex_search(html, match, load))
    return ::testing::AssertionFailure()
           << "the page would load something: '" << match.str() << "'";
  return ::testing::AssertionSuccess();
}

class ReportE2eTest : public FixtureRunnerTest {
 protected:
  std::string report(const std::string& args) {
    const ProcessResult result = fixture("report " + args);
    EXPECT_EQ(result.exit_code, kPassed) << result.out << result.err;
    return result.out;
  }
};

TEST_F(ReportE2eTest, EveryRunFolderHasASelfContainedPage) {
  ASSERT_EQ(run("--filter Passes:RecordsNonFinite").exit_code, kPassed);
  const std::string html = read_file(latest() + "/report.html");
  EXPECT_THAT(html, HasSubstr("<meta http-equiv=\"Content-Security-Policy\" "
                              "content=\"default-src 'none';"));
  EXPECT_THAT(html, HasSubstr("data-verdict=\"PASSED\""));
  EXPECT_TRUE(loads_nothing(html));
  // One plot per curve: loss and val/loss of Passes, diverges of RecordsNonFinite.
  EXPECT_EQ(count(html, "data-plot=\"curve\""), 3u) << html;
  EXPECT_THAT(html, HasSubstr("inf from step 2"));  // where the diverging curve left the finite
  EXPECT_THAT(html, HasSubstr("nothing (the run had no --baselines)"));
}

TEST_F(ReportE2eTest, TheLoadCheckCatchesAPlantedRemoteImage) {
  EXPECT_FALSE(loads_nothing("<p>x</p><img src=\"https://example.com/a.png\">"));
  EXPECT_FALSE(loads_nothing("<a href=\"https://example.com\">x</a>"));
  EXPECT_FALSE(loads_nothing("<style>body{background:url(x.png)}</style>"));
  EXPECT_TRUE(loads_nothing("<a href=\"#test-Passes\">x</a>"));
}

TEST_F(ReportE2eTest, AgainstAnotherRunJudgesAsCompareDoesAndDrawsTheReference) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  const std::string reference = std::filesystem::read_symlink(latest()).string();
  ASSERT_EQ(run("--filter Passes --set Passes.value=3 --set Passes.points=5").exit_code, kPassed);
  const std::string out = temp_.path() + "/against.html";
  report(latest() + " --against " + runs() + "/" + reference + " --out " + out);
  const std::string html = read_file(out);
  EXPECT_THAT(html, HasSubstr("data-verdict=\"REGRESSION\""));
  EXPECT_THAT(html, HasSubstr("<tr data-verdict=\"REGRESSION\"><td>value</td>"));
  EXPECT_EQ(count(html, "class=\"reference-line\""), 2u);  // under loss and val/loss
  // loss has 5 points now, 3 before: it leaves the reference where the reference ends.
  EXPECT_THAT(html, HasSubstr("data-diverged=\"true\""));
  EXPECT_THAT(html, HasSubstr("data-diverged=\"false\""));  // val/loss is unchanged
  // The run folder keeps its own page, judged as the run was (not compared).
  EXPECT_THAT(read_file(latest() + "/report.html"), HasSubstr("data-verdict=\"PASSED\""));

  const ProcessResult compare = fixture("compare " + runs() + "/" + reference + " " + latest());
  EXPECT_EQ(compare.exit_code, kRegression);  // the same judgement
}

TEST_F(ReportE2eTest, AgainstBaselinesPutsRegressionsFirstInEveryFormat) {
  ASSERT_EQ(run("--filter Passes:AllParameterTypes").exit_code, kPassed);
  ASSERT_EQ(
      fixture("promote " + latest() + " --baselines " + temp_.path() + "/b --reason r").exit_code,
      kPassed);
  ASSERT_EQ(run("--filter Passes:AllParameterTypes --set Passes.value=3").exit_code, kPassed);
  const std::string markdown =
      report(latest() + " --baselines " + temp_.path() + "/b --format markdown");
  EXPECT_THAT(markdown, HasSubstr("## ❌ mlregress: REGRESSION — 1 regression, 1 passed"));
  EXPECT_THAT(markdown, HasSubstr("| `Fast.Passes` | value | 1.5 | 3 | +1.5 (+100.0%) | ❌ "
                                  "REGRESSION |"));
  EXPECT_LT(markdown.find("REGRESSION |"), markdown.find("<details>"));  // the pass is folded
  EXPECT_THAT(markdown, HasSubstr("<sub>Method:"));

  const std::string metrics =
      report(latest() + " --baselines " + temp_.path() + "/b --format openmetrics");
  EXPECT_THAT(metrics, HasSubstr("mlregress_metric{test=\"Fast.Passes\",metric=\"value\"} 3\n"));
  EXPECT_THAT(metrics,
              HasSubstr("mlregress_metric_regression{test=\"Fast.Passes\",metric=\"value\"} 1\n"));
  EXPECT_THAT(metrics, HasSubstr("mlregress_metric_regression{test=\"Fast.AllParameterTypes\","
                                 "metric=\"count\"} 0\n"));
  EXPECT_TRUE(metrics.ends_with("# EOF\n"));

  const std::string html = temp_.path() + "/r.html";
  report(latest() + " --baselines " + temp_.path() + "/b --out " + html);
  const std::string page = read_file(html);
  EXPECT_LT(page.find("id=\"test-Passes\""), page.find("id=\"test-AllParameterTypes\""));
  EXPECT_THAT(page, HasSubstr("data-plot=\"band\""));  // value's band, drawn
}

TEST_F(ReportE2eTest, MarkdownStaysUnderItsLimitAndSaysWhatItCut) {
  // 13 tests, hostile text and a huge failure message among them.
  run("--set FailsWithAHugeMessage.mib=2");
  const std::string markdown = report(latest() + " --format markdown");
  EXPECT_LE(markdown.size(), 64000u);
  EXPECT_THAT(markdown, HasSubstr("### Failed tests"));
  EXPECT_THAT(markdown, Not(HasSubstr("</failure>")));  // markup from a message is escaped
}

TEST_F(ReportE2eTest, BadInputIsANamedExitCodeAndWritesNothing) {
  const std::string out = temp_.path() + "/never.html";
  EXPECT_EQ(fixture("report " + temp_.path() + "/missing --out " + out).exit_code, kRunFolderError);
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  EXPECT_EQ(fixture("report " + latest() + " --against " + latest() + " --baselines b --out " + out)
                .exit_code,
            kUsageError);
  EXPECT_EQ(fixture("report " + latest() + " --format pdf").exit_code, kUsageError);
  EXPECT_EQ(fixture("report " + latest() + " --baselines " + temp_.path() + "/nope --out " + out)
                .exit_code,
            kBaselineError);
  EXPECT_FALSE(std::filesystem::exists(out));

  // A damaged curve file is named in the page; the rest of the report is still written.
  std::ofstream(latest() + "/curves/Passes.loss.csv") << "step,value\n0,abc\n";
  report(latest() + " --out " + out);
  EXPECT_THAT(read_file(out), HasSubstr("Passes.loss.csv:2: expected &#39;step,value&#39;"));
}

}  // namespace
}  // namespace mlregress::e2e
