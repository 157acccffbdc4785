// A growing seeded baseline: `promote --add-seeds` appends a run's seeds and samples to a seeded
// metric's baseline instead of replacing them, one block per addition, so a nightly job builds a
// 200-seed reference from 40-seed runs. The baseline's standard error sd/sqrt(n) is the floor of
// every fresh-seed comparison; more seeds lower it. Samples join only samples they can be pooled
// with: the same configuration, data, numerics, direction and margin, and a seed never takes a
// second value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "baselines/promotion.h"

namespace mlregress::internal {

/// What adding one seeded metric's samples to its baseline gives.
struct SeedAddition {
  BaselineMetric merged;             ///< the baseline's samples, then the new ones, one block more
  std::vector<std::uint64_t> added;  ///< seeds that joined
  std::vector<std::uint64_t> repeated;  ///< seeds already there with the same value: left out
  std::vector<std::string> refusals;    ///< why the samples cannot join; `merged` is void if any
};

/// The blocks of a seeded metric: its own, or, for one promoted before blocks were recorded, one
/// block made of `file`'s provenance (the promotion that last wrote the file) holding every seed.
std::vector<PoolBlock> pool_of(const BaselineMetric& metric, const BaselineFile& file);

/// Whether samples measured on `run` may join a block measured on `stored.environment`: the
/// same numerics profile, or the same machine profile (a block made of an older file's
/// provenance names a machine; never for a run with kernel pins, as stored_profile_id).
bool same_numerics(const PoolBlock& stored, const EnvironmentProfile& run);

/// The merge rule for one metric (`name` is "Test.metric", for messages): `baseline` is a margin
/// metric with samples and its blocks (pool_of), `metric` the run's, `block` the block the new
/// seeds form (its seeds are filled in here). Refused: a baseline that is not per-seed samples, a
/// run metric that is not, another direction or margin, other numerics (`run`), a seed the
/// baseline holds with another value. A seed it holds with the same value is left out, and said.
SeedAddition add_seeds_to_metric(const std::string& name, const BaselineMetric& baseline,
                                 const MetricRecord& metric, PoolBlock block,
                                 const EnvironmentProfile& run);

/// `promote --add-seeds`: for each seeded metric of the selected tests, the run's seeds join its
/// baseline (add_seeds_to_metric). Throws PromotionRefused, listing every reason with the file,
/// test and metric, when any test or metric cannot: as promote, a failed, incomplete or dirty run
/// (unless request.force) or a sequential test that ran fewer seeds than its cap; and a test with
/// no baseline yet (promote it without --add-seeds), another config_hash or data, a test that is
/// not seeded in this run, or a metric refused by the merge rule. The other metrics of a seeded
/// test are left as they are (said in skipped_values). Returns only the files that change.
std::vector<PlannedFile> plan_seed_addition(const RunRecord& record, const BaselineSet& existing,
                                            const PromotionRequest& request);

}  // namespace mlregress::internal
