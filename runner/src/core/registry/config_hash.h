// A stable fingerprint of what determines a test's result besides the code: its resolved
// parameters, seed and thread count. Equal hashes mean comparable configurations.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "mlregress/param.h"

namespace mlregress::internal {

/// Parameters as a JSON object with natural types (bool, integer, number, string).
nlohmann::json params_json(const ResolvedParams& params);

/// 16 hex digits of FNV-1a 64 over the canonical JSON (keys sorted, doubles round-trip) of
/// {"params", "seed", "threads"}. Stable across runs, machines and mlregress versions.
std::string config_hash(const ResolvedParams& params, std::uint64_t seed, int threads);

}  // namespace mlregress::internal
