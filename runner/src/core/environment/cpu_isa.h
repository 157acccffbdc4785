// The CPU facts that decide which math kernels run: its vendor and the instruction-set
// extensions oneDNN, MKL and ATen dispatch on (AVX2, FMA, AVX-512 and its VNNI/BF16 parts, AMX;
// NEON/SVE on ARM). Two CPUs with the same of both run the same kernels whatever their names;
// the study in runner/docs/numerics.md shows floats change when any of those libraries changes
// path, so these, not the CPU's name, key a run's numerics profile.
#pragma once

#include <string>
#include <vector>

namespace mlregress::internal {

struct CpuIsa {
  std::string vendor;            ///< "GenuineIntel", "AuthenticAMD"; "" when not stated
  std::vector<std::string> isa;  ///< the math extensions present, in a fixed order
};

/// Reads /proc/cpuinfo's text: the first processor's vendor_id and its flags (x86) or
/// Features (ARM), kept to the extensions that change which kernels run.
CpuIsa parse_cpu_isa(const std::string& cpuinfo);

/// parse_cpu_isa of this machine's /proc/cpuinfo (empty where there is none).
CpuIsa probe_cpu_isa();

}  // namespace mlregress::internal
