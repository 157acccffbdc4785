#include "storage/breakdown_json.h"

#include <stdexcept>
#include <string>

#include "record/json_fields.h"
#include "record/json_number.h"

namespace mlregress::internal {

nlohmann::json breakdown_to_json(const Breakdown& breakdown) {
  nlohmann::json operators = nlohmann::json::object();
  for (const auto& [name, count] : breakdown.by_operator) operators[name] = count;
  return {{"unit", breakdown_unit_name(breakdown.unit)}, {"operators", std::move(operators)}};
}

Breakdown breakdown_from_json(const nlohmann::json& json) {
  Breakdown breakdown;
  breakdown.unit = enum_field<BreakdownUnit>(json, "unit", parse_breakdown_unit);
  const nlohmann::json operators = field<nlohmann::json>(json, "operators");
  with_field_context("operators", [&] {
    if (!operators.is_object())
      throw std::invalid_argument("expected an object, got " + operators.dump());
    for (const auto& item : operators.items()) {
      const std::string& name = item.key();
      if (name.empty()) throw std::invalid_argument("an operator without a name");
      const auto count_value = field<std::int64_t>(operators, name);
      if (count_value < 0) {
        throw JsonFieldError(name, "expected an integer >= 0, got " + std::to_string(count_value));
      }
      breakdown.by_operator[name] = count_value;
    }
  });
  return breakdown;
}

nlohmann::json operator_diff_to_json(const OperatorDiff& diff) {
  nlohmann::json json = {{"unit", breakdown_unit_name(diff.unit)}};
  if (!diff.missing.empty()) {
    json["missing"] = diff.missing;
    return json;
  }
  nlohmann::json changes = nlohmann::json::array();
  for (const OperatorChange& c : diff.listed) {
    changes.push_back({{"operator", c.name},
                       {"baseline", c.baseline},
                       {"observed", c.observed},
                       {"delta", c.delta()},
                       {"share", json_number(c.share)}});
  }
  json["changes"] = std::move(changes);
  json["more"] = diff.more;
  return json;
}

OperatorDiff operator_diff_from_json(const nlohmann::json& json) {
  OperatorDiff diff;
  diff.unit = enum_field<BreakdownUnit>(json, "unit", parse_breakdown_unit);
  diff.missing = field_or<std::string>(json, "missing", "");
  if (!diff.missing.empty()) return diff;
  const nlohmann::json changes = field<nlohmann::json>(json, "changes");
  with_field_context("changes", [&] {
    if (!changes.is_array())
      throw std::invalid_argument("expected an array, got " + changes.dump());
  });
  for (std::size_t i = 0; i < changes.size(); ++i) {
    with_field_context("changes[" + std::to_string(i) + "]", [&] {
      OperatorChange c;
      c.name = field<std::string>(changes[i], "operator");
      c.baseline = field<std::int64_t>(changes[i], "baseline");
      c.observed = field<std::int64_t>(changes[i], "observed");
      c.share = number_field(changes[i], "share");
      diff.listed.push_back(std::move(c));
    });
  }
  diff.more = field<std::size_t>(json, "more");
  return diff;
}

}  // namespace mlregress::internal
