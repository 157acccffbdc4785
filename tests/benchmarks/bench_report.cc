// What the end of a run pays for report.html, and what `report` pays for each format: a run
// folder of 50 tests written once (40 plain tests with 4 compared metrics and 2 curves of 2,000
// steps each, 10 seeded tests with 2 metrics over 20 seeds), then the report built from it and
// rendered. Prints the time per report and the size of each output (counters html_bytes, ...).
//   build/tests/benchmarks/bench_report
#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>

#include "analysis/distribution_gate.h"
#include "renderers/html_report.h"
#include "renderers/markdown_report.h"
#include "renderers/openmetrics_report.h"
#include "storage/curve_csv.h"
#include "support/atomic_file.h"

namespace mlregress::internal {
namespace {

constexpr int kPlainTests = 40, kSeededTests = 10, kCurvePoints = 2000, kSeeds = 20;

RunRecord make_run_folder(const std::string& path) {
  std::filesystem::create_directories(path + "/curves");
  RunRecord record;
  record.path = path;
  record.run.info.run_id = "20261203T000000Z-bench";
  record.run.info.binary = "bench";
  record.run.info.finished_at = "2026-12-03T00:00:10.000Z";
  record.run.info.environment = {{"git", {{"commit", "0123456789abcdef"}, {"dirty", false}}}};
  for (int t = 0; t < kPlainTests; ++t) {
    TestResult test;
    test.name = "Plain" + std::to_string(t);
    test.full_name = "Medium." + test.name;
    test.finished = true;
    for (int m = 0; m < 4; ++m) {
      const std::string name = "metric_" + std::to_string(m);
      test.metrics.push_back({name, 1.0 + 0.01 * m, Direction::LowerIsBetter, Band{.rtol = 0.05}});
      MetricComparison c;
      c.metric = name;
      c.observed = 1.0 + 0.01 * m;
      c.baseline = 1.0;
      c.delta = 0.01 * m;
      c.allowed = 0.05;
      c.verdict = t % 10 == 0 && m == 0 ? Verdict::kRegression : Verdict::kPass;
      test.comparisons.push_back(c);
    }
    for (const char* curve_name : {"loss", "val_loss"}) {
      CurveRecord curve{curve_name, {}, {}};
      for (int i = 0; i < kCurvePoints; ++i) {
        curve.steps.push_back(i);
        curve.values.push_back(2.3 * std::exp(-i / 300.0) + 0.01 * std::sin(i));
      }
      const std::string file = "curves/" + test.name + "." + curve_name + ".csv";
      write_file_atomically(path + "/" + file, render_curve_csv(curve));
      test.curves.push_back({CurveRecord{curve_name, {}, {}}, file, curve.values.size()});
    }
    record.run.tests.push_back(std::move(test));
  }
  for (int t = 0; t < kSeededTests; ++t) {
    TestResult test;
    test.name = "Seeded" + std::to_string(t);
    test.full_name = "Full." + test.name;
    test.seeded = true;
    test.finished = true;
    for (const char* name : {"accuracy", "loss"}) {
      MetricRecord metric{name, 0.87, Direction::HigherIsBetter, Margin{.delta = 0.01}};
      SeedSamples baseline;
      for (int s = 0; s < kSeeds; ++s) {
        metric.samples.push_back(0.87 + 0.01 * std::sin(s + t));
        metric.sample_seeds.push_back(static_cast<std::uint64_t>(s));
        baseline.values.push_back(0.875 + 0.01 * std::cos(s));
        baseline.seeds.push_back(static_cast<std::uint64_t>(s));
      }
      MetricComparison c;
      c.metric = name;
      c.kind = MetricKind::kDistribution;
      c.distribution = analyse_distribution(name, metric.direction, 0.01,
                                            {metric.samples, metric.sample_seeds}, baseline);
      c.verdict = Verdict::kInconclusive;
      test.comparisons.push_back(c);
      test.metrics.push_back(std::move(metric));
    }
    record.run.tests.push_back(std::move(test));
  }
  return record;
}

const RunRecord& run_folder() {
  static const RunRecord record =
      make_run_folder((std::filesystem::temp_directory_path() / "mlregress-bench-report").string());
  return record;
}

template <std::string (*Render)(const RunReport&)>
void BM_Report(benchmark::State& state) {
  const RunRecord& record = run_folder();
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string text = Render(build_run_report(record, {"bench", nullptr, nullptr}));
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["tests"] = static_cast<double>(record.run.tests.size());
}

std::string markdown(const RunReport& report) { return render_markdown_report(report); }

BENCHMARK(BM_Report<render_html_report>)
    ->Name("report_html_50_tests")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Report<markdown>)->Name("report_markdown_50_tests")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Report<render_openmetrics_report>)
    ->Name("report_openmetrics_50_tests")
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mlregress::internal

BENCHMARK_MAIN();
