// The environment profile of a run: the few facts that decide whether two exact values can be
// compared (framework version and build, CPU model, architecture, threads, and the GPU model
// where a CUDA device was used), with a short id.
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
  /// The first CUDA device's name ("NVIDIA H100 80GB HBM3"); empty without one, and then left
  /// out of the id, so CPU profiles keep the ids they had before GPUs were recorded.
  std::string gpu;
  friend bool operator==(const EnvironmentProfile&, const EnvironmentProfile&) = default;
};

/// Builds the profile from an environment.json document.
EnvironmentProfile environment_profile(const nlohmann::json& environment);

/// Only the fields that differ, old → new: "CPU 'AMD EPYC 7763' → 'Intel Xeon 8375C'; threads
/// 1 → 2". Empty when every field is the same. Two ids that differ by one character say nothing
/// to a reader; this says which part of the machine moved.
std::string profile_differences(const EnvironmentProfile& before, const EnvironmentProfile& now);

/// "torch same · CPU changed · threads same": what differs between two profiles.
std::string describe_environment_change(const EnvironmentProfile& before,
                                        const EnvironmentProfile& now);

}  // namespace mlregress::internal
