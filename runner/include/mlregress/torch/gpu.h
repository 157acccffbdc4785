// GPU tests: skip cleanly where no CUDA device can run them, time GPU steps by waiting for the
// device, and describe the GPU a run used.
//
//   ML_TEST(Medium, GpuCnnTrainingStep) {
//     ML_SKIP_WITHOUT_CUDA();  // "skipped: LibTorch 1.13.1 is a CPU build (no CUDA)"
//     ... model->to(torch::kCUDA) ...
//     MemoryScope memory;                           // cuda_memory_counters(): peak VRAM
//     const auto rate = measure_throughput("step", step, cuda_throughput_options({...}));
//   }
//
// A test binary whose every test skipped exits 77, which ctest reports as SKIP (see
// mlregress_discover_tests), so a GPU suite never fails a CPU machine. runner/docs/gpu.md.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "mlregress/throughput.h"

namespace mlregress {

/// Why no CUDA device can run a test here ("LibTorch 1.13.1 is a CPU build (no CUDA)", "no CUDA
/// device is visible (CUDA_VISIBLE_DEVICES='')"), or nullopt when device 0 can.
std::optional<std::string> cuda_unavailable_reason();

/// `options` with `synchronize` waiting for every queued CUDA kernel of the current device
/// (torch::cuda::synchronize) after each step, so the rate counts the GPU's work.
ThroughputOptions cuda_throughput_options(ThroughputOptions options = {});

/// What the environment probe records about CUDA: whether LibTorch was built with it, the
/// devices (name, compute capability, memory), the CUDA runtime, driver and cuDNN versions, and
/// the determinism settings the runner applies. Without CUDA: built_with, available false,
/// device_count 0.
nlohmann::json probe_cuda();

/// Applied before every test: CUBLAS_WORKSPACE_CONFIG=:4096:8 unless the environment sets it
/// (cuBLAS reads it when it creates its handle, so it must be in place before the first cuBLAS
/// call), cuDNN benchmark off, deterministic cuDNN on, and TF32 off for cuDNN and cuBLAS (float32
/// results, comparable with the CPU's). Harmless without CUDA.
void make_cuda_deterministic();

}  // namespace mlregress

/// Skips the current test, with the reason, when no CUDA device can run it.
#define ML_SKIP_WITHOUT_CUDA()                                                   \
  do {                                                                           \
    if (const auto mlregress_no_cuda = ::mlregress::cuda_unavailable_reason()) { \
      GTEST_SKIP() << *mlregress_no_cuda;                                        \
    }                                                                            \
  } while (false)
