// Each record_predictions() becomes predictions/<test>.<name>.csv in the run folder (id,
// predicted, target), and, once the test is compared with reference predictions, the full flip
// lists predictions/<test>.<name>.flips.csv (kind, id, target, baseline and candidate
// prediction): the console and results.json show a summary, this file every example.
#pragma once

#include <string>

#include "execution/run_observer.h"

namespace mlregress::internal {

class PredictionsWriter final : public RunObserver {
 public:
  explicit PredictionsWriter(std::string run_folder) : run_folder_(std::move(run_folder)) {}
  void on_predictions(const TestResult& test, const RecordedPredictions& predictions) override;
  void on_test_end(const TestResult& test, const RunResult& run) override;

 private:
  std::string run_folder_;
};

/// "predictions/<test>.<name>.flips.csv"
std::string flips_file_name(const std::string& test, const std::string& name);

}  // namespace mlregress::internal
