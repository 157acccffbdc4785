#include "mlregress/throughput.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <vector>

#include "mlregress/ml_test.h"
#include "statistics/median_interval.h"

namespace mlregress {
namespace {

// Registered under a fixed name, so that no user text reaches Benchmark's filter regex; the
// filter selects it (and nothing a user may have registered with BENCHMARK()).
constexpr const char* kBenchmarkName = "mlregress_throughput";
constexpr const char* kStepsCounter = "steps_per_s";

// Keeps what Benchmark reports instead of printing it: the timed repetitions and the
// aggregates Benchmark computes over them (mean, median, stddev, cv).
class CapturingReporter final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      (run.run_type == Run::RT_Aggregate ? aggregates : repetitions).push_back(run);
    }
  }
  std::vector<Run> repetitions;
  std::vector<Run> aggregates;
};

// Benchmark's registry is global: leave it empty however the measurement ends.
struct ClearRegistryOnExit {
  ~ClearRegistryOnExit() { benchmark::ClearRegisteredBenchmarks(); }
};

void check_options(std::string_view name, const ThroughputOptions& options) {
  const auto fail = [&](const std::string& what) {
    throw ThroughputError(fmt::format("throughput '{}': {}", name, what));
  };
  // Benchmark computes aggregates only from two repetitions on, and a spread needs two values.
  if (options.repetitions < 2)
    fail(fmt::format("repetitions must be >= 2 (got {})", options.repetitions));
  if (!(options.items_per_step > 0.0) || !std::isfinite(options.items_per_step)) {
    fail(fmt::format("items_per_step must be finite and > 0 (got {})", options.items_per_step));
  }
  if (!(options.min_time_s > 0.0) || !std::isfinite(options.min_time_s)) {
    fail(fmt::format("min_time_s must be finite and > 0 (got {})", options.min_time_s));
  }
  if (!(options.warmup_s >= 0.0) || !std::isfinite(options.warmup_s)) {
    fail(fmt::format("warmup_s must be finite and >= 0 (got {})", options.warmup_s));
  }
  if (options.item_name.empty()) fail("item_name must not be empty");
}

double aggregate(const std::vector<benchmark::BenchmarkReporter::Run>& aggregates,
                 std::string_view statistic, std::string_view name) {
  for (const auto& run : aggregates) {
    if (run.aggregate_name != statistic) continue;
    const auto counter = run.counters.find(kStepsCounter);
    if (counter != run.counters.end()) return counter->second.value;
  }
  throw ThroughputError(
      fmt::format("throughput '{}': Google Benchmark reported no '{}' aggregate", name, statistic));
}

// Registers the step as Benchmark's one benchmark, with the counters the result reads. What the
// step throws lands in step_error, and later repetitions then skip at once.
benchmark::internal::Benchmark* register_step(const std::function<void()>& step,
                                              const ThroughputOptions& options,
                                              std::string& step_error) {
  return benchmark::RegisterBenchmark(
      kBenchmarkName, [&step, &options, &step_error](benchmark::State& state) {
        if (!step_error.empty()) {
          state.SkipWithError(step_error.c_str());
          return;
        }
        for (auto _ : state) {
          // An exception must not unwind through Benchmark's runner: report it as Benchmark's
          // own error and stop this repetition.
          try {
            step();
            if (options.synchronize) options.synchronize();
          } catch (const std::exception& error) {
            step_error = error.what();
          } catch (...) {
            step_error = "an exception not derived from std::exception";
          }
          if (!step_error.empty()) {
            state.SkipWithError(step_error.c_str());
            break;
          }
        }
        state.counters[kStepsCounter] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                           benchmark::Counter::kIsRate);
        state.SetItemsProcessed(static_cast<std::int64_t>(
            std::llround(static_cast<double>(state.iterations()) * options.items_per_step)));
      });
}

// The result from what Benchmark reported: each repetition's rate, the aggregates, the median's
// interval.
ThroughputResult collect_result(std::string_view name, const ThroughputOptions& options,
                                const CapturingReporter& reporter) {
  ThroughputResult result;
  result.name = std::string(name);
  result.options = options;
  for (const auto& run : reporter.repetitions) {
    if (run.error_occurred) {
      throw ThroughputError(fmt::format("throughput '{}': {}", name, run.error_message));
    }
    result.steps_timed.push_back(run.iterations);
    result.steps_per_s.push_back(static_cast<double>(run.iterations) / run.real_accumulated_time);
  }
  if (result.steps_per_s.size() != static_cast<std::size_t>(options.repetitions)) {
    throw ThroughputError(
        fmt::format("throughput '{}': Google Benchmark reported {} repetitions, "
                    "expected {}",
                    name, result.steps_per_s.size(), options.repetitions));
  }
  result.median_steps_per_s = aggregate(reporter.aggregates, "median", name);
  result.mean_steps_per_s = aggregate(reporter.aggregates, "mean", name);
  result.stddev_steps_per_s = aggregate(reporter.aggregates, "stddev", name);
  result.cv = aggregate(reporter.aggregates, "cv", name);
  result.median_items_per_s = result.median_steps_per_s * options.items_per_step;
  const internal::stats::MedianInterval ci = internal::stats::median_interval(result.steps_per_s);
  result.ci_low_steps_per_s = ci.low;
  result.ci_high_steps_per_s = ci.high;
  result.ci_coverage = ci.coverage;
  return result;
}

}  // namespace

ThroughputResult measure_throughput(std::string_view name, const std::function<void()>& step,
                                    const ThroughputOptions& options) {
  check_options(name, options);
  ClearRegistryOnExit clear_registry;
  std::string step_error;  // what the step threw; later repetitions then skip at once

  benchmark::internal::Benchmark* registered = register_step(step, options, step_error);
  // Wall-clock time: a training step's intra-op threads and waits are part of its cost.
  registered->UseRealTime()->Repetitions(options.repetitions)->MinTime(options.min_time_s);
  if (options.warmup_s > 0.0) registered->MinWarmUpTime(options.warmup_s);

  CapturingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter, std::string("^") + kBenchmarkName + "/");

  if (!step_error.empty()) {
    throw ThroughputError(fmt::format("throughput '{}': the step threw: {}", name, step_error));
  }
  return collect_result(name, options, reporter);
}

std::string ThroughputResult::describe() const {
  return fmt::format(
      "{}: {:.4g} steps/s ({:.4g} {}/s), cv {:.1f}%, {} repetitions, median in "
      "[{:.4g}, {:.4g}] ({:.1f}%)",
      name, median_steps_per_s, median_items_per_s, options.item_name, 100.0 * cv,
      steps_per_s.size(), ci_low_steps_per_s, ci_high_steps_per_s, 100.0 * ci_coverage);
}

void record_throughput(std::string_view name, const ThroughputResult& result) {
  const std::string prefix(name);
  const Timing timing{.cv = result.cv};
  MlTest::record(prefix + ".steps_per_s", result.median_steps_per_s, HigherIsBetter, timing);
  MlTest::record(prefix + "." + result.options.item_name + "_per_s", result.median_items_per_s,
                 HigherIsBetter, timing);
}

}  // namespace mlregress
