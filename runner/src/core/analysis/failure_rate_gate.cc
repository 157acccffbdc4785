#include "analysis/failure_rate_gate.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace mlregress::internal {

namespace {

// The failures among the outcomes read so far, in the order they ran.
struct FailureCount {
  const std::vector<double>& outcomes;
  int failures = 0;
  std::size_t seen = 0;

  void up_to(std::size_t n) {
    for (; seen < n && seen < outcomes.size(); ++seen) failures += outcomes[seen] != 0.0;
  }
};

// A test that cannot be designed: every outcome counted, no look taken, INCONCLUSIVE.
void refuse(FailureRateAnalysis& a, const std::vector<double>& outcomes, std::string problem) {
  FailureCount count{outcomes};
  count.up_to(outcomes.size());
  a.failures = count.failures;
  a.trials = static_cast<int>(outcomes.size());
  a.problem = std::move(problem);
  a.decision = stats::RateDecision::kInconclusive;
}

// The designed test's looks at the outcomes, up to the first that decides.
void look_at_outcomes(FailureRateAnalysis& a, const std::vector<double>& outcomes,
                      const std::vector<int>& looks) {
  FailureCount count{outcomes};
  const stats::FailureRateDesign design = stats::design_failure_rate_test(
      a.reference_rate, a.detect_rate, a.alpha, kFailureRatePower, looks);
  a.size = design.size;
  a.power = design.power;
  // A PASS says "a rise to p1 is ruled out": only as sure as the design that claims it.
  a.pass_allowed =
      stats::operating_characteristics(design, a.detect_rate).p_pass <= 1.0 - kFailureRatePower;
  for (std::size_t k = 0; k < looks.size(); ++k) {
    if (static_cast<std::size_t>(looks[k]) > outcomes.size()) break;
    count.up_to(static_cast<std::size_t>(looks[k]));
    stats::RateDecision decision = stats::decide_at_look(design, k, count.failures);
    if (decision == stats::RateDecision::kPass && !a.pass_allowed) {
      decision = k + 1 == looks.size() ? stats::RateDecision::kInconclusive
                                       : stats::RateDecision::kContinue;
    }
    a.looks.push_back({looks[k], count.failures, decision});
    if (decision != stats::RateDecision::kContinue) break;
  }
  if (!a.looks.empty()) a.decision = a.looks.back().decision;
  if (a.decision == stats::RateDecision::kContinue) count.up_to(outcomes.size());
  a.failures = count.failures;
  a.trials = static_cast<int>(count.seen);
}

}  // namespace

FailureRateAnalysis analyse_failure_rate(const std::vector<double>& outcomes, int baseline_failures,
                                         int baseline_trials, double detect, int block, int cap,
                                         double alpha) {
  if (baseline_trials < 1 || baseline_failures < 0 || baseline_failures > baseline_trials) {
    throw std::invalid_argument(fmt::format("a failure-rate baseline of {} failures in {} trials",
                                            baseline_failures, baseline_trials));
  }
  FailureRateAnalysis a{
      .baseline_failures = baseline_failures,
      .baseline_trials = baseline_trials,
      .reference_rate = baseline_reference_rate(baseline_failures, baseline_trials),
      .alpha = alpha,
      .block = block,
      .cap = cap,
  };
  a.detect_rate = rate_to_detect(a.reference_rate, detect);
  const std::vector<int> looks = stats::failure_rate_looks(block, cap);

  if (!(alpha < 0.5)) {
    refuse(a, outcomes,
           fmt::format("alpha {:g} leaves no room for a one-sided test of a rate (it needs "
                       "alpha < 0.5)",
                       alpha));
  } else if (a.detect_rate >= 1.0) {
    refuse(a, outcomes,
           fmt::format("the baseline's failure rate ({} of {}) is too high for a rise to be "
                       "detected; fix the test, then promote",
                       baseline_failures, baseline_trials));
  } else {
    look_at_outcomes(a, outcomes, looks);
  }
  if (a.trials > 0) a.interval = stats::clopper_pearson(a.failures, a.trials, 0.95);
  return a;
}

namespace {

std::string percent(double rate) { return fmt::format("{:.1f}%", 100.0 * rate); }

}  // namespace

std::string describe_failure_rate(const FailureRateAnalysis& a, const std::string& unit) {
  std::string text =
      a.trials == 0 ? fmt::format("no {} finished", unit)
                    : fmt::format("{} of {} {} failed ({}, 95% CI {}–{})", a.failures, a.trials,
                                  unit, percent(static_cast<double>(a.failures) / a.trials),
                                  percent(a.interval.lower), percent(a.interval.upper));
  text +=
      fmt::format(" against the baseline's {} of {} ({})", a.baseline_failures, a.baseline_trials,
                  percent(static_cast<double>(a.baseline_failures) / a.baseline_trials));
  if (!a.problem.empty()) return text + ": " + a.problem;
  const int look = static_cast<int>(a.looks.size());
  switch (a.decision) {
    case stats::RateDecision::kRegression:
      text += fmt::format(": significantly higher at look {}", look);
      break;
    case stats::RateDecision::kPass:
      text += fmt::format(": a rise to {} ruled out at look {}", percent(a.detect_rate), look);
      break;
    case stats::RateDecision::kInconclusive:
      text += fmt::format(": neither ruled in nor out after {} (the cap{})", a.cap,
                          a.pass_allowed ? "" : ", too few to rule out a rise with 90% power");
      break;
    case stats::RateDecision::kContinue:
      text += fmt::format(": undecided after {} of at most {}", a.trials, a.cap);
      break;
  }
  return text + fmt::format(" (design: p0 {}, p1 {}, alpha {:g}, exact size {:.4f}, power {:.2f})",
                            percent(a.reference_rate), percent(a.detect_rate), a.alpha, a.size,
                            a.power);
}

}  // namespace mlregress::internal
