#include "mlregress/torch/torch_hooks.h"

#include <torch/torch.h>

namespace mlregress {
namespace {

void seed_and_fix_threads(std::uint64_t seed, int threads) {
  torch::manual_seed(seed);
  at::set_num_threads(threads);
  // Repeatability over speed: the runner promises that the same seed gives the same numbers.
  at::globalContext().setDeterministicAlgorithms(true, /*warn_only=*/true);
}

// Runs in a short-lived child process (see RunnerHooks): initialising CUDA here is harmless.
nlohmann::json probe_torch() {
  const std::string config = at::show_config();
  const bool built_with_cuda = config.find("USE_CUDA=ON") != std::string::npos ||
                               config.find("CUDA Runtime") != std::string::npos;
  nlohmann::json cuda = {{"built_with", built_with_cuda},
                         {"available", torch::cuda::is_available()},
                         {"device_count", torch::cuda::device_count()}};
  return {{"name", "libtorch"},
          {"version", TORCH_VERSION},
          {"build", built_with_cuda ? "cuda" : "cpu"},
          {"cuda", cuda},
          {"mkldnn", at::hasMKLDNN()},
          {"default_intra_op_threads", at::get_num_threads()},
          {"tests_use_deterministic_algorithms", true},
          {"build_config", config}};
}

}  // namespace

RunnerHooks torch_runner_hooks() {
  RunnerHooks hooks;
  hooks.before_each_test = seed_and_fix_threads;
  hooks.probe_framework = probe_torch;
  return hooks;
}

}  // namespace mlregress
