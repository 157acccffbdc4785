#include "execution/shard.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>

#include "record/json_text.h"
#include "storage/results_json.h"
#include "support/errors.h"
#include "support/fnv1a.h"

namespace mlregress::internal {
namespace {

std::size_t parse_count(const std::string& text, const std::string& what) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw ConfigError(fmt::format("{}: expected a whole number, got '{}'", what, text));
  }
  return value;
}

ShardSpec checked(std::size_t index, std::size_t count, std::string source) {
  if (count == 0) throw ConfigError(fmt::format("{}: the shard count must be at least 1", source));
  if (index >= count) {
    throw ConfigError(
        fmt::format("{}: shard index {} is not below the shard count {}", source, index, count));
  }
  return {index, count, std::move(source), ""};
}

}  // namespace

std::optional<ShardSpec> resolve_shard(const std::string& flag, int count_flag,
                                       const EnvironmentLookup& env) {
  if (!flag.empty()) {
    const std::size_t slash = flag.find('/');
    if (slash == std::string::npos) {
      throw ConfigError(
          fmt::format("--shard: expected INDEX/COUNT (0-based, e.g. 0/4), got '{}'", flag));
    }
    return checked(parse_count(flag.substr(0, slash), "--shard index"),
                   parse_count(flag.substr(slash + 1), "--shard count"), "--shard");
  }
  for (const auto& [total, index, status] :
       {std::tuple{"GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX", "GTEST_SHARD_STATUS_FILE"},
        std::tuple{"TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX", "TEST_SHARD_STATUS_FILE"}}) {
    const auto count_text = env(total);
    const auto index_text = env(index);
    if (!count_text && !index_text) continue;
    if (!count_text || !index_text) {
      throw ConfigError(fmt::format("{} and {} must be set together", total, index));
    }
    ShardSpec spec =
        checked(parse_count(*index_text, index), parse_count(*count_text, total), total);
    spec.status_file = env(status).value_or("");
    return spec;
  }
  if (const auto task = env("SLURM_ARRAY_TASK_ID")) {
    const auto count = env("SLURM_ARRAY_TASK_COUNT");
    if (!count) throw ConfigError("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT");
    const std::size_t id = parse_count(*task, "SLURM_ARRAY_TASK_ID");
    const std::size_t min =
        parse_count(env("SLURM_ARRAY_TASK_MIN").value_or("0"), "SLURM_ARRAY_TASK_MIN");
    const std::size_t step =
        parse_count(env("SLURM_ARRAY_TASK_STEP").value_or("1"), "SLURM_ARRAY_TASK_STEP");
    if (id < min || step == 0 || (id - min) % step != 0) {
      throw ConfigError(
          fmt::format("SLURM_ARRAY_TASK_ID {} is not in the array {}-... step {}", id, min, step));
    }
    return checked((id - min) / step, parse_count(*count, "SLURM_ARRAY_TASK_COUNT"),
                   "SLURM_ARRAY_TASK_ID");
  }
  if (const auto index = env("JOB_COMPLETION_INDEX")) {
    std::size_t count = 0;
    if (count_flag > 0) {
      count = static_cast<std::size_t>(count_flag);
    } else if (const auto from_env = env("MLREGRESS_SHARD_COUNT")) {
      count = parse_count(*from_env, "MLREGRESS_SHARD_COUNT");
    } else {
      throw ConfigError(
          "JOB_COMPLETION_INDEX is set but the shard count is not: give --shard-count N or "
          "MLREGRESS_SHARD_COUNT (the Job's completions)");
    }
    return checked(parse_count(*index, "JOB_COMPLETION_INDEX"), count, "JOB_COMPLETION_INDEX");
  }
  return std::nullopt;
}

std::string WorkUnit::key() const {
  if (!seeded) return test;
  return fmt::format("{}{}#seed{}", test, variant.empty() ? "" : "[" + variant + "]",
                     seed_unit.seed);
}

std::vector<WorkUnit> work_units(const RunPlan& plan) {
  std::vector<WorkUnit> units;
  for (const PlannedTest& planned : plan.tests) {
    if (!planned.seeded()) {
      units.push_back({planned.test->full_name(), false, "", {}});
      continue;
    }
    for (const SeedUnit& unit : planned.units) {
      units.push_back(
          {planned.test->full_name(), true, planned.variants.at(unit.variant_index).name, unit});
    }
  }
  return units;
}

std::vector<std::size_t> assign_units(const std::vector<WorkUnit>& units, std::size_t count,
                                      const std::map<std::string, double>& weights) {
  std::vector<std::size_t> shard(units.size());
  if (weights.empty()) {
    for (std::size_t i = 0; i < units.size(); ++i) shard[i] = i % count;
    return shard;
  }
  // Longest first onto the least loaded shard. A unit the previous run did not have weighs the
  // mean of those it had, so a new test neither piles up nor is ignored.
  double known = 0.0;
  std::size_t known_count = 0;
  std::vector<double> weight(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    const auto it = weights.find(units[i].key());
    weight[i] = it != weights.end() ? it->second : -1.0;
    if (weight[i] >= 0.0) known += weight[i], ++known_count;
  }
  const double fallback = known_count > 0 ? known / static_cast<double>(known_count) : 1.0;
  for (double& w : weight) {
    if (w < 0.0) w = fallback;
  }
  std::vector<std::size_t> order(units.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
  std::vector<double> load(count, 0.0);
  for (std::size_t i : order) {
    const std::size_t lightest =
        static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shard[i] = lightest;
    load[lightest] += weight[i];
  }
  return shard;
}

std::map<std::string, double> unit_weights_from(const std::string& results_json) {
  const RunResult run = read_results_json(results_json);
  std::map<std::string, double> weights;
  for (const TestResult& test : run.tests) {
    if (!test.seeded) {
      weights[test.full_name] = test.duration_s;
      continue;
    }
    for (const SeedRun& seed_run : test.seed_runs) {
      weights[WorkUnit{
          test.full_name, true, seed_run.variant, {seed_run.variant_index, seed_run.seed}}
                  .key()] = seed_run.duration_s;
    }
  }
  return weights;
}

RunPlan shard_plan(const RunPlan& plan, const ShardSpec& shard,
                   const std::map<std::string, double>& weights) {
  const std::vector<WorkUnit> units = work_units(plan);
  const std::vector<std::size_t> assigned = assign_units(units, shard.count, weights);
  RunPlan part = plan;
  part.tests.clear();
  std::size_t u = 0;
  for (const PlannedTest& planned : plan.tests) {
    if (!planned.seeded()) {
      if (assigned[u++] == shard.index) part.tests.push_back(planned);
      continue;
    }
    PlannedTest mine = planned;
    mine.units.clear();
    for (const SeedUnit& unit : planned.units) {
      if (assigned[u++] == shard.index) mine.units.push_back(unit);
    }
    if (!mine.units.empty()) part.tests.push_back(std::move(mine));
  }
  return part;
}

std::string plan_hash(const RunPlan& plan) {
  nlohmann::json json = plan;
  json.erase("jobs");  // how many seeds run at once changes no result
  return fmt::format("{:016x}", fnv1a_64(json_text(json)));
}

}  // namespace mlregress::internal
