// The plain-text account of a test, shown on the console and carried in JUnit's system-out.
// Planted: NaN and Inf values (which must show, never pass as numbers), a comma-decimal locale,
// and one test of each status.
#include "observers/test_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "builders.h"
#include "comma_locale.h"

namespace mlregress::internal {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TestResult sample_test(TestStatus status = TestStatus::kPassed) {
  return ended_test("CnnOverfitsOneBatch", Tier::Fast, status, 1.5, "a63dfab3b1f7275e");
}

TEST(FormatValue, SixSignificantDigits) {
  EXPECT_EQ(format_value(0.000213), "0.000213");
  EXPECT_EQ(format_value(1.3411), "1.3411");
  EXPECT_EQ(format_value(1.0 / 3.0), "0.333333");
  EXPECT_EQ(format_value(0), "0");
  EXPECT_EQ(format_value(-2.5), "-2.5");
  EXPECT_EQ(format_value(1234567.0), "1.23457e+06");
  EXPECT_EQ(format_value(1e-7), "1e-07");
}

TEST(NumberFormatTest, AConfidenceLevelShowsHowFarItIsFromAHundredPercent) {
  EXPECT_EQ(format_level_percent(0.95), "95");
  EXPECT_EQ(format_level_percent(0.99), "99");
  EXPECT_EQ(format_level_percent(0.9849), "98.5");
  EXPECT_EQ(format_level_percent(0.99992), "99.992");
  EXPECT_EQ(format_level_percent(0.9999996), "99.99996");
  EXPECT_EQ(format_level_percent(1.0), "100");
}

TEST(FormatValue, NonFiniteValuesAreSpelledOut) {
  EXPECT_EQ(format_value(kNaN), "nan");
  EXPECT_EQ(format_value(-kNaN), "nan");
  EXPECT_EQ(format_value(kInf), "inf");
  EXPECT_EQ(format_value(-kInf), "-inf");
}

TEST(FormatValue, CommaLocaleStillWritesAPoint) {
  mlregress::test_support::ScopedCommaLocale locale;
  EXPECT_EQ(format_value(0.5), "0.5");
  EXPECT_EQ(format_value(1234.5), "1234.5");  // no thousands separator either
}

TEST(FormatMetric, BandPolicyAsDocumented) {
  const MetricRecord metric{"final_loss", 0.000213, LowerIsBetter, Band{.rtol = 0.5, .atol = 1e-3}};
  EXPECT_EQ(format_metric(metric),
            "final_loss = 0.000213 (lower is better; band rtol=0.5 atol=0.001)");
}

TEST(FormatMetric, ExactAndDefaultPolicies) {
  EXPECT_EQ(format_metric({"ops_per_step", 1234, MustEqual, Exact{}}),
            "ops_per_step = 1234 (must equal; exact)");
  EXPECT_EQ(format_metric({"test_acc", 0.98, HigherIsBetter, {}}),
            "test_acc = 0.98 (higher is better)");
}

TEST(FormatMetric, NaNValueShows) {
  EXPECT_EQ(format_metric({"final_loss", kNaN, LowerIsBetter, {}}),
            "final_loss = nan (lower is better)");
}

TEST(FormatTestReport, PassedTest) {
  TestResult test = sample_test();
  test.metrics.push_back({"final_loss", 0.000213, LowerIsBetter, Band{.rtol = 0.5, .atol = 1e-3}});
  test.curves.push_back(
      {{"loss", {0, 1, 2}, {1.3, 0.5, 0.1}}, "curves/CnnOverfitsOneBatch.loss.csv"});
  EXPECT_EQ(format_test_report(test),
            "Fast.CnnOverfitsOneBatch [fast] passed in 1.500 s\n"
            "metric final_loss = 0.000213 (lower is better; band rtol=0.5 atol=0.001)\n"
            "curve loss: 3 points -> curves/CnnOverfitsOneBatch.loss.csv\n"
            "seed 42, threads 1, config a63dfab3b1f7275e\n");
}

TEST(FormatTestReport, FailedTestListsEveryFailure) {
  TestResult test = sample_test(TestStatus::kFailed);
  test.failures.push_back({"cnn_test.cc", 42, "Expected: (loss) < (0.01)", true});
  test.failures.push_back({"", 0, "thrown: std::runtime_error", false});
  EXPECT_EQ(format_test_report(test),
            "Fast.CnnOverfitsOneBatch [fast] failed in 1.500 s\n"
            "failure at cnn_test.cc:42:\n"
            "Expected: (loss) < (0.01)\n"
            "failure:\n"
            "thrown: std::runtime_error\n"
            "seed 42, threads 1, config a63dfab3b1f7275e\n");
}

TEST(FormatTestReport, SkippedAndCrashedTestsSayWhy) {
  TestResult skipped = sample_test(TestStatus::kSkipped);
  skipped.skip_message = "no CUDA device";
  EXPECT_THAT(format_test_report(skipped),
              ::testing::HasSubstr("] skipped in 1.500 s\nskipped: no CUDA device\n"));

  TestResult crashed = sample_test(TestStatus::kCrashed);
  crashed.tier = Tier::Medium;
  crashed.full_name = "Medium.Throughput";
  crashed.crash_message = "killed by signal 11 (SIGSEGV)";
  const std::string report = format_test_report(crashed);
  EXPECT_EQ(report.rfind("Medium.Throughput [medium] crashed in 1.500 s\n"
                         "crash: killed by signal 11 (SIGSEGV)\n",
                         0),
            0u)
      << report;
}

TEST(FormatTestReport, NaNMetricIsVisible) {
  TestResult test = sample_test();
  test.metrics.push_back({"grad_norm", kInf, LowerIsBetter, {}});
  test.metrics.push_back({"final_loss", kNaN, LowerIsBetter, {}});
  const std::string report = format_test_report(test);
  EXPECT_THAT(report, ::testing::HasSubstr("metric grad_norm = inf (lower is better)\n")) << report;
  EXPECT_THAT(report, ::testing::HasSubstr("metric final_loss = nan (lower is better)\n"))
      << report;
}

TEST(FormatTestReport, CommaLocaleStillWritesPoints) {
  mlregress::test_support::ScopedCommaLocale locale;
  TestResult test = sample_test();
  test.duration_s = 1234.5;
  test.metrics.push_back({"final_loss", 0.25, LowerIsBetter, Band{.rtol = 0.5, .atol = 1e-3}});
  const std::string report = format_test_report(test);
  EXPECT_THAT(report, ::testing::HasSubstr("passed in 1234.500 s")) << report;
  EXPECT_THAT(report,
              ::testing::HasSubstr("final_loss = 0.25 (lower is better; band rtol=0.5 atol=0.001)"))
      << report;
}

}  // namespace
}  // namespace mlregress::internal
