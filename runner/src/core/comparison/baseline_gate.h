// The one path from recorded metrics to verdicts, shared by `run` (test by test as they end),
// `compare` (a whole run folder against another) and any later reader of finished runs:
//
//   1. compare_test: every metric of a finished test against its baseline entry (single values
//      by band or exactness, seeded metrics analysed against the baseline's samples), with the
//      baseline file, version and environment change noted on the test;
//   2. decide_run: once every test has ended, the verdicts of all seeded metrics at
//      once (Holm's correction spans the run's statistical checks).
//
// A passing test with a REGRESSION becomes regressed. UNGATED and NOT_COMPARABLE leave the test's
// status alone: whether they fail the run is the run's choice (--strict-env, its own exit code).
#pragma once

#include <map>
#include <string>

#include "baselines/baseline_store.h"
#include "environment/environment_profile.h"
#include "record/run_result.h"

namespace mlregress::internal {

class BaselineGate {
 public:
  /// `baselines` must outlive the gate. `profile` is the candidate run's environment profile.
  /// `alpha` is the run's family-wise level; sequential tests decide at which look to stop by it.
  BaselineGate(const BaselineSet& baselines, EnvironmentProfile profile, double alpha);

  /// A shard's gate: failure rates are left INCONCLUSIVE ("decided at merge"), since a shard
  /// holds every N-th outcome of the plan and the looks need the first ones in order.
  void decide_rates_at_merge() { rates_at_merge_ = true; }

  /// The tests the run plans (names as the baseline files key them -> their config hash): a
  /// sequential look settles a seeded metric only at alpha / m, m their distinct hypotheses
  /// (planned_hypotheses), the level at which Holm's correction over the run will certainly
  /// confirm it. Without a plan the gate decides at alpha (m = 1). judge_run plans the tests of
  /// the run it judges.
  void plan_family(const std::map<std::string, std::string>& tests);

  /// Step 1 for one finished test. Its seeded metrics stay pending (INCONCLUSIVE, with an
  /// analysis but no decision) until decide_run.
  void compare_test(TestResult& test) const;

  /// Step 2: decides every pending seeded metric and predictions check of the run at the gate's
  /// alpha, Holm's correction across all of them. Throws std::invalid_argument for an alpha
  /// outside (0, 1).
  void decide_run(RunResult& run) const;

  /// Both steps for every finished test of a run read back from its folder, its family planned
  /// from the run's tests.
  void judge_run(RunResult& run);

 private:
  const BaselineTest* find_baseline(TestResult& test) const;
  /// One metric of a finished test against its baseline entry, as the test's policy and seeding
  /// say, with what its environment and attempts add to the verdict and note.
  MetricComparison compare_recorded_metric(const TestResult& test, const MetricRecord& metric,
                                           const BaselineTest* baseline) const;
  /// The analysis the metric's policy and the test's seeding call for: a failure rate, a single
  /// value, or the seeds' values as a distribution (looked at block by block when sequential).
  MetricComparison analyse_metric(const TestResult& test, const MetricRecord& metric,
                                  const BaselineMetric* entry, const BaselineTest* baseline) const;
  /// Names the cause of each of the test's verdicts that is not a PASS (once they are final).
  void explain(TestResult& test) const;

  const BaselineSet& baselines_;
  EnvironmentProfile profile_;
  double alpha_;
  int family_ = 1;
  bool rates_at_merge_ = false;
};

}  // namespace mlregress::internal
