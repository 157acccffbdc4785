// What a run will execute, fixed before any test starts: the selected tests in order, each with
// its resolved parameters and config hash, and the seed and thread count every test starts from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "test_registry.h"

namespace mlregress::internal {

/// One variant of a seeded test: its name ("" when the test declares none) and its parameters
/// (the test's, with the variant's overrides applied last).
struct PlannedVariant {
  std::string name;
  ResolvedParams params;
  std::string config_hash;
};

struct PlannedTest {
  const RegisteredTest* test = nullptr;
  ResolvedParams params;
  std::string config_hash;
  // Seeded tests only: the body runs once per (variant, seed), variants outermost.
  std::vector<PlannedVariant> variants;
  std::vector<std::uint64_t> seeds;

  bool seeded() const { return !seeds.empty(); }
};

/// One run of a seeded test's body.
struct SeedJob {
  const PlannedTest* test = nullptr;
  const PlannedVariant* variant = nullptr;
  std::uint64_t seed = 0;
};

struct RunPlan {
  std::vector<PlannedTest> tests;
  std::uint64_t seed = 0;
  int threads = 1;
  int jobs = 1;                  ///< seeded tests: worker processes at once
  double seed_timeout_s = 600.0;  ///< a seed running longer is killed

  const PlannedTest* find(std::string_view full_name) const;
};

}  // namespace mlregress::internal
