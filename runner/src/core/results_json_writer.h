// results.json: the machine-readable record of a run (schema in runner/docs/results-schema.md).
// Rewritten atomically after every test, so it always holds every finished test.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "run_observer.h"

namespace mlregress::internal {

inline constexpr int kResultsSchemaVersion = 1;

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

/// The results document of a run. Exposed for golden-file tests.
nlohmann::json results_json(const RunResult& run);

/// One seed run of a seeded test: variant, seed, status, duration, metrics by name.
nlohmann::json seed_run_json(const SeedRun& run);

}  // namespace mlregress::internal
