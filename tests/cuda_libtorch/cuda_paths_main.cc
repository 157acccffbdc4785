// Calls every function of the torch layer that has a CUDA branch, so that linking this program
// against a CUDA build of LibTorch resolves each symbol that branch uses
// (ci/cuda-libtorch-check.sh). Built here only; without the CUDA libraries LibTorch needs at run
// time it is never run.
#include <cstdio>

#include "cuda_switch.h"
#include "mlregress/torch/gpu.h"
#include "mlregress/torch/memory_tracker.h"

static_assert(MLREGRESS_TORCH_CUDA == 1,
              "cuda_switch.h did not detect this LibTorch as a CUDA build: the CUDA branch would "
              "not be compiled");

int main() {
  mlregress::make_cuda_deterministic();
  const auto reason = mlregress::cuda_unavailable_reason();
  const auto probe = mlregress::probe_cuda();
  const auto counters = mlregress::cuda_memory_counters(0);
  mlregress::reset_cuda_peak_bytes(0);
  const auto options = mlregress::cuda_throughput_options();
  std::printf("%s %s %d %d\n", reason ? reason->c_str() : "available", probe.dump().c_str(),
              counters.has_value(), static_cast<bool>(options.synchronize));
}
