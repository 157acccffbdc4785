// bisect.json, the record of a bisect, and its page: what is written is read back unchanged (a
// null value, a missing run folder, the order of the commits tried); each planted damage is a
// RunFolderError naming the file and the field or line; the page and the Markdown name the
// culprit at the top and escape what a commit subject holds; the bound the page states is
// ⌈log₂ N⌉ + 2.
#include "storage/bisect_record.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "renderers/bisect_report.h"
#include "support/errors.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

BisectTry tried(const std::string& commit, const std::string& role, const std::string& answer,
                std::optional<double> value) {
  BisectTry t;
  t.commit = {commit, "subject of " + commit};
  t.role = role;
  t.answer = answer;
  t.verdict = role == "good" ? "" : answer == "bad" ? "REGRESSION" : "PASS";
  t.reason = role == "good" ? "measured as the baseline" : t.verdict;
  t.metric = value ? "loss" : "";
  t.value = value;
  t.baseline = role == "good" || !value ? std::nullopt : std::optional<double>(1.0);
  t.built = commit != "c7";
  t.run = value ? "commits/" + commit + "/runs/r1" : "";
  return t;
}

BisectRecord sample_record() {
  BisectRecord r;
  r.test = "Fast.Step";
  r.metric = "loss";
  r.repo = "/src/model";
  r.good = {"c0", "commit 0"};
  r.bad = {"c15", "commit 15"};
  r.commits = 16;
  r.culprit = BisectCommit{"c8", "commit 8: <b>loss</b> | 20% higher"};
  r.tried = {tried("c0", "good", "good", 1.0), tried("c15", "bad", "bad", 1.2),
             tried("c7", "step", "good", 1.0), tried("c4", "step", "skip", std::nullopt),
             tried("c8", "step", "bad", 1.2)};
  r.tried[3].reason = "the build failed (exit 1; commits/c4/build.log)";
  r.tried[3].verdict = "";
  return r;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

TEST(BisectRecord, WhatIsWrittenIsReadBack) {
  const test_support::TempDir dir;
  const BisectRecord written = sample_record();
  write_bisect_record(dir.path(), written);
  EXPECT_TRUE(is_bisect_folder(dir.path()));
  const BisectRecord read = read_bisect_record(dir.path());
  ASSERT_TRUE(read.culprit);
  EXPECT_EQ(read.culprit->commit, "c8");
  EXPECT_EQ(read.culprit->subject, written.culprit->subject);
  EXPECT_EQ(read.commits, 16);
  EXPECT_EQ(read.good.commit, "c0");
  EXPECT_EQ(read.bad.subject, "commit 15");
  ASSERT_EQ(read.tried.size(), written.tried.size());
  for (std::size_t i = 0; i < read.tried.size(); ++i) {
    const BisectTry &a = read.tried[i], &b = written.tried[i];
    EXPECT_EQ(a.commit.commit, b.commit.commit) << i;  // the order is kept
    EXPECT_EQ(a.role, b.role) << i;
    EXPECT_EQ(a.answer, b.answer) << i;
    EXPECT_EQ(a.verdict, b.verdict) << i;
    EXPECT_EQ(a.reason, b.reason) << i;
    EXPECT_EQ(a.value, b.value) << i;
    EXPECT_EQ(a.baseline, b.baseline) << i;
    EXPECT_EQ(a.built, b.built) << i;
    EXPECT_EQ(a.run, b.run) << i;
  }
  EXPECT_EQ(read.builds(), 4);  // c7 came from the cache
  EXPECT_THAT(bisect_record_text(written), HasSubstr("\"builds\": 4"));
}

TEST(BisectRecord, WithoutACulpritTheReasonAndTheCandidatesAreKept) {
  const test_support::TempDir dir;
  BisectRecord written = sample_record();
  written.culprit.reset();
  written.candidates = {{"c5", "commit 5"}, {"c6", "commit 6"}};
  written.error = "only skipped commits are left";
  write_bisect_record(dir.path(), written);
  const BisectRecord read = read_bisect_record(dir.path());
  EXPECT_FALSE(read.culprit);
  ASSERT_EQ(read.candidates.size(), 2u);
  EXPECT_EQ(read.candidates[1].commit, "c6");
  EXPECT_EQ(read.error, "only skipped commits are left");
  const std::string page = render_bisect_html_report(read, dir.path(), "");
  EXPECT_THAT(page, HasSubstr("No culprit named"));
  EXPECT_THAT(page, HasSubstr("<code>c6</code> commit 6"));
  EXPECT_THAT(page, Not(HasSubstr("id=\"culprit\"")));
}

// Each planted damage is named: the file, then the line (malformed JSON) or the field.
TEST(BisectRecord, DamageIsARunFolderErrorNamingTheFileAndWhere) {
  const test_support::TempDir dir;
  const std::string path = dir / "bisect.json";
  const std::string text = bisect_record_text(sample_record());
  const auto error_of = [&](const std::string& damaged) -> std::string {
    write_text(path, damaged);
    try {
      read_bisect_record(dir.path());
    } catch (const RunFolderError& error) {
      return error.what();
    }
    return "no error";
  };
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string damaged = text;
    const auto at = damaged.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? damaged : damaged.replace(at, from.size(), to);
  };
  EXPECT_THAT(error_of(text.substr(0, text.size() / 2)), HasSubstr(path + ": not valid JSON"));
  EXPECT_THAT(error_of(text.substr(0, text.size() / 2)), HasSubstr("line "));
  EXPECT_THAT(error_of(replaced("\"schema_version\": 1", "\"schema_version\": 2")),
              HasSubstr(path + ": not a bisect record: schema_version: expected 1, got 2"));
  EXPECT_THAT(error_of(replaced("\"commits\": 16", "\"commits\": 1")),
              HasSubstr("commits: expected at least 2"));
  EXPECT_THAT(error_of(replaced("\"culprit\": {", "\"nothing\": {")),
              HasSubstr("culprit: missing (null when none was named)"));
  EXPECT_THAT(error_of(replaced("\"role\": \"step\"", "\"role\": \"middle\"")),
              HasSubstr("tried[2].role: expected one of good, bad, step, got \"middle\""));
  EXPECT_THAT(error_of(replaced("\"built\": false", "\"built\": \"no\"")),
              HasSubstr("tried[2].built: expected true or false"));
  EXPECT_THAT(error_of(replaced("\"commit\": \"c0\",\n    \"subject\"",
                                "\"commit\": \"\",\n    \"subject\"")),
              HasSubstr("good.commit: expected a commit id"));
  EXPECT_EQ(error_of(text), "no error");
}

TEST(BisectRecord, AFolderWithoutARecordIsNoBisectFolder) {
  const test_support::TempDir dir;
  EXPECT_FALSE(is_bisect_folder(dir.path()));
  EXPECT_THROW(read_bisect_record(dir.path()), RunFolderError);
}

// The page names the culprit first, escapes the subject, marks its row; the Markdown keeps a
// `|` of a subject inside its cell.
TEST(BisectReport, TheCulpritIsOnTopAndSubjectsAreEscaped) {
  const BisectRecord r = sample_record();
  const std::string page = render_bisect_html_report(r, "/nowhere", "");
  const std::string header = page.substr(0, page.find("</header>"));
  EXPECT_THAT(header, HasSubstr("Culprit: <code>c8</code> commit 8: &lt;b&gt;loss&lt;/b&gt;"));
  EXPECT_THAT(page, Not(HasSubstr("<b>loss</b>")));
  EXPECT_THAT(header, HasSubstr("5 commits tried (4 built, 1 cached) for 16 commits"));
  EXPECT_THAT(page, HasSubstr("id=\"culprit\" class=\"differs\" data-commit=\"c8\""));
  // No run folder's report.html exists under /nowhere: the run is named, not linked.
  EXPECT_THAT(page, Not(HasSubstr("<a href")));
  EXPECT_THAT(page, HasSubstr("<code title=\"commits/c8/runs/r1\">r1</code>"));

  const std::string markdown = render_bisect_markdown_report(r);
  EXPECT_THAT(markdown, HasSubstr("## 🔎 mlregress bisect: culprit `c8` commit 8: "
                                  "&lt;b&gt;loss&lt;/b&gt; \\| 20% higher\n"));
  EXPECT_THAT(markdown, HasSubstr("| 5 | `c8` **culprit** |"));
  EXPECT_THAT(markdown, HasSubstr("| skip | — | — | — | the build failed"));
}

// A run folder whose name has a space or '#' still links to its page: the href is
// percent-encoded (a raw '#' would start a fragment, a raw space is no valid URL), the visible
// title keeps the name as it is.
TEST(BisectReport, RunLinksArePercentEncoded) {
  const test_support::TempDir dir;
  BisectRecord r = sample_record();
  r.tried[4].run = "commits/c8/runs/r #1";
  std::filesystem::create_directories(dir / "commits/c8/runs/r #1");
  write_text(dir / "commits/c8/runs/r #1/report.html", "<html></html>");
  const std::string page = render_bisect_html_report(r, dir.path(), "my bisect/");
  EXPECT_THAT(page, HasSubstr("<a href=\"my%20bisect/commits/c8/runs/r%20%231/report.html\" "
                              "title=\"commits/c8/runs/r #1\">"));
}

// ⌈log₂ N⌉ + 2 by integer doubling, against the floating-point formula.
TEST(BisectReport, TheBoundIsCeilLog2NPlusTwo) {
  EXPECT_EQ(bisect_commit_bound(2), 3);
  EXPECT_EQ(bisect_commit_bound(16), 6);
  EXPECT_EQ(bisect_commit_bound(17), 7);
  EXPECT_EQ(bisect_commit_bound(100), 9);
  for (int n = 2; n <= 5000; ++n) {
    ASSERT_EQ(bisect_commit_bound(n), static_cast<int>(std::ceil(std::log2(n))) + 2) << n;
  }
}

}  // namespace
}  // namespace mlregress::internal
