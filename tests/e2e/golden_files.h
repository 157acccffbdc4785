// Golden files in the manner of Catch2's approval tests: outputs with their volatile fields
// (times, run ids, paths, hosts, commits) normalised, compared byte for byte with a file under
// tests/golden/. MLREGRESS_UPDATE_GOLDEN=1 rewrites the files instead; review the diff.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace mlregress::e2e {

/// Replaces times, run ids, source and temp paths, host names, commits and environment profile
/// ids with placeholders.
std::string normalise_volatile(std::string text, const std::string& temp_dir);

::testing::AssertionResult matches_golden(const std::string& actual,
                                          const std::string& golden_name);

}  // namespace mlregress::e2e
