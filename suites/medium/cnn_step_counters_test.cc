// Noise-free cost of one training step of the seed's small CNN: exact peak tensor bytes and
// allocations from the counting CPU allocator, and operators dispatched from RecordFunction.
// They are identical run after run, so they gate with Exact{}: a change that adds memory or
// work (e.g. --set CnnTrainingStepCost.resolution=32) is a REGRESSION against the baseline. They
// are whole numbers but depend on the LibTorch build and the kernels it dispatches to (1.13 and
// 2.13 differ, so do two CPUs), so they are stored per environment profile: Scope::Numerics.
#include <c10/core/CPUAllocator.h>

#include "mlregress/mlregress.h"
#include "small_cnn.h"

// Two planted performance changes (runner/docs/planted-bugs.md): `extra_op` dispatches one more
// operator in the step (a view: no memory), `extra_allocation` takes 4 KiB more from the CPU
// allocator (no operator).
ML_TEST(Medium, CnnTrainingStepCost, {"resolution", 16}, {"lr", 1e-3}, {"extra_op", false},
        {"extra_allocation", false}) {
  ASSERT_TRUE(mlregress::install_memory_tracker());
  const std::int64_t resolution = param<std::int64_t>("resolution");
  const auto batch = mlregress::examples::make_random_batch(8, resolution);
  torch::manual_seed(seed());
  auto model = mlregress::examples::make_small_cnn(false, resolution);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(param<double>("lr")));
  const auto step = [&] {
    optimizer.zero_grad();
    torch::Tensor loss =
        torch::nn::functional::cross_entropy(model->forward(batch.images), batch.labels);
    loss.backward();
    optimizer.step();
    if (param<bool>("extra_op")) (void)batch.images.view({-1});
    if (param<bool>("extra_allocation")) {
      const c10::DataPtr extra = c10::GetCPUAllocator()->allocate(4096);
    }
  };
  step();  // the first step creates Adam's state; the steady-state step is the one measured

  mlregress::MemoryScope memory("training step");
  mlregress::OpCounter ops;
  step();
  ops.stop();
  memory.stop();

  const mlregress::MemoryScopeStats stats = memory.stats();
  const Exact per_profile{.scope = Scope::Numerics};
  record("peak_bytes_per_step", static_cast<double>(stats.peak_bytes_above_start), LowerIsBetter,
         per_profile);
  record("allocations_per_step", static_cast<double>(stats.allocations), LowerIsBetter,
         per_profile);
  record("ops_per_step", static_cast<double>(ops.total()), LowerIsBetter, per_profile);
  EXPECT_GT(stats.peak_bytes_above_start, 0);
  EXPECT_EQ(stats.net_bytes, 0) << "a training step must not leak tensors";
  std::cout << ops.describe(10) << std::endl;
}
