#include "storage/policy_json.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "record/json_fields.h"
#include "record/json_number.h"
#include "record/json_text.h"

namespace mlregress::internal {
namespace {

double number_at(const nlohmann::json& json, const char* key) {
  const std::optional<double> value = read_json_number(json.at(key));
  if (!value) throw std::invalid_argument(fmt::format("policy field '{}' is not a number", key));
  return *value;
}

// Margin's covariate: absent (none), or the non-empty name of another metric. An empty or
// non-string one would silently mean "no covariate" and drop the pre-registered adjustment.
std::string covariate_at(const nlohmann::json& json) {
  if (!json.contains("covariate")) return "";
  const nlohmann::json& covariate = json.at("covariate");
  if (!covariate.is_string() || covariate.get<std::string>().empty()) {
    throw JsonFieldError("covariate", "expected the name of a metric (a non-empty string), got " +
                                          json_text(covariate));
  }
  return covariate.get<std::string>();
}

}  // namespace

nlohmann::json policy_to_json(const TolerancePolicy& policy) {
  if (const Band* band = std::get_if<Band>(&policy)) {
    return {{"kind", "band"}, {"rtol", json_number(band->rtol)}, {"atol", json_number(band->atol)}};
  }
  if (const Exact* exact = std::get_if<Exact>(&policy)) {
    if (exact->scope == Scope::Auto) return {{"kind", "exact"}};
    return {{"kind", "exact"}, {"scope", scope_name(exact->scope)}};
  }
  if (const Margin* margin = std::get_if<Margin>(&policy)) {
    nlohmann::json json = {{"kind", "margin"}, {"delta", json_number(margin->delta)}};
    if (!margin->covariate.empty()) json["covariate"] = margin->covariate;
    return json;
  }
  if (const Timing* timing = std::get_if<Timing>(&policy)) {
    return {{"kind", "timing"}, {"cv", json_number(timing->cv)}};
  }
  if (const FailureRate* rate = std::get_if<FailureRate>(&policy)) {
    return {{"kind", "failure_rate"}, {"detect", json_number(rate->detect)}};
  }
  return {{"kind", "default"}};
}

TolerancePolicy policy_from_json(const nlohmann::json& json) {
  const std::string kind = json.at("kind").get<std::string>();
  if (kind == "band") return Band{number_at(json, "rtol"), number_at(json, "atol")};
  if (kind == "exact") {
    if (!json.contains("scope")) return Exact{};
    const std::string scope = json.at("scope").get<std::string>();
    const std::optional<Scope> parsed = parse_scope(scope);
    if (!parsed) throw std::invalid_argument(fmt::format("unknown scope '{}'", scope));
    return Exact{*parsed};
  }
  if (kind == "margin") {
    return Margin{number_at(json, "delta"), covariate_at(json)};
  }
  if (kind == "timing") return Timing{number_at(json, "cv")};
  if (kind == "failure_rate") return FailureRate{number_at(json, "detect")};
  if (kind == "default") return std::monostate{};
  throw std::invalid_argument(fmt::format("unknown policy kind '{}'", kind));
}

nlohmann::json curve_policy_to_json(const CurvePolicy& policy) {
  return {{"rtol", json_number(policy.rtol)},
          {"atol", json_number(policy.atol)},
          {"smoothing", policy.smoothing},
          {"consecutive", policy.consecutive},
          {"direction", direction_name(policy.direction)}};
}

CurvePolicy curve_policy_from_json(const nlohmann::json& json) {
  CurvePolicy policy;
  policy.rtol = number_at(json, "rtol");
  policy.atol = number_at(json, "atol");
  policy.smoothing = json.at("smoothing").get<std::size_t>();
  policy.consecutive = json.at("consecutive").get<std::size_t>();
  const std::string direction = json.at("direction").get<std::string>();
  const std::optional<Direction> parsed = parse_direction(direction);
  if (!parsed) throw std::invalid_argument(fmt::format("unknown direction '{}'", direction));
  policy.direction = *parsed;
  return policy;
}

nlohmann::json target_to_json(const Target& target) {
  const char* side = target.direction == Direction::HigherIsBetter ? "above" : "below";
  return {{side, json_number(target.threshold)}};
}

Target target_from_json(const nlohmann::json& json) {
  const bool below = json.is_object() && json.contains("below");
  const bool above = json.is_object() && json.contains("above");
  if (below == above) {
    throw std::invalid_argument("a target holds one of \"below\" and \"above\", got " +
                                json_text(json));
  }
  const std::optional<double> threshold = read_json_number(json.at(below ? "below" : "above"));
  if (!threshold || !std::isfinite(*threshold)) {
    throw std::invalid_argument("a target's threshold is a finite number, got " + json_text(json));
  }
  return Target{below ? Direction::LowerIsBetter : Direction::HigherIsBetter, *threshold};
}

}  // namespace mlregress::internal
