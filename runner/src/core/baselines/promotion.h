// Promotion: a run's metrics become the new baseline. Planned as a pure function (what would
// each file become?) and then written file by file, each atomically, under a lock.
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "baselines/baseline_store.h"
#include "registry/name_filter.h"
#include "storage/run_record.h"
#include "support/errors.h"

namespace mlregress::internal {

struct PromotionRequest {
  std::string baselines_dir = "baselines";
  std::string reason;
  std::string filter;  ///< NameFilter syntax over test names; empty: every test
  bool force = false;
  /// `promote --add-seeds`: each seeded metric's samples join the baseline's (seed_pool.h) instead
  /// of replacing them.
  bool add_seeds = false;
  /// `promote --paired-spread`: each seeded metric's spread of paired differences against the
  /// stored values is stored (paired_spread_measurement.h); the samples stay.
  bool paired_spread = false;
  /// `promote --paired-spread --add-pairs`: the run's pairs join the stored spread's (other seeds
  /// of the same kind of change) instead of replacing it.
  bool add_pairs = false;
  std::string now;  ///< UTC time recorded as promoted_at
  /// `calibrate`: (test, metric) -> the calibration whose band the metric gets (policy band,
  /// rtol 0, atol its half-width). A metric without one keeps the calibrated band it has when the
  /// test still records a band or the default policy: promote moves the value, not the noise.
  std::map<std::pair<std::string, std::string>, Calibration> calibrations;
  /// `graduate`: metrics recorded with a target (capabilities) are stored too. Otherwise promote
  /// leaves them, and the guard graduate wrote for one, as they are.
  bool graduating = false;
};

struct PlannedFile {
  std::string path;
  BaselineFile before;  ///< empty (version 0) for a new file
  BaselineFile after;
  int changed_metrics = 0;
  int new_metrics = 0;
  bool created = false;
  /// One line per failure rate (what the gate a later run makes can catch) and per seeded metric
  /// that gained seeds (promote --add-seeds: which seeds, how large the pool now is).
  std::vector<std::string> detectable_effects;
  /// (test, metric) of each seeded metric whose samples `after` stores: the promote command
  /// states the power of the gate a later run makes against them (stored_samples_power.h), once
  /// it has counted that run's family of hypotheses over the baselines written.
  std::vector<std::pair<std::string, std::string>> seeded_metrics;
  /// Values left as they were, and why ("Flaky.steps: not promoted, the first attempt failed").
  std::vector<std::string> skipped_values;
};

/// The level promote states a failure rate's detectable rise at (the gate's default alpha).
inline constexpr double kPromotionAlpha = 0.01;

/// Where a promoted exact value is stored: the scope the test states, or for Exact{} a portable
/// value when it is a whole number (a count, a step, a boolean: nothing the machine's arithmetic
/// can change), else one value per environment profile. A whole number that does depend on the
/// machine says so: Exact{.scope = Scope::Numerics}.
Scope stored_scope(const Exact& exact, double value);

/// Throws PromotionRefused ("<command> refuses run ...") for a failed or incomplete run, or one
/// from a dirty tree, or (`needs_every_seed`: a promotion stores the samples) a sequential test
/// that ran fewer seeds than its cap, unless `force`.
void refuse_unpromotable(const RunRecord& record, bool force, std::string_view command,
                         bool needs_every_seed);

/// How a baseline file describes the profile a value of this policy is stored under on
/// `profile`'s machine: the machine profile, or the numerics profile (no CPU name).
EnvironmentProfile stored_description(const TolerancePolicy& policy,
                                      const EnvironmentProfile& profile);

/// Descriptions that no value, history entry or provenance names any more (a numerics value
/// moved from the machine id to the numerics id) leave the file.
void drop_unused_environments(BaselineFile& file);

/// A planned file's new provenance (version + 1, when, commit, reason, source run, profile id) and
/// the version of its new history entries, for a change made from `record`. The profile's
/// description is the caller's to write. A seeded metric without pool blocks gets its implied
/// block (pool_of the file as it was) written out, since the new provenance would misname it.
void stamp_provenance(PlannedFile& planned, const RunRecord& record, const std::string& reason,
                      const std::string& now);

// ---- The steps the planners (promote, promote --add-seeds, adopt) share ----

/// Whether a test of the run has values a planner could store: selected by `filter`, not
/// skipped, with at least one metric. Each planner decides about failed tests itself.
bool offers_values(const TestResult& test, const NameFilter& filter);

/// The planned file at `path`, started from `before` (empty for a new file) the first time it is
/// asked for.
PlannedFile& planned_file(std::map<std::string, PlannedFile>& files, const std::string& path,
                          const BaselineFile& before);

/// How the changed files of a plan describe the run's machine.
enum class MachineDescription {
  kReplace,  ///< promote: this machine's description rewritten, unused descriptions dropped
  kAdd,      ///< adopt: added where missing, nothing else touched
};

/// The files of a plan that change (promoting the same run twice changes nothing), each stamped
/// with its new provenance (stamp_provenance) and describing the run's machine.
std::vector<PlannedFile> changed_files(std::map<std::string, PlannedFile> files,
                                       const RunRecord& record, const std::string& reason,
                                       const std::string& now, MachineDescription machine);

/// A planner that changes the stored baselines of the run's tests metric by metric (promote
/// --add-seeds, promote --paired-spread): per selected test, `why_not` lists why it cannot be
/// planned (nothing: it can), then `plan_metric` plans each of its metrics into the test's stored
/// entry, adding a line to `refusals` for a metric it refuses. Any refusal throws
/// PromotionRefused ("<command> refuses run ID; nothing was written:", a line per reason);
/// otherwise returns the files that change (changed_files, kReplace).
struct MetricPlanner {
  std::string command;  ///< "promote --add-seeds"
  std::function<std::vector<std::string>(const TestResult&, const LoadedBaselineFile*,
                                         const std::string& folder)>
      why_not;
  std::function<void(PlannedFile&, BaselineTest& target, const TestResult&, const MetricRecord&,
                     const LoadedBaselineFile&, std::vector<std::string>& refusals)>
      plan_metric;
};
std::vector<PlannedFile> plan_metric_by_metric(const RunRecord& record, const BaselineSet& existing,
                                               const PromotionRequest& request,
                                               const MetricPlanner& planner);

/// Takes an exclusive flock on <baselines_dir>/<binary>/ (created when missing) for as long as
/// the returned object lives: one writer of a binary's baselines at a time.
class BaselineFolderLock {
 public:
  BaselineFolderLock(const std::string& baselines_dir, const std::string& binary);
  ~BaselineFolderLock();
  BaselineFolderLock(const BaselineFolderLock&) = delete;
  BaselineFolderLock& operator=(const BaselineFolderLock&) = delete;

 private:
  int fd_ = -1;
};

/// How a baseline file describes the profile seeded samples of `profile`'s machine belong to: its
/// numerics profile (a seed's value depends on the kernels, not on the CPU's name).
EnvironmentProfile samples_environment(const EnvironmentProfile& profile);

/// The block a seeded metric's samples from `record` form in the baseline's pool: the run, its
/// commit, `now`, the reason, and the numerics profile of its machine.
PoolBlock pool_block(const RunRecord& record, const std::vector<std::uint64_t>& seeds,
                     const std::string& reason, const std::string& now);

/// Throws PromotionRefused for a failed or incomplete run, or one from a dirty tree, unless
/// request.force. Returns only the files whose content changes. With request.add_seeds, the plan
/// is plan_seed_addition's (seed_pool.h).
std::vector<PlannedFile> plan_promotion(const RunRecord& record, const BaselineSet& existing,
                                        const PromotionRequest& request);

/// Runs plan_promotion (or, with request.add_seeds, plan_seed_addition) holding an exclusive flock
/// on <dir>/<binary>/ and writes each changed file atomically; then the promoted tests' reference
/// files beside them, each atomically: their predictions (record_predictions) as
/// <dir>/<binary>/predictions/<test>.<name>.csv and their gated curves (record_curve with a
/// CurvePolicy, at most kReferenceCurvePoints points) as <dir>/<binary>/curves/<test>.<name>.csv;
/// their paths added to `references_written` when given (only those whose content changed; none
/// with request.add_seeds, which adds samples only). Returns the plan that was written.
std::vector<PlannedFile> promote_run(const RunRecord& record, const PromotionRequest& request,
                                     std::vector<std::string>* references_written = nullptr);

/// A run as a baseline, exactly as `promote --force` would write it, in memory only (version 0:
/// never promoted). `compare` and `report --against` judge a run against another with it.
BaselineSet baseline_from_run(const RunRecord& record);

}  // namespace mlregress::internal
