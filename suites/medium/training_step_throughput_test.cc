// Training-step throughput of the seed's small CNN and of a small MLP (steps/s and examples/s,
// measured with Google Benchmark through measure_throughput). Absolute figures belong to one
// machine: they gate against a baseline only on the same environment profile, and across builds
// with `run --ab OTHER_BINARY`, which interleaves the two builds.
//
// `extra_work` plants a real slowdown for checking that gate: before each step, an extra
// forward and backward pass over extra_work x batch examples (whole batches, then a slice), whose
// gradients the step's zero_grad() discards. It is the step's own kind of work, so
// --set CnnStepThroughput.extra_work=0.3 makes the step slower without changing what it computes.
#include "mlregress/mlregress.h"
#include "small_cnn.h"
#include "small_mlp.h"

namespace {

using mlregress::examples::Batch;

constexpr std::int64_t kBatch = 32;
const mlregress::ThroughputOptions kOptions{
    .items_per_step = static_cast<double>(kBatch), .repetitions = 5, .min_time_s = 0.2, .warmup_s = 0.1};

void extra_forward_backward(torch::nn::Sequential& model, const Batch& batch, double extra_work) {
  auto remaining = static_cast<std::int64_t>(std::llround(extra_work * static_cast<double>(kBatch)));
  while (remaining > 0) {
    const std::int64_t n = std::min(remaining, kBatch);
    torch::nn::functional::cross_entropy(model->forward(batch.images.narrow(0, 0, n)),
                                         batch.labels.narrow(0, 0, n))
        .backward();
    remaining -= n;
  }
}

// Measures the training step and returns its last loss (so the test can check the step still
// trains on finite numbers).
double measure_training_step(const char* name, torch::nn::Sequential& model, const Batch& batch,
                             double extra_work) {
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  double loss_value = 0.0;
  const auto step = [&] {
    extra_forward_backward(model, batch, extra_work);
    optimizer.zero_grad();
    torch::Tensor loss = torch::nn::functional::cross_entropy(model->forward(batch.images), batch.labels);
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
  ASSERT_GE(extra_work, 0.0) << "extra_work is a fraction of a batch of additional work";
  const Batch batch = mlregress::examples::make_random_batch(kBatch, 16);
  auto model = mlregress::examples::make_small_cnn();
  EXPECT_TRUE(std::isfinite(measure_training_step("train_step", model, batch, extra_work)));
}

ML_TIMING_TEST(Medium, MlpStepThroughput, {"extra_work", 0.0}) {
  const double extra_work = param<double>("extra_work");
  ASSERT_GE(extra_work, 0.0) << "extra_work is a fraction of a batch of additional work";
  const Batch batch = mlregress::examples::make_random_mlp_batch(kBatch);
  auto model = mlregress::examples::make_small_mlp();
  EXPECT_TRUE(std::isfinite(measure_training_step("train_step", model, batch, extra_work)));
}
