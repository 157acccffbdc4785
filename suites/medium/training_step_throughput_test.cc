// Training-step throughput of the seed's small CNN and of a small MLP (steps/s and examples/s,
// measured with Google Benchmark through measure_throughput). Absolute figures belong to one
// machine: they gate against a baseline only on the same environment profile, and across builds
// with `run --ab OTHER_BINARY`, which interleaves the two builds.
//
// `extra_work` plants a real slowdown for checking that gate: on average extra_work additional
// forward and backward passes over the batch per step (extra_work = 0.3: one every 3 or 4 steps,
// accumulated as credit), whose gradients the step's zero_grad() discards. Whole passes, not a
// slice of the batch: at this size a pass costs about the same whatever its batch (per-operator
// overhead dominates), so only their frequency scales the work. It is the step's own kind of
// work: --set CnnStepThroughput.extra_work=0.3 slows the step without changing what it computes.
#include "mlregress/mlregress.h"
#include "small_cnn.h"
#include "small_mlp.h"

namespace {

using mlregress::examples::Batch;

constexpr std::int64_t kBatch = 32;
const mlregress::ThroughputOptions kOptions{.items_per_step = static_cast<double>(kBatch),
                                            .repetitions = 5,
                                            .min_time_s = 0.2,
                                            .warmup_s = 0.1};

// Adds extra_work to the credit and runs one extra pass per whole unit of credit.
void extra_forward_backward(torch::nn::Sequential& model, const Batch& batch, double extra_work,
                            double& credit) {
  credit += extra_work;
  for (; credit >= 1.0; credit -= 1.0) {
    torch::nn::functional::cross_entropy(model->forward(batch.images), batch.labels).backward();
  }
}

// Measures the training step and returns its last loss (so the test can check the step still
// trains on finite numbers).
double measure_training_step(const char* name, torch::nn::Sequential& model, const Batch& batch,
                             double extra_work) {
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  double loss_value = 0.0;
  double credit = 0.0;
  const auto step = [&] {
    extra_forward_backward(model, batch, extra_work, credit);
    optimizer.zero_grad();
    torch::Tensor loss =
        torch::nn::functional::cross_entropy(model->forward(batch.images), batch.labels);
    loss.backward();
    optimizer.step();
    loss_value = loss.item<double>();
  };
  const mlregress::ThroughputResult result = mlregress::measure_throughput(name, step, kOptions);
  std::cout << result.describe() << std::endl;
  record_throughput(name, result);
  EXPECT_EQ(result.steps_per_s.size(), 5u);
  EXPECT_GT(result.median_steps_per_s, 0.0);
  return loss_value;
}

}  // namespace

ML_TIMING_TEST(Medium, CnnStepThroughput, {"extra_work", 0.0}) {
  const double extra_work = param<double>("extra_work");
  ASSERT_GE(extra_work, 0.0) << "extra_work counts additional passes per step";
  const Batch batch = mlregress::examples::make_random_batch(kBatch, 16);
  auto model = mlregress::examples::make_small_cnn();
  EXPECT_TRUE(std::isfinite(measure_training_step("train_step", model, batch, extra_work)));
}

ML_TIMING_TEST(Medium, MlpStepThroughput, {"extra_work", 0.0}) {
  const double extra_work = param<double>("extra_work");
  ASSERT_GE(extra_work, 0.0) << "extra_work counts additional passes per step";
  const Batch batch = mlregress::examples::make_random_mlp_batch(kBatch);
  auto model = mlregress::examples::make_small_mlp();
  EXPECT_TRUE(std::isfinite(measure_training_step("train_step", model, batch, extra_work)));
}
