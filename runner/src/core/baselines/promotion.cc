#include "baselines/promotion.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <thread>

#include "analysis/failure_rate_gate.h"
#include "baselines/paired_spread_measurement.h"
#include "baselines/seed_pool.h"
#include "environment/git_info.h"
#include "record/run_result.h"
#include "registry/name_filter.h"
#include "statistics/failure_rate_design.h"
#include "statistics/moments.h"
#include "storage/curve_csv.h"
#include "storage/predictions_file.h"
#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {

namespace {

// Why `test` cannot be promoted, each reason added to `reasons`.
void add_test_reasons(const TestResult& test, bool needs_every_seed,
                      std::vector<std::string>& reasons) {
  if (is_test_failure(test.status)) {
    reasons.push_back(fmt::format("test {} {}", test.name, test_status_name(test.status)));
  }
  // A baseline of a sequential test must hold every seed a later run may reach, so that each
  // of its blocks is compared with the same seeds (paired).
  if (needs_every_seed && test.seed_block > 0 && test.attempts) {
    // A rate promoted from a run that stopped at its first decision would hold few trials,
    // and the stop biases them: the baseline takes every attempt.
    const std::size_t attempts = seeds_that_ran(test).size();
    if (attempts < static_cast<std::size_t>(test.seed_cap)) {
      reasons.push_back(fmt::format(
          "flaky-aware test {} ran {} of its {} attempts (the gate had decided); promote a run "
          "made with --all-seeds, or without a baseline, so the baseline's rate holds all {}",
          test.name, attempts, test.seed_cap, test.seed_cap));
    }
  }
  // A rate so high that no rise of it can be detected would leave the test ungated for good.
  for (const MetricRecord& metric : test.metrics) {
    const FailureRate* rate = std::get_if<FailureRate>(&metric.policy);
    if (rate == nullptr || metric.samples.empty()) continue;
    const FailureCount count = count_failures(metric.samples, metric.direction);
    if (rate_to_detect(baseline_reference_rate(count.failures, count.trials), rate->detect) >=
        1.0) {
      reasons.push_back(fmt::format(
          "{}.{}: {} of {} failed, too high a rate for a rise of it to be detected; fix the "
          "test first",
          test.name, metric.name, count.failures, count.trials));
    }
  }
  for (const MetricComparison& c : test.comparisons) {
    if (!c.provisional) continue;
    reasons.push_back(fmt::format(
        "{}.{} is a provisional IMPROVED (decided at the first look, on the baseline's own "
        "seeds): an early win overstates itself; promote a run on fresh seeds (run --seed past "
        "the baseline's) that is IMPROVED too",
        test.name, c.metric));
  }
  if (needs_every_seed && test.seed_block > 0 && !test.attempts) {
    const std::size_t seeds = seeds_that_ran(test).size();
    if (seeds < static_cast<std::size_t>(test.seed_cap)) {
      reasons.push_back(fmt::format(
          "sequential test {} ran {} of its {} seeds (the gate had decided, or the run was "
          "restricted to some seeds); promote a run made with --all-seeds, so the baseline "
          "holds all {} seeds",
          test.name, seeds, test.seed_cap, test.seed_cap));
    }
  }
}

// A run from a git tree with uncommitted changes (untracked test sources named).
void add_dirty_tree_reason(const RunResult& run, std::vector<std::string>& reasons) {
  if (const GitInfo git = recorded_git(run.info.environment); git.dirty) {
    if (git.untracked_count == 0) {
      reasons.push_back("it was built from a git tree with uncommitted changes");
    } else {
      reasons.push_back(fmt::format(
          "it was built from a git tree with uncommitted changes: {} untracked file{} among the "
          "test sources, which commit {} does not hold ({}{})",
          git.untracked_count, git.untracked_count == 1 ? "" : "s", git.short_commit(),
          fmt::join(git.untracked, ", "), git.untracked_count > git.untracked.size() ? ", …" : ""));
    }
  }
}

}  // namespace

void refuse_unpromotable(const RunRecord& record, bool force, std::string_view command,
                         bool needs_every_seed) {
  const RunResult& run = record.run;
  // Not even --force: a screening run's one seed per configuration is a ranking, not a
  // measurement a baseline can hold.
  if (run.info.screening) {
    throw PromotionRefused(fmt::format(
        "{} refuses run {}: it is a screening run (run --screening: one seed per "
        "configuration), which ranks configurations and is never promoted; run the finalists on "
        "fresh seeds (run --filter … --seed past the screening's) and {} that run",
        command, run.info.run_id, command));
  }
  std::vector<std::string> reasons;
  if (run.info.finished_at.empty()) {
    reasons.push_back("the run is incomplete (it was killed or is still running)");
  }
  for (const TestResult& test : run.tests) add_test_reasons(test, needs_every_seed, reasons);
  add_dirty_tree_reason(run, reasons);
  if (reasons.empty() || force) return;
  std::string message = fmt::format("{} refuses run {}:", command, run.info.run_id);
  for (const std::string& reason : reasons) message += "\n  - " + reason;
  message += fmt::format("\n(--force {}s it anyway)", command);
  throw PromotionRefused(message);
}

Scope stored_scope(const Exact& exact, double value) {
  if (exact.scope != Scope::Auto) return exact.scope;
  constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53
  const bool whole = std::isfinite(value) && value == std::trunc(value) &&
                     std::fabs(value) <= kLargestExactInteger;
  return whole ? Scope::Portable : Scope::Numerics;
}

namespace {

// The run's breakdown by operator replaces this profile's; those of other profiles stay while they
// count the same unit. A value promoted without one leaves none for this profile: an old
// breakdown would explain a value the baseline no longer holds.
void keep_or_set_breakdown(BaselineMetric& m, const MetricRecord& metric, const BaselineMetric* old,
                           const EnvironmentProfile& profile) {
  if (std::holds_alternative<Margin>(m.policy) || std::holds_alternative<FailureRate>(m.policy))
    return;
  if (old != nullptr) m.breakdowns = old->breakdowns;
  const std::string id = breakdown_profile_id(m, profile);
  m.breakdowns.erase(id);
  if (!metric.breakdown) return;
  std::erase_if(m.breakdowns,
                [&](const auto& entry) { return entry.second.unit != metric.breakdown->unit; });
  m.breakdowns[id] = *metric.breakdown;
}

// The metric as this run would store it, keeping what the old entry knew about other profiles.
BaselineMetric promoted_metric(const MetricRecord& metric, const BaselineMetric* old,
                               const EnvironmentProfile& profile) {
  BaselineMetric m;
  m.direction = metric.direction;
  m.policy = metric.policy;
  if (std::holds_alternative<Margin>(m.policy)) {
    // A distribution is portable: seeds drive the randomness, not the machine.
    m.samples = metric.samples;
    m.seeds = metric.sample_seeds;
  } else if (std::holds_alternative<FailureRate>(m.policy)) {
    m.failure_count = count_failures(metric.samples, metric.direction);
    m.value = failure_count_value(*m.failure_count, m.direction);
  } else if (const Timing* timing = std::get_if<Timing>(&m.policy)) {
    if (old != nullptr) {
      m.by_environment = old->by_environment;
      m.cv_by_environment = old->cv_by_environment;
    }
    m.by_environment[profile.id] = metric.value;
    m.cv_by_environment[profile.id] = timing->cv;
    m.policy = Timing{};  // the measured spread is kept per environment, not in the policy
  } else if (const Exact* exact = std::get_if<Exact>(&m.policy)) {
    const Scope scope = stored_scope(*exact, metric.value);
    m.policy = Exact{scope};
    if (scope == Scope::Portable) {
      m.value = metric.value;  // one value for every machine; what other profiles held is gone
    } else {
      if (old != nullptr) m.by_environment = old->by_environment;
      const std::string& id = profile_id_for(m.policy, profile);
      // A numerics value an older promotion stored under this machine's id is replaced by the
      // one under the numerics id, not kept beside it.
      if (id != profile.id) m.by_environment.erase(profile.id);
      m.by_environment[id] = metric.value;
    }
  } else {
    m.value = metric.value;
  }
  keep_or_set_breakdown(m, metric, old, profile);
  if (old != nullptr) m.history = old->history;
  return m;
}

// A band measured by `calibrate` stays when a later promotion moves the value (an intended change
// of what is computed seldom changes its run-to-run noise), as long as the test still records a
// band or the default policy; `calibrate` replaces it, and a test that now states another policy
// (Exact, Margin, ...) drops it.
void keep_or_set_calibration(BaselineMetric& m, const BaselineMetric* old,
                             const Calibration* calibration) {
  if (calibration != nullptr) {
    m.policy = Band{.rtol = 0.0, .atol = calibrated_half_width(*calibration)};
    m.calibration = *calibration;
    return;
  }
  const bool band_like =
      std::holds_alternative<Band>(m.policy) || std::holds_alternative<std::monostate>(m.policy);
  if (old != nullptr && old->calibration && band_like) {
    m.policy = old->policy;
    m.calibration = old->calibration;
  }
}

std::optional<double> value_for(const BaselineMetric& m, const EnvironmentProfile& profile) {
  if (!m.samples.empty()) return stats::summarize_samples(m.samples).mean;
  if (const std::string id = stored_profile_id(m, profile); !id.empty()) {
    return m.by_environment.at(id);
  }
  return m.value;
}

}  // namespace

EnvironmentProfile stored_description(const TolerancePolicy& policy,
                                      const EnvironmentProfile& profile) {
  return profile_id_for(policy, profile) == profile.id ? machine_profile(profile)
                                                       : numerics_profile(profile);
}

void drop_unused_environments(BaselineFile& file) {
  std::set<std::string> used{file.provenance.environment};
  for (const auto& [name, test] : file.tests) {
    for (const auto& [metric_name, metric] : test.metrics) {
      for (const auto& [id, value] : metric.by_environment) used.insert(id);
      for (const HistoryEntry& entry : metric.history) used.insert(entry.environment);
      for (const PoolBlock& block : metric.pool) used.insert(block.environment);
      if (metric.calibration) used.insert(metric.calibration->environment);
      for (const auto& [id, breakdown] : metric.breakdowns) used.insert(id);
    }
  }
  std::erase_if(file.environments, [&](const auto& entry) { return !used.contains(entry.first); });
}

namespace {

bool same_value(std::optional<double> a, std::optional<double> b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return *a == *b || (std::isnan(*a) && std::isnan(*b));
}

}  // namespace

namespace {

// The stored failure count with its interval, and what the gate a later run makes (this
// baseline's rate, the test's blocks and cap, the promotion's alpha) can catch.
std::string failure_rate_note(const BaselineMetric& m, const TestResult& test) {
  const FailureCount& count = *m.failure_count;
  const stats::RateInterval interval = stats::clopper_pearson(count.failures, count.trials, 0.95);
  std::string note = fmt::format("{} of {} failed ({:.1f}%, 95% CI {:.1f}–{:.1f}%)", count.failures,
                                 count.trials, 100.0 * count.failures / count.trials,
                                 100.0 * interval.lower, 100.0 * interval.upper);
  const FailureRate* policy = std::get_if<FailureRate>(&m.policy);
  const int cap = test.seed_block > 0 ? test.seed_cap : count.trials;
  const int block = test.seed_block > 0 ? test.seed_block : cap;
  if (policy == nullptr || cap < 1) return note;
  const double p0 = baseline_reference_rate(count.failures, count.trials);
  const double p1 = rate_to_detect(p0, policy->detect);
  if (p1 >= 1.0) return note + "; too high a rate for a rise to be detected";
  const stats::FailureRateDesign design = stats::design_failure_rate_test(
      p0, p1, kPromotionAlpha, kFailureRatePower, stats::failure_rate_looks(block, cap));
  return note + fmt::format(
                    "; the gate catches a rise to {:.0f}% with {:.0f}% power at alpha={:g}, in a "
                    "median of {} {} (blocks of {}, at most {})",
                    100.0 * p1, 100.0 * design.power, kPromotionAlpha, design.median_trials_p1,
                    test.attempts ? "attempts" : "seeds", block, cap);
}

// A reference file beside the baseline (a gated curve, predictions), written atomically when its
// content changes; its path is added to `written`.
void write_reference_file(const std::string& path, const std::string& content,
                          std::vector<std::string>* written) {
  std::ifstream in(path);
  const std::string before{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in && before == content) return;
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  if (error) {
    throw OutputError(fmt::format("cannot create the folder of '{}': {}", path, error.message()));
  }
  write_file_atomically(path, content, Durability::kSurvivesPowerLoss);
  if (written != nullptr) written->push_back(path);
}

}  // namespace

PoolBlock pool_block(const RunRecord& record, const std::vector<std::uint64_t>& seeds,
                     const std::string& reason, const std::string& now) {
  PoolBlock block;
  block.source_run = record.run.info.run_id;
  block.seeds = seeds;
  std::sort(block.seeds.begin(), block.seeds.end());
  block.added_at = now;
  block.git_commit = recorded_git(record.run.info.environment).commit;
  block.reason = reason;
  block.environment = samples_environment(record.profile).id;
  return block;
}

EnvironmentProfile samples_environment(const EnvironmentProfile& profile) {
  return profile.numerics_id.empty() ? machine_profile(profile) : numerics_profile(profile);
}

bool offers_values(const TestResult& test, const NameFilter& filter) {
  return filter.matches(test.name, test.full_name) && test.status != TestStatus::kSkipped &&
         !test.metrics.empty();
}

PlannedFile& planned_file(std::map<std::string, PlannedFile>& files, const std::string& path,
                          const BaselineFile& before) {
  auto [it, inserted] = files.try_emplace(path);
  PlannedFile& planned = it->second;
  if (inserted) {
    planned.path = path;
    planned.before = before;
    planned.created = before.provenance.version == 0 && before.tests.empty();
    planned.after = before;
  }
  return planned;
}

std::vector<PlannedFile> plan_metric_by_metric(const RunRecord& record, const BaselineSet& existing,
                                               const PromotionRequest& request,
                                               const MetricPlanner& planner) {
  const RunResult& run = record.run;
  const NameFilter filter(request.filter);
  const std::string folder = baseline_folder(request.baselines_dir, run.info.binary);
  std::vector<std::string> refusals;
  std::map<std::string, PlannedFile> files;  // by path
  for (const TestResult& test : run.tests) {
    if (!offers_values(test, filter)) continue;
    const LoadedBaselineFile* loaded = existing.find(test.name);
    if (std::vector<std::string> why = planner.why_not(test, loaded, folder); !why.empty()) {
      refusals.insert(refusals.end(), why.begin(), why.end());
      continue;
    }
    PlannedFile& planned = planned_file(files, loaded->path, loaded->file);
    BaselineTest& target = planned.after.tests.at(test.name);
    for (const MetricRecord& metric : test.metrics)
      planner.plan_metric(planned, target, test, metric, *loaded, refusals);
  }
  if (!refusals.empty()) {
    std::string message =
        fmt::format("{} refuses run {}; nothing was written:", planner.command, run.info.run_id);
    for (const std::string& reason : refusals) message += "\n  - " + reason;
    throw PromotionRefused(message);
  }
  return changed_files(std::move(files), record, request.reason, request.now,
                       MachineDescription::kReplace);
}

std::vector<PlannedFile> changed_files(std::map<std::string, PlannedFile> files,
                                       const RunRecord& record, const std::string& reason,
                                       const std::string& now, MachineDescription machine) {
  std::vector<PlannedFile> changed;
  for (auto& [path, planned] : files) {
    if (planned.after == planned.before) continue;
    stamp_provenance(planned, record, reason, now);
    if (machine == MachineDescription::kReplace) {
      planned.after.environments[record.profile.id] = machine_profile(record.profile);
      drop_unused_environments(planned.after);
    } else {
      planned.after.environments.try_emplace(record.profile.id, machine_profile(record.profile));
    }
    changed.push_back(std::move(planned));
  }
  return changed;
}

namespace {

// Promoting values of seeds the baseline already holds shows how far the change moved each seed:
// the spread of those paired differences is the scale of later paired likelihood-ratio looks
// (analysis/paired_spread.h), said in promote's output. Too few shared seeds, or none moved (the
// same values promoted again), measure nothing: the stored spread stays.
void store_paired_spread(PlannedFile& planned, BaselineMetric& updated, const BaselineMetric* old,
                         const std::string& name, const RunRecord& record, const std::string& now) {
  updated.paired_spread = old ? old->paired_spread : std::nullopt;
  if (old == nullptr) return;
  const std::optional<PairedSpread> measured =
      measure_paired_spread(*old, updated.seeds, updated.samples, record.run.info.run_id, now);
  if (!measured) return;
  updated.paired_spread = measured;
  planned.detectable_effects.push_back(
      fmt::format("{}: its seeds moved by an sd of {:.4g} against the baseline's ({} seeds in "
                  "both): stored as the scale of paired likelihood-ratio looks",
                  name, measured->sd, measured->pairs));
}

// One metric of `test` promoted into `target` (a test of `planned`'s file): its value, samples,
// calibration, history and the descriptions of the profiles it is stored under.
void plan_promoted_metric(PlannedFile& planned, BaselineTest& target, const TestResult& test,
                          const MetricRecord& metric, const RunRecord& record,
                          const PromotionRequest& request) {
  const EnvironmentProfile& profile = record.profile;
  const auto old_it = target.metrics.find(metric.name);
  const BaselineMetric* old = old_it == target.metrics.end() ? nullptr : &old_it->second;
  BaselineMetric updated = promoted_metric(metric, old, profile);
  const auto calibration = request.calibrations.find({test.name, metric.name});
  keep_or_set_calibration(
      updated, old, calibration == request.calibrations.end() ? nullptr : &calibration->second);
  if (updated.calibration && updated.calibration->environment == profile.id) {
    planned.after.environments[profile.id] = machine_profile(profile);
  }
  if (!updated.samples.empty()) {
    // The samples are this run's: one block, unless they are the ones the baseline holds
    // (promoting the same run twice changes nothing).
    if (old != nullptr && old->samples == updated.samples && old->seeds == updated.seeds) {
      updated.pool = old->pool;
    } else {
      updated.pool = {pool_block(record, updated.seeds, request.reason, request.now)};
      const EnvironmentProfile numerics = samples_environment(profile);
      planned.after.environments[numerics.id] = numerics;
    }
  }
  const std::optional<double> old_value = old ? value_for(*old, profile) : std::nullopt;
  const std::optional<double> new_value = value_for(updated, profile);
  if (!old_value) {
    ++planned.new_metrics;  // nothing was replaced, so there is no history to keep
  } else if (!same_value(old_value, new_value)) {
    HistoryEntry entry;
    entry.replaced_at = request.now;
    entry.reason = request.reason;
    entry.source_run = record.run.info.run_id;
    entry.environment =
        is_environment_bound(updated.policy) ? profile_id_for(updated.policy, profile) : "";
    entry.old_value = old_value;
    entry.new_value = *new_value;
    updated.history.push_back(entry);  // version filled in below, once it is known
    ++planned.changed_metrics;
  } else if (old != nullptr && !(updated == *old)) {
    ++planned.changed_metrics;  // direction or policy changed
  }
  if (is_environment_bound(updated.policy) ||
      updated.breakdowns.contains(breakdown_profile_id(updated, profile))) {
    const EnvironmentProfile described = stored_description(updated.policy, profile);
    planned.after.environments[described.id] = described;
  }
  if (!updated.samples.empty()) planned.seeded_metrics.emplace_back(test.name, metric.name);
  store_paired_spread(planned, updated, old, test.name + "." + metric.name, record, request.now);
  if (updated.failure_count) {
    planned.detectable_effects.push_back(
        fmt::format("{}.{}: {}", test.name, metric.name, failure_rate_note(updated, test)));
  }
  target.metrics[metric.name] = std::move(updated);
}

}  // namespace

std::vector<PlannedFile> plan_promotion(const RunRecord& record, const BaselineSet& existing,
                                        const PromotionRequest& request) {
  if (request.add_seeds) return plan_seed_addition(record, existing, request);
  if (request.paired_spread) return plan_paired_spread(record, existing, request);
  refuse_unpromotable(record, request.force, "promote", /*needs_every_seed=*/true);
  const std::string folder = baseline_folder(request.baselines_dir, record.run.info.binary);
  const NameFilter filter(request.filter);
  std::map<std::string, PlannedFile> files;  // by path
  for (const TestResult& test : record.run.tests) {
    if (!offers_values(test, filter)) continue;
    if (is_test_failure(test.status) && !request.force) continue;
    const LoadedBaselineFile* loaded = existing.find(test.name);
    const std::string path =
        loaded ? loaded->path : folder + "/" + baseline_stem(test.file) + ".toml";
    BaselineFile before;
    for (const LoadedBaselineFile& f : existing.files()) {
      if (f.path == path) before = f.file;
    }
    PlannedFile& planned = planned_file(files, path, before);
    BaselineTest& target = planned.after.tests[test.name];
    target.config_hash = test.config_hash;
    target.config = test.config;
    target.datasets.clear();
    target.data_orders.clear();
    target.checkpoints.clear();
    for (const RecordedDataset& d : test.datasets)
      fingerprints_of(target, d.kind)[d.name] = d.sha256;
    target.properties = test.properties;
    for (const MetricRecord& metric : test.metrics) {
      if (metric.target && !request.graduating) {
        const auto guard = target.metrics.find(metric.name);
        const bool graduated = guard != target.metrics.end() && guard->second.graduation;
        planned.skipped_values.push_back(
            graduated ? fmt::format("{}.{}: a capability graduated into a guard, kept as graduate "
                                    "wrote it (graduate again to renew it, --demote to drop it)",
                                    test.name, metric.name)
                      : fmt::format("{}.{}: a capability (record_target), not promoted; "
                                    "`graduate` makes it a guard",
                                    test.name, metric.name));
        continue;
      }
      // A flaky-aware test's values are its first attempt's; a failed attempt's say nothing.
      if (first_attempt_failed(test) && !std::holds_alternative<FailureRate>(metric.policy)) {
        planned.skipped_values.push_back(
            fmt::format("{}.{}: not promoted, the first attempt (seed {}) failed", test.name,
                        metric.name, test.seed));
        continue;
      }
      plan_promoted_metric(planned, target, test, metric, record, request);
    }
  }
  // Promote rewrites what this machine holds, its description included; adopt only adds.
  return changed_files(std::move(files), record, request.reason, request.now,
                       MachineDescription::kReplace);
}

void stamp_provenance(PlannedFile& planned, const RunRecord& record, const std::string& reason,
                      const std::string& now) {
  // A seeded metric promoted before blocks were recorded is read as one block of the file's last
  // [provenance] (pool_of). This rewrite replaces that provenance (a promotion of another test in
  // the same file, say), after which the guess would name the wrong run, commit and machine: the
  // block is written out now, from the provenance it came from, and never guessed again.
  for (auto& [test_name, test] : planned.after.tests) {
    for (auto& [metric_name, metric] : test.metrics) {
      if (metric.pool.empty() && !metric.seeds.empty()) {
        metric.pool = pool_of(metric, planned.before);
      }
    }
  }
  Provenance& p = planned.after.provenance;
  p.version = planned.before.provenance.version + 1;
  p.promoted_at = now;
  const GitInfo git = recorded_git(record.run.info.environment);
  p.git_commit = git.commit;
  p.git_dirty = git.dirty;
  p.reason = reason;
  p.source_run = record.run.info.run_id;
  p.environment = record.profile.id;
  for (auto& [test_name, test] : planned.after.tests) {
    for (auto& [metric_name, metric] : test.metrics) {
      for (HistoryEntry& entry : metric.history) {
        if (entry.version == 0) entry.version = p.version;
      }
    }
  }
}

BaselineFolderLock::BaselineFolderLock(const std::string& baselines_dir,
                                       const std::string& binary) {
  const std::string folder = baseline_folder(baselines_dir, binary);
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw OutputError(fmt::format("cannot create '{}': {}", folder, error.message()));
  // The lock is on the folder itself, so no lock file ends up in the repository.
  fd_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw OutputError(fmt::format("cannot open '{}': {}", folder, std::strerror(errno)));
  while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
  }
}

BaselineFolderLock::~BaselineFolderLock() { ::close(fd_); }  // closing releases the lock

std::vector<PlannedFile> promote_run(const RunRecord& record, const PromotionRequest& request,
                                     std::vector<std::string>* references_written) {
  const std::string& binary = record.run.info.binary;
  const std::string folder = baseline_folder(request.baselines_dir, binary);
  // One promotion at a time per binary: the second waits, then plans against the first's result.
  const BaselineFolderLock lock(request.baselines_dir, binary);
  remove_stale_temporaries(folder);  // of a promotion killed between naming and renaming
  const BaselineSet existing =
      BaselineSet::load(request.baselines_dir, binary, /*allow_missing=*/true);
  std::vector<PlannedFile> plan = plan_promotion(record, existing, request);
  // Test hook: widens the window in which kill -9 can land, so the atomicity test can aim at it.
  const char* pause = std::getenv("MLREGRESS_TEST_PROMOTE_PAUSE_MS");
  for (const PlannedFile& file : plan) {
    if (pause != nullptr) std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(pause)));
    write_file_atomically(file.path, render_baseline(file.after), Durability::kSurvivesPowerLoss);
  }
  // Samples or their spread only: reference curves and predictions stay.
  if (request.add_seeds || request.paired_spread) return plan;
  // The reference predictions: the same tests as the TOML (filter; failed ones only with force).
  const NameFilter filter(request.filter);
  for (const TestResult& test : record.run.tests) {
    if (!filter.matches(test.name, test.full_name) || test.status == TestStatus::kSkipped) continue;
    if (is_test_failure(test.status) && !request.force) continue;
    for (const RecordedCurve& curve : test.curves) {
      if (!curve.curve.policy || curve.curve.values.empty()) continue;
      write_reference_file(folder + "/" + curve.csv_file,
                           render_curve_csv(reference_curve(curve.curve)), references_written);
    }
    for (const RecordedPredictions& p : test.predictions) {
      if (!p.data) continue;
      write_reference_file(folder + "/" + predictions_file_name(test.name, p.name),
                           render_predictions_csv(*p.data), references_written);
    }
  }
  return plan;
}

BaselineSet baseline_from_run(const RunRecord& record) {
  const PromotionRequest request{
      .reason = "compare", .force = true, .now = record.run.info.started_at};
  std::vector<LoadedBaselineFile> files;
  for (PlannedFile& planned : plan_promotion(record, BaselineSet{}, request)) {
    planned.after.provenance.version = 0;  // never promoted: the report says v0
    files.push_back({record.path, std::move(planned.after)});
  }
  return BaselineSet::from_files(std::move(files), record.path);
}

}  // namespace mlregress::internal
