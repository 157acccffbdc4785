// Reporters and writers observe a run through this interface. They never decide anything: the
// status of every test is fixed by RunCollector before they see it.
#pragma once

#include "record/run_result.h"

namespace mlregress::internal {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void on_run_start(const RunResult& /*run*/) {}
  virtual void on_test_start(const TestResult& /*test*/) {}
  virtual void on_failure(const TestResult& /*test*/, const TestFailure& /*failure*/) {}
  virtual void on_metric(const TestResult& /*test*/, const MetricRecord& /*metric*/) {}
  virtual void on_curve(const TestResult& /*test*/, const RecordedCurve& /*curve*/) {}
  virtual void on_predictions(const TestResult& /*test*/,
                              const RecordedPredictions& /*predictions*/) {}
  /// A batch the test recorded (record_batch), its view in batch.data.
  virtual void on_batch(const TestResult& /*test*/, const RecordedBatch& /*batch*/) {}
  /// A seed of a seeded test finished (its SeedRun is in test.seed_runs).
  virtual void on_seed_end(const TestResult& /*test*/, const SeedRun& /*seed_run*/,
                           const RunResult& /*run*/) {}
  virtual void on_test_end(const TestResult& /*test*/, const RunResult& /*run*/) {}
  virtual void on_run_end(const RunResult& /*run*/) {}
};

}  // namespace mlregress::internal
