#include "storage/capability_history.h"

#include <algorithm>

#include "environment/git_info.h"
#include "storage/run_folder_search.h"
#include "storage/run_record.h"
#include "support/errors.h"

namespace mlregress::internal {

namespace {

void add_run(const RunRecord& record, const std::string& folder, CapabilityHistory& history) {
  const RunInfo& info = record.run.info;
  const std::string commit = recorded_git(info.environment).commit;
  for (const TestResult& test : record.run.tests) {
    if (test.status == TestStatus::kSkipped) continue;
    for (const MetricRecord& metric : test.metrics) {
      if (!metric.target) continue;
      history[{test.name, metric.name}].push_back({info.run_id, folder, info.started_at, commit,
                                                   metric.value, *metric.target,
                                                   capability_configuration(test), test.seed});
    }
  }
}

}  // namespace

std::string capability_configuration(const TestResult& test) {
  std::string text;
  for (const auto& [key, value] : test.config) {
    if (key == "seed") continue;
    text += (text.empty() ? "" : ";") + key + "=" + value;
  }
  return text;
}

std::vector<CapabilityObservation> independent_observations(
    const std::vector<CapabilityObservation>& observations, const std::string& configuration) {
  std::vector<CapabilityObservation> kept;
  for (const CapabilityObservation& o : observations) {
    if (o.configuration != configuration) continue;
    // A later run of the same commit and seed repeats the earlier one: it replaces it.
    std::erase_if(kept, [&](const CapabilityObservation& earlier) {
      return !o.commit.empty() && earlier.commit == o.commit && earlier.seed == o.seed;
    });
    kept.push_back(o);
  }
  return kept;
}

CapabilityHistory read_capability_history(const std::string& runs_folder, const std::string& binary,
                                          std::vector<std::string>* unreadable) {
  CapabilityHistory history;
  for (const std::string& folder : find_run_folders({runs_folder}, "capability history")) {
    try {
      const RunRecord record = read_run_record(folder);
      const RunInfo& info = record.run.info;
      if (info.shard || info.finished_at.empty() || info.binary != binary) continue;
      add_run(record, folder, history);
    } catch (const RunFolderError& error) {
      if (unreadable != nullptr) unreadable->push_back(error.what());
    }
  }
  for (auto& [key, observations] : history) {
    std::stable_sort(observations.begin(), observations.end(),
                     [](const CapabilityObservation& a, const CapabilityObservation& b) {
                       return a.started_at < b.started_at;
                     });
  }
  return history;
}

std::vector<bool> capability_outcomes(const std::vector<CapabilityObservation>& observations,
                                      const Target& target) {
  std::vector<bool> outcomes;
  outcomes.reserve(observations.size());
  for (const CapabilityObservation& o : observations)
    outcomes.push_back(target_met(target, o.value));
  return outcomes;
}

void attach_capability_rates(RunResult& run, const CapabilityHistory& history) {
  for (TestResult& test : run.tests) {
    if (!test.finished || test.status == TestStatus::kSkipped) continue;
    for (const MetricRecord& metric : test.metrics) {
      if (!metric.target) continue;
      int met = target_met(*metric.target, metric.value) ? 1 : 0;
      int runs = 1;
      if (const auto it = history.find({test.name, metric.name}); it != history.end()) {
        const std::string configuration = capability_configuration(test);
        const std::string commit = recorded_git(run.info.environment).commit;
        for (const CapabilityObservation& o : independent_observations(it->second, configuration)) {
          if (o.run_id == run.info.run_id) continue;  // this run, should it be finished already
          if (!commit.empty() && o.commit == commit && o.seed == test.seed) continue;  // a rerun
          met += target_met(*metric.target, o.value) ? 1 : 0;
          ++runs;
        }
      }
      test.capability_rates[metric.name] = capability_rate(met, runs);
    }
  }
}

}  // namespace mlregress::internal
