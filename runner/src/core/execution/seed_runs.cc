#include "execution/seed_runs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

#include "statistics/moments.h"
#include "support/overloaded.h"

namespace mlregress::internal {

namespace {

// A seed whose training diverged has not passed, whatever its assertions said.
void fail_diverged_metrics(SeedRun& run) {
  for (const MetricRecord& m : run.metrics) {
    if (!std::isfinite(m.value)) {
      run.failures.push_back(
          {"", 0, fmt::format("metric '{}' is {}: the run diverged", m.name, m.value), false});
    }
  }
}

// A covariate names another metric of the same test; one the seed did not record (a typo, a
// renamed metric) would leave the metric unadjusted against every run without saying why.
void fail_missing_covariates(SeedRun& run) {
  std::vector<std::string> recorded;
  for (const MetricRecord& m : run.metrics) recorded.push_back(m.name);
  for (const MetricRecord& m : run.metrics) {
    const Margin* margin = std::get_if<Margin>(&m.policy);
    if (margin == nullptr || margin->covariate.empty() ||
        std::find(recorded.begin(), recorded.end(), margin->covariate) != recorded.end()) {
      continue;
    }
    run.failures.push_back(
        {"", 0,
         fmt::format("metric '{}' names the covariate '{}', which this seed did not record; "
                     "Margin{{.covariate}} names another metric of the same test (recorded: "
                     "'{}')",
                     m.name, margin->covariate, fmt::join(recorded, "', '")),
         false});
  }
}

}  // namespace

namespace {

// A seed's curve, named "loss.seed3" ("loss[variant].seed3"): each seed's is a curve of its own.
// A flaky-aware test keeps its first attempt's curves under their own names, as a plain run
// records them.
void keep_seed_curve(const SeedJob& job, const SeedRun& run, const CurveRecord& curve,
                     std::vector<CurveRecord>& curves) {
  if (job.test->attempts) {
    if (job.seed == job.test->seeds.front()) curves.push_back(curve);
    return;
  }
  CurveRecord renamed = curve;
  renamed.name = fmt::format("{}.seed{}", variant_metric_name(renamed.name, run.variant), run.seed);
  curves.push_back(std::move(renamed));
}

}  // namespace

SeedRun seed_run_from_events(const SeedJob& job, const std::vector<TestEvent>& events,
                             const std::string& death, double duration_s,
                             std::vector<CurveRecord>& curves) {
  SeedRun run;
  run.variant = job.variant->name;
  run.variant_index = static_cast<std::size_t>(job.variant - job.test->variants.data());
  run.seed = job.seed;
  run.method = job.variant->method;
  run.trial = job.variant->trial;
  run.duration_s = duration_s;
  bool ended = false;
  for (const TestEvent& event : events) {
    // Every event named: one added to TestEvent fails to compile here until it is handled.
    std::visit(
        Overloaded{
            [](const TestStarted&) {},
            [&](const AssertionFailed& e) { run.failures.push_back(e.failure); },
            [&](const TestSkipped& e) { run.skip_message = e.message; },
            [&](const MetricRecorded& e) { run.metrics.push_back(e.metric); },
            [&](const BreakdownRecorded& e) { attach_breakdown(run.metrics, e); },
            [&](const CurveRecorded& e) { keep_seed_curve(job, run, e.curve, curves); },
            // Predictions are not kept per seed: the collector keeps those of a flaky-aware
            // test's first attempt (add_seed_run).
            [](const PredictionsRecorded&) {},
            [&](const DatasetRecorded& e) {
              add_dataset_fingerprint(run.datasets, {e.name, e.sha256, e.bytes, e.kind});
            },
            [&](const PropertyRecorded& e) { run.properties[e.key] = e.value; },
            [&](const ConstraintDeclared& e) { add_declared_constraint(run.constraints, e.text); },
            [&](const HeldOutEvaluated& e) {
              add_held_out_evaluation(run.held_out, e.name, e.sha256);
            },
            // Batches are not kept per seed: the collector keeps the first seed's
            // (keep_first_seed_batches).
            [](const BatchRecorded&) {},
            [&](const TestEnded& e) {
              ended = true;
              run.status = ended_status(e);
            },
        },
        event);
  }
  fail_diverged_metrics(run);
  if (ended && run.status == TestStatus::kPassed) fail_missing_covariates(run);
  if (!ended) {
    // A flaky-aware test's attempt killed for its timeout is a timeout (JUnit type "timeout").
    run.status = job.test->attempts && death.starts_with("timed out") ? TestStatus::kTimedOut
                                                                      : TestStatus::kCrashed;
    run.crash_message = death.empty() ? "the test process ended without finishing the test" : death;
  } else if (!run.failures.empty()) {
    run.status = TestStatus::kFailed;
  }
  return run;
}

SeedRun& insert_in_plan_order(std::vector<SeedRun>& runs, SeedRun run) {
  const auto rank = [](const SeedRun& r) { return std::pair{r.variant_index, r.seed}; };
  auto at = runs.begin();
  while (at != runs.end() && rank(*at) < rank(run)) ++at;
  return *runs.insert(at, std::move(run));
}

namespace {

// A flaky-aware test: the attempts' outcomes become the failure-rate metric, and the first
// attempt in plan order (seed S, the one a plain run would have made) gives the test its metrics
// and data fingerprints. A failed or crashed attempt is an outcome, not a failure of the test.
TestStatus summarize_attempts(TestResult& test) {
  test.metrics.clear();
  MetricRecord rate{kFailureRateMetric, 0.0, Direction::LowerIsBetter, *test.attempts, {}, {}};
  std::size_t skipped = 0;
  for (const SeedRun& run : test.seed_runs) {
    if (run.status == TestStatus::kSkipped) {
      ++skipped;
      continue;
    }
    // An attempt no shard ran is no outcome (merge reports it; the test cannot be judged).
    if (is_missing_unit(run)) continue;
    rate.samples.push_back(is_test_failure(run.status) ? 1.0 : 0.0);
    rate.sample_seeds.push_back(run.seed);
  }
  // The first attempt's values: only seed S's (a shard that did not run it has none).
  for (const SeedRun& run : test.seed_runs) {
    if (run.seed != test.seed || is_missing_unit(run)) continue;
    test.metrics = run.metrics;
    if (!run.datasets.empty()) test.datasets = run.datasets;
    if (!run.properties.empty()) test.properties = run.properties;
    for (const std::string& text : run.constraints) add_declared_constraint(test.constraints, text);
    if (!run.held_out.empty()) test.held_out = run.held_out;
  }
  if (!rate.samples.empty()) {
    rate.value = stats::summarize_samples(rate.samples).mean;
    test.metrics.push_back(std::move(rate));
  }
  if (skipped == test.seed_runs.size() && skipped > 0) {
    test.skip_message = test.seed_runs.front().skip_message;
    return TestStatus::kSkipped;
  }
  return TestStatus::kPassed;
}

// Samples come from the seeds that passed, in plan order. A seed that failed or died is an
// error of the test, reported as its failures; the others' values are still kept and shown. A NaN
// or Inf is kept whichever seed recorded it, so that the metric's verdict is REGRESSION.
void gather_seed_samples(TestResult& test) {
  for (const SeedRun& run : test.seed_runs) {
    for (const MetricRecord& m : run.metrics) {
      if (run.status != TestStatus::kPassed && std::isfinite(m.value)) continue;
      const std::string name = variant_metric_name(m.name, run.variant);
      auto it = std::find_if(test.metrics.begin(), test.metrics.end(),
                             [&](const MetricRecord& a) { return a.name == name; });
      if (it == test.metrics.end()) {
        MetricRecord aggregate;
        aggregate.name = name;
        aggregate.direction = m.direction;
        aggregate.policy = m.policy;
        test.metrics.push_back(std::move(aggregate));
        it = std::prev(test.metrics.end());
      }
      it->samples.push_back(m.value);
      it->sample_seeds.push_back(run.seed);
    }
  }
}

// The data a seeded test was measured on: each fingerprint as its first seed in plan order
// recorded it, whatever order the seeds finished in. A baseline promoted from other data makes
// the test NOT_COMPARABLE, as for a plain test. Seed runs read back from results.json (merge)
// carry none: the test keeps the fingerprints it was given.
void keep_first_fingerprints(TestResult& test) {
  const bool seeds_recorded_data =
      std::any_of(test.seed_runs.begin(), test.seed_runs.end(),
                  [](const SeedRun& run) { return !run.datasets.empty(); });
  if (seeds_recorded_data) test.datasets.clear();
  for (const SeedRun& run : test.seed_runs) {
    for (const RecordedDataset& d : run.datasets) {
      const bool known = std::any_of(
          test.datasets.begin(), test.datasets.end(),
          [&](const RecordedDataset& kept) { return kept.name == d.name && kept.kind == d.kind; });
      if (!known) test.datasets.push_back(d);
    }
  }
}

// The properties of a seeded test, kept as its fingerprints are: each key as its first seed in
// plan order recorded it. Seed runs read back from results.json carry none.
void keep_first_properties(TestResult& test) {
  const bool seeds_recorded_properties =
      std::any_of(test.seed_runs.begin(), test.seed_runs.end(),
                  [](const SeedRun& run) { return !run.properties.empty(); });
  if (!seeds_recorded_properties) return;
  test.properties.clear();
  // insert() keeps a key already there: the earlier seed's value.
  for (const SeedRun& run : test.seed_runs)
    test.properties.insert(run.properties.begin(), run.properties.end());
}

// The held-out sets a seeded test evaluated: once per variant (held_out_of_seed_runs). Seed runs
// read back from results.json carry none: the test keeps the counts it was given.
void count_held_out_evaluations(TestResult& test) {
  if (std::any_of(test.seed_runs.begin(), test.seed_runs.end(),
                  [](const SeedRun& run) { return !run.held_out.empty(); })) {
    test.held_out = held_out_of_seed_runs(test.seed_runs);
  }
}

}  // namespace

std::string attempt_label(const TestResult& test, const SeedRun& run) {
  return fmt::format("attempt {} (seed {})", run.seed - test.seed + 1, run.seed);
}

TestStatus summarize_seed_runs(TestResult& test) {
  if (test.attempts) return summarize_attempts(test);
  std::size_t failed = 0, crashed = 0, skipped = 0;
  for (const SeedRun& run : test.seed_runs) {
    failed += run.status == TestStatus::kFailed;
    crashed += run.status == TestStatus::kCrashed;
    skipped += run.status == TestStatus::kSkipped;
    for (const TestFailure& f : run.failures) {
      test.failures.push_back({f.file, f.line, seed_label(run) + ": " + f.message, f.fatal});
    }
    if (run.status == TestStatus::kCrashed) {
      test.failures.push_back({"", 0, seed_label(run) + ": " + run.crash_message, true});
    }
  }
  gather_seed_samples(test);
  for (MetricRecord& m : test.metrics) m.value = stats::summarize_samples(m.samples).mean;
  keep_first_fingerprints(test);
  keep_first_properties(test);
  for (const SeedRun& run : test.seed_runs) {
    for (const std::string& text : run.constraints) add_declared_constraint(test.constraints, text);
  }
  count_held_out_evaluations(test);

  if (crashed > 0) {
    test.crash_message =
        fmt::format("{} of {} seed runs did not finish", crashed, test.seed_runs.size());
    return TestStatus::kCrashed;
  }
  if (failed > 0) return TestStatus::kFailed;
  if (skipped == test.seed_runs.size() && skipped > 0) {
    test.skip_message = test.seed_runs.front().skip_message;
    return TestStatus::kSkipped;
  }
  return TestStatus::kPassed;
}

}  // namespace mlregress::internal
