// config.json in a run folder: the whole plan of the run, written before the first test
// (runner/docs/results-schema.md). `rerun` reads a test's resolved parameters, seed and thread
// count from it; `merge` learns from a shard's copy every unit of the plan.
//
//   {"schema_version": 1, "seed": 0, "threads": 1, "jobs": 2, "overrides": [...],
//    "order": ["Fast.A", ...],
//    "tests": {"A": {"tier": "fast", "params": {...}, "config_hash": "...",
//                    "seeds": [...], "seed_block": 4, "pass_spending": "obrien-fleming",
//                    "seed_next_block": 8, "anytime": true,
//                    "variants": [{"name", "params",
//                    "config_hash"}], "attempts": {"detect": 0.2, "quarantined": false}}}}
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/sequential_seeds.h"
#include "mlregress/tier.h"
#include "statistics/group_sequential.h"

namespace mlregress::internal {

/// One test of the plan.
struct RunConfigTest {
  std::optional<Tier> tier;  ///< nullopt for a tier name this build does not know
  /// The resolved parameters by name, each as config.json stores it (a string, bool or number).
  std::map<std::string, nlohmann::json> params;
  std::string config_hash;
  // Seeded tests only: the seeds this run used (a sequential test's every seed up to its cap),
  // the seeds between two looks (sequential tests, else 0) and the variants' names in order.
  std::vector<std::uint64_t> seeds;
  int seed_block = 0;
  /// Sequential tests: how the PASS error is spent over the looks ("pass_spending"; absent in a
  /// plan written before pass_early(): O'Brien–Fleming-type).
  stats::SpendingFunction pass_spending = stats::SpendingFunction::kOBrienFleming;
  /// Sequential tests: the one-sided PASS error ("pass_error"; absent: 0.025).
  double pass_error = kDefaultPassError;
  /// Sequential tests: the seeds of the blocks after the first ("seed_next_block"; absent: the
  /// first block's, 0 here) and whether the looks are anytime-valid ("anytime") or likelihood
  /// ratio tests ("likelihood_ratio").
  int seed_next_block = 0;
  bool anytime = false;
  bool likelihood_ratio = false;
  /// Likelihood-ratio tests: the PASS boundary's rise ("pass_rise"; absent: 0, none) and the
  /// seeds from which it holds ("pass_rise_from").
  double pass_rise = 0.0;
  int pass_rise_from = 0;
  /// Likelihood-ratio tests declared .constant_pass() ("constant_pass"; absent: false).
  bool constant_pass = false;
  std::vector<std::string> variants;
  /// Flaky-aware tests: the rate their gate must catch, and whether --quarantine chose them.
  std::optional<double> attempts_detect;
  bool quarantined = false;
  bool seeded() const { return !seeds.empty(); }
};

struct RunConfig {
  // The run's --seed and thread count (absent only from a file written by hand).
  std::optional<std::uint64_t> seed;
  std::optional<int> threads;
  std::vector<std::string> order;              ///< the tests' full names in plan order
  std::map<std::string, RunConfigTest> tests;  ///< by test name
  /// The document as read: merge writes it on into the merged run folder.
  nlohmann::json document;

  /// The test named `name`, or nullptr when the plan has none.
  const RunConfigTest* find(const std::string& name) const;
};

/// Reads `<run_folder>/config.json`. Throws RunFolderError naming the file, and the field and
/// what was expected there, when it cannot be read, is not JSON or lacks what the plan holds.
RunConfig read_run_config(const std::string& run_folder);

}  // namespace mlregress::internal
