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

#include "analysis/sequential_seeds.h"
#include "baselines/baseline.h"
#include "record/metric_comparison.h"

namespace mlregress::internal {

inline constexpr Band kDefaultBand{.rtol = 0.05, .atol = 0.0};

/// A timing's band: this many times the coefficient of variation measured at promotion, and
/// never narrower than kTimingMinimumBand (relative). Repetitions inside one process vary less
/// than separate processes do, so the floor keeps a quiet promotion from making a brittle gate.
inline constexpr double kTimingBandSpreads = 3.0;
inline constexpr double kTimingMinimumBand = 0.05;
/// Beyond this band (relative) a timing says nothing: the comparison is INCONCLUSIVE.
inline constexpr double kTimingMaximumBand = 0.5;

/// Compares one observed value with its baseline entry (nullptr: none). `profile` is the run's
/// environment profile: an environment-bound value (a `numerics` or `machine` exact value, a
/// timing) is compared with the value stored for it (stored_profile_id), and is UNGATED when
/// only other profiles have one.
MetricComparison compare_metric(const std::string& name, double observed,
                                Direction observed_direction, const BaselineMetric* baseline,
                                const EnvironmentProfile& profile);

/// The operators behind a single value's REGRESSION or IMPROVED verdict when the run recorded
/// the value's breakdown (record_breakdown): this run's breakdown against the one `baseline` holds
/// for the profile (breakdown_profile_id), or a diff saying the baseline has none. Nothing for any
/// other verdict, or when the run recorded no breakdown.
std::optional<OperatorDiff> compare_operators(const MetricRecord& metric,
                                              const MetricComparison& comparison,
                                              const BaselineMetric* baseline,
                                              const EnvironmentProfile& profile);

/// A seeded metric (its per-seed samples) against its baseline entry (nullptr: none): NEW,
/// NOT_COMPARABLE against a single stored value or when the baseline pre-registered another
/// covariate than the metric's Margin{.covariate} (or none), or an analysis whose verdict stays
/// INCONCLUSIVE ("pending") until decide_gate has seen every statistical check of the run.
/// `covariate`: the metric's pre-registered covariate (Margin{.covariate}) in both arms, or
/// nullptr.
MetricComparison compare_distribution(const MetricRecord& metric, const BaselineMetric* baseline,
                                      const CovariateSamples* covariate = nullptr);

/// compare_distribution for a sequential test (Seeds(block).up_to(cap)): the candidate's seeds
/// are looked at block by block (look_sequentially at level alpha) and the look that settled the
/// metric, or the last, is what decide_gate decides.
MetricComparison compare_sequential_distribution(const MetricRecord& metric,
                                                 const BaselineMetric* baseline,
                                                 const SequentialPlan& plan, double alpha,
                                                 const CovariateSamples* covariate = nullptr);

/// A failure rate (FailureRate policy: one 0/1 outcome per attempt or seed in metric.samples,
/// in plan order) against the baseline's failures and trials, looked at in blocks of `block`
/// outcomes up to `cap` at level alpha (analyse_failure_rate; `unit`, "attempts" or "seeds",
/// names them in the note): NEW without a baseline,
/// NOT_COMPARABLE against another kind of value, else PASS, REGRESSION or INCONCLUSIVE (also
/// while the looks are undecided: the runner then runs the next block).
MetricComparison compare_failure_rate(const MetricRecord& metric, const BaselineMetric* baseline,
                                      int block, int cap, double alpha, const std::string& unit);

}  // namespace mlregress::internal
