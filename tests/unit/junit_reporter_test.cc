// JUnit XML that CI parsers accept. Planted: a comma-decimal locale, markup and control
// characters in failure messages, invalid UTF-8, and one test of each status; the document must
// parse, count correctly, map each status to the element Jenkins expects and write times with '.'.
#include "observers/junit_reporter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <pugixml.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "builders.h"
#include "comma_locale.h"
#include "comparison/comparator.h"
#include "record/run_result.h"
#include "support/errors.h"
#include "support/text_sanitize.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

TestResult make_test(std::string name, Tier tier, TestStatus status, double duration_s) {
  TestResult test = ended_test(name, tier, status, duration_s, "0123456789abcdef");
  test.file = "suite_test.cc";
  test.line = 10;
  test.started_at = "2026-12-02T13:45:12.678Z";
  return test;
}

// Four finished tests, one of each status, in two tiers.
RunResult sample_run() {
  RunResult run;
  run.info.run_id = "20261202T134512Z-a1b2c3d";
  run.info.run_folder = "runs/20261202T134512Z-a1b2c3d";
  run.info.binary = "my_model_tests";
  run.info.started_at = "2026-12-02T13:45:12.000Z";
  run.info.duration_s = 12.3456;
  run.info.seed = 42;
  run.info.threads = 1;
  run.info.environment = {{"hostname", "ci-7"},
                          {"git", {{"commit", "a1b2c3d4e5"}, {"dirty", true}}},
                          {"framework", {{"name", "LibTorch"}, {"version", "1.13.1"}}}};

  TestResult passed = make_test("CnnOverfitsOneBatch", Tier::Fast, TestStatus::kPassed, 1.25);
  passed.metrics.push_back(
      {"final_loss", 0.000213, LowerIsBetter, Band{.rtol = 0.5, .atol = 1e-3}});
  run.tests.push_back(passed);

  TestResult failed = make_test("ShapesMatch", Tier::Fast, TestStatus::kFailed, 0.5);
  failed.failures.push_back(
      {"shapes_test.cc", 42, "Expected equality of these values:\n  a\n  b", true});
  failed.failures.push_back({"", 0, "second failure", false});
  run.tests.push_back(failed);

  TestResult skipped = make_test("NeedsGpu", Tier::Fast, TestStatus::kSkipped, 0.001);
  skipped.skip_message = "no CUDA device\n(second line)";
  run.tests.push_back(skipped);

  TestResult crashed = make_test("Throughput", Tier::Medium, TestStatus::kCrashed, 2.0);
  crashed.crash_message = "killed by signal 11 (SIGSEGV)";
  run.tests.push_back(crashed);
  return run;
}

// sample_run() with a fifth test, "StillRunning" of the full tier, that has not finished.
RunResult run_with_a_running_test() {
  RunResult run = sample_run();
  TestResult running = make_test("StillRunning", Tier::Full, TestStatus::kPassed, 0);
  running.finished = false;
  run.tests.push_back(running);
  return run;
}

pugi::xml_document parse(const std::string& xml) {
  pugi::xml_document doc;
  const pugi::xml_parse_result result = doc.load_string(xml.c_str());
  EXPECT_TRUE(result) << result.description() << " at offset " << result.offset << "\n" << xml;
  return doc;
}

pugi::xml_node testcase(const pugi::xml_document& doc, const char* name) {
  return doc
      .select_node(("/testsuites/testsuite/testcase[@name='" + std::string(name) + "']").c_str())
      .node();
}

std::string attr(pugi::xml_node node, const char* name) { return node.attribute(name).value(); }

// What a tier's <testsuite> says of itself.
struct SuiteAttributes {
  std::string name, tests, failures, errors, skipped, time;
};

void expect_suite(pugi::xml_node suite, const SuiteAttributes& expected) {
  EXPECT_EQ(attr(suite, "name"), expected.name);
  EXPECT_EQ(attr(suite, "tests"), expected.tests);
  EXPECT_EQ(attr(suite, "failures"), expected.failures);
  EXPECT_EQ(attr(suite, "errors"), expected.errors);
  EXPECT_EQ(attr(suite, "skipped"), expected.skipped);
  EXPECT_EQ(attr(suite, "time"), expected.time);
}

// Every byte a C0 control other than tab, newline, carriage return is forbidden in XML 1.0, and
// so is a character reference to one (what pugixml writes for them: "&#1;").
::testing::AssertionResult carries_no_forbidden_characters(const std::string& xml) {
  for (std::size_t i = 0; i < xml.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(xml[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      return ::testing::AssertionFailure() << "control byte " << int{c} << " at offset " << i;
    }
  }
  const std::regex reference("&#(x[0-9A-Fa-f]+|[0-9]+);");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), reference);
       it != std::sregex_iterator(); ++it) {
    const std::string digits = (*it)[1].str();
    const long code =
        digits[0] == 'x' ? std::stol(digits.substr(1), nullptr, 16) : std::stol(digits);
    if (code < 0x20 && code != 9 && code != 10 && code != 13) {
      return ::testing::AssertionFailure() << "reference " << it->str();
    }
  }
  if (xml.find("\xEF\xBF\xBE") != std::string::npos ||
      xml.find("\xEF\xBF\xBF") != std::string::npos) {
    return ::testing::AssertionFailure() << "U+FFFE or U+FFFF";
  }
  if (valid_utf8(xml) != xml) return ::testing::AssertionFailure() << "invalid UTF-8";
  return ::testing::AssertionSuccess();
}

TEST(JunitSeconds, ThreeDecimalsAlways) {
  EXPECT_EQ(junit_seconds(12.345), "12.345");
  EXPECT_EQ(junit_seconds(12.3456), "12.346");
  EXPECT_EQ(junit_seconds(0), "0.000");
  EXPECT_EQ(junit_seconds(2.5), "2.500");
  EXPECT_EQ(junit_seconds(0.0004), "0.000");
}

TEST(JunitSeconds, NeverAnExponent) {
  // Planted: "{}" or "%g" would write these as 1e-05 and 1e+20, which the schema rejects.
  EXPECT_EQ(junit_seconds(1e-5), "0.000");
  EXPECT_EQ(junit_seconds(1e20), "100000000000000000000.000");
  EXPECT_EQ(junit_seconds(123456789.0), "123456789.000");
}

TEST(JunitSeconds, NonFiniteAndNegativeBecomeZero) {
  EXPECT_EQ(junit_seconds(std::numeric_limits<double>::quiet_NaN()), "0.000");
  EXPECT_EQ(junit_seconds(std::numeric_limits<double>::infinity()), "0.000");
  EXPECT_EQ(junit_seconds(-std::numeric_limits<double>::infinity()), "0.000");
  EXPECT_EQ(junit_seconds(-1.5), "0.000");
  EXPECT_EQ(junit_seconds(-1e-12), "0.000");
}

// fmt writes -0.0 as "-0.000", which the schema's SUREFIRE_TIME pattern (no sign) rejects.
TEST(JunitSeconds, NegativeZeroHasNoSign) { EXPECT_EQ(junit_seconds(-0.0), "0.000"); }

TEST(JunitSeconds, MatchTheSchemasTimePattern) {
  const std::regex surefire_time(R"((([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]{0,3})?)");
  for (double s : {0.0, 0.001, 0.9995, 1.0, 59.999, 3600.5, 86400.0 * 365, 1e15}) {
    EXPECT_TRUE(std::regex_match(junit_seconds(s), surefire_time)) << junit_seconds(s);
  }
}

TEST(JunitSeconds, CommaLocaleStillWritesAPoint) {
  mlregress::test_support::ScopedCommaLocale locale;
  // The planted locale is in effect: iostreams (and printf, when a comma C locale is installed
  // here) would write a comma.
  std::ostringstream stream;
  stream.imbue(std::locale());
  stream << 1.5;
  ASSERT_EQ(stream.str(), "1,5");
  if (!locale.c_locale_name().empty()) {
    ASSERT_EQ(mlregress::test_support::ScopedCommaLocale::printf_one_and_a_half(), "1,500");
  }
  EXPECT_EQ(junit_seconds(1.5), "1.500");
  EXPECT_EQ(junit_seconds(1234567.25), "1234567.250");  // and no thousands separator
}

TEST(RenderJunit, CommaLocaleStillWritesPointsInEveryTime) {
  mlregress::test_support::ScopedCommaLocale locale;
  const std::string xml = render_junit(sample_run());
  const pugi::xml_document doc = parse(xml);
  const std::regex time(R"([0-9]+\.[0-9]{3})");
  int times = 0;
  for (const pugi::xpath_node& node : doc.select_nodes("//@time")) {
    EXPECT_TRUE(std::regex_match(node.attribute().value(), time)) << node.attribute().value();
    ++times;
  }
  EXPECT_EQ(times, 1 + 2 + 4);  // testsuites, two testsuites, four testcases
  EXPECT_EQ(attr(doc.child("testsuites"), "time"), "12.346");
  EXPECT_THAT(xml, ::testing::HasSubstr("in 1.250 s"));  // the report in system-out too
}

TEST(RenderJunit, StartsWithAnXmlDeclarationAndParses) {
  const std::string xml = render_junit(sample_run());
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0), 0u);
  const pugi::xml_document doc = parse(xml);
  EXPECT_STREQ(doc.document_element().name(), "testsuites");
}

TEST(RenderJunit, RootCountsEveryTest) {
  const pugi::xml_document doc = parse(render_junit(sample_run()));
  const pugi::xml_node root = doc.child("testsuites");
  EXPECT_EQ(attr(root, "name"), "my_model_tests");
  EXPECT_EQ(attr(root, "tests"), "4");
  EXPECT_EQ(attr(root, "failures"), "1");
  EXPECT_EQ(attr(root, "errors"), "1");
  EXPECT_EQ(doc.select_nodes("//testcase").size(), 4u);
}

TEST(RenderJunit, OneSuitePerTierThatRanWithItsOwnCounts) {
  const pugi::xml_document doc = parse(render_junit(sample_run()));
  const pugi::xpath_node_set suites = doc.select_nodes("/testsuites/testsuite");
  ASSERT_EQ(suites.size(), 2u);  // no empty "full" suite
  const pugi::xml_node fast = suites[0].node();
  expect_suite(fast, {.name = "fast",
                      .tests = "3",
                      .failures = "1",
                      .errors = "0",
                      .skipped = "1",
                      .time = "1.751"});  // 1.25 + 0.5 + 0.001
  EXPECT_EQ(attr(fast, "timestamp"), "2026-12-02T13:45:12.678Z");
  EXPECT_EQ(attr(fast, "hostname"), "ci-7");
  expect_suite(suites[1].node(), {.name = "medium",
                                  .tests = "1",
                                  .failures = "0",
                                  .errors = "1",
                                  .skipped = "0",
                                  .time = "2.000"});
}

TEST(RenderJunit, SuitePropertiesDescribeTheRun) {
  const pugi::xml_document doc = parse(render_junit(sample_run()));
  const auto property = [&](const char* name) {
    return attr(doc.select_node(("/testsuites/testsuite[1]/properties/property[@name='" +
                                 std::string(name) + "']")
                                    .c_str())
                    .node(),
                "value");
  };
  EXPECT_EQ(property("mlregress.run_id"), "20261202T134512Z-a1b2c3d");
  EXPECT_EQ(property("mlregress.seed"), "42");
  EXPECT_EQ(property("mlregress.threads"), "1");
  EXPECT_EQ(property("git.commit"), "a1b2c3d4e5");
  EXPECT_EQ(property("git.dirty"), "true");
  EXPECT_EQ(property("framework"), "LibTorch 1.13.1");
}

TEST(RenderJunit, MissingEnvironmentFieldsGiveEmptyValuesNotACrash) {
  RunResult run = sample_run();
  run.info.environment = nlohmann::json::object();
  const pugi::xml_document doc = parse(render_junit(run));
  EXPECT_EQ(attr(doc.select_node("/testsuites/testsuite[1]").node(), "hostname"), "");
  EXPECT_TRUE(doc.select_node("//property[@name='framework']").node().empty());
  EXPECT_FALSE(doc.select_node("//property[@name='git.commit']").node().empty());
}

TEST(RenderJunit, PassedTestHasOnlyItsReport) {
  const pugi::xml_document doc = parse(render_junit(sample_run()));
  const pugi::xml_node test = testcase(doc, "CnnOverfitsOneBatch");
  ASSERT_FALSE(test.empty());
  EXPECT_EQ(attr(test, "classname"), "my_model_tests.fast");
  EXPECT_EQ(attr(test, "time"), "1.250");
  EXPECT_TRUE(test.child("failure").empty());
  EXPECT_TRUE(test.child("error").empty());
  EXPECT_TRUE(test.child("skipped").empty());
  const std::string out = test.child("system-out").text().get();
  EXPECT_THAT(out, ::testing::HasSubstr("Fast.CnnOverfitsOneBatch [fast] passed in 1.250 s"))
      << out;
  EXPECT_THAT(out, ::testing::HasSubstr(
                       "metric final_loss = 0.000213 (lower is better; band rtol=0.5 atol=0.001)"))
      << out;
}

TEST(RenderJunit, FailedTestHasAFailureNamingTheFirstAssertion) {
  const pugi::xml_document doc = parse(render_junit(sample_run()));
  const pugi::xml_node test = testcase(doc, "ShapesMatch");
  const pugi::xml_node failure = test.child("failure");
  ASSERT_FALSE(failure.empty());
  EXPECT_TRUE(test.child("error").empty());
  // The headline is the first failure on one line, whitespace collapsed; the body has it all.
  EXPECT_EQ(attr(failure, "message"),
            "shapes_test.cc:42: Expected equality of these values: a b (and 1 more)");
  EXPECT_EQ(attr(failure, "type"), "assertion");
  EXPECT_EQ(std::string(failure.text().get()),
            "shapes_test.cc:42\nExpected equality of these values:\n  a\n  b\nsecond failure\n");
}

TEST(RenderJunit, LongFailureMessageIsShortenedInTheHeadlineOnly) {
  RunResult run = sample_run();
  const std::string long_message = "values differ: " + std::string(5000, 'x');
  run.tests[1].failures = {{"", 0, long_message, true}};
  const pugi::xml_document doc = parse(render_junit(run));
  const pugi::xml_node failure = testcase(doc, "ShapesMatch").child("failure");
  const std::string headline = attr(failure, "message");
  EXPECT_LE(headline.size(), 300u);
  EXPECT_EQ(headline.rfind("values differ: xxx", 0), 0u) << headline;
  EXPECT_THAT(std::string(failure.text().get()), ::testing::HasSubstr(long_message));
}

TEST(RenderJunit, RegressedTestIsAFailureOfTypeRegressionNamingTheMetric) {
  RunResult run = sample_run();
  TestResult regressed = make_test("FinalLossHolds", Tier::Fast, TestStatus::kRegressed, 0.25);
  regressed.metrics.push_back(
      {"final_loss", 0.7438, LowerIsBetter, Band{.rtol = 0.5, .atol = 1e-3}});
  MetricComparison comparison;
  comparison.metric = "final_loss";
  comparison.verdict = Verdict::kRegression;
  comparison.observed = 0.7438;
  comparison.baseline = 0.0002;
  comparison.delta = 0.7436;
  comparison.relative_change = 0.7436 / 0.0002;
  comparison.tolerance = "band +0.0011";
  regressed.comparisons.push_back(comparison);
  MetricComparison fine;
  fine.metric = "accuracy";
  fine.verdict = Verdict::kPass;
  fine.observed = 1.0;
  fine.baseline = 1.0;
  regressed.comparisons.push_back(fine);
  run.tests.push_back(regressed);

  const pugi::xml_document doc = parse(render_junit(run));
  EXPECT_EQ(attr(doc.child("testsuites"), "failures"), "2");
  EXPECT_EQ(attr(doc.select_node("/testsuites/testsuite[@name='fast']").node(), "failures"), "2");
  const pugi::xml_node test = testcase(doc, "FinalLossHolds");
  const pugi::xml_node failure = test.child("failure");
  ASSERT_FALSE(failure.empty());
  EXPECT_TRUE(test.child("error").empty());
  EXPECT_EQ(attr(failure, "type"), "regression");
  const std::string message = attr(failure, "message");
  EXPECT_THAT(message, ::testing::HasSubstr("REGRESSION")) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("final_loss")) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("0.7438")) << message;
  EXPECT_THAT(message, ::testing::Not(::testing::HasSubstr("accuracy")))
      << message;  // only what regressed
}

TEST(RenderJunit, FailedTestWithoutLocationOrMessageStillHasAFailure) {
  RunResult run = sample_run();
  run.tests[1].failures.clear();  // failed, yet nothing recorded: must not pass as a success
  const pugi::xml_document doc = parse(render_junit(run));
  const pugi::xml_node failure = testcase(doc, "ShapesMatch").child("failure");
  ASSERT_FALSE(failure.empty());
  EXPECT_EQ(attr(failure, "message"), "");
}

TEST(RenderJunit, SkippedTestHasSkippedWithTheFirstLine) {
  const pugi::xml_document doc = parse(render_junit(sample_run()));
  const pugi::xml_node test = testcase(doc, "NeedsGpu");
  const pugi::xml_node skipped = test.child("skipped");
  ASSERT_FALSE(skipped.empty());
  EXPECT_EQ(attr(skipped, "message"), "no CUDA device");
  EXPECT_TRUE(test.child("failure").empty());
  EXPECT_TRUE(test.child("error").empty());
}

TEST(RenderJunit, CrashedTestHasAnErrorNotAFailure) {
  const pugi::xml_document doc = parse(render_junit(sample_run()));
  const pugi::xml_node test = testcase(doc, "Throughput");
  EXPECT_EQ(attr(test, "classname"), "my_model_tests.medium");
  const pugi::xml_node error = test.child("error");
  ASSERT_FALSE(error.empty());
  EXPECT_TRUE(test.child("failure").empty());
  EXPECT_EQ(attr(error, "message"), "crashed: killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(attr(error, "type"), "crash");
  EXPECT_THAT(std::string(error.text().get()), ::testing::HasSubstr("killed by signal 11"));
}

TEST(RenderJunit, UnfinishedTestsAreNotWrittenAsTestcases) {
  const pugi::xml_document doc = parse(render_junit(run_with_a_running_test()));
  EXPECT_TRUE(testcase(doc, "StillRunning").empty());
  EXPECT_EQ(doc.select_nodes("/testsuites/testsuite").size(), 2u);
}

// Only finished tests become <testcase>s; a file rewritten mid-run must not count the running one.
TEST(RenderJunit, RootCountMatchesTheTestcasesWritten) {
  const pugi::xml_document doc = parse(render_junit(run_with_a_running_test()));
  EXPECT_EQ(attr(doc.child("testsuites"), "tests"),
            std::to_string(doc.select_nodes("//testcase").size()));
}

TEST(RenderJunit, EmptyRunIsAValidDocument) {
  RunResult run;
  run.info.binary = "empty";
  const pugi::xml_document doc = parse(render_junit(run));
  const pugi::xml_node root = doc.child("testsuites");
  EXPECT_EQ(attr(root, "tests"), "0");
  EXPECT_EQ(attr(root, "failures"), "0");
  EXPECT_EQ(attr(root, "time"), "0.000");
  EXPECT_TRUE(root.first_child().empty());
}

TEST(RenderJunit, MarkupInTextIsEscapedAndReadsBackExactly) {
  RunResult run = sample_run();
  const std::string message = "expected <tensor> & \"shape\" 'x' ]]> done";
  run.tests[1].failures = {{"a&b<c>.cc", 7, message, true}};
  run.tests[3].crash_message = "<script>alert('x')</script> & more";
  const std::string xml = render_junit(run);
  EXPECT_THAT(xml, ::testing::Not(::testing::HasSubstr("<tensor>")));
  EXPECT_THAT(xml, ::testing::Not(::testing::HasSubstr("<script>")));
  const pugi::xml_document doc = parse(xml);
  const pugi::xml_node failure = testcase(doc, "ShapesMatch").child("failure");
  EXPECT_EQ(attr(failure, "message"), "a&b<c>.cc:7: " + message);
  EXPECT_EQ(std::string(failure.text().get()), "a&b<c>.cc:7\n" + message + "\n");
  EXPECT_EQ(attr(testcase(doc, "Throughput").child("error"), "message"),
            "crashed: <script>alert('x')</script> & more");
}

TEST(RenderJunit, ControlCharactersAndInvalidUtf8NeverReachTheDocument) {
  // Planted: an ANSI colour escape, a NUL, a bell, invalid UTF-8 and U+FFFE, as a test or a
  // library might print them. pugixml alone would write "&#27;" and "&#0;", which no XML
  // parser (and so no CI server) accepts.
  RunResult run = sample_run();
  const std::string nasty =
      std::string("\x1B[31mred\x1B[0m bell\x07 nul") + '\0' + " bad\xFF utf8 \xEF\xBF\xBE end\ttab";
  run.tests[1].failures = {{"shapes_test.cc", 3, nasty, true}};
  run.tests[2].skip_message = nasty;
  run.tests[3].crash_message = nasty;
  run.tests[0].name = "Cnn\x01Name";
  run.info.binary = "bin\x02";
  run.info.run_id = "id\x03";
  const std::string xml = render_junit(run);
  EXPECT_TRUE(carries_no_forbidden_characters(xml));
  const pugi::xml_document doc = parse(xml);
  const std::string message = attr(testcase(doc, "ShapesMatch").child("failure"), "message");
  EXPECT_THAT(message, ::testing::HasSubstr("\\x1B[31mred")) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("bell\\x07 nul\\x00")) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("bad\xEF\xBF\xBD utf8")) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("\\uFFFE")) << message;
  EXPECT_FALSE(testcase(doc, "Cnn\\x01Name").empty());
  EXPECT_EQ(attr(doc.child("testsuites"), "name"), "bin\\x02");
}

TEST(RenderJunit, SameRunGivesTheSameBytes) {
  EXPECT_EQ(render_junit(sample_run()), render_junit(sample_run()));
}

TEST(JunitReporter, WritesTheRenderedDocumentAtEachEvent) {
  mlregress::test_support::TempDir dir;
  const std::string path = dir / "junit.xml";
  JunitReporter reporter(path);
  RunResult run = sample_run();
  const TestResult last = run.tests.back();
  run.tests.pop_back();
  reporter.on_run_start(run);
  EXPECT_EQ(mlregress::test_support::read_file(path), render_junit(run));
  run.tests.push_back(last);
  reporter.on_test_end(run.tests.back(), run);  // a crash after this still leaves four tests
  EXPECT_EQ(mlregress::test_support::read_file(path), render_junit(run));
  EXPECT_EQ(mlregress::test_support::list_dir(dir.path()), (std::set<std::string>{"junit.xml"}));
}

TEST(JunitReporter, UnwritablePathThrowsOutputError) {
  mlregress::test_support::TempDir dir;
  JunitReporter reporter(dir / "missing/junit.xml");
  EXPECT_THROW(reporter.on_run_start(sample_run()), OutputError);
}

}  // namespace
}  // namespace mlregress::internal
