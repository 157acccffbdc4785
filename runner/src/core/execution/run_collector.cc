#include "execution/run_collector.h"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

#include "execution/seed_runs.h"
#include "registry/config_hash.h"
#include "storage/batch_view_file.h"
#include "storage/predictions_file.h"
#include "support/clock.h"
#include "support/errors.h"
#include "support/overloaded.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

TestResult result_for(const PlannedTest& planned) {
  TestResult result;
  result.name = planned.test->name;
  result.full_name = planned.test->full_name();
  result.tier = planned.test->tier;
  result.file = planned.test->file;
  result.line = planned.test->line;
  result.config_hash = planned.config_hash;
  result.config = config_values(planned.params);
  return result;
}

}  // namespace

RunCollector::RunCollector(const RunPlan& plan, RunResult& run, std::vector<RunObserver*> observers)
    : plan_(plan), run_(run), observers_(std::move(observers)) {}

template <typename Call>
void RunCollector::notify(Call&& call) {
  for (RunObserver* observer : observers_) {
    try {
      call(*observer);
    } catch (const OutputError& error) {
      // Keep running: the remaining tests and the other outputs are still worth having.
      output_errors_.push_back(error.what());
    }
  }
}

void RunCollector::start_run() {
  notify([&](RunObserver& o) { o.on_run_start(run_); });
}

TestResult& RunCollector::current() { return run_.tests.back(); }
const TestResult& RunCollector::current() const { return run_.tests.back(); }

void RunCollector::start_test(TestResult result) {
  run_.tests.push_back(std::move(result));
  running_ = current().full_name;
  running_since_ = std::chrono::steady_clock::now();
  notify([&](RunObserver& o) { o.on_test_start(current()); });
}

void RunCollector::add_curve(TestResult& test, CurveRecord curve) {
  RecordedCurve recorded;
  recorded.csv_file =
      "curves/" + unique_file_name(test.name + "." + curve.name, ".csv", curve_files_);
  recorded.points = curve.values.size();
  recorded.curve = std::move(curve);
  test.curves.push_back(std::move(recorded));
  notify([&](RunObserver& o) { o.on_curve(test, test.curves.back()); });
}

void RunCollector::add_predictions(TestResult& test, const PredictionsRecorded& event) {
  RecordedPredictions recorded;
  recorded.name = event.name;
  recorded.csv_file = predictions_file_name(test.name, event.name);
  const Predictions& p = event.predictions;
  recorded.examples = p.ids.size();
  std::size_t correct = 0;
  for (std::size_t i = 0; i < p.ids.size(); ++i) correct += p.predicted[i] == p.target[i];
  recorded.accuracy =
      p.ids.empty() ? 0.0 : static_cast<double>(correct) / static_cast<double>(p.ids.size());
  recorded.data = std::make_shared<const Predictions>(p);
  try {
    recorded.confusion = confusion_matrix(p.predicted, p.target);
  } catch (const std::invalid_argument&) {
    // Not class indices (the test process checks the set; this one came over the pipe): the
    // predictions are kept without a matrix.
  }
  std::erase_if(test.predictions,  // recorded twice: the later set counts
                [&](const RecordedPredictions& r) { return r.name == event.name; });
  test.predictions.push_back(std::move(recorded));
  notify([&](RunObserver& o) { o.on_predictions(test, test.predictions.back()); });
}

void RunCollector::add_batch(TestResult& test, const BatchRecorded& event) {
  RecordedBatch recorded;
  recorded.name = event.name;
  recorded.kind = event.view.kind;
  recorded.file = batch_file_name(test.name, event.name);
  recorded.examples = static_cast<std::size_t>(batch_examples(event.view));
  recorded.data = std::make_shared<const BatchView>(event.view);
  std::erase_if(test.batches,  // recorded twice: the later batch counts
                [&](const RecordedBatch& b) { return b.name == event.name; });
  test.batches.push_back(std::move(recorded));
  notify([&](RunObserver& o) { o.on_batch(test, test.batches.back()); });
}

void RunCollector::keep_first_seed_batches(TestResult& test, const SeedJob& job,
                                           const std::vector<TestEvent>& events) {
  const bool first_variant =
      !job.test->variants.empty() && job.variant == &job.test->variants.front();
  if (job.seed != test.seed || !first_variant) return;
  for (const TestEvent& event : events) {
    if (const auto* b = std::get_if<BatchRecorded>(&event)) add_batch(test, *b);
  }
}

void RunCollector::handle(const TestEvent& event) {
  if (const auto* start = std::get_if<TestStarted>(&event)) {
    const PlannedTest* planned = plan_.find(start->test);
    if (planned == nullptr) {
      add_runner_error(fmt::format("test process started an unplanned test '{}'", start->test));
      return;
    }
    TestResult result = result_for(*planned);
    result.seed = plan_.settings.seed;
    result.threads = plan_.settings.threads;
    add_run_settings(result.config, result.seed, result.threads);
    result.started_at = start->started_at.empty() ? utc_now_iso8601() : start->started_at;
    start_test(std::move(result));
    return;
  }
  if (running_.empty()) {
    add_runner_error("an event arrived outside a test");
    return;
  }
  TestResult& test = current();
  std::visit(
      Overloaded{
          [&](const TestStarted&) {},
          [&](const AssertionFailed& e) {
            test.failures.push_back(e.failure);
            notify([&](RunObserver& o) { o.on_failure(test, test.failures.back()); });
          },
          [&](const TestSkipped& e) { test.skip_message = e.message; },
          [&](const MetricRecorded& e) {
            test.metrics.push_back(e.metric);
            notify([&](RunObserver& o) { o.on_metric(test, test.metrics.back()); });
          },
          [&](const BreakdownRecorded& e) { attach_breakdown(test.metrics, e); },
          [&](const CurveRecorded& e) { add_curve(test, e.curve); },
          [&](const PredictionsRecorded& e) { add_predictions(test, e); },
          [&](const DatasetRecorded& e) {
            add_dataset_fingerprint(test.datasets, {e.name, e.sha256, e.bytes, e.kind});
          },
          [&](const PropertyRecorded& e) { test.properties[e.key] = e.value; },
          [&](const ConstraintDeclared& e) { add_declared_constraint(test.constraints, e.text); },
          [&](const HeldOutEvaluated& e) {
            add_held_out_evaluation(test.held_out, e.name, e.sha256);
          },
          [&](const BatchRecorded& e) { add_batch(test, e); },
          [&](const TestEnded& e) { end_current(ended_status(e), e.duration_s); },
      },
      event);
}

void RunCollector::end_current(TestStatus status, double duration_s) {
  TestResult& test = current();
  // A failure always wins: GoogleTest may call a test with a failed SetUp "skipped".
  if (!test.failures.empty() && status != TestStatus::kCrashed && status != TestStatus::kTimedOut)
    status = TestStatus::kFailed;
  test.status = status;
  test.duration_s = duration_s;
  if (gate_ != nullptr) gate_->compare_test(test);
  test.finished = true;
  running_.clear();
  notify([&](RunObserver& o) { o.on_test_end(test, run_); });
}

void RunCollector::crash_running_test(const std::string& message) {
  if (running_.empty()) return;
  current().crash_message = message;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - running_since_).count();
  end_current(TestStatus::kCrashed, elapsed);
}

void RunCollector::time_out_running_test(const std::string& message) {
  if (running_.empty()) return;
  current().crash_message = message;
  end_current(TestStatus::kTimedOut, running_for_s());
}

double RunCollector::running_for_s() const {
  if (running_.empty()) return 0.0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - running_since_).count();
}

void RunCollector::add_runner_error(const std::string& message) {
  run_.runner_errors.push_back(message);
}

void RunCollector::start_seeded_test(const PlannedTest& planned) {
  TestResult result = result_for(planned);
  result.seed = planned.seeds.front();
  result.threads = 1;
  result.started_at = utc_now_iso8601();
  result.seeded = true;
  result.seed_runs_planned = planned.units.size();
  result.seed_block = planned.seed_block;
  result.seed_cap = static_cast<int>(planned.seeds.size());
  result.seed_pass_spending = planned.pass_spending;
  result.seed_pass_error = planned.pass_error;
  result.seed_next_block = planned.seed_next_block;
  result.seed_anytime = planned.seed_anytime;
  result.seed_likelihood_ratio = planned.seed_likelihood_ratio;
  result.seed_pass_rise = planned.seed_pass_rise;
  result.seed_pass_rise_from = planned.seed_pass_rise_from;
  result.seed_constant_pass = planned.seed_constant_pass;
  if (planned.attempts) {
    result.threads = plan_.settings.threads;
    add_run_settings(result.config, plan_.settings.seed, result.threads);
  }
  result.attempts = planned.attempts;
  result.quarantined = planned.quarantined;
  start_test(std::move(result));
}

void RunCollector::add_seed_run(const SeedJob& job, const std::vector<TestEvent>& events,
                                const std::string& death, double duration_s) {
  TestResult& test = current();
  std::vector<CurveRecord> curves;
  SeedRun& run = insert_in_plan_order(test.seed_runs,
                                      seed_run_from_events(job, events, death, duration_s, curves));
  for (CurveRecord& curve : curves) add_curve(test, std::move(curve));
  if (test.attempts && job.seed == test.seed) {
    // The first attempt's predictions are the test's, as its values are.
    for (const TestEvent& event : events) {
      if (const auto* p = std::get_if<PredictionsRecorded>(&event)) add_predictions(test, *p);
    }
  }
  keep_first_seed_batches(test, job, events);
  notify([&](RunObserver& o) { o.on_seed_end(test, run, run_); });
}

bool RunCollector::seeded_test_needs_more_seeds() const {
  // Without baselines every seed runs, so that one promotion stores all of them.
  if (gate_ == nullptr) return true;
  TestResult so_far = current();
  // A seed that failed or crashed fails the test; more seeds would not change that. (An attempt
  // of a flaky-aware test that failed is an outcome: its test still passes here.)
  if (summarize_seed_runs(so_far) != TestStatus::kPassed) return false;
  gate_->compare_test(so_far);
  for (const MetricComparison& c : so_far.comparisons) {
    if (c.kind == MetricKind::kRate) {
      // Without a usable baseline every outcome runs, for a promotion; else until decided.
      if (c.verdict == Verdict::kNew || c.verdict == Verdict::kNotComparable) return true;
      if (c.rate && c.rate->decision == stats::RateDecision::kContinue) return true;
      continue;
    }
    if (c.kind != MetricKind::kDistribution) continue;
    // No usable baseline (none yet, a single value, other data): every seed, for a promotion.
    if (c.verdict == Verdict::kNew || c.verdict == Verdict::kNotComparable) return true;
    if (!c.looks.empty() && c.looks.back().outcome == LookOutcome::kContinue) return true;
  }
  return false;
}

void RunCollector::end_seeded_test(double duration_s) {
  TestResult& test = current();
  const TestStatus status = summarize_seed_runs(test);
  for (const MetricRecord& m : test.metrics) notify([&](RunObserver& o) { o.on_metric(test, m); });
  end_current(status, duration_s);
}

void RunCollector::finish_run() {
  notify([&](RunObserver& o) { o.on_run_end(run_); });
}

}  // namespace mlregress::internal
