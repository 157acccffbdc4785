// Builders of the records the unit tests start from: a finished test and the run record holding
// it, a promotion request, a registered test, a metric's samples by seed. Each sets the fields
// every caller sets; a test adds what it is about.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/distribution_gate.h"
#include "baselines/promotion.h"
#include "record/run_result.h"
#include "registry/test_registry.h"
#include "storage/run_record.h"

namespace mlregress::internal {

/// A finished test `full_name` ("Fast.Clipping") declared in `file`, that recorded `metrics`.
inline TestResult finished_test(const std::string& name, const std::string& full_name,
                                const std::string& file, std::vector<MetricRecord> metrics) {
  return {.name = name,
          .full_name = full_name,
          .file = file,
          .metrics = std::move(metrics),
          .finished = true};
}

/// A test of `tier` ("Fast.<name>" for Tier::Fast) that finished with `status` after
/// `duration_s`, run with seed 42 on one thread under the config `config_hash`.
inline TestResult ended_test(const std::string& name, Tier tier, TestStatus status,
                             double duration_s, const std::string& config_hash) {
  const std::string suite = tier == Tier::Fast     ? "Fast."
                            : tier == Tier::Medium ? "Medium."
                                                   : "Full.";
  return {.name = name,
          .full_name = suite + name,
          .tier = tier,
          .config_hash = config_hash,
          .seed = 42,
          .threads = 1,
          .status = status,
          .duration_s = duration_s,
          .finished = true};
}

/// The record in `path` of run `run_id` of the binary "suite", finished 2026-12-04T00:00:00Z on
/// the environment profile `profile_id` (numerics `numerics_id`), holding `test`.
inline RunRecord run_record(const std::string& path, const std::string& run_id,
                            const std::string& profile_id, const std::string& numerics_id,
                            TestResult test) {
  RunRecord record;
  record.path = path;
  record.profile.id = profile_id;
  record.profile.numerics_id = numerics_id;
  record.run.info.run_id = run_id;
  record.run.info.binary = "suite";
  record.run.info.finished_at = "2026-12-04T00:00:00Z";
  record.run.tests.push_back(std::move(test));
  return record;
}

/// A promotion asked for at `now` for `reason`.
inline PromotionRequest promotion_request(const std::string& reason, const std::string& now) {
  PromotionRequest request;
  request.reason = reason;
  request.now = now;
  return request;
}

/// The baseline file that a forced promotion of `run` at 2026-12-04T00:00:00Z over `existing`
/// plans (the run's tests are expected in one file).
inline BaselineFile promoted_alone(const RunRecord& run, const BaselineSet& existing) {
  PromotionRequest request;
  request.force = true;
  request.now = "2026-12-04T00:00:00Z";
  const std::vector<PlannedFile> files = plan_promotion(run, existing, request);
  EXPECT_EQ(files.size(), 1u);
  return files.at(0).after;
}

/// A test registered as `tier_token`.`name` (tier_token "Fast", "Medium" or "Full", naming `tier`)
/// at `file`:`line`, with `params`.
inline RegisteredTest registered_test(Tier tier, const std::string& tier_token,
                                      const std::string& name, const std::string& file, int line,
                                      ParamSpecs params) {
  return {.tier = tier,
          .tier_token = tier_token,
          .name = name,
          .file = file,
          .line = line,
          .params = std::move(params)};
}

/// `values` measured on consecutive seeds from `first_seed`.
inline SeedSamples samples(const std::vector<double>& values, std::uint64_t first_seed = 0) {
  SeedSamples s;
  s.values = values;
  for (std::size_t i = 0; i < values.size(); ++i) s.seeds.push_back(first_seed + i);
  return s;
}

}  // namespace mlregress::internal
