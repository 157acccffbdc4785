#include "registry/test_selection.h"

#include <algorithm>

#include "registry/name_filter.h"

namespace mlregress::internal {

std::vector<const RegisteredTest*> select_tests(const TestRegistry& registry,
                                                const std::vector<std::string>& tiers,
                                                const std::string& filter,
                                                const std::string& gtest_filter) {
  const NameFilter by_name(filter);
  const NameFilter by_gtest(gtest_filter);
  std::vector<const RegisteredTest*> selected;
  for (const RegisteredTest& test : registry.tests()) {
    const std::string tier(tier_name(test.tier));
    const bool tier_ok =
        tiers.empty() || std::find(tiers.begin(), tiers.end(), tier) != tiers.end();
    const std::string full = test.full_name();
    if (tier_ok && by_name.matches(test.name, full) && by_gtest.matches(test.name, full)) {
      selected.push_back(&test);
    }
  }
  return selected;
}

}  // namespace mlregress::internal
