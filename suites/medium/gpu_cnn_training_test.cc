// The seed's small CNN on a CUDA device: peak VRAM of a training step from the caching
// allocator, steps/s with the device synchronised after every step, 50 training steps repeated
// bit for bit, and the overfit-one-batch table on CUDA within a stated tolerance of the CPU one.
// Every test skips where no CUDA device can run it (exit 77: ctest SKIP), so this binary never
// fails a CPU machine; ci/gpu-check.sh runs it on a GPU. runner/docs/gpu.md.
#include "mlregress/mlregress.h"
#include "mlregress/torch/gpu.h"
#include "mlregress/torch/memory_tracker.h"
#include "small_cnn.h"

namespace {

using mlregress::MlTest;
using mlregress::examples::Batch;
using mlregress::examples::make_random_batch;
using mlregress::examples::make_small_cnn;
using mlregress::examples::train_on_batch;

constexpr std::int64_t kBatch = 32;

Batch to_cuda(const Batch& batch) {
  return {batch.images.to(torch::kCUDA), batch.labels.to(torch::kCUDA)};
}

// The seed's order: the batch first, then the model from the same seed again; both drawn on the
// CPU, so the CPU and CUDA runs of one seed start from the same numbers.
std::pair<torch::nn::Sequential, Batch> model_and_batch(std::int64_t examples, bool cuda) {
  torch::manual_seed(MlTest::seed());
  Batch batch = make_random_batch(examples);
  torch::manual_seed(MlTest::seed());
  torch::nn::Sequential model = make_small_cnn();
  if (!cuda) return {model, batch};
  model->to(torch::kCUDA);
  return {model, to_cuda(batch)};
}

void train_step(torch::nn::Sequential& model, torch::optim::Optimizer& optimizer,
                const Batch& batch) {
  optimizer.zero_grad();
  torch::nn::functional::cross_entropy(model->forward(batch.images), batch.labels).backward();
  optimizer.step();
}

}  // namespace

// Peak VRAM of one training step after a warm-up step (Adam's state exists by then), from the
// caching allocator's statistics reset at the step's start: exact run to run on one GPU model and
// LibTorch build, so they gate exactly per environment profile (the GPU model is part of it):
// Scope::Machine, though they are whole numbers.
ML_TEST(Medium, GpuCnnStepPeakMemory) {
  ML_SKIP_WITHOUT_CUDA();
  auto [model, batch] = model_and_batch(kBatch, /*cuda=*/true);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  train_step(model, optimizer, batch);
  torch::cuda::synchronize();
  const auto before = mlregress::cuda_memory_counters();
  ASSERT_TRUE(before.has_value());
  mlregress::reset_cuda_peak_bytes();
  train_step(model, optimizer, batch);
  torch::cuda::synchronize();
  const auto after = mlregress::cuda_memory_counters();
  ASSERT_TRUE(after.has_value());
  const Exact per_gpu{.scope = Scope::Machine};
  record("step.peak_allocated_bytes", static_cast<double>(after->peak_bytes), LowerIsBetter,
         per_gpu);
  record("step.peak_reserved_bytes", static_cast<double>(after->reserved_peak_bytes), LowerIsBetter,
         per_gpu);
  record("step.allocations", static_cast<double>(after->allocations - before->allocations),
         LowerIsBetter, per_gpu);
  EXPECT_GT(after->peak_bytes, 0);
  EXPECT_GE(after->reserved_peak_bytes, after->peak_bytes);
}

// Steps/s of the training step with the device synchronised after each step: the rate counts
// the GPU's work, not how fast kernels are queued.
ML_TIMING_TEST(Medium, GpuCnnStepThroughput) {
  ML_SKIP_WITHOUT_CUDA();
  auto [model, batch] = model_and_batch(kBatch, /*cuda=*/true);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  const mlregress::ThroughputResult result = mlregress::measure_throughput(
      "gpu_train_step", [&] { train_step(model, optimizer, batch); },
      mlregress::cuda_throughput_options({.items_per_step = static_cast<double>(kBatch),
                                          .repetitions = 5,
                                          .min_time_s = 0.2,
                                          .warmup_s = 0.2}));
  std::cout << result.describe() << std::endl;
  record_throughput("gpu_train_step", result);
  EXPECT_GT(result.median_steps_per_s, 0.0);
}

// 50 training steps twice from the same seed: identical losses and module parameters and
// buffers, bit for bit, under the determinism the runner sets (CUBLAS_WORKSPACE_CONFIG,
// deterministic algorithms in warn-only mode, deterministic cuDNN, no TF32).
ML_TEST(Medium, GpuCnnTrainingIsBitwiseDeterministic, {"steps", 50}) {
  ML_SKIP_WITHOUT_CUDA();
  const auto steps = param<std::int64_t>("steps");
  const mlregress::checks::DeterminismResult result = mlregress::checks::check_determinism(
      [&] {
        auto [model, batch] = model_and_batch(kBatch, /*cuda=*/true);
        mlregress::checks::TrainingRun run;
        run.losses = train_on_batch(model, batch, 1e-3, steps);
        run.module = model.ptr();
        return run;
      },
      {.seed = MlTest::seed()});
  EXPECT_TRUE(result);
  record("final_loss", result.first_losses.back(), LowerIsBetter, Band{.rtol = 0.5, .atol = 1e-4});
}

// The overfit-one-batch table on CUDA against the same table on CPU from the same seed: the same
// weights and batch (both drawn on the CPU), so the curves agree until float rounding, which
// differs between the devices' kernels, adds up. The tolerance: the initial loss within 1e-5
// relative (one float32 forward pass; TF32 is off), and both runs overfit (final loss below
// 0.01).
ML_TEST(Medium, GpuCnnOverfitTableMatchesTheCpuTable, {"steps", 501}) {
  ML_SKIP_WITHOUT_CUDA();
  const auto steps = param<std::int64_t>("steps");
  auto [cpu_model, cpu_batch] = model_and_batch(8, /*cuda=*/false);
  const std::vector<double> cpu = train_on_batch(cpu_model, cpu_batch, 1e-3, steps);
  auto [gpu_model, gpu_batch] = model_and_batch(8, /*cuda=*/true);
  const std::vector<double> gpu = train_on_batch(gpu_model, gpu_batch, 1e-3, steps);
  ASSERT_EQ(cpu.size(), gpu.size());
  for (std::size_t step = 0; step < cpu.size(); step += 100) {
    std::cout << "step " << step << ": cpu " << cpu[step] << ", cuda " << gpu[step] << "\n";
  }
  EXPECT_NEAR(gpu.front(), cpu.front(), 1e-5 * std::abs(cpu.front()));
  EXPECT_TRUE(mlregress::checks::overfits(gpu));
  EXPECT_LT(gpu.back(), 0.01);
  EXPECT_LT(cpu.back(), 0.01);
  record_curve("loss", gpu);
  record("initial_loss", gpu.front(), MustEqual, Band{.rtol = 1e-5});
}
