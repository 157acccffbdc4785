// Tolerance policies as they travel in JSON: in test events, results.json and promotion input.
// One place, so the event a test emits and the file promote reads can never disagree.
#pragma once

#include <nlohmann/json.hpp>

#include "mlregress/metric.h"

namespace mlregress::internal {

/// {"kind": "band", "rtol": .., "atol": ..}, {"kind": "exact"}, {"kind": "margin", "delta": ..},
/// {"kind": "timing", "cv": ..} or {"kind": "default"}.
nlohmann::json policy_to_json(const TolerancePolicy& policy);

/// The inverse; throws std::invalid_argument (or a json exception) for anything else.
TolerancePolicy policy_from_json(const nlohmann::json& json);

/// A curve's policy: {"rtol", "atol", "smoothing", "consecutive", "direction"}.
nlohmann::json curve_policy_to_json(const CurvePolicy& policy);
/// Throws (nlohmann's exceptions or std::invalid_argument) for anything else.
CurvePolicy curve_policy_from_json(const nlohmann::json& json);

/// A capability's target (record_target): {"below": 2.5} or {"above": 0.9}.
nlohmann::json target_to_json(const Target& target);
/// The inverse; throws std::invalid_argument for anything else (both keys, neither, a threshold
/// that is not a finite number).
Target target_from_json(const nlohmann::json& json);

/// Whether values under this policy belong to one environment profile: timings, and exact values
/// but portable ones (an Exact of scope Auto, read from a file older than scopes, is bound).
inline bool is_environment_bound(const TolerancePolicy& policy) {
  if (const Exact* exact = std::get_if<Exact>(&policy)) return exact->scope != Scope::Portable;
  return std::holds_alternative<Timing>(policy);
}

}  // namespace mlregress::internal
