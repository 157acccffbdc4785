// What a comparison with a baseline concluded, for one metric.
#pragma once

#include <optional>
#include <string_view>

namespace mlregress::internal {

/// kNotComparable: the baseline was measured on other data or holds another kind of value (one
/// value against per-seed samples). kUngated: the value belongs to an environment profile
/// (`numerics`, `machine`, timings) and the baseline holds it only for other profiles: this
/// machine cannot gate it until `baselines adopt` adds its own value.
enum class Verdict { kPass, kRegression, kImproved, kInconclusive, kNew, kNotComparable, kUngated };

/// A metric the run could not gate (UNGATED or NOT_COMPARABLE): listed at the end of the run,
/// and what --strict-env fails the run on.
constexpr bool is_not_gated(Verdict verdict) {
  return verdict == Verdict::kUngated || verdict == Verdict::kNotComparable;
}

/// "PASS", "REGRESSION", "IMPROVED", "INCONCLUSIVE", "NEW", "NOT_COMPARABLE", "UNGATED".
std::string_view verdict_name(Verdict verdict);
std::optional<Verdict> parse_verdict(std::string_view name);

}  // namespace mlregress::internal
