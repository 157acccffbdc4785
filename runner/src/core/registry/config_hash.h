// A stable fingerprint of what determines a test's result besides the code: its resolved
// parameters, seed and thread count. Equal hashes mean comparable configurations.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "mlregress/param.h"

namespace mlregress::internal {

/// Parameters as a JSON object with natural types (bool, integer, number, string).
nlohmann::json params_json(const ResolvedParams& params);

/// 16 hex digits of FNV-1a 64 over the canonical JSON (keys sorted, doubles round-trip) of
/// {"params", "seed", "threads"}. Stable across runs, machines and mlregress versions.
std::string config_hash(const ResolvedParams& params, std::uint64_t seed, int threads);

/// The parameters as text, by name ("lr" -> "0.02", "precision" -> "bf16", "flag" -> "true"):
/// what a run record and a baseline keep beside the hash, so that a changed hash can name what
/// changed (comparison/config_diff.h).
std::map<std::string, std::string> config_values(const ResolvedParams& params);

/// Adds the run's seed and thread count ("seed", "threads") to `values`, for the tests whose hash
/// covers them; a parameter of the same name keeps its own value.
void add_run_settings(std::map<std::string, std::string>& values, std::uint64_t seed, int threads);

}  // namespace mlregress::internal
