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

/// Only the fields that differ, old → new (a field `before` does not hold, such as the CPU of a
/// numerics profile, is not compared): "CPU 'AMD EPYC 7763' → 'Intel Xeon 8375C'; threads
/// 1 → 2". Empty when every field is the same. Two ids that differ by one character say nothing
/// to a reader; this says which part of the machine moved.
std::string profile_differences(const EnvironmentProfile& before, const EnvironmentProfile& now);

/// "torch same · CPU changed · threads same": what differs between two profiles.
std::string describe_environment_change(const EnvironmentProfile& before,
                                        const EnvironmentProfile& now);

}  // namespace mlregress::internal
