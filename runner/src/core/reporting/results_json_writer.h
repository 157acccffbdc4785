// Keeps results.json (storage/results_json.h) current while the run goes on: rewritten
// atomically after every test, so it always holds every finished test.
#pragma once

#include <string>

#include "execution/run_observer.h"

namespace mlregress::internal {

class ResultsJsonWriter final : public RunObserver {
 public:
  explicit ResultsJsonWriter(std::string path) : path_(std::move(path)) {}

  void on_run_start(const RunResult& run) override { write(run); }
  void on_test_end(const TestResult& /*test*/, const RunResult& run) override { write(run); }
  void on_run_end(const RunResult& run) override { write(run); }

 private:
  void write(const RunResult& run) const;
  std::string path_;
};

}  // namespace mlregress::internal
