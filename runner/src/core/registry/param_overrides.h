// `--set Test.key=value`: parsed and checked against the declared parameters before any test
// runs, so a typo fails the run at once instead of silently running the default.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "registry/test_registry.h"
#include "support/errors.h"

namespace mlregress::internal {

struct ParamOverride {
  std::string test;
  std::string key;
  ParamValue value;
};

/// Parses and type-checks every item against the registry. Throws ConfigError for a malformed
/// item, an unknown test or key, or a value that does not parse as the declared type.
std::vector<ParamOverride> parse_param_overrides(const std::vector<std::string>& items,
                                                 const TestRegistry& registry);

/// The test's defaults with the overrides that address it applied (later items win).
ResolvedParams resolve_params(const RegisteredTest& test,
                              const std::vector<ParamOverride>& overrides);

}  // namespace mlregress::internal
