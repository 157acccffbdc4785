// The exact sequential design of a failure-rate test: Wald's SPRT of p0 against p1, truncated at
// the last look, its two thresholds calibrated by exact calculation over the binomial paths.
#pragma once
#include <cstddef>
#include <vector>
namespace mlregress::internal::stats {
struct FailureRateDesign {
  double p0 = 0, p1 = 0, alpha = 0, power_goal = 0;
  std::vector<int> looks;
  std::vector<int> reject_from;
  std::vector<int> accept_up_to;
  double size = 0;
  double power = 0;
  double expected_trials_p0 = 0, expected_trials_p1 = 0;
  int median_trials_p0 = 0, median_trials_p1 = 0;
};
std::vector<int> failure_rate_looks(int block, int cap);
FailureRateDesign design_failure_rate_test(double p0, double p1, double alpha, double power_goal,
                                           const std::vector<int>& looks);
struct OperatingCharacteristics {
  double p_regression = 0, p_pass = 0, p_inconclusive = 0;
  double expected_trials = 0;
  int median_trials = 0;
  int p90_trials = 0;
};
OperatingCharacteristics operating_characteristics(const FailureRateDesign& design, double p);
enum class RateDecision { kContinue, kRegression, kPass, kInconclusive };
RateDecision decide_at_look(const FailureRateDesign& design, std::size_t look, int failures);
struct RateInterval {
  double lower = 0, upper = 1;
};
RateInterval clopper_pearson(int failures, int trials, double confidence);
double reference_failure_rate(int failures, int trials);
}  // namespace mlregress::internal::stats
