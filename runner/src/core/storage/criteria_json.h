// The run's checked success criteria in results.json ("criteria", runner/docs/results-schema.md):
//
//   "criteria": [{"text": "value <= 0.98x baseline", "status": "not_met", "note": "",
//                 "checks": [{"test": "Fast.Passes", "metric": "value", "baseline": 1.5,
//                             "observed": 1.6, "threshold": 1.47, "change": "1.067x",
//                             "held": false}]}]
#pragma once

#include <nlohmann/json.hpp>

#include "record/checked_criterion.h"

namespace mlregress::internal {

void to_json(nlohmann::json& json, const CriterionTestCheck& check);
void from_json(const nlohmann::json& json, CriterionTestCheck& check);
void to_json(nlohmann::json& json, const CheckedCriterion& criterion);
/// Throws JsonFieldError naming the field; "note" and "checks" may be missing.
void from_json(const nlohmann::json& json, CheckedCriterion& criterion);

}  // namespace mlregress::internal
