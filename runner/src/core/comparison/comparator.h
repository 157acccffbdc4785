// The comparator decides, per metric, whether a run is worse than its baseline. It never
// prints; reporters show what it decided.
//
// Single values use the band |observed - baseline| <= atol + rtol * |baseline|, applied in the
// bad direction; beyond it in the good direction is IMPROVED. Exact values must be equal.
// MustEqual metrics regress on any change beyond the band. A NaN or Inf observed value is a
// REGRESSION, never a pass. With no stated policy, MustEqual metrics are exact and the others
// get kDefaultBand.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "baselines/baseline.h"
#include "comparison/curve_excursion.h"
#include "comparison/distribution_gate.h"
#include "comparison/flips_analysis.h"
#include "comparison/sequential_seeds.h"
#include "comparison/verdict.h"

namespace mlregress::internal {

inline constexpr Band kDefaultBand{.rtol = 0.05, .atol = 0.0};

/// A timing's band: this many times the coefficient of variation measured at promotion, and
/// never narrower than kTimingMinimumBand (relative). Repetitions inside one process vary less
/// than separate processes do, so the floor keeps a quiet promotion from making a brittle gate.
inline constexpr double kTimingBandSpreads = 3.0;
inline constexpr double kTimingMinimumBand = 0.05;
/// Beyond this band (relative) a timing says nothing: the comparison is INCONCLUSIVE.
inline constexpr double kTimingMaximumBand = 0.5;

/// What the report calls a metric: a single value, a timing, or a multi-seed distribution.
enum class MetricKind { kMetric, kPerformance, kDistribution, kPredictions, kCurve };
/// "METRIC", "PERFORMANCE", "DISTRIBUTION", "PREDICTIONS", "CURVE"
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
  std::optional<GateDecision> decision;
};

/// Compares one observed value with its baseline entry (nullptr: none). `profile_id` is the
/// run's environment profile, used for environment-bound (exact) values.
MetricComparison compare_metric(const std::string& name, double observed,
                                Direction observed_direction, const BaselineMetric* baseline,
                                const std::string& profile_id);

/// A seeded metric (its per-seed samples) against its baseline entry (nullptr: none): NEW,
/// NOT_COMPARABLE against a single stored value, or an analysis whose verdict stays
/// INCONCLUSIVE ("pending") until decide_gate has seen every statistical check of the run.
MetricComparison compare_distribution(const MetricRecord& metric, const BaselineMetric* baseline);

/// compare_distribution for a sequential test (Seeds(block).up_to(cap)): the candidate's seeds
/// are looked at block by block (look_sequentially at level alpha) and the look that settled the
/// metric, or the last, is what decide_gate decides.
MetricComparison compare_sequential_distribution(const MetricRecord& metric,
                                                 const BaselineMetric* baseline,
                                                 const SequentialPlan& plan, double alpha);

}  // namespace mlregress::internal
