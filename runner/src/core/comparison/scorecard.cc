#include "comparison/scorecard.h"

#include <cmath>

namespace mlregress::internal {
namespace {

const MetricRecord* record_named(const TestResult* test, const std::string& name) {
  if (test == nullptr) return nullptr;
  for (const MetricRecord& m : test->metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

ScorecardRow* row_named(std::vector<ScorecardRow>& rows, const std::string& metric) {
  for (ScorecardRow& row : rows) {
    if (row.metric == metric) return &row;
  }
  return nullptr;
}

// The rows of the metrics B compared, or recorded when it was not compared, in B's order.
void add_b_rows(std::vector<ScorecardRow>& rows, const TestResult& b, const TestResult* a) {
  for (const MetricComparison& c : b.comparisons) {
    if (row_named(rows, c.metric) != nullptr) continue;
    ScorecardRow row{c.metric, value_in_a(b, a, c.metric), c.observed, std::nullopt, c.verdict, {}};
    if (const MetricRecord* m = record_named(&b, c.metric)) row.direction = m->direction;
    rows.push_back(std::move(row));
  }
  for (const MetricRecord& m : b.metrics) {
    if (row_named(rows, m.name) != nullptr) continue;
    rows.push_back({m.name, value_in_a(b, a, m.name), m.value, m.direction, std::nullopt, {}});
  }
}

}  // namespace

std::optional<double> ScorecardRow::ratio() const {
  if (!a || !b || *a == 0.0) return std::nullopt;
  return *b / *a;
}

std::optional<double> ScorecardRow::relative() const {
  if (!a || !b || *a == 0.0) return std::nullopt;
  return (*b - *a) / std::fabs(*a);
}

std::vector<std::string> TestScorecard::improved() const {
  std::vector<std::string> out;
  for (const ScorecardRow& row : rows) {
    if (row.verdict == Verdict::kImproved) out.push_back(row.metric);
  }
  return out;
}

std::vector<std::string> TestScorecard::worse() const {
  std::vector<std::string> out;
  for (const ScorecardRow& row : rows) {
    if (row.verdict == Verdict::kRegression) out.push_back(row.metric);
  }
  return out;
}

std::vector<std::string> TestScorecard::only_in_a() const {
  std::vector<std::string> out;
  for (const ScorecardRow& row : rows) {
    if (row.a && !row.b) out.push_back(row.metric);
  }
  return out;
}

std::vector<ConstraintCheck> TestScorecard::violated() const {
  std::vector<ConstraintCheck> out;
  for (const ScorecardRow& row : rows) {
    for (const ConstraintCheck& check : row.constraints) {
      if (is_violation(check)) out.push_back(check);
    }
  }
  return out;
}

std::vector<ConstraintCheck> TestScorecard::not_evaluated() const {
  std::vector<ConstraintCheck> out;
  for (const ScorecardRow& row : rows) {
    for (const ConstraintCheck& check : row.constraints) {
      if (check.status == ConstraintStatus::kNoBaseline) out.push_back(check);
    }
  }
  return out;
}

TestScorecard build_scorecard(const TestResult& b, const TestResult* a,
                              std::span<const Constraint> command_line) {
  TestScorecard card{b.full_name, {}};
  add_b_rows(card.rows, b, a);
  if (a != nullptr) {
    for (const MetricRecord& m : a->metrics) {
      if (row_named(card.rows, m.name) != nullptr) continue;
      card.rows.push_back({m.name, m.value, std::nullopt, m.direction, std::nullopt, {}});
    }
  }
  for (ConstraintCheck& check : check_test_constraints(b, a, command_line)) {
    ScorecardRow* row = row_named(card.rows, check.constraint.metric);
    if (row == nullptr) {
      card.rows.push_back(
          {check.constraint.metric, check.a, std::nullopt, std::nullopt, std::nullopt, {}});
      row = &card.rows.back();
    }
    row->constraints.push_back(std::move(check));
  }
  return card;
}

}  // namespace mlregress::internal
