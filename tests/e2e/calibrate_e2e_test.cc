// `calibrate` end to end, through tests/fixture/calibration_fixture.cc, whose NoisyLoss records a
// loss with planted run-to-run noise (sd 0.01) that the tests know execution by execution
// (calibration_noise.h), and a parameter norm with the same bits every run. Calibrating 20
// repeats writes a band of max(k × sd, largest |Δ|) around the mean, k = 4.1747 (99% of runs with
// 99% confidence); a fresh A/A run against it passes, a shift of 3 × the observed spread (the
// largest |Δ|) is a REGRESSION, and the deterministic metric is offered Exact instead.
//
// Planted, and caught here: a band of 1 × sd (the A/A runs include a value beyond 1 sd:
// checked below, so the A/A assertions fail; and the stored atol is compared with k × sd), a
// band of k × sd around the first repeat instead of the mean (the stored value is compared), the
// shift not caught (a band that is too wide: REGRESSION asserted), a band written for the
// identical metric, a noise-dominated band written silently, a seeded test calibrated.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "process.h"
#include "tests/fixture/calibration_noise.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::e2e {
namespace {

namespace fs = std::filesystem;
namespace noise = calibration_noise;
using nlohmann::json;
using test_support::read_file;
using test_support::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kPassed = 0, kRegression = 2, kNoTestsMatched = 3, kUsageError = 4, kOutputError = 5,
              kPromotionRefused = 8;
// The exact two-sided normal tolerance factor for n = 20, 99% coverage, 99% confidence
// (SciPy, Odeh and Owen's integral; tests/statistics/tolerance_interval_test.cc).
constexpr double kFactor20 = 4.174746440;

struct Spread {
  double mean = 0.0, sd = 0.0, max_deviation = 0.0;
  double band() const { return std::max(kFactor20 * sd, max_deviation); }
};

// What 20 repeats of NoisyLoss record: executions 0 to 19.
Spread spread_of_first_twenty() {
  std::vector<double> values;
  for (int i = 0; i < 20; ++i) values.push_back(noise::noisy_loss(i));
  Spread s;
  for (double v : values) s.mean += v / values.size();
  double squares = 0.0;
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  s.sd = std::sqrt(squares / (values.size() - 1));
  for (double v : values) s.max_deviation = std::max(s.max_deviation, std::fabs(v - s.mean));
  return s;
}

class CalibrateE2eTest : public ::testing::Test {
 protected:
  ProcessResult fixture(const std::string& args, const std::string& environment = "") {
    return run_command("cd " + temp_.path() + " && " + environment + " MLREGRESS_REPO=" +
                       temp_.path() + " CALIBRATION_FIXTURE_COUNTER=" + temp_.path() + "/counter " +
                       std::string(MLREGRESS_CALIBRATION_FIXTURE_BINARY) + " " + args);
  }
  ProcessResult calibrate(const std::string& args, const std::string& environment = "") {
    return fixture(
        "calibrate --baselines " + baselines() + " --out " + temp_.path() + "/runs " + args,
        environment);
  }
  ProcessResult run_against_baselines(const std::string& args) {
    return fixture("run --color never --out " + temp_.path() + "/runs --baselines " + baselines() +
                   " " + args);
  }
  std::string baselines() const { return temp_.path() + "/baselines"; }
  std::string baseline_file() const {
    return baselines() + "/mlregress_calibration_fixture/calibration_fixture.toml";
  }
  // The table of one metric in the baseline file.
  std::string metric_table(const std::string& test, const std::string& metric) const {
    const std::string text = read_file(baseline_file());
    const std::string header = "[tests." + test + ".metrics." + metric + "]\n";
    const std::size_t at = text.find(header);
    if (at == std::string::npos) return "";
    const std::size_t end = text.find("\n[", at + header.size());
    return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
  }
  static double number_after(const std::string& table, const std::string& key) {
    std::smatch match;
    const std::regex pattern("(^|[\\n{ ])" + key + " = ([-+0-9.eE]+)");
    if (!std::regex_search(table, match, pattern)) {
      ADD_FAILURE() << "no " << key << " in\n" << table;
      return std::nan("");
    }
    return std::stod(match[2]);
  }
  // The name of the one calibration folder under runs/.
  std::string calibration_folder() const {
    for (const auto& entry : fs::directory_iterator(temp_.path() + "/runs")) {
      if (entry.path().filename().string().starts_with("calibration-")) {
        return entry.path().filename().string();
      }
    }
    ADD_FAILURE() << "no calibration folder";
    return "";
  }
  json loss_verdict() const {
    const json results = json::parse(read_file(temp_.path() + "/runs/latest/results.json"));
    for (const json& m : results.at("tests").at(0).at("metrics")) {
      if (m.at("name") == "loss") return m.at("verdict");
    }
    return "missing";
  }

  TempDir temp_;
};

TEST_F(CalibrateE2eTest, ANoisyMetricGetsABandThatHoldsInAFreshAaRunAndCatchesAShift) {
  const Spread spread = spread_of_first_twenty();
  const ProcessResult calibrated = calibrate("--filter NoisyLoss --repeats 20");
  ASSERT_EQ(calibrated.exit_code, kPassed) << calibrated.out << calibrated.err;
  EXPECT_THAT(calibrated.out, HasSubstr("20 repeats of 1 test (seed 0, 1 thread)"));
  EXPECT_THAT(calibrated.out, HasSubstr("normal tolerance interval 99%/99%"));
  EXPECT_THAT(calibrated.out, HasSubstr("written"));

  // The band: max(k × sd, largest |Δ|) around the mean of the 20 values, with its provenance.
  const std::string loss = metric_table("NoisyLoss", "loss");
  EXPECT_THAT(loss, HasSubstr("policy = \"band\"\nrtol = 0.0\n"));
  EXPECT_NEAR(number_after(loss, "atol"), spread.band(), 1e-7 * spread.band());
  EXPECT_NEAR(number_after(loss, "value"), spread.mean, 1e-12);
  EXPECT_THAT(loss, HasSubstr("calibration = { repeats = 20, "));
  EXPECT_NEAR(number_after(loss, "sd"), spread.sd, 1e-12);
  EXPECT_NEAR(number_after(loss, "max_deviation"), spread.max_deviation, 1e-12);
  EXPECT_NEAR(number_after(loss, "k"), kFactor20, 1e-7);
  // The environment the noise was measured on, described in the file.
  std::smatch environment;
  ASSERT_TRUE(std::regex_search(loss, environment, std::regex("environment = \"([^\"]+)\" \\}")))
      << loss;
  EXPECT_THAT(read_file(baseline_file()), HasSubstr("[environments." + environment[1].str() + "]"));

  // The deterministic metric is offered Exact, not written.
  EXPECT_THAT(calibrated.out, HasSubstr("identical in 20 of 20: offered Exact"));
  EXPECT_EQ(metric_table("NoisyLoss", "parameter_norm"), "");

  // The evidence: the 20 run folders and the table, in one calibration folder.
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(temp_.path() + "/runs")) {
    if (entry.path().filename().string().starts_with("calibration-"))
      folders.push_back(entry.path());
  }
  ASSERT_EQ(folders.size(), 1u);
  int runs = 0;
  for (const auto& entry : fs::directory_iterator(folders[0] / "runs")) {
    runs +=
        entry.is_directory() && !entry.is_symlink() && fs::exists(entry.path() / "results.json");
  }
  EXPECT_EQ(runs, 20);
  EXPECT_THAT(read_file((folders[0] / "calibration.txt").string()),
              HasSubstr("NoisyLoss.parameter_norm"));

  // A fresh A/A: executions 20 to 22, the same distribution. Each stays within the band (checked
  // here, so the test is deterministic), and one of them is beyond 1 × sd: a band of 1 × sd
  // would fail this A/A.
  double largest_aa = 0.0;
  for (int i = 20; i < 23; ++i) {
    const double deviation = std::fabs(noise::noisy_loss(i) - spread.mean);
    ASSERT_LE(deviation, spread.band()) << "execution " << i;
    largest_aa = std::max(largest_aa, deviation);
    const ProcessResult aa = run_against_baselines("--filter NoisyLoss");
    EXPECT_EQ(aa.exit_code, kPassed) << aa.out << aa.err;
    EXPECT_EQ(loss_verdict(), "PASS") << aa.out;
  }
  EXPECT_GT(largest_aa, spread.sd);

  // A shift of 3 × the observed spread (the largest |Δ| of the 20 repeats): REGRESSION.
  const double shift = 3.0 * spread.max_deviation;
  ASSERT_GT(noise::noisy_loss(23) + shift - spread.mean, spread.band());
  const ProcessResult shifted =
      run_against_baselines("--filter NoisyLoss --set NoisyLoss.shift=" + std::to_string(shift));
  EXPECT_EQ(shifted.exit_code, kRegression) << shifted.out << shifted.err;
  EXPECT_EQ(loss_verdict(), "REGRESSION");
}

TEST_F(CalibrateE2eTest, CalibratingAgainKeepsTheFileValidAndRecordsTheChangeInItsHistory) {
  ASSERT_EQ(calibrate("--filter NoisyLoss --repeats 5").exit_code, kPassed);
  const ProcessResult again = calibrate("--filter NoisyLoss --repeats 5 --reason 'more threads'");
  ASSERT_EQ(again.exit_code, kPassed) << again.out << again.err;
  EXPECT_THAT(again.out, HasSubstr("v1 -> v2"));
  const std::string loss = metric_table("NoisyLoss", "loss");
  EXPECT_THAT(loss, HasSubstr("calibration = { repeats = 5, "));
  // Five other executions: another mean, the old one kept in the history with the reason.
  EXPECT_THAT(read_file(baseline_file()),
              HasSubstr("[[tests.NoisyLoss.metrics.loss.history]]\nversion = 2\nreplaced_at = "));
  EXPECT_THAT(read_file(baseline_file()), HasSubstr("reason = \"more threads\""));
  // The file reads back: a run against it judges the loss.
  const ProcessResult run = run_against_baselines("--filter NoisyLoss");
  EXPECT_THAT(run.out + run.err, Not(HasSubstr("error")));
}

TEST_F(CalibrateE2eTest, ABandWiderThanTheValueIsReportedAndNotWritten) {
  const ProcessResult wide = calibrate("--filter NoisyNearZero --repeats 5");
  EXPECT_EQ(wide.exit_code, kPromotionRefused) << wide.out << wide.err;
  EXPECT_THAT(wide.out, HasSubstr("noise dominates"));
  EXPECT_FALSE(fs::exists(baseline_file()) &&
               !metric_table("NoisyNearZero", "gradient_mean").empty());
  const ProcessResult allowed = calibrate("--filter NoisyNearZero --repeats 5 --allow-wide-bands");
  EXPECT_EQ(allowed.exit_code, kPassed) << allowed.out << allowed.err;
  EXPECT_THAT(metric_table("NoisyNearZero", "gradient_mean"), HasSubstr("calibration = {"));
}

TEST_F(CalibrateE2eTest, AnExactMetricThatVariesIsReported) {
  const ProcessResult result = calibrate("--filter ExactButNoisy --repeats 3");
  EXPECT_EQ(result.exit_code, kPromotionRefused) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("recorded Exact, yet it varies across the 3 repeats"));
}

// --across-kernels: one run per CPU code path, each started with its kernel variables (the
// fixture's values follow them: without them every value would be identical and nothing would be
// calibrated). The loss gets a band across the six paths; the p-value, 0.9 on one path and about
// 0.01 on the others, is flagged chaotic and gets none; the decision is identical on every path.
// Planted, and caught: the variables not passed to the child (every value identical), a caller's
// MKL_CBWR inherited by every path (the loss's mean moves by 4e-6), a chaotic value written.
TEST_F(CalibrateE2eTest, AcrossKernelPathsWritesBandsAndFlagsAChaoticValue) {
  // A pin of the caller's own does not leak into the paths: the natural one runs unpinned.
  const ProcessResult calibrated =
      calibrate("--filter KernelPathValues --across-kernels", "MKL_CBWR=COMPATIBLE");
  EXPECT_EQ(calibrated.exit_code, kPromotionRefused) << calibrated.out << calibrated.err;
  EXPECT_THAT(calibrated.out, HasSubstr("6 kernel paths of 1 test"));
  EXPECT_THAT(calibrated.out, HasSubstr("path 2/6"));
  EXPECT_THAT(calibrated.out, HasSubstr("ATen default kernels (ATEN_CPU_CAPABILITY=default)"));
  EXPECT_THAT(calibrated.out, HasSubstr("one more intra-op thread (+1 thread)"));
  EXPECT_THAT(calibrated.out, HasSubstr("chaotic: it moves by more than its own size"));
  EXPECT_THAT(calibrated.out, HasSubstr("identical in 6 of 6 kernel paths"));
  EXPECT_THAT(calibrated.out, HasSubstr("1 metric left without a calibrated band"));

  // The loss: 0.5 + 1e-6 × code over the codes 0, 1, 2, 4, 7, 8 of the six paths.
  const std::vector<double> values = {0.5, 0.500001, 0.500002, 0.500004, 0.500007, 0.500008};
  double mean = 0.0;
  for (double v : values) mean += v / values.size();
  double max_deviation = 0.0;
  for (double v : values) max_deviation = std::max(max_deviation, std::fabs(v - mean));
  const std::string loss = metric_table("KernelPathValues", "loss");
  EXPECT_THAT(loss, HasSubstr("calibration = { repeats = 6, "));
  EXPECT_THAT(loss, HasSubstr("across 6 kernel paths (natural; ATen default kernels"));
  EXPECT_NEAR(number_after(loss, "value"), mean, 1e-12);
  EXPECT_NEAR(number_after(loss, "max_deviation"), max_deviation, 1e-12);
  EXPECT_GE(number_after(loss, "atol"), max_deviation);
  EXPECT_EQ(metric_table("KernelPathValues", "p_value"), "");
  EXPECT_EQ(metric_table("KernelPathValues", "leak_flagged"), "");

  // Each path's run recorded the variables it was started with (its numerics profile).
  const std::string second =
      read_file(temp_.path() + "/runs/" + calibration_folder() + "/repeat-02.log");
  EXPECT_THAT(second, HasSubstr("KernelPathValues"));
  bool pinned = false;
  for (const auto& entry : fs::recursive_directory_iterator(temp_.path() + "/runs")) {
    if (entry.path().filename() != "environment.json") continue;
    const json environment = json::parse(read_file(entry.path().string()));
    const json pins = environment.at("cpu").value("kernel_pins", json::object());
    pinned |= pins.value("ATEN_CPU_CAPABILITY", "") == "default" &&
              pins.value("MKL_CBWR", "") == "COMPATIBLE";
  }
  EXPECT_TRUE(pinned) << "no path's run recorded ATen's and MKL's pins";

  const ProcessResult both = calibrate("--filter KernelPathValues --across-kernels --repeats 3");
  EXPECT_EQ(both.exit_code, kUsageError) << both.out << both.err;
  EXPECT_THAT(both.err, HasSubstr("--repeats excludes --across-kernels"));
}

TEST_F(CalibrateE2eTest, AnUnwritableRecordStopsWithTheOutputErrorBeforeAnyBaselineIsWritten) {
  // Planted: the calibration folder's calibration.txt is a directory by the time the table is
  // written. The run's record must not be lost silently, and no band may land without it.
  const ProcessResult result =
      calibrate("--filter NoisyLoss --repeats 2",
                "CALIBRATION_FIXTURE_BLOCK_RECORD=" + temp_.path() + "/runs");
  EXPECT_EQ(result.exit_code, kOutputError) << result.out << result.err;
  EXPECT_THAT(result.err, HasSubstr("calibration.txt"));
  EXPECT_FALSE(fs::exists(baseline_file())) << "a baseline was written without its record";
  EXPECT_TRUE(fs::is_directory(temp_.path() + "/runs/" + calibration_folder() + "/runs"))
      << "the repeats' runs were not kept";
}

TEST_F(CalibrateE2eTest, InvalidInputIsRefusedBeforeAnythingRuns) {
  const ProcessResult one = calibrate("--filter NoisyLoss --repeats 1");
  EXPECT_EQ(one.exit_code, kUsageError);
  EXPECT_THAT(one.err, HasSubstr("--repeats"));
  const ProcessResult none = calibrate("--filter NoSuchTest");
  EXPECT_EQ(none.exit_code, kNoTestsMatched);
  EXPECT_THAT(none.err, HasSubstr("no test matches the selection 'NoSuchTest'"));
  const ProcessResult seeded = calibrate("--filter SeededAccuracy");
  EXPECT_EQ(seeded.exit_code, kUsageError);
  EXPECT_THAT(seeded.err, HasSubstr("SeededAccuracy: a seeded test (ML_SEED_TEST)"));
  const ProcessResult typo = calibrate("--filter NoisyLoss --set NoisyLoss.shfit=1");
  EXPECT_EQ(typo.exit_code, kUsageError);
  EXPECT_FALSE(fs::exists(temp_.path() + "/runs"));
}

}  // namespace
}  // namespace mlregress::e2e
