// What a comparison with a baseline concluded, for one metric.
#pragma once

#include <optional>
#include <string_view>

namespace mlregress::internal {

enum class Verdict { kPass, kRegression, kImproved, kInconclusive, kNew, kNotComparable };

/// "PASS", "REGRESSION", "IMPROVED", "INCONCLUSIVE", "NEW", "NOT_COMPARABLE".
std::string_view verdict_name(Verdict verdict);
std::optional<Verdict> parse_verdict(std::string_view name);

}  // namespace mlregress::internal
