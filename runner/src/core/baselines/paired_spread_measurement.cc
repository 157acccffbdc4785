#include "baselines/paired_spread_measurement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

#include "baselines/seed_ranges.h"
#include "statistics/moments.h"

namespace mlregress::internal {

namespace {

// new - old over the seeds `seeds` shares with `stored`, in the run's order.
struct Differences {
  std::vector<std::uint64_t> seeds;
  std::vector<double> values;
};

Differences paired_differences(const BaselineMetric& stored,
                               const std::vector<std::uint64_t>& seeds,
                               const std::vector<double>& samples) {
  std::map<std::uint64_t, double> before;
  for (std::size_t i = 0; i < stored.seeds.size() && i < stored.samples.size(); ++i)
    before[stored.seeds[i]] = stored.samples[i];
  Differences differences;
  for (std::size_t i = 0; i < seeds.size() && i < samples.size(); ++i) {
    const auto it = before.find(seeds[i]);
    if (it == before.end()) continue;
    differences.seeds.push_back(seeds[i]);
    differences.values.push_back(samples[i] - it->second);
  }
  return differences;
}

// The spread of `differences`: nullopt for fewer than kFewestStoredPairs, or no spread.
std::optional<PairedSpread> spread_of(const Differences& differences, const std::string& source_run,
                                      const std::string& now) {
  if (differences.values.size() < static_cast<std::size_t>(kFewestStoredPairs)) return std::nullopt;
  const stats::SampleSummary summary = stats::summarize_samples(differences.values);
  if (!(summary.sd > 0.0) || !std::isfinite(summary.sd)) return std::nullopt;
  std::vector<std::uint64_t> seeds = differences.seeds;
  std::sort(seeds.begin(), seeds.end());
  return PairedSpread{.sd = summary.sd,
                      .pairs = static_cast<int>(differences.values.size()),
                      .mean = summary.mean,
                      .seeds = std::move(seeds),
                      .source_run = source_run,
                      .measured_at = now};
}

}  // namespace

std::optional<PairedSpread> measure_paired_spread(const BaselineMetric& stored,
                                                  const std::vector<std::uint64_t>& seeds,
                                                  const std::vector<double>& samples,
                                                  const std::string& source_run,
                                                  const std::string& now) {
  return spread_of(paired_differences(stored, seeds, samples), source_run, now);
}

namespace {

// Why `test` measures no spread against its stored baseline, a line each; empty when it can.
std::vector<std::string> why_no_spread(const TestResult& test, const LoadedBaselineFile* loaded,
                                       const std::string& folder) {
  if (is_test_failure(test.status)) {
    return {fmt::format("test {} {}: a failed run's seeds measure nothing", test.name,
                        test_status_name(test.status))};
  }
  const auto stored = loaded == nullptr ? nullptr : &loaded->file.tests;
  if (stored == nullptr || !stored->contains(test.name)) {
    return {
        fmt::format("test {}: no baseline in {} to pair the run's seeds with; promote a run "
                    "of its seeds first",
                    test.name, folder)};
  }
  // Another configuration is allowed: what moves the seeds may be a parameter (another weight
  // stream), as it may be code.
  return {};
}

// Why `more` cannot join `before`'s pairs, or nullopt when it can.
std::optional<std::string> why_pairs_cannot_be_added(const PairedSpread& before,
                                                     const PairedSpread& more) {
  if (before.seeds.empty()) {
    return fmt::format(
        "its stored spread ({} pairs, from run {}) does not record its seeds, so pairs cannot "
        "be added to it; promote a run of the baseline's seeds with --paired-spread alone first",
        before.pairs, before.source_run);
  }
  std::vector<std::uint64_t> counted;
  std::set_intersection(before.seeds.begin(), before.seeds.end(), more.seeds.begin(),
                        more.seeds.end(), std::back_inserter(counted));
  if (!counted.empty()) {
    return fmt::format(
        "seeds {} are already among the stored spread's {} pairs, and a seed counts once; run "
        "other seeds of the baseline after the change (--seed) or replace the spread "
        "(--paired-spread without --add-pairs)",
        seed_ranges_text(counted), before.pairs);
  }
  return std::nullopt;
}

// `before`'s pairs and `more`'s together, as if one run had measured them all: the sd and mean
// over every difference, the seeds joined, the source run and time `more`'s. Both record their
// seeds, and share none.
PairedSpread add_pairs(const PairedSpread& before, const PairedSpread& more) {
  // Chan, Golub and LeVeque's update: the sums of squared deviations of two disjoint sets add,
  // plus the spread of their two means about the mean of all.
  const double n1 = before.pairs;
  const double n2 = more.pairs;
  const double n = n1 + n2;
  const double delta = more.mean - before.mean;
  const double squares = (n1 - 1.0) * before.sd * before.sd + (n2 - 1.0) * more.sd * more.sd +
                         delta * delta * n1 * n2 / n;
  PairedSpread all = more;
  all.pairs = before.pairs + more.pairs;
  all.mean = before.mean + delta * n2 / n;
  all.sd = std::sqrt(squares / (n - 1.0));
  all.seeds = before.seeds;
  all.seeds.insert(all.seeds.end(), more.seeds.begin(), more.seeds.end());
  std::sort(all.seeds.begin(), all.seeds.end());
  return all;
}

// `promote --paired-spread --add-pairs`: the run's `spread` joins the pairs `stored` counts.
void add_run_pairs(PlannedFile& planned, BaselineMetric& stored, const PairedSpread& spread,
                   const std::string& name, const std::string& path,
                   std::vector<std::string>& refusals) {
  const PairedSpread before = *stored.paired_spread;
  if (const std::optional<std::string> refusal = why_pairs_cannot_be_added(before, spread)) {
    refusals.push_back(fmt::format("{}: {}: {}", path, name, *refusal));
    return;
  }
  stored.paired_spread = add_pairs(before, spread);
  const PairedSpread& all = *stored.paired_spread;
  ++planned.changed_metrics;
  planned.detectable_effects.push_back(fmt::format(
      "{}: its seeds moved by an sd of {:.4g} against the baseline's ({} seeds in both), added to "
      "the {} stored pairs: an sd of {:.4g} over {} pairs (seeds {}), stored as the scale of "
      "paired likelihood-ratio looks; the samples stay",
      name, spread.sd, spread.pairs, before.pairs, all.sd, all.pairs, seed_ranges_text(all.seeds)));
}

// One seeded metric's spread into `target`, or the reason it has none.
void plan_metric_spread(PlannedFile& planned, BaselineTest& target, const TestResult& test,
                        const MetricRecord& metric, const std::string& path,
                        const RunRecord& record, const PromotionRequest& request,
                        std::vector<std::string>& refusals) {
  const std::string name = test.name + "." + metric.name;
  if (!std::holds_alternative<Margin>(metric.policy) || metric.sample_seeds.empty()) return;
  const auto stored = target.metrics.find(metric.name);
  if (stored == target.metrics.end() || stored->second.samples.empty()) {
    refusals.push_back(fmt::format("{}: {}: no stored samples to pair with", path, name));
    return;
  }
  const Differences differences =
      paired_differences(stored->second, metric.sample_seeds, metric.samples);
  const std::vector<double>& moved = differences.values;
  const bool unmoved = moved.size() >= static_cast<std::size_t>(kFewestStoredPairs) &&
                       std::all_of(moved.begin(), moved.end(), [](double d) { return d == 0.0; });
  if (unmoved) {
    // A value the change does not touch (a covariate of the data alone, under another weight
    // stream): its paired differences are zero, there is no spread to store, and the metrics that
    // moved still get theirs.
    planned.detectable_effects.push_back(fmt::format(
        "{}: none of its {} seeds in both moved: no spread stored (its paired looks see equal "
        "values)",
        name, moved.size()));
    return;
  }
  const std::optional<PairedSpread> spread =
      spread_of(differences, record.run.info.run_id, request.now);
  if (!spread) {
    refusals.push_back(fmt::format(
        "{}: {}: the run shares fewer than {} seeds with the baseline (or they all moved by "
        "exactly the same amount); run the baseline's own seeds after the change (--seed, "
        "--all-seeds)",
        path, name, kFewestStoredPairs));
    return;
  }
  if (request.add_pairs && stored->second.paired_spread) {
    add_run_pairs(planned, stored->second, *spread, name, path, refusals);
    return;
  }
  stored->second.paired_spread = spread;
  ++planned.changed_metrics;
  planned.detectable_effects.push_back(fmt::format(
      "{}: its seeds moved by an sd of {:.4g} against the baseline's ({} seeds in both): stored "
      "as the scale of paired likelihood-ratio looks; the samples stay",
      name, spread->sd, spread->pairs));
}

}  // namespace

std::vector<PlannedFile> plan_paired_spread(const RunRecord& record, const BaselineSet& existing,
                                            const PromotionRequest& request) {
  refuse_unpromotable(record, request.force, "promote --paired-spread",
                      /*needs_every_seed=*/false);
  MetricPlanner planner;
  planner.command = "promote --paired-spread";
  planner.why_not = why_no_spread;
  planner.plan_metric = [&](PlannedFile& planned, BaselineTest& target, const TestResult& test,
                            const MetricRecord& metric, const LoadedBaselineFile& loaded,
                            std::vector<std::string>& refusals) {
    plan_metric_spread(planned, target, test, metric, loaded.path, record, request, refusals);
  };
  std::vector<PlannedFile> planned = plan_metric_by_metric(record, existing, request, planner);
  if (planned.empty()) {
    throw PromotionRefused(fmt::format(
        "promote --paired-spread refuses run {}; nothing was written:\n  - none of its seeded "
        "metrics moved against the baseline's values of the same seeds (or each already stores "
        "this spread); run the baseline's own seeds after the change (--seed, --all-seeds)",
        record.run.info.run_id));
  }
  return planned;
}

}  // namespace mlregress::internal
