// GoogleTest-style console output, plus one line per recorded metric and a closing summary.
// Colour only when writing to a terminal (or when forced).
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "execution/run_observer.h"

namespace mlregress::internal {

class ConsoleReporter final : public RunObserver {
 public:
  /// `progress_in_place`: rewrite one progress line per seeded test (a terminal) instead of
  /// printing a line per seed (CI logs).
  ConsoleReporter(std::FILE* out, bool color, bool progress_in_place = false)
      : out_(out), color_(color), progress_in_place_(progress_in_place) {}

  /// At the end of the run, print the ablation table of every seeded test with variants,
  /// built from this seed ledger (seeds.jsonl).
  void show_ablations_from(std::string seed_ledger) { seed_ledger_ = std::move(seed_ledger); }

  void on_run_start(const RunResult& run) override;
  void on_test_start(const TestResult& test) override;
  void on_failure(const TestResult& test, const TestFailure& failure) override;
  void on_metric(const TestResult& test, const MetricRecord& metric) override;
  void on_seed_end(const TestResult& test, const SeedRun& seed_run, const RunResult& run) override;
  void on_test_end(const TestResult& test, const RunResult& run) override;
  void on_run_end(const RunResult& run) override;

 private:
  enum class Color { kGreen, kRed, kYellow };
  void tag(Color color, const char* text);
  void flush();
  void print_promotion_hint(const RunResult& run);
  void print_capabilities(const RunResult& run);
  void print_ablation_tables(const RunResult& run);
  void print_gate_verdicts(const RunResult& run);
  void print_seeded_verdicts(const RunResult& run);
  void print_prediction_verdicts(const RunResult& run);
  void print_late_causes(const RunResult& run);
  void print_cause(const MetricComparison& c);
  void print_not_gated(const RunResult& run);
  void print_summary(const RunResult& run);

  std::FILE* out_;
  bool color_;
  bool progress_in_place_;
  bool progress_line_open_ = false;
  std::string seed_ledger_;
  std::chrono::steady_clock::time_point test_start_;
};

/// Whether `out` is a terminal that takes colour (not TERM=dumb, NO_COLOR unset).
bool terminal_wants_color(std::FILE* out);

}  // namespace mlregress::internal
