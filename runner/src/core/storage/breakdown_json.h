// A metric's breakdown by operator, and the operators behind a verdict, as they travel in JSON:
// in the test's events and in results.json. One place, so the two cannot disagree.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/operator_diff.h"
#include "mlregress/metric.h"

namespace mlregress::internal {

/// {"unit": "calls", "operators": {"aten::addmm": 12, ...}}
nlohmann::json breakdown_to_json(const Breakdown& breakdown);
/// The inverse; throws JsonFieldError naming the field for anything else (an unknown unit, a
/// count that is not an integer >= 0, an operator without a name).
Breakdown breakdown_from_json(const nlohmann::json& json);

/// {"unit": "calls", "changes": [{"operator", "baseline", "observed", "delta", "share"}, ...],
///  "more": 2}, with "missing" instead of changes when no operator can be named.
nlohmann::json operator_diff_to_json(const OperatorDiff& diff);
OperatorDiff operator_diff_from_json(const nlohmann::json& json);

}  // namespace mlregress::internal
