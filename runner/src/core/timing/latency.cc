#include "mlregress/latency.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <vector>

#include "mlregress/ml_test.h"
#include "statistics/moments.h"
#include "statistics/robust_summary.h"

namespace mlregress {
namespace {

namespace stats = internal::stats;

void check_options(std::string_view name, const LatencyOptions& options) {
  const auto fail = [&](const std::string& what) {
    throw LatencyError(fmt::format("latency '{}': {}", name, what));
  };
  if (options.calls_per_repetition < 100) {
    fail(
        fmt::format("calls_per_repetition must be at least 100 (got {}): p99 rests on n/100 "
                    "tail calls, fewer than one below 100",
                    options.calls_per_repetition));
  }
  if (options.repetitions < 2)
    fail(fmt::format("repetitions must be >= 2 (got {})", options.repetitions));
  if (options.warmup_calls < 0)
    fail(fmt::format("warmup_calls must be >= 0 (got {})", options.warmup_calls));
  if (!(options.trim >= 0.0 && options.trim < 0.5))
    fail(fmt::format("trim must lie in [0, 0.5) (got {})", options.trim));
}

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs the call once and, with `clock`, returns its time; what it throws becomes LatencyError.
double time_one_call(std::string_view name, const std::function<void()>& call,
                     const LatencyOptions& options, const std::function<double()>& clock) {
  double elapsed = 0.0;
  try {
    const double start = clock();
    call();
    if (options.synchronize) options.synchronize();
    elapsed = clock() - start;
  } catch (const std::exception& error) {
    throw LatencyError(fmt::format("latency '{}': the call threw: {}", name, error.what()));
  } catch (...) {
    throw LatencyError(fmt::format(
        "latency '{}': the call threw an exception not derived from std::exception", name));
  }
  if (!std::isfinite(elapsed)) {
    throw LatencyError(fmt::format("latency '{}': the clock gave a non-finite time", name));
  }
  return elapsed;
}

LatencyFigures figures_of(const std::vector<double>& calls, double trim) {
  return {stats::quantile(calls, 0.50), stats::quantile(calls, 0.95), stats::quantile(calls, 0.99),
          stats::trimmed_mean(calls, trim)};
}

// Applies `summary` to each figure's values over the repetitions.
template <typename Summary>
LatencyFigures across(const std::vector<LatencyFigures>& repetitions, Summary summary) {
  LatencyFigures out;
  for (double LatencyFigures::*figure : {&LatencyFigures::p50_s, &LatencyFigures::p95_s,
                                         &LatencyFigures::p99_s, &LatencyFigures::trimmed_mean_s}) {
    std::vector<double> values;
    for (const LatencyFigures& r : repetitions) values.push_back(r.*figure);
    out.*figure = summary(values);
  }
  return out;
}

double coefficient_of_variation(const std::vector<double>& values) {
  const stats::SampleSummary s = stats::summarize_samples(values);
  return s.sd / s.mean;
}

}  // namespace

LatencyResult measure_latency(std::string_view name, const std::function<void()>& call,
                              const LatencyOptions& options) {
  check_options(name, options);
  const std::function<double()> clock = options.clock ? options.clock : steady_seconds;
  for (int i = 0; i < options.warmup_calls; ++i) time_one_call(name, call, options, clock);
  LatencyResult result;
  result.name = std::string(name);
  result.options = options;
  for (int r = 0; r < options.repetitions; ++r) {
    std::vector<double>& calls = result.call_s.emplace_back();
    calls.reserve(static_cast<std::size_t>(options.calls_per_repetition));
    for (int i = 0; i < options.calls_per_repetition; ++i)
      calls.push_back(time_one_call(name, call, options, clock));
    result.per_repetition.push_back(figures_of(calls, options.trim));
  }
  result.median =
      across(result.per_repetition, [](const std::vector<double>& v) { return stats::median(v); });
  result.cv = across(result.per_repetition, coefficient_of_variation);
  return result;
}

std::string LatencyResult::describe() const {
  return fmt::format(
      "{}: p50 {:.4g} ms, p95 {:.4g} ms, p99 {:.4g} ms, trimmed mean {:.4g} ms (cv {:.1f}%, "
      "{:.1f}%, {:.1f}%, {:.1f}%), {} × {} calls",
      name, 1e3 * median.p50_s, 1e3 * median.p95_s, 1e3 * median.p99_s, 1e3 * median.trimmed_mean_s,
      100.0 * cv.p50_s, 100.0 * cv.p95_s, 100.0 * cv.p99_s, 100.0 * cv.trimmed_mean_s,
      per_repetition.size(), options.calls_per_repetition);
}

void record_latency(std::string_view name, const LatencyResult& result) {
  const std::string prefix(name);
  const LatencyFigures& m = result.median;
  const LatencyFigures& cv = result.cv;
  MlTest::record(prefix + ".p50_ms", 1e3 * m.p50_s, LowerIsBetter, Timing{.cv = cv.p50_s});
  MlTest::record(prefix + ".p95_ms", 1e3 * m.p95_s, LowerIsBetter, Timing{.cv = cv.p95_s});
  MlTest::record(prefix + ".p99_ms", 1e3 * m.p99_s, LowerIsBetter, Timing{.cv = cv.p99_s});
  MlTest::record(prefix + ".trimmed_mean_ms", 1e3 * m.trimmed_mean_s, LowerIsBetter,
                 Timing{.cv = cv.trimmed_mean_s});
}

}  // namespace mlregress
