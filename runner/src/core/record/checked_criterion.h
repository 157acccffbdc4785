// A success criterion of the run's notes (run --criteria, or the notes file's "## Success
// criteria") as the run checked it: met or not with the numbers, not evaluated and why, or text
// for a person. comparison/run_criteria.h checks them; results.json keeps them ("criteria");
// notes.md's Result and the ledger show them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress::internal {

enum class CriterionStatus {
  kMet,           ///< it held for every test that recorded the metric
  kNotMet,        ///< it failed for at least one of them
  kNotEvaluated,  ///< machine-checkable, but nothing to check it on (see `note`)
  kText,          ///< not of the form `METRIC OP VALUE`: for a person to judge
};
/// "met", "not_met", "not_evaluated", "text"
std::string_view criterion_status_name(CriterionStatus status);
std::optional<CriterionStatus> parse_criterion_status(std::string_view name);

/// One test's value checked against a criterion.
struct CriterionTestCheck {
  std::string test;    ///< full name
  std::string metric;  ///< the metric as recorded ("accuracy[half_width]" for a variant)
  std::optional<double> baseline;
  double observed = 0.0;
  double threshold = 0.0;  ///< what the criterion allowed
  std::string change;      ///< "0.967x", "-3.33%", or "" (absolute criterion, no baseline)
  bool held = false;
  friend bool operator==(const CriterionTestCheck&, const CriterionTestCheck&) = default;
};

struct CheckedCriterion {
  std::string text;  ///< as written
  CriterionStatus status = CriterionStatus::kText;
  std::vector<CriterionTestCheck> checks;  ///< one per test that recorded the metric
  std::string note;                        ///< not evaluated: "no test recorded val_loss", ...
  friend bool operator==(const CheckedCriterion&, const CheckedCriterion&) = default;
};

/// The run's criteria taken together, over the machine-checkable ones: "met" when every one was
/// met, "not met" when one was not, "not evaluated" when none failed but one could not be
/// checked; "" when none is machine-checkable. The ledger records it.
std::string criteria_outcome(const std::vector<CheckedCriterion>& criteria);

}  // namespace mlregress::internal
