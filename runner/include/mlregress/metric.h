// What a test records: named scalar metrics with a direction and a tolerance policy, and curves
// (a named series by step). Baseline comparison reads the direction and policy; the test only
// states them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mlregress {

/// Which way is worse. MustEqual metrics regress on any change.
enum class Direction { LowerIsBetter, HigherIsBetter, MustEqual };

inline constexpr Direction LowerIsBetter = Direction::LowerIsBetter;
inline constexpr Direction HigherIsBetter = Direction::HigherIsBetter;
inline constexpr Direction MustEqual = Direction::MustEqual;

/// "lower_is_better", "higher_is_better", "must_equal".
std::string_view direction_name(Direction direction);
std::optional<Direction> parse_direction(std::string_view text);

/// Tolerance band |observed - baseline| <= atol + rtol * |baseline|, applied in the bad direction.
/// Example: Band{.rtol = 0.5, .atol = 1e-3}.
struct Band {
  double rtol = 0.0;
  double atol = 0.0;
  friend bool operator==(const Band&, const Band&) = default;
};

/// Where an exact value holds, and so on which machines the baseline gates it:
///   Portable  integers, booleans, counts, step indices: one value, gated on every machine;
///   Numerics  floating-point results of the math kernels: stored per environment profile;
///   Machine   anything else that belongs to one machine: stored per environment profile;
///   Auto      decided at promotion: Portable for a whole number (unless the baseline already
///             holds another value for it on some profile), else Numerics.
enum class Scope { Auto, Portable, Numerics, Machine };

/// "auto", "portable", "numerics", "machine".
std::string_view scope_name(Scope scope);
std::optional<Scope> parse_scope(std::string_view text);

/// Bit-for-bit equality with the baseline. Example: Exact{} (the scope decided at promotion), or
/// Exact{.scope = Scope::Numerics} for a float that happens to be a whole number.
struct Exact {
  Scope scope = Scope::Auto;
  friend bool operator==(const Exact&, const Exact&) = default;
};

/// A metric of a seeded test (ML_SEED_TEST): the per-seed samples are compared with the
/// baseline's by a one-sided statistical test. A REGRESSION needs a significant degradation whose
/// estimate exceeds `delta`, the practical margin; a confidence interval that still allows a
/// degradation beyond `delta` is INCONCLUSIVE. Example: Margin{.delta = 0.01}.
///
/// `covariate` names another metric of the same test, recorded per seed, that the change under
/// test cannot move but that explains part of this metric's seed-to-seed spread (the accuracy of
/// the true labelling rule on the seed's own test set, say: a property of the data alone). Against
/// fresh seeds the gate then compares the metric adjusted by it (CUPED), which needs fewer seeds
/// for the same certainty; the covariate is gated by its own policy like any metric, and one whose
/// arms differ (the change moved it) is not used. Example:
/// Margin{.delta = 0.005, .covariate = "test_set_rule_accuracy"}.
struct Margin {
  double delta = 0.0;
  std::string covariate;  ///< empty: none
  friend bool operator==(const Margin&, const Margin&) = default;
};

/// A timing (throughput, latency) measured with a coefficient of variation `cv` (sd / median of
/// the repetitions). Compared only with a baseline from the same environment profile, inside a
/// band derived from the spread measured when the baseline was promoted. record_throughput()
/// fills it in; tests rarely write it themselves.
struct Timing {
  double cv = 0.0;
  friend bool operator==(const Timing&, const Timing&) = default;
};

/// A failure rate: a true-or-false outcome per seed of a seeded test (record("diverged",
/// diverged, LowerIsBetter, FailureRate{}): 1 is the failure; HigherIsBetter for an outcome such
/// as "reached_target", where 0 is), or per attempt of an ML_FLAKY_TEST (its `failure_rate`).
/// The runner gates the rate with a sequential test against the failures and trials its baseline
/// holds: REGRESSION when it is significantly higher, PASS when the outcomes rule out a rise to
/// `detect` (caught with 90% power), INCONCLUSIVE when the cap is reached undecided
/// (runner/docs/flaky-tests.md).
struct FailureRate {
  double detect = 0.2;  ///< the failure rate the gate must catch; in (0, 1)
  friend bool operator==(const FailureRate&, const FailureRate&) = default;
};

/// No policy stated: the comparator's default applies.
using TolerancePolicy = std::variant<std::monostate, Band, Exact, Margin, Timing, FailureRate>;

/// What a breakdown counts for each operator: calls dispatched, allocations made, or bytes
/// allocated while the operator was the innermost one running.
enum class BreakdownUnit { Calls, Allocations, Bytes };

/// "calls", "allocations", "bytes".
std::string_view breakdown_unit_name(BreakdownUnit unit);
std::optional<BreakdownUnit> parse_breakdown_unit(std::string_view text);

/// A cost counter split by operator (record_breakdown): what each operator ("aten::addmm") adds
/// to the metric. Promote stores it beside the metric's value; when the value regresses, the
/// verdict names the operators whose share changed. Counts are >= 0.
struct Breakdown {
  BreakdownUnit unit = BreakdownUnit::Calls;
  std::map<std::string, std::int64_t> by_operator;
  friend bool operator==(const Breakdown&, const Breakdown&) = default;
};

/// A capability target (record_target in an ML_CAPABILITY_TEST): a level the metric aims for
/// and may not reach yet, strict as written: Below{2.5} is met by a value < 2.5, Above{0.9} by a
/// value > 0.9. A target is reported MET or NOT MET with its success rate over the run's history;
/// it never fails a run. `graduate` turns a target met often enough into a regression guard.
struct Below {
  double value = 0.0;
};
struct Above {
  double value = 0.0;
};
struct Target {
  /// LowerIsBetter: Below{threshold}; HigherIsBetter: Above{threshold}.
  Direction direction = Direction::LowerIsBetter;
  double threshold = 0.0;
  friend bool operator==(const Target&, const Target&) = default;
};

/// Whether `value` meets the target (strictly; NaN never does).
inline bool target_met(const Target& target, double value) {
  return target.direction == Direction::HigherIsBetter ? value > target.threshold
                                                       : value < target.threshold;
}

struct MetricRecord {
  std::string name;
  double value = 0.0;  ///< for a seeded test: the mean of `samples`
  Direction direction = Direction::LowerIsBetter;
  TolerancePolicy policy;
  std::vector<double> samples;              ///< seeded tests: one value per seed that finished
  std::vector<std::uint64_t> sample_seeds;  ///< the seed of each sample
  std::optional<Breakdown> breakdown;       ///< record_breakdown: the value split by operator
  std::optional<Target> target;             ///< record_target: a capability, not a guard
};

/// A curve gated against the baseline's reference curve, step by step (record_curve with a
/// policy): the candidate must stay within atol + rtol * |reference| of the reference at every
/// step the reference has, after a moving average of `smoothing` points on both; leaving it on the
/// worse side for `consecutive` reference steps in a row is a REGRESSION at the first of them.
struct CurvePolicy {
  double rtol = 0.1;
  double atol = 0.0;
  std::size_t smoothing = 1;    ///< moving-average window (1: none)
  std::size_t consecutive = 3;  ///< reference steps outside in a row before it counts
  Direction direction = Direction::LowerIsBetter;  ///< which side is worse (MustEqual: both)
  friend bool operator==(const CurvePolicy&, const CurvePolicy&) = default;
};

struct CurveRecord {
  std::string name;
  std::vector<std::int64_t> steps;
  std::vector<double> values;
  std::optional<CurvePolicy> policy;  ///< set: the curve is gated against the baseline's
};

}  // namespace mlregress
