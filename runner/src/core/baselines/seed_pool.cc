#include "baselines/seed_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "baselines/seed_ranges.h"
#include "record/run_result.h"
#include "registry/name_filter.h"

namespace mlregress::internal {

std::vector<PoolBlock> pool_of(const BaselineMetric& metric, const BaselineFile& file) {
  if (!metric.pool.empty() || metric.seeds.empty()) return metric.pool;
  const Provenance& p = file.provenance;
  PoolBlock block;
  block.source_run = p.source_run;
  block.seeds = metric.seeds;
  std::sort(block.seeds.begin(), block.seeds.end());
  block.added_at = p.promoted_at;
  block.git_commit = p.git_commit;
  block.reason = p.reason;
  block.environment = p.environment;
  return {block};
}

bool same_numerics(const PoolBlock& stored, const EnvironmentProfile& run) {
  if (stored.environment == samples_environment(run).id) return true;
  return run.pins.empty() && stored.environment == run.id;
}

namespace {

// Bit-for-bit: the file keeps the shortest text that reads back as the same double, so a seed
// measured again on the same numerics compares equal; anything else is another measurement.
bool same_sample(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

const Margin* margin_of(const TolerancePolicy& policy) { return std::get_if<Margin>(&policy); }

// A metric whose baseline or run value is not per seed: nothing to pool.
void add_unseeded_refusals(const std::string& name, const BaselineMetric& baseline,
                           const MetricRecord& metric, std::vector<std::string>& refusals) {
  const Margin* stored_margin = margin_of(baseline.policy);
  const Margin* run_margin = margin_of(metric.policy);
  if (stored_margin == nullptr || baseline.samples.empty()) {
    refusals.push_back(fmt::format(
        "{}: the baseline holds one value, not per-seed samples; promote without --add-seeds",
        name));
  }
  if (run_margin == nullptr || metric.sample_seeds.empty() ||
      metric.samples.size() != metric.sample_seeds.size()) {
    refusals.push_back(fmt::format(
        "{}: the run did not measure it on seeds (no per-seed samples); only seeded metrics "
        "(ML_SEED_TEST, Margin) grow their baseline",
        name));
  }
}

// Samples pool only under the same direction, margin and covariate, and on the same numerics.
// Both margins are set (add_unseeded_refusals found none missing).
void add_mismatch_refusals(const std::string& name, const BaselineMetric& baseline,
                           const MetricRecord& metric, const EnvironmentProfile& run,
                           std::vector<std::string>& refusals) {
  const Margin* stored_margin = margin_of(baseline.policy);
  const Margin* run_margin = margin_of(metric.policy);
  if (baseline.direction != metric.direction) {
    refusals.push_back(
        fmt::format("{}: the baseline is {}, the run {}; promote without "
                    "--add-seeds to change the direction",
                    name, direction_name(baseline.direction), direction_name(metric.direction)));
  }
  if (stored_margin->delta != run_margin->delta) {
    refusals.push_back(
        fmt::format("{}: the baseline's margin is {}, the run's {}; promote "
                    "without --add-seeds to change the margin",
                    name, stored_margin->delta, run_margin->delta));
  }
  if (stored_margin->covariate != run_margin->covariate) {
    const auto named = [](const std::string& covariate) {
      return covariate.empty() ? std::string("no covariate") : "covariate '" + covariate + "'";
    };
    refusals.push_back(fmt::format(
        "{}: the baseline pre-registered {}, the run declares {}; promote without --add-seeds "
        "to register another",
        name, named(stored_margin->covariate), named(run_margin->covariate)));
  }
  for (const PoolBlock& stored : baseline.pool) {
    if (!same_numerics(stored, run)) {
      refusals.push_back(fmt::format(
          "{}: seeds {} were measured on environment '{}', this run on '{}' (machine '{}'): a "
          "seed's value depends on the kernels, so samples of other numerics do not pool; "
          "promote without --add-seeds to start a pool on this one",
          name, seed_ranges_text(stored.seeds), stored.environment, samples_environment(run).id,
          run.id));
      break;
    }
  }
}

// The run's samples into result.merged: a new seed is added, a seed already stored with the same
// value is a repeat, one with another value is refused.
void merge_samples(const std::string& name, const BaselineMetric& baseline,
                   const MetricRecord& metric, SeedAddition& result) {
  std::vector<std::string>& refusals = result.refusals;
  std::map<std::uint64_t, double> stored_by_seed;
  for (std::size_t i = 0; i < baseline.seeds.size(); ++i)
    stored_by_seed.emplace(baseline.seeds[i], baseline.samples[i]);
  result.merged = baseline;
  for (std::size_t i = 0; i < metric.sample_seeds.size(); ++i) {
    const std::uint64_t seed = metric.sample_seeds[i];
    const double value = metric.samples[i];
    const auto stored = stored_by_seed.find(seed);
    if (stored == stored_by_seed.end()) {
      result.merged.seeds.push_back(seed);
      result.merged.samples.push_back(value);
      result.added.push_back(seed);
      stored_by_seed.emplace(seed, value);  // a seed twice in one run is refused next time round
    } else if (same_sample(stored->second, value)) {
      result.repeated.push_back(seed);
    } else {
      refusals.push_back(
          fmt::format("{}: seed {} is in the baseline as {} but the run measured "
                      "{}; a seed has one value (was it measured on other "
                      "numerics, or is the test not deterministic per seed?)",
                      name, seed, stored->second, value));
    }
  }
}

}  // namespace

SeedAddition add_seeds_to_metric(const std::string& name, const BaselineMetric& baseline,
                                 const MetricRecord& metric, PoolBlock block,
                                 const EnvironmentProfile& run) {
  SeedAddition result;
  std::vector<std::string>& refusals = result.refusals;
  add_unseeded_refusals(name, baseline, metric, refusals);
  if (!refusals.empty()) return result;
  add_mismatch_refusals(name, baseline, metric, run, refusals);
  merge_samples(name, baseline, metric, result);
  if (!refusals.empty()) return result;
  if (!result.added.empty()) {
    block.seeds = result.added;
    std::sort(block.seeds.begin(), block.seeds.end());
    result.merged.pool.push_back(std::move(block));
  }
  return result;
}

namespace {

const BaselineTest* stored_test(const LoadedBaselineFile* loaded, const std::string& name) {
  if (loaded == nullptr) return nullptr;
  const auto it = loaded->file.tests.find(name);
  return it == loaded->file.tests.end() ? nullptr : &it->second;
}

bool seeded(const MetricRecord& metric) {
  return std::holds_alternative<Margin>(metric.policy) && !metric.sample_seeds.empty();
}

// The stored per-seed metrics of `stored` that the run's test did not record per seed. Adding
// the others' seeds without them would leave a test's metrics on different seeds: a covariate
// missing for the new seeds turns the metric's adjustment off against every later run ("the
// baseline lacks a finite covariate"), and a paired look would find some metrics' seeds only.
std::vector<std::string> stored_metrics_the_run_lacks(const BaselineTest& stored,
                                                      const TestResult& test,
                                                      const std::string& path) {
  std::set<std::string> recorded;
  std::map<std::string, std::string> covariate_of;  // covariate → a metric it adjusts
  for (const MetricRecord& metric : test.metrics) {
    if (seeded(metric)) recorded.insert(metric.name);
    if (const Margin* m = std::get_if<Margin>(&metric.policy); m && !m->covariate.empty())
      covariate_of.emplace(m->covariate, metric.name);
  }
  for (const auto& [name, metric] : stored.metrics) {
    if (const Margin* m = std::get_if<Margin>(&metric.policy); m && !m->covariate.empty())
      covariate_of.emplace(m->covariate, name);
  }
  std::vector<std::string> refusals;
  for (const auto& [name, metric] : stored.metrics) {
    if (!std::holds_alternative<Margin>(metric.policy) || metric.samples.empty()) continue;
    if (recorded.contains(name)) continue;
    const auto adjusts = covariate_of.find(name);
    refusals.push_back(fmt::format(
        "{}: {}.{}: in the baseline on {} seeds{}, but the run did not record it per seed; a "
        "test's seeded metrics grow together, so promote a run that records it (or promote "
        "without --add-seeds to replace the baseline)",
        path, test.name, name, metric.seeds.size(),
        adjusts == covariate_of.end() ? ""
                                      : fmt::format(" (the covariate of '{}')", adjusts->second)));
  }
  return refusals;
}

// Why the seeds of `test` cannot join its stored baseline (`stored` in `loaded`, under `folder`),
// each reason a line of the refusal; empty when they can.
std::vector<std::string> why_seeds_cannot_join(const TestResult& test, const BaselineTest* stored,
                                               const LoadedBaselineFile* loaded,
                                               const std::string& folder, const RunResult& run) {
  if (is_test_failure(test.status)) {
    // Even with --force: a failed seed's value is missing, the others' are suspect.
    return {fmt::format("test {} {}: its seeds do not join a baseline", test.name,
                        test_status_name(test.status))};
  }
  if (std::none_of(test.metrics.begin(), test.metrics.end(), seeded)) {
    return {fmt::format(
        "test {}: not a seeded test in run {} (no per-seed samples); --add-seeds grows seeded "
        "baselines only (--filter selects tests)",
        test.name, run.info.run_id)};
  }
  if (stored == nullptr) {
    return {fmt::format(
        "test {}: no baseline in {} yet; promote the run without --add-seeds first (its seeds "
        "become the first block)",
        test.name, folder)};
  }
  const std::string& path = loaded->path;
  if (stored->config_hash != test.config_hash) {
    return {fmt::format(
        "{}: test {}: config_hash {} in the baseline, {} in the run: the seeds measured another "
        "configuration; promote without --add-seeds to replace the baseline",
        path, test.name, stored->config_hash, test.config_hash)};
  }
  BaselineTest recorded;
  for (const RecordedDataset& d : test.datasets)
    fingerprints_of(recorded, d.kind)[d.name] = d.sha256;
  if (recorded.datasets != stored->datasets) {
    return {fmt::format(
        "{}: test {}: the run measured other data (record_dataset) than the baseline; promote "
        "without --add-seeds",
        path, test.name)};
  }
  if (recorded.checkpoints != stored->checkpoints) {
    return {fmt::format(
        "{}: test {}: the run loaded another checkpoint (record_checkpoint) than the baseline; "
        "promote without --add-seeds",
        path, test.name)};
  }
  return stored_metrics_the_run_lacks(*stored, test, path);
}

// One metric of a test whose seeds can join its baseline (`stored`, in `loaded`): its new seeds
// into `target` of `planned`, or why they cannot into `refusals`.
void plan_seeded_metric(PlannedFile& planned, BaselineTest& target, const TestResult& test,
                        const MetricRecord& metric, const BaselineTest& stored,
                        const LoadedBaselineFile& loaded, const RunRecord& record,
                        const PromotionRequest& request, std::vector<std::string>& refusals) {
  const std::string& path = loaded.path;
  const std::string name = test.name + "." + metric.name;
  if (!seeded(metric)) {
    planned.skipped_values.push_back(
        fmt::format("{}: left as it is (not a per-seed metric)", name));
    return;
  }
  const auto old = stored.metrics.find(metric.name);
  if (old == stored.metrics.end()) {
    refusals.push_back(
        fmt::format("{}: {}: no baseline yet; promote the run without "
                    "--add-seeds first (its seeds become the first block)",
                    path, name));
    return;
  }
  BaselineMetric baseline = old->second;
  baseline.pool = pool_of(baseline, loaded.file);
  const SeedAddition addition = add_seeds_to_metric(
      name, baseline, metric, pool_block(record, {}, request.reason, request.now), record.profile);
  for (const std::string& refusal : addition.refusals)
    refusals.push_back(fmt::format("{}: {}", path, refusal));
  if (!addition.refusals.empty()) return;
  if (!addition.repeated.empty()) {
    planned.skipped_values.push_back(
        fmt::format("{}: seeds {} already in the baseline with the same values: skipped", name,
                    seed_ranges_text(addition.repeated)));
  }
  if (addition.added.empty()) return;
  target.metrics[metric.name] = addition.merged;
  ++planned.changed_metrics;
  const PoolBlock& block = addition.merged.pool.back();
  // A block made of an older file's provenance names a machine the file already describes.
  planned.after.environments[block.environment] = samples_environment(record.profile);
  planned.detectable_effects.push_back(fmt::format(
      "{}: seeds {} added; the baseline holds {} seeds in {} blocks", name,
      seed_ranges_text(addition.added), addition.merged.seeds.size(), addition.merged.pool.size()));
  planned.seeded_metrics.emplace_back(test.name, metric.name);
}

}  // namespace

std::vector<PlannedFile> plan_seed_addition(const RunRecord& record, const BaselineSet& existing,
                                            const PromotionRequest& request) {
  // A pool takes every seed a later paired look may need, as a plain promotion of it does.
  refuse_unpromotable(record, request.force, "promote --add-seeds", /*needs_every_seed=*/true);
  MetricPlanner planner;
  planner.command = "promote --add-seeds";
  planner.why_not = [&](const TestResult& test, const LoadedBaselineFile* loaded,
                        const std::string& folder) {
    return why_seeds_cannot_join(test, stored_test(loaded, test.name), loaded, folder, record.run);
  };
  planner.plan_metric = [&](PlannedFile& planned, BaselineTest& target, const TestResult& test,
                            const MetricRecord& metric, const LoadedBaselineFile& loaded,
                            std::vector<std::string>& refusals) {
    plan_seeded_metric(planned, target, test, metric, *stored_test(&loaded, test.name), loaded,
                       record, request, refusals);
  };
  // A file whose every seed was there already does not change.
  return plan_metric_by_metric(record, existing, request, planner);
}

}  // namespace mlregress::internal
