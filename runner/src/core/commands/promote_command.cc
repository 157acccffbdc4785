#include "commands/promote_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <map>

#include "baselines/promotion.h"
#include "baselines/stored_samples_power.h"
#include "comparison/hypothesis_family.h"
#include "storage/run_record.h"
#include "support/clock.h"

namespace mlregress::internal {
namespace {

const TestResult* test_named(const RunRecord& run, const std::string& name) {
  for (const TestResult& test : run.run.tests)
    if (test.name == name) return &test;
  return nullptr;
}

const MetricRecord* metric_named(const TestResult& test, const std::string& name) {
  for (const MetricRecord& metric : test.metrics)
    if (metric.name == name) return &metric;
  return nullptr;
}

// The run's family of hypotheses as a later run of the same tests will count it: over the
// baselines as they are now written, the promoted run's tests.
int family_after_promotion(const RunRecord& run, const std::string& baselines_dir) {
  const BaselineSet baselines =
      BaselineSet::load(baselines_dir, run.run.info.binary, /*allow_missing=*/true);
  std::map<std::string, std::string> tests;
  for (const TestResult& test : run.run.tests) tests[test.name] = test.config_hash;
  return planned_hypotheses(baselines, tests);
}

// One line per seeded metric the file now stores: the power of the gate a later run makes
// against its samples.
void print_gate_power(const PlannedFile& file, const RunRecord& run, int family) {
  for (const auto& [test_name, metric_name] : file.seeded_metrics) {
    const TestResult* test = test_named(run, test_name);
    const MetricRecord* metric = test ? metric_named(*test, metric_name) : nullptr;
    if (metric == nullptr) continue;
    const BaselineTest& stored_test = file.after.tests.at(test_name);
    const BaselineMetric& stored = stored_test.metrics.at(metric_name);
    std::printf("  %s.%s: %s\n", test_name.c_str(), metric_name.c_str(),
                stored_samples_power_note(*metric, stored, *test, family, &stored_test).c_str());
  }
}

}  // namespace

ExitCode promote_command(const PromoteOptions& options) {
  const RunRecord run = read_run_record(options.run);
  const PromotionRequest request{.baselines_dir = options.baselines,
                                 .reason = options.reason,
                                 .filter = options.filter,
                                 .force = options.force,
                                 .add_seeds = options.add_seeds,
                                 .paired_spread = options.paired_spread,
                                 .add_pairs = options.add_pairs,
                                 .now = utc_now_iso8601()};
  std::vector<std::string> predictions;
  const std::vector<PlannedFile> written = promote_run(run, request, &predictions);
  for (const std::string& path : predictions)
    std::printf(
        "promote: %s (%s)\n", path.c_str(),
        path.find("/predictions/") != std::string::npos ? "predictions" : "reference curve");
  if (written.empty() && options.add_seeds) {
    std::printf(
        "promote: the baselines already hold every seed of run %s with the same values; "
        "nothing changed\n",
        run.run.info.run_id.c_str());
    return ExitCode::kPassed;
  }
  if (written.empty() && predictions.empty()) {
    std::printf("promote: baselines already match run %s; nothing changed\n",
                run.run.info.run_id.c_str());
    return ExitCode::kPassed;
  }
  const int family = family_after_promotion(run, options.baselines);
  for (const PlannedFile& file : written) {
    std::printf("promote: %s %s v%d -> v%d: %d changed, %d new metric%s\n", file.path.c_str(),
                file.created ? "created" : "updated", file.before.provenance.version,
                file.after.provenance.version, file.changed_metrics, file.new_metrics,
                file.new_metrics == 1 ? "" : "s");
    for (const std::string& line : file.detectable_effects) std::printf("  %s\n", line.c_str());
    print_gate_power(file, run, family);
    for (const std::string& line : file.skipped_values) std::printf("  %s\n", line.c_str());
  }
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
