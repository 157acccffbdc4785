#include "mlregress/torch/gpu.h"

#include <fmt/format.h>
#include <torch/torch.h>

#include <cstdlib>

#include "cuda_switch.h"
#if MLREGRESS_TORCH_CUDA
#include <ATen/detail/CUDAHooksInterface.h>
#include <cuda_runtime_api.h>
#endif

namespace mlregress {
namespace {

// The value the runner sets: cuBLAS's documented deterministic workspace (PyTorch's
// reproducibility notes give :4096:8 or :16:8).
constexpr const char* kCublasWorkspaceConfig = ":4096:8";

bool built_with_cuda() {
#if MLREGRESS_TORCH_CUDA
  return true;
#else
  const std::string config = at::show_config();
  return config.find("USE_CUDA=ON") != std::string::npos ||
         config.find("CUDA Runtime") != std::string::npos;
#endif
}

#if MLREGRESS_TORCH_CUDA
// Versions as CUDA encodes them (1000 * major + 10 * minor) turned into "12.4".
std::string cuda_version_text(int encoded) {
  return fmt::format("{}.{}", encoded / 1000, (encoded % 1000) / 10);
}

nlohmann::json cuda_devices() {
  nlohmann::json devices = nlohmann::json::array();
  for (int i = 0; i < static_cast<int>(torch::cuda::device_count()); ++i) {
    // The runtime API alone: ATen/cuda/CUDAContext.h would need cuBLAS' and cuSOLVER's headers.
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    devices.push_back({{"index", i},
                       {"name", p.name},
                       {"compute_capability", fmt::format("{}.{}", p.major, p.minor)},
                       {"memory_bytes", static_cast<std::uint64_t>(p.totalGlobalMem)},
                       {"multiprocessors", p.multiProcessorCount}});
  }
  return devices;
}

nlohmann::json cuda_versions() {
  nlohmann::json versions;
  int runtime = 0, driver = 0;
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess)
    versions["runtime"] = cuda_version_text(runtime);
  if (cudaDriverGetVersion(&driver) == cudaSuccess)
    versions["driver_api"] = cuda_version_text(driver);
  if (at::detail::getCUDAHooks().hasCuDNN()) {
    versions["cudnn"] = at::detail::getCUDAHooks().versionCuDNN();
  }
  return versions;
}
#endif

}  // namespace

std::optional<std::string> cuda_unavailable_reason() {
  if (!built_with_cuda()) return fmt::format("LibTorch {} is a CPU build (no CUDA)", TORCH_VERSION);
  if (!torch::cuda::is_available() || torch::cuda::device_count() == 0) {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    return visible != nullptr
               ? fmt::format("no CUDA device is visible (CUDA_VISIBLE_DEVICES='{}')", visible)
               : std::string("no CUDA device is visible (no driver, or no GPU on this machine)");
  }
  return std::nullopt;
}

ThroughputOptions cuda_throughput_options(ThroughputOptions options) {
  options.synchronize = [] { torch::cuda::synchronize(); };
  return options;
}

void make_cuda_deterministic() {
  ::setenv("CUBLAS_WORKSPACE_CONFIG", kCublasWorkspaceConfig, /*overwrite=*/0);
  at::globalContext().setBenchmarkCuDNN(false);
  at::globalContext().setDeterministicCuDNN(true);
  // cuDNN convolutions use TF32 by default on Ampere and later: repeatable, but about 1e-5
  // relative away from float32, which a comparison with the CPU would see.
  at::globalContext().setAllowTF32CuDNN(false);
  at::globalContext().setAllowTF32CuBLAS(false);
}

nlohmann::json probe_cuda() {
  const bool available = torch::cuda::is_available();
  nlohmann::json cuda = {{"built_with", built_with_cuda()},
                         {"available", available},
                         {"device_count", torch::cuda::device_count()}};
  const char* workspace = std::getenv("CUBLAS_WORKSPACE_CONFIG");
  cuda["determinism"] = {{"cublas_workspace_config", workspace != nullptr ? workspace : ""},
                         {"cudnn_benchmark", at::globalContext().benchmarkCuDNN()},
                         {"cudnn_deterministic", at::globalContext().deterministicCuDNN()},
                         {"allow_tf32_cudnn", at::globalContext().allowTF32CuDNN()},
                         {"allow_tf32_cublas", at::globalContext().allowTF32CuBLAS()}};
#if MLREGRESS_TORCH_CUDA
  if (available) {
    cuda["devices"] = cuda_devices();
    cuda["versions"] = cuda_versions();
  }
#endif
  return cuda;
}

}  // namespace mlregress
