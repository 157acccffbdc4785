// Throughput of a step (a training step, a batch from a data loader): steps/s and items/s
// (examples, tokens) measured with Google Benchmark — its warm-up, its choice of iteration
// count, its repetitions and its aggregates — from wall-clock time, so intra-op threads and
// time spent waiting count as they do in training.
//
//   ML_TIMING_TEST(Medium, CnnStepThroughput) {
//     ... build the model, the optimizer and a batch of 32 ...
//     const auto result = mlregress::measure_throughput("train_step", [&] { step(); },
//                                                       {.items_per_step = 32});
//     record_throughput("train_step", result);  // train_step.steps_per_s,
//     train_step.examples_per_s
//   }
//
// measure_throughput() uses Google Benchmark's global registry and clears it when it returns
// (benchmark::ClearRegisteredBenchmarks), so it does not mix with BENCHMARK() in one process.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress {

struct ThroughputOptions {
  double items_per_step = 1.0;  ///< examples (or tokens) one step processes
  int repetitions = 5;          ///< timed repetitions; the figures are their median and spread
  double min_time_s = 0.2;      ///< each repetition runs the step at least this long
  double warmup_s = 0.1;        ///< untimed steps first (caches, allocator, lazy init)
  std::string item_name = "examples";  ///< record_throughput() names the rate "<item_name>_per_s"
  /// Called after every step, inside the timed loop: a step that only queues work on a GPU
  /// must wait for it before the clock is read, or the rate counts launches, not work. For
  /// CUDA: `.synchronize = [] { torch::cuda::synchronize(); }` (mlregress/torch/gpu.h's
  /// cuda_throughput_options() sets it). Empty: nothing to wait for (CPU steps).
  std::function<void()> synchronize;
};

struct ThroughputResult {
  std::string name;
  ThroughputOptions options;
  std::vector<double> steps_per_s;        ///< one per repetition, in the order they ran
  std::vector<std::int64_t> steps_timed;  ///< steps each repetition timed (chosen by Benchmark)
  double median_steps_per_s = 0.0;
  double mean_steps_per_s = 0.0;
  double stddev_steps_per_s = 0.0;
  double cv = 0.0;                  ///< stddev / mean of steps/s across repetitions
  double median_items_per_s = 0.0;  ///< median_steps_per_s * items_per_step
  /// Distribution-free interval for the median steps/s from the order statistics of the
  /// repetitions (the sign-test interval), and its exact coverage: at 5 repetitions the widest
  /// one, [min, max], covers 93.75%; 95% needs 6 or more.
  double ci_low_steps_per_s = 0.0;
  double ci_high_steps_per_s = 0.0;
  double ci_coverage = 0.0;

  /// "train_step: 412.3 steps/s (13194 examples/s), cv 1.2%, 5 repetitions, median in [405.1,
  /// 418.0] (93.8%)"
  std::string describe() const;
};

/// The step threw, or the options are unusable; the message names the measurement.
class ThroughputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Runs `step` repeatedly under Google Benchmark and returns the per-repetition and aggregated
/// rates. A step that throws stops the measurement: ThroughputError with the step's message.
ThroughputResult measure_throughput(std::string_view name, const std::function<void()>& step,
                                    const ThroughputOptions& options = {});

/// Inside an ML test: records "<name>.steps_per_s" and "<name>.<item_name>_per_s" as
/// HigherIsBetter with the Timing policy and the measured cv, the spread a baseline keeps.
void record_throughput(std::string_view name, const ThroughputResult& result);

}  // namespace mlregress
