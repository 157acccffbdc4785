#include "mlregress/torch/torch_hooks.h"

#include <torch/torch.h>

#include "mlregress/torch/gpu.h"

namespace mlregress {
namespace {

void seed_and_fix_threads(std::uint64_t seed, int threads) {
  // Before anything that may touch CUDA: cuBLAS reads its workspace setting once.
  make_cuda_deterministic();
  torch::manual_seed(seed);
  at::set_num_threads(threads);
  // Repeatability over speed: the runner promises that the same seed gives the same numbers.
  at::globalContext().setDeterministicAlgorithms(true, /*warn_only=*/true);
}

// Right after seed_and_fix_threads, before every test: the run's or the test's mode, set afresh
// so that no test inherits the one before it. Strict makes a kernel without a deterministic
// implementation throw (at::Context::alertNotDeterministic); warn lets it run with a warning.
void apply_determinism(DeterminismMode mode) {
  at::Context& context = at::globalContext();
  context.setDeterministicAlgorithms(mode != DeterminismMode::Off,
                                     /*warn_only=*/mode == DeterminismMode::Warn);
  // cuDNN's own switch follows: off lets it pick its fastest (nondeterministic) algorithms.
  context.setDeterministicCuDNN(mode != DeterminismMode::Off);
}

// Runs in a short-lived child process (see RunnerHooks): initialising CUDA here is harmless.
nlohmann::json probe_torch() {
  // The run's determinism mode is recorded in environment.json's `run` section; the probe only
  // needs CUDA's deterministic settings in place before it initialises CUDA.
  make_cuda_deterministic();
  const nlohmann::json cuda = probe_cuda();
  return {{"name", "libtorch"},
          {"version", TORCH_VERSION},
          {"build", cuda.at("built_with").get<bool>() ? "cuda" : "cpu"},
          {"cuda", cuda},
          {"mkldnn", at::hasMKLDNN()},
          {"default_intra_op_threads", at::get_num_threads()},
          {"build_config", at::show_config()}};
}

}  // namespace

RunnerHooks torch_runner_hooks() {
  RunnerHooks hooks;
  hooks.before_each_test = seed_and_fix_threads;
  hooks.apply_determinism = apply_determinism;
  hooks.probe_framework = probe_torch;
  return hooks;
}

}  // namespace mlregress
