// What a run will execute, fixed before any test starts: the selected tests in order, each with
// its resolved parameters and config hash, and the seed and thread count every test starts from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "test_registry.h"

namespace mlregress::internal {

struct PlannedTest {
  const RegisteredTest* test = nullptr;
  ResolvedParams params;
  std::string config_hash;
};

struct RunPlan {
  std::vector<PlannedTest> tests;
  std::uint64_t seed = 0;
  int threads = 1;

  const PlannedTest* find(std::string_view full_name) const;
};

}  // namespace mlregress::internal
