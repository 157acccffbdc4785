// The environment profile of a run: the few facts that decide whether two environment-bound
// values can be compared, with two short ids. The machine profile (framework version and build,
// CPU model, architecture, threads, the GPU model where a CUDA device was used) holds timings and
// `machine` values. The numerics profile leaves the CPU's name out and keys `numerics` values by
// what changes floating-point results: framework version and build, the CPU capability ATen
// dispatches its kernels to (AVX2, AVX512...), the CPU's vendor and math instruction sets (which
// oneDNN and MKL dispatch on), architecture, threads and GPU model, so that every runner that
// runs the same kernels gates them (runner/docs/numerics.md measured what changes them).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mlregress::internal {

/// The conditions values were measured under. Environment-bound values (exact ones) are only
/// compared with runs of the same profile.
struct EnvironmentProfile {
  std::string id;  ///< machine profile "cpu-1a2b3c4d": build kind and a hash of all fields
  /// numerics profile "cpu-avx2-5e6f7a8b": build kind, capability and a hash of every field but
  /// the CPU's name; the machine id when the capability or the ISA is unknown (the run did not
  /// record it).
  /// Empty in a description read from a baseline file.
  std::string numerics_id;
  std::string framework;
  std::string build;
  std::string cpu;  ///< empty in a numerics profile read from a baseline file (any CPU)
  std::string machine;
  int threads = 1;
  /// The first CUDA device's name ("NVIDIA H100 80GB HBM3"); empty without one, and then left
  /// out of the id, so CPU profiles keep the ids they had before GPUs were recorded.
  std::string gpu;
  /// ATen's CPU capability ("AVX2", "AVX512", "DEFAULT"); empty when unknown. Not in the
  /// machine id, so machine profiles keep the ids they had before capabilities were recorded.
  std::string capability;
  /// The CPU's vendor and math extensions, "AuthenticAMD avx avx2 fma avx512f ..." (cpu.vendor
  /// and cpu.isa of environment.json); empty when unknown. Not in the machine id either.
  std::string isa;
  /// The kernel-choosing variables the run was started with, "MKL_CBWR=COMPATIBLE
  /// ONEDNN_MAX_CPU_ISA=SSE41" (cpu.kernel_pins); empty when none. In the numerics id only.
  std::string pins;
  friend bool operator==(const EnvironmentProfile&, const EnvironmentProfile&) = default;
};

/// Builds the profile from an environment.json document. The capability is read from
/// framework.cpu_capability when present (MLREGRESS_ENVIRONMENT_OVERRIDE can set it), else from
/// the "CPU capability usage" line of framework.build_config, which every LibTorch writes.
EnvironmentProfile environment_profile(const nlohmann::json& environment);

/// The profile as a baseline file describes a machine id. A description in a file has no
/// `numerics_id`: it is found by the id it is stored under.
EnvironmentProfile machine_profile(const EnvironmentProfile& profile);

/// The profile as a baseline file describes a numerics id: the id is `numerics_id` and the CPU's
/// name is left out (every CPU with this capability shares it).
EnvironmentProfile numerics_profile(const EnvironmentProfile& profile);

/// Which part of a run's environment a profile field describes: what chooses the kernels that
/// compute the values (framework, build, capability, instruction sets, kernel pins, GPU), or the
/// machine around them (CPU model, machine, threads).
enum class ProfileFieldGroup { kKernels, kMachine };

/// One field that differs between two profiles: "threads 1 → 2", with its group.
struct ProfileFieldDifference {
  ProfileFieldGroup group;
  std::string text;
};

/// The fields that differ, old → new, in field order (a field `before` does not hold, such as
/// the CPU of a numerics profile, is not compared). Every field of EnvironmentProfile is either
/// compared here with its group or named as not compared: a field added to the struct fails to
/// compile until it is.
std::vector<ProfileFieldDifference> profile_field_differences(const EnvironmentProfile& before,
                                                              const EnvironmentProfile& now);

/// The differences of `group` only (all of them without one), joined with "; ": "CPU 'AMD EPYC
/// 7763' → 'Intel Xeon 8375C'; threads 1 → 2". Empty when those fields are the same. Two ids that
/// differ by one character say nothing to a reader; this says which part of the machine moved.
std::string profile_differences(const EnvironmentProfile& before, const EnvironmentProfile& now,
                                std::optional<ProfileFieldGroup> group = std::nullopt);

/// "torch same · CPU changed · threads same": what differs between two profiles.
std::string describe_environment_change(const EnvironmentProfile& before,
                                        const EnvironmentProfile& now);

}  // namespace mlregress::internal
