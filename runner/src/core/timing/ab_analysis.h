// The statistics of an interleaved A/B timing comparison: per timing metric, the per-round
// cost ratio candidate / other, a one-sided exact Wilcoxon signed-rank test on its logarithm,
// Holm across the comparison's metrics, and a verdict with a practical margin.
//
// The round is the unit of replication: both binaries ran in it, one after the other, so slow
// spells of a shared machine affect both and cancel in the ratio. The cost ratio is oriented so
// that > 1 means the candidate is slower: other / candidate for a rate (steps/s, higher is
// better), candidate / other for a duration (lower is better). Logs make a 2x slowdown and a
// 2x speedup symmetric.
//
// Verdicts, at family-wise level alpha and margin m (both from the command line):
//   REGRESSION    Holm-adjusted p(candidate slower) < alpha and median cost ratio > 1 + m
//   IMPROVED      Holm-adjusted p(candidate faster) < alpha and median cost ratio < 1 / (1 + m)
//   INCONCLUSIVE  the median is beyond the margin on the slow side but not significant
//                 (more rounds would tell); shown, does not fail
//   PASS          otherwise (no difference, or one too small to matter)
// The two one-sided families are adjusted separately; only the slow side can fail a run.
// Metrics whose per-round ratios are identical (examples/s is steps/s times the batch size)
// are one hypothesis for Holm, not several.
#pragma once

#include <string>
#include <vector>

#include "analysis/verdict.h"
#include "mlregress/metric.h"

namespace mlregress::internal {

/// One timing metric measured in every round by both binaries.
struct AbSeries {
  std::string test;
  std::string metric;
  Direction direction = Direction::HigherIsBetter;
  std::vector<double> candidate;  ///< one value per round
  std::vector<double> other;
};

struct AbMetricResult {
  AbSeries series;
  std::vector<double> cost_ratios;  ///< per round; > 1: the candidate was slower
  double median_cost_ratio = 1.0;
  double ci_low = 1.0;  ///< order-statistic interval for the median cost ratio
  double ci_high = 1.0;
  double ci_coverage = 0.0;  ///< its exact coverage (below 95% with fewer than 6 rounds)
  double p_slower = 1.0;     ///< one-sided Wilcoxon p-value, H1: the candidate is slower
  double p_faster = 1.0;
  double p_slower_holm = 1.0;  ///< Holm-adjusted across the comparison's hypotheses
  double p_faster_holm = 1.0;
  std::string wilcoxon_method;  ///< "exact", "normal approximation" or "no data"
  Verdict verdict = Verdict::kPass;
  std::string note;  ///< why a metric could not be compared (then the verdict is INCONCLUSIVE)
};

struct AbSettings {
  double alpha = 0.01;
  double margin = 0.05;  ///< relative slowdown that matters
};

/// Analyses every series. A series with a non-positive or non-finite value, a MustEqual
/// direction or unequal lengths gets verdict INCONCLUSIVE with a note and stays out of Holm.
std::vector<AbMetricResult> analyse_ab(const std::vector<AbSeries>& series,
                                       const AbSettings& settings);

}  // namespace mlregress::internal
