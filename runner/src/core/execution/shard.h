// Sharding a run over machines: which units of work a shard runs, decided the same way on every
// machine from the plan alone. A plain test is one unit; each (variant, seed) of a seeded test
// is a unit of its own, so that a 20-seed study spreads over 20 machines. `merge` joins the
// shards' partial run folders into one run and only then decides the multi-seed gate.
//
// Assignment: the units in plan order (tests in order; a seeded test's variants outermost, then
// seeds) are dealt round-robin, unit i to shard i mod N; with weights (the durations of a
// previous run), each unit in turn, longest first, goes to the shard with the least work so far
// (ties: the lower index). Either way every unit lands in exactly one shard, and a shard may be
// empty (N larger than the number of units).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "execution/run_plan.h"
#include "support/environment_variables.h"

namespace mlregress::internal {

struct ShardSpec {
  std::size_t index = 0;  ///< 0-based
  std::size_t count = 1;
  std::string source;       ///< "--shard", "GTEST_TOTAL_SHARDS", "SLURM_ARRAY_TASK_ID", ...
  std::string status_file;  ///< GTEST_SHARD_STATUS_FILE / TEST_SHARD_STATUS_FILE to touch
};

/// The shard this process runs: `--shard I/N` when given (`flag`), else from the environment:
/// GTEST_TOTAL_SHARDS + GTEST_SHARD_INDEX, TEST_TOTAL_SHARDS + TEST_SHARD_INDEX (Bazel),
/// SLURM_ARRAY_TASK_ID + SLURM_ARRAY_TASK_COUNT (index relative to SLURM_ARRAY_TASK_MIN), or
/// JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs) with the count from `count_flag` or
/// MLREGRESS_SHARD_COUNT. nullopt: not sharded. Throws ConfigError for a malformed value or an
/// index outside [0, N).
std::optional<ShardSpec> resolve_shard(const std::string& flag, int count_flag,
                                       const EnvironmentLookup& environment);

/// "Fast.Cnn" for a plain test, "Full.Xor#seed3" or "Full.Xor[half_width]#seed3" for a seed run.
struct WorkUnit {
  std::string test;  ///< full name
  bool seeded = false;
  std::string variant;
  SeedUnit seed_unit;
  std::string key() const;
};

/// Every unit of the plan, in plan order.
std::vector<WorkUnit> work_units(const RunPlan& plan);

/// Shard index of each unit. `weights` (unit key -> seconds) may be empty: round-robin.
std::vector<std::size_t> assign_units(const std::vector<WorkUnit>& units, std::size_t count,
                                      const std::map<std::string, double>& weights);

/// The durations of a previous run's results.json, by unit key, for assign_units.
std::map<std::string, double> unit_weights_from(const std::string& results_json);

/// The plan restricted to the units assigned to `shard`: plain tests of other shards are left
/// out, seeded tests keep only their own units (and are left out with none).
RunPlan shard_plan(const RunPlan& plan, const ShardSpec& shard,
                   const std::map<std::string, double>& weights);

/// A hash of everything that decides what the plan runs (config.json without the job count),
/// so that merge can refuse shards of different plans.
std::string plan_hash(const RunPlan& plan);

}  // namespace mlregress::internal
