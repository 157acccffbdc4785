#include "comparison/run_criteria.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <sstream>

#include "comparison/criterion.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

std::string trimmed(const std::string& text) {
  const std::size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

// One value of a test that a criterion may name: what the run observed and its baseline.
struct NamedValue {
  std::string metric;
  double observed = 0.0;
  std::optional<double> baseline;
};

// The test's values: its comparisons (which carry the baseline), then the metrics that were not
// compared (no baseline).
std::vector<NamedValue> values_of(const TestResult& test) {
  std::vector<NamedValue> values;
  for (const MetricComparison& c : test.comparisons) {
    values.push_back({c.metric, c.observed, c.baseline});
  }
  for (const MetricRecord& m : test.metrics) {
    const bool compared = std::any_of(values.begin(), values.end(),
                                      [&](const NamedValue& v) { return v.metric == m.name; });
    if (!compared) values.push_back({m.name, m.value, std::nullopt});
  }
  return values;
}

// `TEST.METRIC` names one test when TEST is the name (or full name) of one in the run.
bool names_test(const std::string& subject, const TestResult& test, std::string& metric) {
  for (const std::string& name : {test.full_name, test.name}) {
    if (subject.size() > name.size() + 1 && subject.starts_with(name) &&
        subject[name.size()] == '.') {
      metric = subject.substr(name.size() + 1);
      return true;
    }
  }
  return false;
}

CheckedCriterion check_one(const Criterion& criterion, const RunResult& run) {
  CheckedCriterion checked{criterion.text, CriterionStatus::kNotEvaluated, {}, ""};
  std::vector<std::string> without_baseline;
  for (const TestResult& test : run.tests) {
    if (!test.finished) continue;
    std::string metric = criterion.metric;
    const bool one_test = names_test(criterion.metric, test, metric);
    for (const NamedValue& value : values_of(test)) {
      if (value.metric != metric && !(one_test && value.metric == criterion.metric)) continue;
      const std::optional<CriterionCheck> check =
          evaluate_criterion(criterion, value.baseline, value.observed);
      if (!check) {
        without_baseline.push_back(value.baseline ? fmt::format("{} (a ratio needs a baseline "
                                                                "above 0, not {})",
                                                                test.full_name, *value.baseline)
                                                  : test.full_name);
        continue;
      }
      checked.checks.push_back({test.full_name, value.metric, value.baseline, value.observed,
                                check->threshold, check->change, check->held});
    }
  }
  if (!checked.checks.empty()) {
    const bool all_held = std::all_of(checked.checks.begin(), checked.checks.end(),
                                      [](const CriterionTestCheck& c) { return c.held; });
    checked.status = all_held ? CriterionStatus::kMet : CriterionStatus::kNotMet;
  }
  if (!without_baseline.empty()) {
    checked.note = fmt::format("no baseline value for {}", fmt::join(without_baseline, ", "));
    // A test that could not be checked leaves the criterion undecided unless another failed it.
    if (checked.status == CriterionStatus::kMet) checked.status = CriterionStatus::kNotEvaluated;
  } else if (checked.checks.empty()) {
    checked.note = fmt::format("no test recorded {}", criterion.metric);
  }
  return checked;
}

}  // namespace

std::vector<std::string> criteria_items(const std::string& text) {
  std::vector<std::string> items;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream parts(line);
    for (std::string part; std::getline(parts, part, ';');) {
      std::string item = trimmed(part);
      if (item.starts_with("- ") || item.starts_with("* ")) item = trimmed(item.substr(2));
      if (!item.empty()) items.push_back(std::move(item));
    }
  }
  return items;
}

std::vector<CheckedCriterion> check_criteria(const std::string& text, const RunResult& run) {
  std::vector<CheckedCriterion> checked;
  for (const std::string& item : criteria_items(text)) {
    const std::optional<Criterion> criterion = parse_criterion(item);
    if (!criterion) {
      checked.push_back({item, CriterionStatus::kText, {}, "not machine-checkable"});
      continue;
    }
    checked.push_back(check_one(*criterion, run));
  }
  return checked;
}

void check_criteria_syntax(const std::string& text) {
  std::vector<std::string> near_misses;
  for (const std::string& item : criteria_items(text)) {
    if (!parse_criterion(item) && looks_like_criterion(item)) near_misses.push_back(item);
  }
  if (near_misses.empty()) return;
  throw ConfigError(fmt::format(
      "--criteria: '{}' {} not a criterion: expected METRIC OP VALUE, OP one of <= >= < >, VALUE "
      "a ratio to the baseline (0.98x), a change from it (+0.5%, -2%) or a number (2.5); text "
      "without an operator after the first word stays for a person",
      fmt::join(near_misses, "', '"), near_misses.size() == 1 ? "is" : "are"));
}

}  // namespace mlregress::internal
