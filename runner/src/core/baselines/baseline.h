// A baseline file: what a suite's metrics were when they were last promoted, under which
// conditions, and what each promotion replaced. One file per test source file, under
// <baselines>/<binary>/<source stem>.toml (format: runner/docs/baselines.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/failure_rate_gate.h"
#include "analysis/paired_spread.h"
#include "environment/environment_profile.h"
#include "mlregress/metric.h"
#include "record/run_result.h"
#include "storage/policy_json.h"

namespace mlregress::internal {

inline constexpr int kBaselineSchemaVersion = 1;

struct Provenance {
  int version = 0;  ///< bumped by every promotion that changes the file
  std::string promoted_at;
  std::string git_commit;
  bool git_dirty = false;
  std::string reason;
  std::string source_run;
  std::string environment;  ///< profile id of the promoted run (described in [environments])
  friend bool operator==(const Provenance&, const Provenance&) = default;
};

/// What one promotion replaced.
struct HistoryEntry {
  int version = 0;          ///< the file version that introduced the replacement
  std::string replaced_at;  ///< UTC
  std::string reason;
  std::string source_run;
  std::string environment;          ///< profile id for environment-bound values, else empty
  std::optional<double> old_value;  ///< empty when the metric was new
  double new_value = 0.0;
  friend bool operator==(const HistoryEntry&, const HistoryEntry&) = default;
};

/// How `calibrate` derived a band from the run-to-run spread: `repeats` runs of the same
/// configuration and seed on `environment` (a machine profile id, described in [environments]),
/// their mean and sample sd, the largest |value − mean|, and the rule that made the band's
/// half-width: max(k · sd, max_deviation) with k the factor `rule` names.
struct Calibration {
  int repeats = 0;
  double mean = 0.0;
  double sd = 0.0;
  double max_deviation = 0.0;
  std::string rule;
  double k = 0.0;
  std::string environment;
  friend bool operator==(const Calibration&, const Calibration&) = default;
};

/// The band `calibrate` writes for a calibration: ± max(k · sd, max_deviation), never narrower
/// than a deviation the calibration itself saw.
inline double calibrated_half_width(const Calibration& c) {
  return c.k * c.sd > c.max_deviation ? c.k * c.sd : c.max_deviation;
}

/// How `graduate` made a capability (a metric recorded with record_target) a regression guard:
/// when and why, the target, how often the runs it looked at met it (`met` of `runs`, the lower
/// 95% Wilson bound of that rate against the threshold it had to reach), which runs and commits
/// those were, and the range of their values (their mean and sd are the metric's calibration).
struct Graduation {
  std::string graduated_at;  ///< UTC
  std::string reason;
  std::string target;  ///< "> 0.9"
  int met = 0;
  int runs = 0;
  double lower_bound = 0.0;
  double threshold = 0.0;
  double min = 0.0;
  double max = 0.0;
  std::vector<std::string> source_runs;  ///< oldest first
  std::vector<std::string> commits;      ///< of each source run, in the same order
  friend bool operator==(const Graduation&, const Graduation&) = default;
};

/// A guard `graduate --demote` turned back into a capability: which metric, when, why, and when
/// it had graduated (empty: it had no graduation record).
struct Demotion {
  std::string metric;
  std::string demoted_at;  ///< UTC
  std::string reason;
  std::string graduated_at;
  friend bool operator==(const Demotion&, const Demotion&) = default;
};

/// One block of a seeded metric's samples: the seeds one promotion contributed (`promote` the
/// first, each `promote --add-seeds` one more), from which run, when, and on which numerics. The
/// blocks of a metric hold its seeds between them, each once. A metric without blocks (promoted
/// before blocks were recorded) is one block: the file's provenance.
struct PoolBlock {
  std::string source_run;
  std::vector<std::uint64_t> seeds;  ///< ascending; written as ranges, "1000-1039"
  std::string added_at;              ///< UTC
  std::string git_commit;
  std::string reason;
  /// The numerics profile id (described in [environments]) the samples were measured on: a seed's
  /// value depends on the kernels, so samples of other numerics must not join the pool.
  std::string environment;
  friend bool operator==(const PoolBlock&, const PoolBlock&) = default;
};

struct BaselineMetric {
  Direction direction = Direction::LowerIsBetter;
  TolerancePolicy policy;
  std::optional<double> value;                      ///< portable value (band and default policies)
  std::map<std::string, double> by_environment;     ///< profile id -> value (exact, timing)
  std::map<std::string, double> cv_by_environment;  ///< timing: profile id -> cv at promotion
  std::vector<double> samples;                      ///< margin: one value per seed
  std::vector<std::uint64_t> seeds;                 ///< margin: the seed of each sample
  std::vector<PoolBlock> pool;                      ///< margin: where the samples came from
  /// margin: the spread of the per-seed differences the last promotion of the same seeds showed
  /// (new - old), the scale of paired likelihood-ratio looks (analysis/paired_spread.h).
  std::optional<PairedSpread> paired_spread;
  /// failure_rate: the failures among the trials (attempts or seeds) the promoted run made.
  std::optional<FailureCount> failure_count;
  /// band: where its atol came from, when `calibrate` measured it (promote keeps it).
  std::optional<Calibration> calibration;
  /// record_breakdown: the value split by operator, per profile id (breakdown_profile_id); every
  /// entry has the same unit.
  std::map<std::string, Breakdown> breakdowns;
  std::vector<HistoryEntry> history;
  /// band: the capability this guard graduated from (`graduate`).
  std::optional<Graduation> graduation;
  friend bool operator==(const BaselineMetric&, const BaselineMetric&) = default;
};

/// The profile ids an environment-bound metric has values for, in order.
inline std::vector<std::string> recorded_profiles(const BaselineMetric& metric) {
  std::vector<std::string> ids;
  for (const auto& entry : metric.by_environment) ids.push_back(entry.first);
  return ids;
}

/// The profile id an environment-bound value of this policy is stored under on `profile`'s
/// machine: `numerics` exact values (and exact values of files older than scopes) under the
/// numerics profile, `machine` exact values and timings under the machine profile.
inline bool keyed_by_numerics(const TolerancePolicy& policy) {
  const Exact* exact = std::get_if<Exact>(&policy);
  return exact != nullptr && exact->scope != Scope::Machine;
}
inline const std::string& profile_id_for(const TolerancePolicy& policy,
                                         const EnvironmentProfile& profile) {
  return keyed_by_numerics(policy) ? profile.numerics_id : profile.id;
}

/// Where a value for `profile` is stored in `metric.by_environment`: under the id of its scope,
/// or, for a numerics value promoted before numerics profiles existed, under the machine id
/// (never for a run with kernel pins: such values were measured unpinned). Empty when there is
/// none.
inline std::string stored_profile_id(const BaselineMetric& metric,
                                     const EnvironmentProfile& profile) {
  const std::string& id = profile_id_for(metric.policy, profile);
  if (metric.by_environment.contains(id)) return id;
  if (profile.pins.empty() && metric.by_environment.contains(profile.id)) return profile.id;
  return "";
}

/// Where a metric's breakdown by operator is stored: under the profile of its value's scope (the
/// numerics profile for exact values, the machine profile otherwise). Which operators run depends
/// on the kernels even when the value itself is portable.
inline const std::string& breakdown_profile_id(const BaselineMetric& metric,
                                               const EnvironmentProfile& profile) {
  return profile_id_for(metric.policy, profile);
}

struct BaselineTest {
  std::string config_hash;
  /// What the hash covers, as text by name (TestResult::config): `config = { lr = "0.02" }`.
  /// A run whose hash differs is told which of these changed; empty in a file promoted before.
  std::map<std::string, std::string> config;
  /// record_dataset: name -> "sha256:<hex>" of the data the values were measured on. A run on
  /// other data is NOT_COMPARABLE.
  std::map<std::string, std::string> datasets;
  /// record_data_order: name -> "sha256:<hex>" of the order examples were served in.
  std::map<std::string, std::string> data_orders;
  /// record_checkpoint: name -> "sha256:<hex>" of the checkpoint file the test loaded. A run
  /// from another checkpoint is NOT_COMPARABLE.
  std::map<std::string, std::string> checkpoints;
  /// record_property: key -> value, as the promoted run recorded them. Not gated: a run whose
  /// properties differ gets a note (BaselineGate::find_baseline).
  std::map<std::string, std::string> properties;
  std::map<std::string, BaselineMetric> metrics;
  /// Guards turned back into capabilities (`graduate --demote`), oldest first.
  std::vector<Demotion> demotions;
  friend bool operator==(const BaselineTest&, const BaselineTest&) = default;
};

/// The test's fingerprints of one kind (datasets, data orders or checkpoints): name -> hash.
inline const std::map<std::string, std::string>& fingerprints_of(const BaselineTest& test,
                                                                 FingerprintKind kind) {
  switch (kind) {
    case FingerprintKind::kDataOrder:
      return test.data_orders;
    case FingerprintKind::kCheckpoint:
      return test.checkpoints;
    case FingerprintKind::kDataset:
      break;
  }
  return test.datasets;
}
inline std::map<std::string, std::string>& fingerprints_of(BaselineTest& test,
                                                           FingerprintKind kind) {
  return const_cast<std::map<std::string, std::string>&>(
      fingerprints_of(static_cast<const BaselineTest&>(test), kind));
}

struct BaselineFile {
  int schema_version = kBaselineSchemaVersion;
  Provenance provenance;
  std::map<std::string, EnvironmentProfile> environments;
  std::map<std::string, BaselineTest> tests;
  friend bool operator==(const BaselineFile&, const BaselineFile&) = default;
};

}  // namespace mlregress::internal
