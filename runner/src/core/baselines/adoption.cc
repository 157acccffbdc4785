#include "baselines/adoption.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "baselines/baseline_toml.h"
#include "environment/git_info.h"
#include "registry/name_filter.h"
#include "support/atomic_file.h"
#include "support/errors.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

const MetricRecord* find_metric(const RunRecord* record, const std::string& test,
                                const std::string& metric) {
  if (record == nullptr) return nullptr;
  for (const TestResult& t : record->run.tests) {
    if (t.name != test) continue;
    for (const MetricRecord& m : t.metrics) {
      if (m.name == metric) return &m;
    }
  }
  return nullptr;
}

// Why a test's values cannot be adopted at all: they were measured on other data, from another
// checkpoint or under another configuration than the baseline's, which is a change to promote, not
// a gap to fill.
std::string unadoptable_because(const TestResult& test, const BaselineTest& baseline) {
  if (!baseline.config_hash.empty() && baseline.config_hash != test.config_hash) {
    return fmt::format("its configuration changed since the baseline (config {} → {})",
                       baseline.config_hash, test.config_hash);
  }
  for (const RecordedDataset& d : test.datasets) {
    if (d.kind == FingerprintKind::kDataOrder) continue;  // a cause to look at, not other data
    const auto& recorded = fingerprints_of(baseline, d.kind);
    const auto it = recorded.find(d.name);
    if (it == recorded.end() || it->second == d.sha256) continue;
    if (d.kind == FingerprintKind::kCheckpoint) {
      return fmt::format("it was measured from another checkpoint (the checkpoint '{}' changed)",
                         d.name);
    }
    return fmt::format("it was measured on other data (the dataset '{}' changed)", d.name);
  }
  return "";
}

void check_confirmation(const RunRecord& run, const RunRecord& confirm) {
  if (confirm.profile.id != run.profile.id ||
      confirm.profile.numerics_id != run.profile.numerics_id) {
    throw PromotionRefused(fmt::format(
        "adopt: the confirming run {} ran on another environment profile ({} / {}) than {} "
        "({} / {}): two runs confirm a value only on the same machine",
        confirm.run.info.run_id, confirm.profile.id, confirm.profile.numerics_id,
        run.run.info.run_id, run.profile.id, run.profile.numerics_id));
  }
  const std::string a = recorded_git(run.run.info.environment).commit;
  const std::string b = recorded_git(confirm.run.info.environment).commit;
  if (a != b) {
    throw PromotionRefused(fmt::format(
        "adopt: the confirming run {} was built from commit {}, {} from {}: two runs confirm a "
        "value only from the same code",
        confirm.run.info.run_id, b.substr(0, 12), run.run.info.run_id, a.substr(0, 12)));
  }
}

bool same_bits(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

namespace {

// What one adoption works from: the run, the confirming run (or null), the request and the
// reason kept in the provenance and in each value's history.
struct Adoption {
  const RunRecord& run;
  const RunRecord* confirm;
  const PromotionRequest& request;
  std::string reason;
};

// Adopts one metric of `test` into `entry` (its baseline, in `planned`'s file) where this
// machine's value is missing; what it refuses or adopts goes to `plan`.
void adopt_metric(const Adoption& adoption, const TestResult& test, const MetricRecord& metric,
                  BaselineMetric& entry, PlannedFile& planned, AdoptionPlan& plan) {
  const EnvironmentProfile& profile = adoption.run.profile;
  // Only the gaps: a value every machine shares, or one this machine has, stays as it is.
  if (!is_environment_bound(entry.policy) || entry.value ||
      !stored_profile_id(entry, profile).empty()) {
    return;
  }
  const std::string name = fmt::format("{}.{}", test.name, metric.name);
  double cv = 0.0;
  if (const Timing* timing = std::get_if<Timing>(&metric.policy)) cv = timing->cv;
  const bool exact = !std::holds_alternative<Timing>(entry.policy);
  if (exact && adoption.confirm == nullptr && !adoption.request.force) {
    // One run cannot show that a value repeats bit for bit on this machine.
    plan.refused.push_back(fmt::format(
        "{}: an exact value is adopted only when a second run agrees: --confirm RUN2 (or "
        "--force to take this run's value alone)",
        name));
    return;
  }
  if (const RunRecord* confirm = adoption.confirm; confirm != nullptr) {
    const MetricRecord* again = find_metric(confirm, test.name, metric.name);
    if (again == nullptr) {
      plan.refused.push_back(
          fmt::format("{}: not recorded by the confirming run {}", name, confirm->run.info.run_id));
      return;
    }
    if (std::holds_alternative<Timing>(entry.policy)) {
      // Two processes vary more than one process's repetitions: the band must hold both.
      if (const Timing* t = std::get_if<Timing>(&again->policy)) cv = std::max(cv, t->cv);
      if (metric.value != 0.0) {
        cv = std::max(cv, std::fabs(again->value - metric.value) / std::fabs(metric.value));
      }
    } else if (!same_bits(metric.value, again->value)) {
      plan.refused.push_back(
          fmt::format("{}: the two runs differ ({} and {}): not repeatable on this machine, so not "
                      "adopted; gate it with a Band instead of Exact",
                      name, format_value(metric.value), format_value(again->value)));
      return;
    }
  }
  const std::string& id = profile_id_for(entry.policy, profile);
  entry.by_environment[id] = metric.value;
  if (std::holds_alternative<Timing>(entry.policy)) entry.cv_by_environment[id] = cv;
  HistoryEntry history;
  history.replaced_at = adoption.request.now;
  history.reason = adoption.reason;
  history.source_run = adoption.run.run.info.run_id;
  history.environment = id;
  history.new_value = metric.value;
  entry.history.push_back(history);
  const EnvironmentProfile described = stored_description(entry.policy, profile);
  planned.after.environments.try_emplace(described.id, described);
  ++planned.new_metrics;
  plan.adopted.push_back(fmt::format("{} = {} → {}", name, format_value(metric.value), id));
}

}  // namespace

AdoptionPlan plan_adoption(const RunRecord& run, const RunRecord* confirm,
                           const BaselineSet& existing, const PromotionRequest& request) {
  // Adopt stores no samples: a sequential test that stopped early is no reason to refuse.
  refuse_unpromotable(run, request.force, "adopt", /*needs_every_seed=*/false);
  if (confirm != nullptr) {
    refuse_unpromotable(*confirm, request.force, "adopt", /*needs_every_seed=*/false);
    check_confirmation(run, *confirm);
  }
  const NameFilter filter(request.filter);
  // Kept in the provenance and in each value's history, as promote keeps its reason.
  const Adoption adoption{
      run, confirm, request,
      fmt::format(
          "adopt{}{}{}",
          confirm != nullptr ? fmt::format(" (confirmed by run {})", confirm->run.info.run_id) : "",
          request.reason.empty() ? "" : ": ", request.reason)};
  AdoptionPlan plan;
  std::map<std::string, PlannedFile> files;  // by path
  for (const TestResult& test : run.run.tests) {
    if (!offers_values(test, filter)) continue;
    if (is_test_failure(test.status) && !request.force) continue;
    const LoadedBaselineFile* loaded = existing.find(test.name);
    if (loaded == nullptr) continue;  // no baseline at all: promote makes one
    PlannedFile& planned = planned_file(files, loaded->path, loaded->file);
    BaselineTest& target = planned.after.tests.at(test.name);
    if (test.status == TestStatus::kRegressed && !request.force) {
      // Its values are worse than the baselines allow: adopting beside them would hide that.
      plan.refused.push_back(fmt::format(
          "{}: it regressed against the baselines; fix it, or promote if the change is intended",
          test.name));
      continue;
    }
    if (const std::string why = unadoptable_because(test, target); !why.empty()) {
      plan.refused.push_back(
          fmt::format("{}: {}; promote it if the change is intended", test.name, why));
      continue;
    }
    for (const MetricRecord& metric : test.metrics) {
      const auto entry = target.metrics.find(metric.name);
      if (entry == target.metrics.end()) continue;  // new metric: promote adds it
      adopt_metric(adoption, test, metric, entry->second, planned, plan);
    }
  }
  plan.files =
      changed_files(std::move(files), run, adoption.reason, request.now, MachineDescription::kAdd);
  return plan;
}

AdoptionPlan adopt_run(const RunRecord& run, const RunRecord* confirm,
                       const PromotionRequest& request) {
  const std::string& binary = run.run.info.binary;
  const BaselineFolderLock lock(request.baselines_dir, binary);
  remove_stale_temporaries(baseline_folder(request.baselines_dir, binary));
  const BaselineSet existing =
      BaselineSet::load(request.baselines_dir, binary, /*allow_missing=*/false);
  AdoptionPlan plan = plan_adoption(run, confirm, existing, request);
  for (const PlannedFile& file : plan.files) {
    write_file_atomically(file.path, render_baseline(file.after), Durability::kSurvivesPowerLoss);
  }
  return plan;
}

}  // namespace mlregress::internal
