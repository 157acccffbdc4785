#include "storage/criteria_json.h"

#include "record/json_fields.h"
#include "record/json_number.h"

namespace mlregress::internal {

void to_json(nlohmann::json& json, const CriterionTestCheck& check) {
  json = {{"test", check.test},
          {"metric", check.metric},
          {"baseline", check.baseline ? json_number(*check.baseline) : nlohmann::json()},
          {"observed", json_number(check.observed)},
          {"threshold", json_number(check.threshold)},
          {"change", check.change},
          {"held", check.held}};
}

void from_json(const nlohmann::json& json, CriterionTestCheck& check) {
  check.test = field<std::string>(json, "test");
  check.metric = field<std::string>(json, "metric");
  check.baseline = optional_number_field(json, "baseline");
  check.observed = number_field(json, "observed");
  check.threshold = number_field(json, "threshold");
  check.change = field_or<std::string>(json, "change", "");
  check.held = field<bool>(json, "held");
}

void to_json(nlohmann::json& json, const CheckedCriterion& criterion) {
  json = {{"text", criterion.text},
          {"status", criterion_status_name(criterion.status)},
          {"note", criterion.note},
          {"checks", criterion.checks}};
}

void from_json(const nlohmann::json& json, CheckedCriterion& criterion) {
  criterion.text = field<std::string>(json, "text");
  criterion.status = enum_field<CriterionStatus>(json, "status", parse_criterion_status);
  criterion.note = field_or<std::string>(json, "note", "");
  if (json.contains("checks")) {
    criterion.checks = array_field<CriterionTestCheck>(json, "checks");
  }
}

}  // namespace mlregress::internal
