// Capabilities: a metric with a target (record_target) that a model should reach and may not
// yet. Each run reports it MET or NOT MET, with its success rate over the run history (k met of
// n runs, a Wilson 95% interval); it never fails a run. Graduation turns a capability into a
// regression guard once the history shows it is met reliably: k of the last n runs, the lower
// Wilson bound of the success rate at least a threshold (runner/docs/capabilities.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mlregress/metric.h"

namespace mlregress::internal {

/// A capability's success rate over runs: `met` of `runs`, with its two-sided 95% Wilson
/// interval.
struct CapabilityRate {
  int met = 0;
  int runs = 0;
  double lower = 0.0;
  double upper = 1.0;
  friend bool operator==(const CapabilityRate&, const CapabilityRate&) = default;
};

/// `met` of `runs` with its Wilson interval; throws std::invalid_argument unless
/// 0 <= met <= runs.
CapabilityRate capability_rate(int met, int runs);

/// "< 2.5" or "> 0.9".
std::string target_text(const Target& target);
/// "MET" or "NOT MET".
std::string_view capability_outcome_name(bool met);
/// "NOT MET: 2.71 (target < 2.5); met 3 of 10 runs (95% CI 11%–60%)", without the rate when
/// there is none. `metric` has a target.
std::string describe_capability(const MetricRecord& metric,
                                const std::optional<CapabilityRate>& rate);

/// graduate's defaults: the last 10 runs, and a lower Wilson bound of at least 0.7, which only
/// 10 met of 10 reaches (0.722; 9 of 10: 0.596). Over --last 20, 19 of 20 reaches it (0.764)
/// and 18 of 20 does not (0.699).
inline constexpr int kGraduationDefaultRuns = 10;
inline constexpr double kGraduationDefaultLowerBound = 0.7;

/// What the history says about graduating: the last `window` outcomes (or all of them when
/// fewer), how many met, the lower Wilson bound, and whether it graduates: at least `window`
/// runs recorded and the bound >= the threshold. When it does not, how many more runs that meet
/// the target in a row would make it graduate (none: not within `window` more runs, since the
/// threshold is above what `window` of `window` reaches).
struct GraduationEvidence {
  int window = 0;
  int runs = 0;  ///< the outcomes considered: min(window, recorded)
  int met = 0;
  double lower = 0.0;
  double threshold = 0.0;
  bool graduates = false;
  std::optional<int> more_met_runs_needed;
};

/// `outcomes`: whether each recorded run met the target, oldest first. Throws
/// std::invalid_argument for a window < 2 or a threshold outside (0, 1).
GraduationEvidence judge_graduation(const std::vector<bool>& outcomes, int window,
                                    double threshold);

/// Why graduation refuses, with the numbers: "met 3 of the last 10 runs; the lower 95% Wilson
/// bound of its success rate is 0.108, below the threshold 0.7; 10 more runs meeting the target
/// in a row are needed". `evidence` does not graduate.
std::string graduation_refusal(const GraduationEvidence& evidence);

}  // namespace mlregress::internal
