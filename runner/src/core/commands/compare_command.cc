#include "commands/compare_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <set>

#include "baselines/baseline_store.h"
#include "baselines/promotion.h"
#include "comparison/baseline_gate.h"
#include "comparison/scorecard.h"
#include "observers/regression_report.h"
#include "renderers/scorecard_report.h"
#include "storage/run_record.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

// An incomplete run holds only the tests that finished before it was killed: "no regression"
// would speak for tests it never ran.
void check_complete(const RunRecord& record, const char* side, bool allow_incomplete) {
  if (!record.run.info.finished_at.empty()) return;
  if (allow_incomplete) {
    std::printf("NOTE: run %s (%s) is incomplete: it holds the %zu tests that finished\n", side,
                record.path.c_str(), record.run.tests.size());
    return;
  }
  throw RunFolderError(
      fmt::format("{}: run {} is incomplete (killed or still running; {} tests finished); compare "
                  "--allow-incomplete compares what it holds",
                  record.path, side, record.run.tests.size()));
}

// A --constraint naming a metric no test of A or B recorded is a mistake in the command (a typo,
// a metric of another suite), not a constraint that holds because nothing tested it.
void check_constraint_metrics(const std::vector<Constraint>& constraints, const RunRecord& a,
                              const RunRecord& b) {
  std::set<std::string> recorded;
  for (const RunRecord* record : {&a, &b}) {
    for (const TestResult& test : record->run.tests) {
      for (const MetricRecord& m : test.metrics) recorded.insert(m.name);
    }
  }
  for (const Constraint& c : constraints) {
    if (recorded.count(c.metric) > 0) continue;
    throw ConfigError(fmt::format(
        "--constraint '{}': no test of A or B recorded a metric '{}' (they recorded: {})", c.text,
        c.metric, recorded.empty() ? "none" : fmt::format("{}", fmt::join(recorded, ", "))));
  }
}

const TestResult* test_named(const RunRecord& record, const std::string& name) {
  for (const TestResult& test : record.run.tests) {
    if (test.name == name) return &test;
  }
  return nullptr;
}

// What compare found, for its last lines and its exit code.
struct CompareTally {
  bool regressed = false;
  std::size_t violated = 0;  ///< constraints violated, over every test
  std::size_t checked = 0;   ///< constraints checked, over every test
};

// Each test of B: its regression report, as `run --baselines` prints it, then its scorecard.
CompareTally print_tests(const RunRecord& a, const RunRecord& b,
                         const std::vector<TestStatus>& status_in_b,
                         const std::vector<Constraint>& constraints) {
  CompareTally tally;
  for (std::size_t i = 0; i < b.run.tests.size(); ++i) {
    const TestResult& test = b.run.tests[i];
    for (const MetricComparison& c : test.comparisons)
      tally.regressed = tally.regressed || c.verdict == Verdict::kRegression;
    std::printf("%s [%s in B]\n%s\n", test.full_name.c_str(),
                std::string(test_status_name(status_in_b[i])).c_str(),
                format_regression_report(b.run.info.run_id, test).c_str());
    const TestScorecard card = build_scorecard(test, test_named(a, test.name), constraints);
    for (const ScorecardRow& row : card.rows) tally.checked += row.constraints.size();
    tally.violated += card.violated().size();
    std::printf("%s\n", format_scorecard(card).c_str());
  }
  for (const TestResult& test : a.run.tests) {
    if (test_named(b, test.name) != nullptr) continue;
    std::printf("%s: in A only (not run in B)\n", test.name.c_str());
    for (const Constraint& c : constraints) {
      if (value_in_b(test, c.metric))
        std::printf("  %s: not evaluated (the test did not run in B)\n", c.text.c_str());
    }
  }
  return tally;
}

void print_constraint_line(const CompareTally& tally, bool command_line) {
  if (tally.checked == 0) return;
  std::printf("compare: %zu of %zu constraint check%s violated%s\n", tally.violated, tally.checked,
              tally.checked == 1 ? "" : "s",
              command_line ? " (--constraint: the constraints decide the exit code)" : "");
}

}  // namespace

ExitCode compare_command(const CompareOptions& options) {
  const std::vector<Constraint> constraints = parse_constraints(options.constraints);
  const RunRecord a = read_run_record(options.run_a);
  RunRecord b = read_run_record(options.run_b);
  check_complete(a, "A", options.allow_incomplete);
  check_complete(b, "B", options.allow_incomplete);
  check_constraint_metrics(constraints, a, b);
  const BaselineSet baseline = baseline_from_run(a);
  std::vector<TestStatus> status_in_b;  // as B's run recorded it, before the judgement against A
  for (const TestResult& test : b.run.tests) status_in_b.push_back(test.status);
  // The same judgement `run --baselines` makes, test by test and then the multi-seed gate.
  BaselineGate(baseline, b.profile, options.alpha).judge_run(b.run);

  // Each test's report ends with the environment line (A's profile against B's), as in a run.
  std::printf("COMPARE: %s (A, baseline) -> %s (B, candidate)\n\n", a.run.info.run_id.c_str(),
              b.run.info.run_id.c_str());
  const std::size_t not_gated = count_not_gated(b.run);
  const CompareTally tally = print_tests(a, b, status_in_b, constraints);
  std::printf("compare: %s\n", tally.regressed ? "REGRESSION" : "no regression");
  print_constraint_line(tally, !constraints.empty());
  if (not_gated > 0) {
    std::printf("compare: %zu metric%s not gated (UNGATED or NOT_COMPARABLE)%s\n", not_gated,
                not_gated == 1 ? "" : "s",
                options.strict_env ? "; --strict-env fails the comparison" : "");
  }
  // An experiment states its acceptance test as constraints: then they alone decide, and the
  // gate's verdicts are the scorecard's columns.
  if (!constraints.empty())
    return tally.violated > 0 ? ExitCode::kConstraintViolated : ExitCode::kPassed;
  if (tally.regressed) return ExitCode::kRegression;
  if (tally.violated > 0) return ExitCode::kConstraintViolated;
  return options.strict_env && not_gated > 0 ? ExitCode::kNotGated : ExitCode::kPassed;
}

}  // namespace mlregress::internal
