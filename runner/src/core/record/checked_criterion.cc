#include "record/checked_criterion.h"

#include <algorithm>

namespace mlregress::internal {

std::string_view criterion_status_name(CriterionStatus status) {
  switch (status) {
    case CriterionStatus::kMet:
      return "met";
    case CriterionStatus::kNotMet:
      return "not_met";
    case CriterionStatus::kNotEvaluated:
      return "not_evaluated";
    case CriterionStatus::kText:
      return "text";
  }
  return "text";
}

std::optional<CriterionStatus> parse_criterion_status(std::string_view name) {
  for (CriterionStatus status : {CriterionStatus::kMet, CriterionStatus::kNotMet,
                                 CriterionStatus::kNotEvaluated, CriterionStatus::kText}) {
    if (criterion_status_name(status) == name) return status;
  }
  return std::nullopt;
}

std::string criteria_outcome(const std::vector<CheckedCriterion>& criteria) {
  const auto count = [&](CriterionStatus status) {
    return std::count_if(criteria.begin(), criteria.end(),
                         [&](const CheckedCriterion& c) { return c.status == status; });
  };
  if (count(CriterionStatus::kNotMet) > 0) return "not met";
  if (count(CriterionStatus::kNotEvaluated) > 0) return "not evaluated";
  if (count(CriterionStatus::kMet) > 0) return "met";
  return "";
}

}  // namespace mlregress::internal
