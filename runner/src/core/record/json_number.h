// JSON has no NaN or Inf, yet a regression runner must report them. Non-finite doubles travel
// as the strings "NaN", "Infinity" and "-Infinity" (the spellings JavaScript and Python's json
// module use); finite ones as numbers.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace mlregress::internal {

nlohmann::json json_number(double value);
/// Reads a number written by json_number; nullopt for anything else.
std::optional<double> read_json_number(const nlohmann::json& value);

}  // namespace mlregress::internal
