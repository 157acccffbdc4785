// seeds.jsonl in the run folder: one JSON line per finished seed run of a seeded test, appended
// the moment the seed's process ends. A run killed half-way through a 20-seed study keeps every
// seed that finished, and the ablation table is built from these lines. When a sequential test
// ends, the gate's looks at each of its metrics follow its seeds.
#pragma once

#include <string>

#include "execution/run_observer.h"

namespace mlregress::internal {

class SeedLedgerWriter final : public RunObserver {
 public:
  explicit SeedLedgerWriter(std::string path) : path_(std::move(path)) {}
  void on_seed_end(const TestResult& test, const SeedRun& seed_run, const RunResult& run) override;
  /// A sequential test's looks at each metric.
  void on_test_end(const TestResult& test, const RunResult& run) override;
  /// A shard holds only part of a test's seeds: its looks are left to merge.
  void leave_looks_out() { write_looks_ = false; }

 private:
  std::string path_;
  bool write_looks_ = true;
};

}  // namespace mlregress::internal
