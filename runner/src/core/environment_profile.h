// The environment profile of a run: the few facts that decide whether two exact values can be
// compared (framework version and build, CPU model, architecture, threads), with a short id.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "baseline.h"

namespace mlregress::internal {

/// Builds the profile from an environment.json document.
EnvironmentProfile environment_profile(const nlohmann::json& environment);

/// "torch same · CPU changed · threads same": what differs between two profiles.
std::string describe_environment_change(const EnvironmentProfile& before, const EnvironmentProfile& now);

}  // namespace mlregress::internal
