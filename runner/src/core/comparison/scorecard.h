// A test's scorecard: every metric it recorded, A (the baseline) against B (the candidate), with
// the metric's direction, the gate's verdict and the constraints that apply to it, and what came
// out: which metrics improved, which got worse, which constraints broke. `compare A B` prints it
// per test and report.html shows it (renderers/scorecard_report.h); it decides nothing the gate
// and the constraints (comparison/constraint.h) did not decide already.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "comparison/constraint.h"
#include "record/run_result.h"

namespace mlregress::internal {

struct ScorecardRow {
  std::string metric;
  std::optional<double> a;  ///< unset: A holds no value (NEW)
  std::optional<double> b;  ///< unset: B did not record it (only in A, or only constrained)
  std::optional<Direction> direction;
  std::optional<Verdict> verdict;  ///< unset: not compared
  std::vector<ConstraintCheck> constraints;

  std::optional<double> ratio() const;     ///< B / A, when both are set and A is not 0
  std::optional<double> relative() const;  ///< (B - A) / |A|, likewise
};

struct TestScorecard {
  std::string test;  ///< full name, "Fast.LmPrecision"
  std::vector<ScorecardRow> rows;

  std::vector<std::string> improved() const;           ///< metrics whose verdict is IMPROVED
  std::vector<std::string> worse() const;              ///< metrics whose verdict is REGRESSION
  std::vector<std::string> only_in_a() const;          ///< metrics A recorded and B did not
  std::vector<ConstraintCheck> violated() const;       ///< is_violation, in row order
  std::vector<ConstraintCheck> not_evaluated() const;  ///< kNoBaseline
};

/// The scorecard of B's test `b`, against the values its comparisons hold and, where they hold
/// none, `a`'s record of the same test (nullptr: none): one row per metric B compared or recorded,
/// then one per metric only A recorded, then one per constrained metric neither recorded. The
/// constraints are the test's declared ones and each of `command_line` whose metric the test
/// recorded on either side. A declared constraint that does not parse throws ConfigError.
TestScorecard build_scorecard(const TestResult& b, const TestResult* a,
                              std::span<const Constraint> command_line);

}  // namespace mlregress::internal
