// Turns the stream of events from test processes into TestResults and tells the observers.
// This is where a test's status is decided: failures and crashes fail it, skips skip it.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "baseline_store.h"
#include "run_observer.h"
#include "run_plan.h"

namespace mlregress::internal {

class RunCollector {
 public:
  RunCollector(const RunPlan& plan, RunResult& run, std::vector<RunObserver*> observers);

  /// Compare every finished test's metrics with `baselines` (which must outlive the collector).
  /// A passing test with a REGRESSION (or, with strict_env, a NOT_COMPARABLE) is regressed.
  void compare_with(const BaselineSet* baselines, EnvironmentProfile profile, bool strict_env);

  void start_run();
  /// One event from a test process. Malformed events are recorded as runner errors.
  void handle(const nlohmann::json& event);
  /// The test process died while a test ran: that test is recorded as crashed.
  void crash_running_test(const std::string& message);
  void add_runner_error(const std::string& message);

  // Seeded tests. Their seeds run in parallel processes, so the supervisor collects each
  // seed's events and hands them over whole when its process has ended.
  void start_seeded_test(const PlannedTest& planned);
  /// `death` is empty when the process ended normally, else why it did not ("killed by signal
  /// 9", "timed out after 600 s"): a seed that did not finish is recorded as crashed.
  void add_seed_run(const SeedJob& job, const std::vector<nlohmann::json>& events,
                    const std::string& death, double duration_s);
  /// Aggregates the per-seed metrics into samples and analyses them against the baseline.
  void end_seeded_test(double duration_s);

  /// Decides every seeded metric's verdict at once: Holm's correction needs all the run's
  /// statistical checks. Call after the last test, before the exit code is decided.
  void apply_statistical_gate(double alpha);

  void finish_run();

  /// Full name of the test that started and has not ended, or empty.
  const std::string& running_test() const { return running_; }
  /// Problems the observers hit while writing (e.g. an unwritable JUnit file).
  const std::vector<std::string>& output_errors() const { return output_errors_; }

 private:
  TestResult& current();
  void end_current(TestStatus status_if_clean, double duration_s);
  void apply_baselines(TestResult& test) const;
  const BaselineTest* find_baseline(TestResult& test) const;
  template <typename Call>
  void notify(Call&& call);

  const RunPlan& plan_;
  RunResult& run_;
  std::vector<RunObserver*> observers_;
  std::string running_;
  std::chrono::steady_clock::time_point running_since_;
  std::set<std::string> curve_files_;
  std::vector<std::string> output_errors_;
  const BaselineSet* baselines_ = nullptr;
  EnvironmentProfile profile_;
  bool strict_env_ = false;
};

}  // namespace mlregress::internal
