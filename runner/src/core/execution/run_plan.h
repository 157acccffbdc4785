// What a run will execute, fixed before any test starts: the selected tests in order, each with
// its resolved parameters and config hash, and the seed and thread count every test starts from.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/sequential_seeds.h"
#include "mlregress/determinism_mode.h"
#include "mlregress/metric.h"
#include "registry/param_overrides.h"
#include "registry/test_registry.h"
#include "statistics/group_sequential.h"

namespace mlregress::internal {

/// One variant of a seeded test: its name ("" when the test declares none) and its parameters
/// (the test's, with the variant's overrides applied last).
struct PlannedVariant {
  std::string name;
  ResolvedParams params;
  std::string config_hash;
  std::string method = {};  ///< a random_search() trial's method; "" for a variant declared by hand
  int trial = -1;           ///< the trial's index within its method
  /// randomness_study(): the streams held at the test's first seed in this variant
  std::vector<SeedStream> held = {};
};

/// One run of a seeded test's body to do: a variant (its index) under one seed.
struct SeedUnit {
  std::size_t variant_index = 0;
  std::uint64_t seed = 0;
  friend bool operator==(const SeedUnit&, const SeedUnit&) = default;
};

struct PlannedTest {
  const RegisteredTest* test = nullptr;
  ResolvedParams params;
  std::string config_hash;
  // Seeded tests only: the body runs once per (variant, seed), variants outermost.
  std::vector<PlannedVariant> variants;
  std::vector<std::uint64_t> seeds;
  /// The (variant, seed) runs this process executes, in plan order: every variant × seed, or a
  /// shard's part of them (run --shard).
  std::vector<SeedUnit> units;
  /// Sequential tests (Seeds(b).up_to(cap)): b, the seeds run between two looks at the gate;
  /// `seeds` holds all cap of them. 0 for every other test.
  int seed_block = 0;
  /// Sequential tests: how the PASS error is spent over the looks (Pocock-type under
  /// .pass_early()).
  stats::SpendingFunction pass_spending = stats::SpendingFunction::kOBrienFleming;
  /// Sequential tests: the one-sided PASS error (Seeds::pass_error(); 0.025 unless declared).
  double pass_error = kDefaultPassError;
  /// Sequential tests: the seeds of every block after the first (then_blocks_of()); 0: the
  /// first block's.
  int seed_next_block = 0;
  /// Sequential tests declared Seeds(b).until_decided(cap): anytime-valid looks.
  bool seed_anytime = false;
  /// Sequential tests declared Seeds(b).up_to(cap).likelihood_ratio(): Wald's SPRT at the looks.
  bool seed_likelihood_ratio = false;
  /// Likelihood-ratio tests declared .pass_rise(rise, from): the PASS boundary's rise (0: none)
  /// and the seeds from which it holds.
  double seed_pass_rise = 0.0;
  int seed_pass_rise_from = 0;
  /// Likelihood-ratio tests declared .constant_pass().
  bool seed_constant_pass = false;
  /// Flaky-aware tests (ML_FLAKY_TEST, or a plain test under run --quarantine): the seeds are
  /// attempts of the plain body, seed_block attempts between two looks, and the failure rate is
  /// gated with this policy. Unset for every other test.
  std::optional<FailureRate> attempts;
  bool quarantined = false;  ///< run --quarantine selected it

  bool seeded() const { return !seeds.empty(); }
  /// The seeds of the blocks after the first: seed_next_block, else seed_block.
  int later_seed_block() const { return seed_next_block > 0 ? seed_next_block : seed_block; }
};

/// One run of a seeded test's body, ready to start.
struct SeedJob {
  const PlannedTest* test = nullptr;
  const PlannedVariant* variant = nullptr;
  std::uint64_t seed = 0;
};

/// The largest seed: baseline files hold seeds as TOML integers (signed 64-bit). A seeded test
/// starting at S with n seeds needs S + n - 1 <= kMaxSeed.
inline constexpr std::uint64_t kMaxSeed = (std::uint64_t{1} << 63) - 1;

/// What every test of a run starts from.
struct RunSettings {
  std::uint64_t seed = 0;
  int threads = 1;
  int jobs = 1;                   ///< seeded tests: worker processes at once
  double seed_timeout_s = 600.0;  ///< a seed running longer is killed
  double test_timeout_s = 0.0;    ///< a plain test running longer is killed; 0: per tier
  /// Sequential tests stop at the first block after which the gate has decided every metric.
  /// false (run --all-seeds, a shard, rerun --seed): every planned seed runs.
  bool stop_early = true;
  /// run --quarantine: a filter (GoogleTest syntax) of the plain and flaky tests whose single
  /// failures do not fail the run; they run as attempts, and only their failure rate gates.
  std::string quarantine;
  /// run --determinism: every test's mode unless it declares a "determinism" parameter.
  DeterminismMode determinism = DeterminismMode::Warn;
};

/// How a quarantined plain test repeats: blocks of 4 attempts, at most 200, a rise of its
/// failure rate to 20% caught with 90% power.
inline constexpr int kQuarantineBlock = 4;
inline constexpr int kQuarantineCap = 200;

/// The seconds a plain test of `tier` may run: --timeout, else the tier's default, the same
/// ctest gets (fast 120, medium 900, full 3600).
double test_timeout_s(const RunSettings& settings, Tier tier);

/// The determinism a test runs under: its "determinism" parameter (a string naming a mode) when
/// it declares one, else `run_mode`. Another value of that parameter throws ConfigError naming
/// the test (make_run_plan checks every test before the run starts).
DeterminismMode test_determinism(const std::string& test_name, const ResolvedParams& params,
                                 DeterminismMode run_mode);

struct RunPlan {
  std::vector<PlannedTest> tests;
  RunSettings settings;
  std::vector<std::string> overrides;  ///< the --set items as given
  /// The tests' full names in plan order, also those a shard does not run (config.json).
  std::vector<std::string> order;

  const PlannedTest* find(std::string_view full_name) const;
};

/// Resolves every selected test's parameters and config hash; a seeded test gets its seeds and
/// variants, so that every worker agrees on them. `items` are the --set items `overrides` came
/// from (recorded in config.json).
/// The jobs of a seeded test: one per unit, in plan order.
std::vector<SeedJob> seed_jobs(const PlannedTest& planned);

RunPlan make_run_plan(const std::vector<const RegisteredTest*>& selected,
                      const std::vector<ParamOverride>& overrides,
                      const std::vector<std::string>& items, const RunSettings& settings);

/// config.json: the resolved parameters, config hash, seeds and variants of every planned test.
void to_json(nlohmann::json& json, const RunPlan& plan);

}  // namespace mlregress::internal
