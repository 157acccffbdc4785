// Latency of a single call (a batch-1 inference, a request): the distribution of per-call times,
// not a rate. A mean or a steps/s figure hides a slowdown that hits only some calls (an
// allocation every 20th call, a cache that misses now and then); p95 and p99 show it.
//
//   ML_TIMING_TEST(Medium, CnnInferenceLatency) {
//     ... build the model in eval mode and one input ...
//     // Calls of tens of microseconds: many of them, so that p99's tail is stable (the example
//     // suite's 7 x 2000; at the default 5 x 200 its cv reached 16-23% on a 2-core machine).
//     const auto result = mlregress::measure_latency("infer", [&] { model->forward(x); },
//                                                    {.repetitions = 7, .calls_per_repetition =
//                                                    2000});
//     record_latency("infer", result);  // infer.p50_ms, .p95_ms, .p99_ms, .trimmed_mean_ms
//   }
//
// Each repetition times `calls_per_repetition` calls one by one; its p50, p95 and p99 are type-7
// quantiles (numpy.percentile's default) and its trimmed mean cuts `trim` of the calls from each
// end. The recorded figure is the median of a figure over the repetitions and its spread the
// coefficient of variation across them, so each figure is gated as any timing is
// (runner/docs/timing.md, "Latency distributions").
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress {

struct LatencyOptions {
  int repetitions = 5;             ///< timed repetitions; at least 2 (a spread needs two)
  int calls_per_repetition = 200;  ///< at least 100: p99 rests on n/100 tail calls
  int warmup_calls = 20;           ///< untimed calls first (caches, allocator, lazy init)
  double trim = 0.10;              ///< the trimmed mean cuts this share from each end, [0, 0.5)
  /// Called after every call, inside the timed interval, as ThroughputOptions::synchronize: a
  /// call that only queues GPU work must wait for it. Empty: nothing to wait for.
  std::function<void()> synchronize;
  /// The clock, in seconds. Empty: std::chrono::steady_clock. Tests inject a fake one; a fixture
  /// may inject one that counts in units of a reference loop.
  std::function<double()> clock;
};

/// Latency figures in seconds (or, as LatencyResult::cv, the same figures' coefficients of
/// variation, unitless).
struct LatencyFigures {
  double p50_s = 0.0, p95_s = 0.0, p99_s = 0.0, trimmed_mean_s = 0.0;
};

struct LatencyResult {
  std::string name;
  LatencyOptions options;
  std::vector<std::vector<double>> call_s;  ///< per repetition, each call's time, in call order
  std::vector<LatencyFigures> per_repetition;
  LatencyFigures median;  ///< each figure's median over the repetitions: what is recorded
  LatencyFigures cv;      ///< each figure's sd / mean over the repetitions: its Timing cv

  /// "infer: p50 0.213 ms, p95 0.241 ms, p99 0.318 ms, trimmed mean 0.215 ms (cv 0.8%, 1.1%,
  /// 4.0%, 0.7%), 5 × 200 calls"
  std::string describe() const;
};

/// The options are unusable (fewer than 100 calls per repetition, fewer than 2 repetitions, ...),
/// the call threw, or the clock gave a non-finite time; the message names the measurement.
class LatencyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Times `call` (then `synchronize`) one call at a time: warmup_calls untimed, then repetitions
/// × calls_per_repetition timed. A call that throws stops the measurement with LatencyError.
LatencyResult measure_latency(std::string_view name, const std::function<void()>& call,
                              const LatencyOptions& options = {});

/// Inside an ML test: records "<name>.p50_ms", "<name>.p95_ms", "<name>.p99_ms" and
/// "<name>.trimmed_mean_ms" (medians over the repetitions, in milliseconds) as LowerIsBetter
/// with the Timing policy and each figure's cv across the repetitions.
void record_latency(std::string_view name, const LatencyResult& result);

}  // namespace mlregress
