// Seeds(n).randomness_study(): the four variants that vary one source of randomness at a time,
// and the combinations refused at start.
#pragma once

#include <string>

#include "registry/test_registry.h"

namespace mlregress::internal {

/// Why a randomness study cannot run as declared (combined with variants() or random_search()),
/// or "" when it can or the test is no study. `where` is "file:line".
std::string randomness_study_problem(const RegisteredTest& test, const std::string& where);

/// A randomness study's variants, set on the test's seeds; nothing for another test.
void add_randomness_study_variants(RegisteredTest& test);

}  // namespace mlregress::internal
