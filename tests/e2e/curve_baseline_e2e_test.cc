// Curves against the baseline end to end: record_curve with a CurvePolicy is NEW until promote
// stores the reference curve (downsampled to at most 1,000 points) under
// baselines/<binary>/curves/; then an unchanged run passes, and a curve that leaves the band at
// step 6 is a REGRESSION naming that step although its final value passes its own loose band.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class CurveBaselineE2eTest : public FixtureRunnerTest {
 protected:
  ProcessResult curve_fixture(const std::string& args) {
    return run_fixture_in(temp_.path(), MLREGRESS_CURVE_FIXTURE_BINARY, args);
  }
  ProcessResult run_against_baselines(const std::string& args) {
    return curve_fixture("run --color never --out " + runs() + " --baselines baselines " + args);
  }
  json loss_curve() const { return test_named(results(), "LossCurve").at("curves").at(0); }
  json final_loss() const { return test_named(results(), "LossCurve").at("metrics").at(0); }
  std::string reference() const {
    return temp_.path() + "/baselines/mlregress_curve_fixture/curves/LossCurve.loss.csv";
  }
  void promote_baseline(const std::string& args = "") {
    std::filesystem::create_directories(temp_.path() + "/baselines");
    const ProcessResult first = run_against_baselines(args);
    ASSERT_EQ(first.exit_code, kPassed) << first.out << first.err;
    ASSERT_EQ(loss_curve().at("verdict"), "NEW");
    const ProcessResult promoted =
        curve_fixture("promote " + latest() + " --baselines baselines --reason first");
    ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
    ASSERT_THAT(promoted.out, HasSubstr("LossCurve.loss.csv (reference curve)"));
  }
};

TEST_F(CurveBaselineE2eTest, AnUnchangedCurvePassesAndADivergingOneIsARegressionAtItsStep) {
  promote_baseline();
  const ProcessResult same = run_against_baselines("");
  EXPECT_EQ(same.exit_code, kPassed) << same.out;
  EXPECT_EQ(loss_curve().at("verdict"), "PASS");
  EXPECT_THAT(loss_curve().at("note").get<std::string>(),
              HasSubstr("within the band at 100 reference steps"));
  EXPECT_TRUE(loss_curve().at("excursion").at("first_exit_step").is_null());

  const ProcessResult diverged = run_against_baselines("--set LossCurve.diverge_at=6");
  EXPECT_EQ(diverged.exit_code, kRegression) << diverged.out;
  EXPECT_EQ(loss_curve().at("verdict"), "REGRESSION");
  EXPECT_THAT(loss_curve().at("note").get<std::string>(),
              HasSubstr("left the band on the worse side at step 6:"));
  EXPECT_EQ(final_loss().at("verdict"), "PASS");  // the final value alone says nothing
  EXPECT_THAT(diverged.out, HasSubstr("CURVE         loss"));
  const json excursion = loss_curve().at("excursion");
  EXPECT_EQ(excursion.at("compared_steps"), 100);
  EXPECT_EQ(excursion.at("first_exit_step"), 6);
  EXPECT_EQ(excursion.at("largest_excess_step"), 6);  // 1.6 times a falling loss: widest first
  EXPECT_GT(excursion.at("largest_excess").get<double>(), 0.0);
  // The run's report draws the baseline's reference curve under the run's and marks the step.
  const std::string html = test_support::read_file(latest() + "/report.html");
  EXPECT_THAT(html, HasSubstr("baseline reference"));
  EXPECT_THAT(html, HasSubstr("leaves the band at step 6"));
  EXPECT_THAT(html, HasSubstr("gated against the reference curve"));

  // Lower everywhere is better for a loss: never outside on the worse side.
  EXPECT_EQ(run_against_baselines("--set LossCurve.scale=0.5").exit_code, kPassed);
  EXPECT_EQ(loss_curve().at("verdict"), "PASS");
  // Higher everywhere by 20% (band 10%): out from the first step.
  EXPECT_EQ(run_against_baselines("--set LossCurve.scale=1.2").exit_code, kRegression);
  EXPECT_THAT(loss_curve().at("note").get<std::string>(), HasSubstr("at step 0:"));
}

TEST_F(CurveBaselineE2eTest, TheReferenceIsDownsampledAndCompareUsesTheOtherRunsCurve) {
  promote_baseline("--set LossCurve.points=5000");
  const std::string csv = test_support::read_file(reference());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1001);  // header and 1,000 points
  EXPECT_EQ(run_against_baselines("--set LossCurve.points=5000").exit_code, kPassed);
  EXPECT_THAT(loss_curve().at("note").get<std::string>(),
              HasSubstr("within the band at 1000 reference steps"));

  const std::string a = std::filesystem::canonical(latest()).string();
  ASSERT_EQ(
      run_against_baselines("--set LossCurve.points=5000 --set LossCurve.diverge_at=6").exit_code,
      kRegression);
  const std::string b = std::filesystem::canonical(latest()).string();
  const ProcessResult compared = curve_fixture("compare " + a + " " + b);
  EXPECT_EQ(compared.exit_code, kRegression) << compared.out << compared.err;
  EXPECT_THAT(compared.out, HasSubstr("left the band on the worse side at step 6"));
}

}  // namespace
}  // namespace mlregress::e2e
