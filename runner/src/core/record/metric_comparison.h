// What a comparison with a baseline concluded for one metric: the verdict and the numbers behind
// it (the band, a multi-seed analysis, prediction flips, a curve's excursion, sequential looks).
// The gates (comparison/) fill it; the run record holds it; reporters only read it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/cause.h"
#include "analysis/curve_excursion.h"
#include "analysis/distribution_gate.h"
#include "analysis/failure_rate_gate.h"
#include "analysis/flips_analysis.h"
#include "analysis/operator_diff.h"
#include "analysis/sequential_seeds.h"
#include "analysis/verdict.h"
#include "mlregress/metric.h"

namespace mlregress::internal {

/// What the report calls a metric: a single value, a timing, or a multi-seed distribution.
enum class MetricKind { kMetric, kPerformance, kDistribution, kPredictions, kCurve, kRate };
/// "METRIC", "PERFORMANCE", "DISTRIBUTION", "PREDICTIONS", "CURVE", "RATE"
std::string_view metric_kind_name(MetricKind kind);
std::optional<MetricKind> parse_metric_kind(std::string_view name);

struct DirectionChange {
  Direction test;      ///< what the test records now
  Direction baseline;  ///< what the baseline was promoted with
};

struct MetricComparison {
  std::string metric;
  Verdict verdict = Verdict::kNew;
  double observed = 0.0;
  std::optional<double> baseline;
  std::optional<double> delta;            ///< observed - baseline
  std::optional<double> relative_change;  ///< delta / |baseline|, when the baseline is not 0
  std::string tolerance;                  ///< "band ±0.0011", "exact", ...
  /// The band's half-width in the metric's units (0 for exact): how far the candidate may move
  /// towards worse. Set when a single value was compared; reports draw the band from it.
  std::optional<double> allowed;
  std::string note;  ///< why NOT_COMPARABLE / INCONCLUSIVE / the gate decided
  /// Set when the baseline was promoted with another direction than the test states now;
  /// promoting adopts the test's.
  std::optional<DirectionChange> direction_change;
  MetricKind kind = MetricKind::kMetric;
  /// Seeded metrics compared by the statistical gate (set when kind is kDistribution and both
  /// sides have samples); the verdict comes from `decision`, decided once the run has ended.
  std::optional<DistributionAnalysis> distribution;
  /// Predictions (kind kPredictions) compared example by example; the verdict comes from
  /// `decision` too, McNemar's p in the same Holm families.
  std::optional<FlipsAnalysis> flips;
  /// Gated curves (kind kCurve) compared with a reference curve step by step.
  std::optional<CurveExcursion> curve;
  /// Sequential tests: every look the gate took, the last one deciding; `distribution` is then
  /// the last look's analysis with its sequential p-values and interval.
  std::vector<SequentialLook> looks;
  /// Failure rates (kind kRate) gated against the baseline's failures and trials; the verdict
  /// is decided when the test ends.
  std::optional<FailureRateAnalysis> rate;
  std::optional<GateDecision> decision;
  /// A single value recorded with a breakdown (record_breakdown) that REGRESSED or IMPROVED: the
  /// operators whose counts changed, or why none can be named.
  std::optional<OperatorDiff> operators;
  /// Why a REGRESSION, INCONCLUSIVE, NOT_COMPARABLE or UNGATED came out: the class the evidence
  /// points to, the rule that fired and the alternatives (comparison/cause_classifier.h). Unset
  /// for the other verdicts.
  std::optional<Cause> cause;
  /// An IMPROVED a sequential study decided at its first look, on the baseline's own seeds: the
  /// seeds that made it look good chose the moment it was called, so the gain is overstated (the
  /// winner's curse) until fresh seeds show it too. Promote refuses it without --force.
  bool provisional = false;
};

}  // namespace mlregress::internal
