// Turns the events of test processes into TestResults and tells the observers, as they happen.
// This is where a test's status is decided: failures and crashes fail it, skips skip it; with a
// BaselineGate, each test is compared with its baseline the moment it ends.
#pragma once

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "comparison/baseline_gate.h"
#include "execution/run_observer.h"
#include "execution/run_plan.h"
#include "execution/test_events.h"

namespace mlregress::internal {

class RunCollector {
 public:
  RunCollector(const RunPlan& plan, RunResult& run, std::vector<RunObserver*> observers);

  /// Compare every finished test with its baseline through `gate` (which must outlive the
  /// collector).
  void compare_with(const BaselineGate* gate) { gate_ = gate; }

  void start_run();
  /// One event from the process that runs plain tests.
  void handle(const TestEvent& event);
  /// The test process died while a test ran: that test is recorded as crashed.
  void crash_running_test(const std::string& message);
  /// Ends the running test as timed out (its process was killed); what it recorded is kept.
  void time_out_running_test(const std::string& message);
  /// Seconds since the running test started (0 when none runs).
  double running_for_s() const;
  void add_runner_error(const std::string& message);

  // Seeded tests. Their seeds run in parallel processes, so the supervisor collects each
  // seed's events and hands them over whole when its process has ended.
  void start_seeded_test(const PlannedTest& planned);
  /// `death`: see seed_run_from_events.
  void add_seed_run(const SeedJob& job, const std::vector<TestEvent>& events,
                    const std::string& death, double duration_s);
  /// Sequential tests, after a block of seeds: whether the gate has a metric still undecided
  /// (or new, without a baseline), so that the next block should run.
  bool seeded_test_needs_more_seeds() const;
  /// Aggregates the per-seed metrics into samples and compares them with the baseline.
  void end_seeded_test(double duration_s);

  void finish_run();

  /// Full name of the test that started and has not ended, or empty.
  const std::string& running_test() const { return running_; }
  /// Problems the observers hit while writing (e.g. an unwritable JUnit file).
  const std::vector<std::string>& output_errors() const { return output_errors_; }

 private:
  TestResult& current();
  const TestResult& current() const;
  void start_test(TestResult result);
  void add_predictions(TestResult& test, const PredictionsRecorded& event);
  void add_batch(TestResult& test, const BatchRecorded& event);
  /// A seeded test keeps the batches of its first seed (of the first variant).
  void keep_first_seed_batches(TestResult& test, const SeedJob& job,
                               const std::vector<TestEvent>& events);
  void add_curve(TestResult& test, CurveRecord curve);
  void end_current(TestStatus status_if_clean, double duration_s);
  template <typename Call>
  void notify(Call&& call);

  const RunPlan& plan_;
  RunResult& run_;
  std::vector<RunObserver*> observers_;
  std::string running_;
  std::chrono::steady_clock::time_point running_since_;
  std::set<std::string> curve_files_;
  std::vector<std::string> output_errors_;
  const BaselineGate* gate_ = nullptr;
};

}  // namespace mlregress::internal
