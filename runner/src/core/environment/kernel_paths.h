// The CPU code paths one machine can be made to take. LibTorch picks its kernels at run time in
// three libraries, and environment variables lower each choice (runner/docs/numerics.md measured
// what each one moves): ATen's capability, oneDNN's ISA, MKL's code path. The probe records the
// ones a run starts with (cpu.kernel_pins, part of the numerics profile); `calibrate
// --across-kernels` runs the tests once on each of the settings below, so that a band is measured
// across the paths another CPU may take, not only across repeats of this machine's own.
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "support/child_process.h"

namespace mlregress::internal {

/// Every environment variable that changes which kernels ATen, oneDNN or MKL run.
std::span<const char* const> kernel_variables();

/// One code path: the kernel variables it sets (every other one of kernel_variables() is removed,
/// so the caller's own pins cannot leak in) and the intra-op threads it adds to the run's own.
struct KernelSetting {
  std::string name;                              ///< "ATen default kernels"
  std::map<std::string, std::string> variables;  ///< set in the child's environment
  int extra_threads = 0;
};

/// The settings of `calibrate --across-kernels`, the natural dispatch first: ATen's default
/// kernels, oneDNN at SSE4.1, MKL's compatible code path, all three at once, and the natural
/// dispatch on one more intra-op thread.
std::vector<KernelSetting> kernel_settings();

/// How a child's environment differs from this process's to run on `setting`.
EnvironmentChanges environment_changes(const KernelSetting& setting);

/// "ATen default kernels (ATEN_CPU_CAPABILITY=default)", "natural (+1 thread)".
std::string describe(const KernelSetting& setting);

}  // namespace mlregress::internal
