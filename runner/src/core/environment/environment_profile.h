// The environment profile of a run: the few facts that decide whether two exact values can be
// compared (framework version and build, CPU model, architecture, threads), with a short id.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mlregress::internal {

/// The conditions values were measured under. Environment-bound values (exact ones) are only
/// compared with runs of the same profile.
struct EnvironmentProfile {
  std::string id;  ///< "cpu-1a2b3c4d": build kind and a hash of the fields below
  std::string framework;
  std::string build;
  std::string cpu;
  std::string machine;
  int threads = 1;
  friend bool operator==(const EnvironmentProfile&, const EnvironmentProfile&) = default;
};

/// Builds the profile from an environment.json document.
EnvironmentProfile environment_profile(const nlohmann::json& environment);

/// "torch same · CPU changed · threads same": what differs between two profiles.
std::string describe_environment_change(const EnvironmentProfile& before,
                                        const EnvironmentProfile& now);

}  // namespace mlregress::internal
