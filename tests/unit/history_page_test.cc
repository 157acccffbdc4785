// history --format html: a planted step is marked at its commit (and noise is not), the runs are
// linked to their report.html (else their folder) relative to the page, the page loads nothing
// and runs nothing, names cannot inject markup, the one path per series draws the means where
// they are, and bad output options fail with their exit codes.
#include "renderers/history_page.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include "commands/history_command.h"
#include "support/errors.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A series of `values`, one commit per value ("c000", "c001"...), each with one run whose folder
// is `runs/<commit>` under `root`, first runs a day apart.
Series make_series(const std::string& test, const std::string& metric,
                   const std::vector<double>& values, const std::string& root) {
  Series s;
  s.test = test;
  s.metric = metric;
  s.profile = "env-0";
  s.direction = Direction::LowerIsBetter;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string commit = fmt::format("c{:03}{}", i, std::string(36, 'a'));
    Point& p = s.points[commit];
    p.commit = commit;
    p.first_run_at = fmt::format("2026-{:02}-{:02}T00:00:00.000Z", i / 28 + 1, i % 28 + 1);
    p.values = {values[i]};
    p.runs = {"run-" + commit.substr(0, 4)};
    p.folders = {root + "/runs/" + commit.substr(0, 4)};
  }
  return s;
}

std::vector<double> noise(std::size_t n, double step_at_fraction, double step, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(1.0, 0.01);
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = normal(rng) * (static_cast<double>(i) >= step_at_fraction * n ? 1.0 + step : 1.0);
  }
  return v;
}

MetricHistory history_of(std::vector<Series> all) {
  MetricHistory h;
  for (Series& s : all) {
    h.runs = std::max(h.runs, s.points.size());
    h.series[{s.test, s.metric, s.profile}] = std::move(s);
  }
  return h;
}

// The <figure> of one series (by its caption's test and metric).
std::string figure_of(const std::string& page, const std::string& test_and_metric) {
  const std::size_t at = page.find("<figcaption title=\"" + test_and_metric);
  if (at == std::string::npos) return "";
  const std::size_t begin = page.rfind("<figure", at);
  return page.substr(begin, page.find("</figure>", at) + 9 - begin);
}

class HistoryPageTest : public ::testing::Test {
 protected:
  test_support::TempDir dir_;
};

TEST_F(HistoryPageTest, APlantedStepIsMarkedAtItsCommitAndNoiseIsNot) {
  // 40 commits; Fast.Step's loss is 10% higher from the 25th commit (index 24) on.
  const MetricHistory h =
      history_of({make_series("Fast.Step", "loss", noise(40, 0.6, 0.10, 1), dir_.path()),
                  make_series("Fast.Flat", "loss", noise(40, 0.6, 0.0, 2), dir_.path())});
  const std::string page = render_history_page(h, {}, dir_.path());
  const std::string step = figure_of(page, "Fast.Step loss");
  ASSERT_FALSE(step.empty()) << page;
  EXPECT_THAT(step, HasSubstr("data-changes=\"1\""));
  EXPECT_THAT(step, HasSubstr("<line class=\"cp-regression\" x1=\"24\" x2=\"24\""));
  EXPECT_THAT(step, HasSubstr("data-kind=\"regression\" data-column=\"25\">regression at "
                              "<a href=\"#c25\">#25 c024aaa</a>"));
  EXPECT_THAT(step, HasSubstr("<a href=\"runs/c024/\">report</a>"));  // its run
  const std::string flat = figure_of(page, "Fast.Flat loss");
  ASSERT_FALSE(flat.empty());
  EXPECT_THAT(flat, HasSubstr("data-changes=\"0\""));
  EXPECT_THAT(flat, Not(HasSubstr("<line")));
  EXPECT_THAT(flat, Not(HasSubstr("cp-")));
  // The summary: one change point, a regression, in the table; the commit's row exists.
  EXPECT_THAT(page,
              HasSubstr("2 series from 40 runs of 40 commits: 1 change point (1 regression)<"));
  EXPECT_THAT(page, HasSubstr("<tr class=\"cp-regression\"><td>regression</td>"));
  EXPECT_THAT(page, HasSubstr("<tr id=\"c25\">"));

  // The same series without the step: nothing marked anywhere.
  const std::string no_step = render_history_page(
      history_of({make_series("Fast.Step", "loss", noise(40, 0.6, 0.0, 1), dir_.path())}), {},
      dir_.path());
  EXPECT_THAT(no_step, Not(HasSubstr("<line")));
  EXPECT_THAT(no_step, HasSubstr("No change point in any series."));
}

TEST_F(HistoryPageTest, RunsLinkToTheirReportElseTheirFolderRelativeToThePage) {
  std::filesystem::create_directories(dir_ / "runs/c000");
  std::filesystem::create_directories(dir_ / "runs/c001");
  std::ofstream(dir_ / "runs/c000/report.html") << "<p>report</p>";
  const MetricHistory h = history_of({make_series("Fast.A", "loss", {1.0, 2.0}, dir_.path())});
  const std::string beside = render_history_page(h, {}, dir_.path());
  EXPECT_THAT(beside, HasSubstr("<a href=\"runs/c000/report.html\">run-c000</a>"));
  EXPECT_THAT(beside, HasSubstr("<a href=\"runs/c001/\">run-c001</a>"));  // no report: folder
  std::filesystem::create_directories(dir_ / "pages");
  const std::string below = render_history_page(h, {}, dir_ / "pages");
  EXPECT_THAT(below, HasSubstr("<a href=\"../runs/c000/report.html\">"));
  EXPECT_THAT(below, Not(HasSubstr("href=\"runs/")));

  // Characters that would end the attribute or the path are percent-encoded.
  EXPECT_EQ(run_link(dir_ / "my runs/a#1\"<x>", dir_.path()), "my%20runs/a%231%22%3Cx%3E/");
  EXPECT_EQ(run_link(dir_ / "runs/c000", dir_ / "runs/c000"), "report.html");
}

TEST_F(HistoryPageTest, ThePageLoadsNothingAndRunsNothing) {
  const std::string page = render_history_page(
      history_of({make_series("Fast.Step", "loss", noise(40, 0.5, 0.2, 3), dir_.path())}), {},
      "/elsewhere");
  EXPECT_THAT(page, HasSubstr("Content-Security-Policy\" content=\"default-src 'none'"));
  EXPECT_THAT(page, Not(HasSubstr("<script")));
  EXPECT_THAT(page, Not(HasSubstr("://")));  // no http://, https:// or file:// anywhere
  EXPECT_THAT(page, Not(HasSubstr("src=")));
  EXPECT_FALSE(std::regex_search(page, std::regex("<[^>]* on[a-z]+=")));  // no onload= etc.
}

TEST_F(HistoryPageTest, NamesCannotInjectMarkup) {
  const MetricHistory h = history_of({make_series("Fast.<script>alert(1)</script>", "a\"b&c",
                                                  noise(12, 0.5, 0.0, 4), dir_.path())});
  const std::string page = render_history_page(h, {}, dir_.path());
  EXPECT_THAT(page, Not(HasSubstr("<script")));
  EXPECT_THAT(page, Not(HasSubstr("a\"b")));
  EXPECT_THAT(page, HasSubstr("Fast.&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(page, HasSubstr("a&quot;b&amp;c"));
}

// The (x, y) points of a path of M and relative l moves, as the page writes it.
std::vector<std::pair<long, long>> decode_path(const std::string& d) {
  std::vector<std::pair<long, long>> points;
  const std::regex number("[Mlh]|-?[0-9]+");
  std::vector<std::string> tokens;
  for (auto it = std::sregex_iterator(d.begin(), d.end(), number); it != std::sregex_iterator();
       ++it) {
    tokens.push_back(it->str());
  }
  bool absolute = false;  // the pair after M is absolute, the pairs after l relative
  for (std::size_t i = 0; i < tokens.size();) {
    if (tokens[i] == "M") {
      absolute = true, ++i;
    } else if (tokens[i] == "l") {
      ++i;
    } else if (tokens[i] == "h") {
      i += 2;  // h0: a dot, no new point
    } else {
      const long x = std::stol(tokens[i]), y = std::stol(tokens[i + 1]);
      if (absolute)
        points.emplace_back(x, y);
      else
        points.emplace_back(points.back().first + x, points.back().second + y);
      absolute = false, i += 2;
    }
  }
  return points;
}

TEST_F(HistoryPageTest, OnePathPerSeriesDrawsTheMeansWhereTheyAre) {
  // Each chart spans its own range: the minimum at the bottom (y 100), the maximum at the top
  // (y 0); a non-finite mean breaks the line.
  const std::vector<double> values = {2.0, 1.0, 3.0, 2.0, NAN, 1.5, 3.0};
  const std::string page = render_history_page(
      history_of({make_series("Fast.A", "loss", values, dir_.path())}), {}, dir_.path());
  std::smatch match;
  ASSERT_TRUE(std::regex_search(page, match, std::regex("<path d=\"([^\"]*)\"/>")));
  const std::string d = match[1];
  EXPECT_EQ(d, "M0 50l1 50 1-100 1 50M5 75l1-75");
  const std::vector<std::pair<long, long>> points = decode_path(d);
  const std::vector<std::pair<long, long>> expected = {{0, 50}, {1, 100}, {2, 0},
                                                       {3, 50}, {5, 75},  {6, 0}};
  EXPECT_EQ(points, expected);
  EXPECT_THAT(page, HasSubstr("7 commits, 1 not finite"));
  // A lone finite point between non-finite ones is a dot.
  const std::string lone = render_history_page(
      history_of({make_series("Fast.A", "loss", {NAN, 1.0, NAN}, dir_.path())}), {}, dir_.path());
  EXPECT_THAT(lone, HasSubstr("<path d=\"M1 50h0\"/>"));

  // 1,000 commits: about 5 bytes a commit, one path, no element per point.
  const std::string big = render_history_page(
      history_of({make_series("Fast.A", "loss", noise(1000, 2.0, 0.0, 5), dir_.path())}), {},
      dir_.path());
  ASSERT_TRUE(std::regex_search(big, match, std::regex("<path d=\"([^\"]*)\"/>")));
  EXPECT_LT(match[1].length(), 7000);
  EXPECT_EQ(decode_path(match[1]).size(), 1000u);
}

TEST_F(HistoryPageTest, BadOutputOptionsFailWithTheirExitCodes) {
  std::filesystem::create_directories(dir_ / "runs");
  HistoryOptions options;
  options.paths = {dir_ / "runs"};
  options.format = "json";
  options.out = dir_ / "history.html";
  try {
    history_command(options);
    FAIL() << "--out with --format json was accepted";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--out writes the page of --format html"));
  }
  options.format = "html";
  options.out = dir_ / "no-such-folder/history.html";
  try {
    history_command(options);
    FAIL() << "a page in a folder that does not exist was written";
  } catch (const OutputError& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kOutputError);
    EXPECT_THAT(e.what(), HasSubstr("no-such-folder"));
  }
  options.out = dir_ / "history.html";
  EXPECT_EQ(history_command(options), ExitCode::kPassed);
  EXPECT_TRUE(std::filesystem::exists(dir_ / "history.html"));
}

}  // namespace
}  // namespace mlregress::internal
