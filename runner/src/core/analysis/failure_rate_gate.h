// The failure-rate gate: a flaky-aware test's attempts (or a seeded test's true-or-false outcome
// per seed) against the failures and trials its baseline holds. The outcomes are looked at in
// plan order after every block, with the exact sequential design of
// statistics/failure_rate_design.h: the baseline's rate p0 (an upper estimate of its count's,
// baseline_reference_rate) against the rate the test must catch, p1 = max(detect, 2 p0), at the
// run's alpha and 90% power. The first look that crosses a boundary decides: REGRESSION (the rate
// is significantly above the baseline's), PASS (the outcomes rule out a rise to p1); at the cap an
// undecided gate is INCONCLUSIVE. Each rate check holds alpha on its own: it decides during the
// run, between blocks, before the run's other checks are known.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mlregress/metric.h"
#include "statistics/failure_rate_design.h"

namespace mlregress::internal {

/// A count of outcomes: `failures` of `trials` were failures.
struct FailureCount {
  int failures = 0;
  int trials = 0;
  friend bool operator==(const FailureCount&, const FailureCount&) = default;
};

/// Whether a recorded 0/1 outcome is a failure: 1 for LowerIsBetter ("diverged"), 0 for
/// HigherIsBetter (an outcome such as "reached_target").
inline bool is_failure(double outcome, Direction direction) {
  return direction == Direction::HigherIsBetter ? outcome == 0.0 : outcome != 0.0;
}

/// The failures among `outcomes`.
inline FailureCount count_failures(const std::vector<double>& outcomes, Direction direction) {
  FailureCount count;
  for (double v : outcomes) {
    ++count.trials;
    count.failures += is_failure(v, direction);
  }
  return count;
}

/// The value a failure count stands for in its metric's orientation: the failure rate, or for
/// HigherIsBetter the share that succeeded (trials >= 1).
inline double failure_count_value(const FailureCount& count, Direction direction) {
  const double rate = static_cast<double>(count.failures) / count.trials;
  return direction == Direction::HigherIsBetter ? 1.0 - rate : rate;
}

/// The power the gate is designed for at p1.
inline constexpr double kFailureRatePower = 0.9;

/// The rate a baseline's count stands for, p0: the upper 90% quantile of its Jeffreys posterior,
/// so that a baseline that happened to see few failures does not make the gate cry wolf. Measured
/// (ci/failure-rate-benchmark.sh, exact): with a baseline drawn at 2% from 50, 100 or 200
/// attempts the false alarms stay at 0.14%, 0.38%, 0.39% of the 1% allowed (the posterior mean
/// would give 1.59%, 1.54%, 1.40%); the price is power, 0.76, 0.86, 0.89 at 20%.
inline constexpr double kBaselineRateConfidence = 0.9;
inline double baseline_reference_rate(int failures, int trials) {
  return stats::conservative_reference_failure_rate(failures, trials, kBaselineRateConfidence);
}

/// The rate the gate must catch: `detect`, or a doubling of a baseline rate p0 already near it
/// (a rise to a rate the baseline nearly has is no rise).
inline double rate_to_detect(double p0, double detect) {
  return detect > 2.0 * p0 ? detect : 2.0 * p0;
}

/// One look: the failures among the first `trials` outcomes, and what the design said.
struct FailureRateLook {
  int trials = 0;
  int failures = 0;
  stats::RateDecision decision = stats::RateDecision::kContinue;
};

struct FailureRateAnalysis {
  int failures = 0;  ///< among the outcomes up to the deciding look (or all, if none decided)
  int trials = 0;
  stats::RateInterval interval;  ///< 95% Clopper–Pearson of the candidate's rate
  int baseline_failures = 0;
  int baseline_trials = 0;
  double reference_rate = 0.0;  ///< p0: what the baseline's count stands for
  double detect_rate = 0.0;     ///< p1
  double alpha = 0.0;
  double size = 0.0;   ///< the design's exact P(REGRESSION) at p0
  double power = 0.0;  ///< its exact P(REGRESSION) at p1
  /// Whether a PASS may be claimed: only when the design passes a rise to p1 at most 10% of the
  /// time (a cap too small for that leaves every undecided look INCONCLUSIVE instead).
  bool pass_allowed = true;
  int block = 0;
  int cap = 0;
  std::vector<FailureRateLook> looks;
  /// kContinue: the outcomes ran out before the cap with nothing decided (the run goes on).
  stats::RateDecision decision = stats::RateDecision::kContinue;
  std::string problem;  ///< set when the rate cannot be gated (the baseline's rate is too high)
};

/// Looks at `outcomes` (1 a failure, 0 not, in plan order) in blocks of `block`, at most `cap`,
/// against `baseline_failures` of `baseline_trials` (trials >= 1). detect in (0, 1), alpha in
/// (0, 0.5); block >= 1, cap >= block (std::invalid_argument otherwise).
FailureRateAnalysis analyse_failure_rate(const std::vector<double>& outcomes, int baseline_failures,
                                         int baseline_trials, double detect, int block, int cap,
                                         double alpha);

/// "6 of 12 attempts failed (50.0%, 95% CI 21.1%–78.9%) against the baseline's 10 of 200 (5.0%):
/// significantly higher at look 3 (design: p0 7.3%, p1 20.0%, alpha 0.01, exact size 0.0100,
/// power 0.90)".
std::string describe_failure_rate(const FailureRateAnalysis& analysis, const std::string& unit);

}  // namespace mlregress::internal
