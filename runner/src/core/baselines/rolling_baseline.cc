#include "baselines/rolling_baseline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "baselines/promotion.h"
#include "environment/git_info.h"
#include "storage/run_folder_search.h"
#include "storage/run_record.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

// The median of the finite values; NaN when there are none.
double median_of(std::vector<double> values) {
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Why a run folder cannot be part of the baseline; empty when it can.
std::string unusable_because(const RunRecord& record, const std::string& binary,
                             const EnvironmentProfile& profile) {
  const RunInfo& info = record.run.info;
  if (info.binary != binary) return "of another binary";
  if (record.profile.id != profile.id) return "on another environment profile";
  if (info.finished_at.empty()) return "incomplete";
  if (info.shard) return "partial (shards)";
  if (recorded_git(info.environment).dirty) return "from a tree with uncommitted changes";
  return "";
}

// What one metric looked like across the window.
struct Pooled {
  MetricRecord newest;                                   ///< direction and policy as last recorded
  std::vector<double> values;                            ///< one per run
  std::vector<double> cvs;                               ///< timing: one per run
  std::map<std::uint64_t, std::vector<double>> by_seed;  ///< seeded: every value of each seed
  std::vector<double> outcomes;  ///< a failure rate: every outcome of every run
  std::vector<std::uint64_t> outcome_seeds;
};

// One run that holds the window's values: the newest run's tests, every metric's value replaced
// by the window's median (or pooled samples), and tests that only older runs had added.
RunRecord pooled_run(const std::vector<RunRecord>& window) {
  RunRecord pooled = window.back();
  pooled.run.tests.clear();
  std::map<std::string, TestResult> tests;  // by name, the newest passing result
  std::map<std::string, std::map<std::string, Pooled>> metrics;
  for (const RunRecord& record : window) {
    for (const TestResult& test : record.run.tests) {
      if (is_test_failure(test.status) || test.status == TestStatus::kSkipped) continue;
      tests[test.name] = test;
      for (const MetricRecord& metric : test.metrics) {
        Pooled& p = metrics[test.name][metric.name];
        p.newest = metric;
        p.values.push_back(metric.value);
        if (const Timing* timing = std::get_if<Timing>(&metric.policy)) p.cvs.push_back(timing->cv);
        for (std::size_t i = 0; i < metric.samples.size() && i < metric.sample_seeds.size(); ++i)
          p.by_seed[metric.sample_seeds[i]].push_back(metric.samples[i]);
        p.outcomes.insert(p.outcomes.end(), metric.samples.begin(), metric.samples.end());
        p.outcome_seeds.insert(p.outcome_seeds.end(), metric.sample_seeds.begin(),
                               metric.sample_seeds.end());
      }
    }
  }
  for (auto& [name, test] : tests) {
    test.metrics.clear();
    for (auto& [metric_name, p] : metrics[name]) {
      MetricRecord metric = p.newest;
      metric.value = median_of(p.values);
      if (Timing* timing = std::get_if<Timing>(&metric.policy)) timing->cv = median_of(p.cvs);
      if (std::holds_alternative<FailureRate>(metric.policy)) {
        // Failures are counted, not medians taken: the median of a few 0/1 outcomes of a seed is
        // almost always 0, and the window's trials are all its runs' attempts.
        metric.samples = p.outcomes;
        metric.sample_seeds = p.outcome_seeds;
      } else if (!p.by_seed.empty()) {
        metric.samples.clear();
        metric.sample_seeds.clear();
        for (const auto& [seed, values] : p.by_seed) {
          metric.sample_seeds.push_back(seed);
          metric.samples.push_back(median_of(values));
        }
      }
      test.metrics.push_back(std::move(metric));
    }
    pooled.run.tests.push_back(std::move(test));
  }
  return pooled;
}

}  // namespace

RollingBaseline rolling_baseline(const std::string& history_dir, std::size_t window,
                                 const std::string& binary, const EnvironmentProfile& profile) {
  if (window < 1) throw ConfigError("--window must be at least 1");
  RollingBaseline result;
  std::vector<RunRecord> records;
  for (const std::string& folder : find_run_folders({history_dir}, "--baseline-history")) {
    RunRecord record = read_run_record(folder);
    if (const std::string reason = unusable_because(record, binary, profile); !reason.empty()) {
      ++result.left_out[reason];
    } else {
      records.push_back(std::move(record));
    }
  }
  std::stable_sort(records.begin(), records.end(), [](const RunRecord& a, const RunRecord& b) {
    return a.run.info.started_at < b.run.info.started_at;
  });
  if (records.size() > window) {
    result.left_out["older than the window"] += records.size() - window;
    records.erase(records.begin(), records.end() - static_cast<std::ptrdiff_t>(window));
  }
  if (records.empty()) return result;
  for (const RunRecord& record : records) result.runs.push_back(record.run.info.run_id);
  // Named in reports where a promoted baseline names its file ("BASELINE: <path> v<version>").
  // Predictions: the newest run's (a rolling median of predictions has no meaning).
  std::vector<LoadedBaselineFile> files = baseline_from_run(pooled_run(records)).files();
  for (LoadedBaselineFile& file : files) {
    file.path = fmt::format("rolling, last {} run{} under {}", records.size(),
                            records.size() == 1 ? "" : "s", history_dir);
  }
  result.set = BaselineSet::from_files(std::move(files), records.back().path);
  return result;
}

}  // namespace mlregress::internal
