// Which operators a cost counter's change comes from: the baseline's breakdown of the metric by
// operator (record_breakdown, stored by promote) against this run's, each operator's change ranked
// by its share of all the changes, so that "ops_per_step 341 -> 343" reads "aten::mul +2 calls".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mlregress/metric.h"

namespace mlregress::internal {

/// One operator whose count differs between the baseline and the run.
struct OperatorChange {
  std::string name;
  std::int64_t baseline = 0;  ///< 0 when the baseline never ran it
  std::int64_t observed = 0;  ///< 0 when the run no longer runs it
  /// |observed - baseline| over the sum of that over every changed operator: (0, 1].
  double share = 0.0;
  std::int64_t delta() const { return observed - baseline; }
  friend bool operator==(const OperatorChange&, const OperatorChange&) = default;
};

/// The operators behind a metric's change, largest share first (ties by name, a repeatable
/// order), the first few listed and the rest counted.
struct OperatorDiff {
  BreakdownUnit unit = BreakdownUnit::Calls;
  std::vector<OperatorChange> listed;
  std::size_t more = 0;  ///< changed operators not listed
  /// Why no operator can be named ("no per-operator breakdown in the baseline ..."); when set,
  /// `listed` is empty.
  std::string missing;
  friend bool operator==(const OperatorDiff&, const OperatorDiff&) = default;
};

/// How many operators a verdict names before "and K more".
inline constexpr std::size_t kListedOperators = 5;

/// What `missing` says when the baseline holds no breakdown for the metric (on this profile).
inline constexpr const char* kNoBaselineBreakdown =
    "no per-operator breakdown in the baseline (promote to store one)";

/// The operators whose counts differ, ranked by their share of the total absolute change.
/// Breakdowns of different units are not compared: `missing` says so.
OperatorDiff diff_operators(const Breakdown& baseline, const Breakdown& observed,
                            std::size_t listed = kListedOperators);

/// The diff when the baseline has nothing to compare with.
OperatorDiff missing_operator_diff(BreakdownUnit unit, std::string why = kNoBaselineBreakdown);

/// "+120 calls", "-3 allocations", "+3.1 MiB" (bytes below 1 KiB as "+512 B").
std::string format_operator_delta(std::int64_t delta, BreakdownUnit unit);

/// "aten::mul +2 calls (67%), aten::empty +1 calls (33%), and 2 more"; "no operator's calls
/// changed" when none did; `missing` when set.
std::string describe_operator_diff(const OperatorDiff& diff);

}  // namespace mlregress::internal
