#include "commands/compare_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <set>

#include "baselines/baseline_store.h"
#include "baselines/promotion.h"
#include "comparison/baseline_gate.h"
#include "observers/regression_report.h"
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

}  // namespace

ExitCode compare_command(const CompareOptions& options) {
  const RunRecord a = read_run_record(options.run_a);
  RunRecord b = read_run_record(options.run_b);
  check_complete(a, "A", options.allow_incomplete);
  check_complete(b, "B", options.allow_incomplete);
  const BaselineSet baseline = baseline_from_run(a);
  std::vector<TestStatus> status_in_b;  // as B's run recorded it, before the judgement against A
  for (const TestResult& test : b.run.tests) status_in_b.push_back(test.status);
  // The same judgement `run --baselines` makes, test by test and then the multi-seed gate.
  BaselineGate(baseline, b.profile, options.alpha).judge_run(b.run);

  // Each test's report ends with the environment line (A's profile against B's), as in a run.
  std::printf("COMPARE: %s (A, baseline) -> %s (B, candidate)\n\n", a.run.info.run_id.c_str(),
              b.run.info.run_id.c_str());
  bool regressed = false;
  const std::size_t not_gated = count_not_gated(b.run);
  std::set<std::string> in_b;
  for (std::size_t i = 0; i < b.run.tests.size(); ++i) {
    const TestResult& test = b.run.tests[i];
    in_b.insert(test.name);
    for (const MetricComparison& c : test.comparisons)
      regressed = regressed || c.verdict == Verdict::kRegression;
    std::printf("%s [%s in B]\n%s\n", test.full_name.c_str(),
                std::string(test_status_name(status_in_b[i])).c_str(),
                format_regression_report(b.run.info.run_id, test).c_str());
  }
  for (const TestResult& test : a.run.tests) {
    if (in_b.count(test.name) == 0)
      std::printf("%s: in A only (not run in B)\n", test.name.c_str());
  }
  std::printf("compare: %s\n", regressed ? "REGRESSION" : "no regression");
  if (not_gated > 0) {
    std::printf("compare: %zu metric%s not gated (UNGATED or NOT_COMPARABLE)%s\n", not_gated,
                not_gated == 1 ? "" : "s",
                options.strict_env ? "; --strict-env fails the comparison" : "");
  }
  if (regressed) return ExitCode::kRegression;
  return options.strict_env && not_gated > 0 ? ExitCode::kNotGated : ExitCode::kPassed;
}

}  // namespace mlregress::internal
