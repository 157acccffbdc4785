// The run's success criteria checked against its values: each criterion of the notes' "Success
// criteria" (run --criteria, --notes) that parses as `METRIC OP VALUE` (comparison/criterion.h)
// is evaluated on every test that recorded METRIC (or the one test of `TEST.METRIC`), against
// that test's baseline value; the rest stays text for a person.
#pragma once

#include <string>
#include <vector>

#include "record/checked_criterion.h"
#include "record/run_result.h"

namespace mlregress::internal {

/// The criteria in `text`: one per line or per `;`, trimmed, without a leading "- " or "* "
/// bullet; empty ones dropped. Commas are left alone (a sentence may hold them).
std::vector<std::string> criteria_items(const std::string& text);

/// Checks every item of `text` on the run's finished tests. A ratio or relative criterion on a
/// test without a baseline value is not evaluated; a metric no test recorded is not evaluated
/// ("no test recorded X"); never met for want of data.
std::vector<CheckedCriterion> check_criteria(const std::string& text, const RunResult& run);

/// Throws ConfigError naming each item of `text` that was meant as a criterion (a metric name
/// and an operator) but does not parse, with the form expected: checked before a run starts, so
/// a mistyped criterion is not silently kept as text.
void check_criteria_syntax(const std::string& text);

}  // namespace mlregress::internal
