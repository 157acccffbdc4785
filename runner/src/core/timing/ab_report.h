// What an A/B timing comparison shows: the console table (one line per timing metric) and the
// "metrics" part of ab.json (runner/docs/timing.md documents the file).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "timing/ab_analysis.h"

namespace mlregress::internal {

/// Fixed-width table: test, metric, candidate time / other time with its interval, p-value,
/// verdict; notes (INCONCLUSIVE reasons) follow the table.
std::string render_ab_table(const std::vector<AbMetricResult>& results, const AbSettings& settings);

/// Every per-round value, ratio and statistic of each metric.
nlohmann::json ab_metrics_json(const std::vector<AbMetricResult>& results);

/// The inverse, for the reports that read ab.json back. Throws std::invalid_argument naming
/// the field (with_field_context) for anything malformed.
std::vector<AbMetricResult> ab_metrics_from_json(const nlohmann::json& metrics);

}  // namespace mlregress::internal
