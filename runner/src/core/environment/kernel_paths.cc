#include "environment/kernel_paths.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>

namespace mlregress::internal {

std::span<const char* const> kernel_variables() {
  static constexpr std::array<const char*, 7> kVariables = {"ATEN_CPU_CAPABILITY",
                                                            "ONEDNN_MAX_CPU_ISA",
                                                            "DNNL_MAX_CPU_ISA",
                                                            "ONEDNN_DEFAULT_FPMATH_MODE",
                                                            "DNNL_DEFAULT_FPMATH_MODE",
                                                            "MKL_ENABLE_INSTRUCTIONS",
                                                            "MKL_CBWR"};
  return kVariables;
}

std::vector<KernelSetting> kernel_settings() {
  // The settings of the numerics study that moved values on their own (C, E-onednn, E-cbwr), all
  // three together (D) and two threads (F); ATEN_CPU_CAPABILITY=avx2 moved nothing an AVX-512
  // machine's natural dispatch did not, so it would only repeat the first value.
  return {
      {"natural", {}, 0},
      {"ATen default kernels", {{"ATEN_CPU_CAPABILITY", "default"}}, 0},
      {"oneDNN at SSE4.1", {{"ONEDNN_MAX_CPU_ISA", "SSE41"}}, 0},
      {"MKL compatible code path", {{"MKL_CBWR", "COMPATIBLE"}}, 0},
      {"all three pinned low",
       {{"ATEN_CPU_CAPABILITY", "default"},
        {"ONEDNN_MAX_CPU_ISA", "SSE41"},
        {"MKL_CBWR", "COMPATIBLE"}},
       0},
      {"one more intra-op thread", {}, 1},
  };
}

EnvironmentChanges environment_changes(const KernelSetting& setting) {
  EnvironmentChanges changes;
  for (const char* name : kernel_variables()) changes[name] = std::nullopt;
  for (const auto& [name, value] : setting.variables) changes[name] = value;
  return changes;
}

std::string describe(const KernelSetting& setting) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : setting.variables) parts.push_back(name + "=" + value);
  if (setting.extra_threads > 0) parts.push_back(fmt::format("+{} thread", setting.extra_threads));
  if (parts.empty()) return setting.name;
  return fmt::format("{} ({})", setting.name, fmt::join(parts, " "));
}

}  // namespace mlregress::internal
