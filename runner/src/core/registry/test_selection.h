// Which registered tests a command applies to: by tier, by --filter and by GoogleTest's own
// --gtest_filter when one was given.
#pragma once

#include <string>
#include <vector>

#include "registry/test_registry.h"

namespace mlregress::internal {

/// The selected tests in registration order. `gtest_filter` "*" selects everything.
std::vector<const RegisteredTest*> select_tests(const TestRegistry& registry,
                                                const std::vector<std::string>& tiers,
                                                const std::string& filter,
                                                const std::string& gtest_filter);

}  // namespace mlregress::internal
