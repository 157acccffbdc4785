#include "record/checked_criterion.h"

#include <algorithm>

#include "support/enum_names.h"

namespace mlregress::internal {

namespace {

constexpr auto kCriterionStatusNames =
    enum_names<CriterionStatus>({{CriterionStatus::kMet, "met"},
                                 {CriterionStatus::kNotMet, "not_met"},
                                 {CriterionStatus::kNotEvaluated, "not_evaluated"},
                                 {CriterionStatus::kText, "text"}});

}  // namespace

std::string_view criterion_status_name(CriterionStatus status) {
  return kCriterionStatusNames.name(status, "text");
}

std::optional<CriterionStatus> parse_criterion_status(std::string_view name) {
  return kCriterionStatusNames.parse(name);
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
