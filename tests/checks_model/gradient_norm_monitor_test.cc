#include "mlregress/checks/gradient_norm_monitor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tiny_models.h"

namespace mlregress::checks {
namespace {

using test_models::explains;
using test_models::make_mlp;
using test_models::make_tiny_batch;

// The seed's exploding setup: a deep tanh MLP with weights scaled 2x too large, plain SGD at
// lr 0.3, regression of sin(3x). Built in statement order.
torch::nn::Sequential make_deep_tanh() {
  torch::nn::Sequential net;
  for (int i = 0; i < 8; ++i) {
    net->push_back(torch::nn::Linear(i ? 32 : 1, 32));
    net->push_back(torch::nn::Tanh());
  }
  net->push_back(torch::nn::Linear(32, 1));
  torch::NoGradGuard no_grad;
  for (auto& p : net->parameters()) {
    if (p.dim() == 2) p.mul_(2.0);
  }
  return net;
}

GradientNormResult train_deep_tanh(std::optional<double> clip, GradientNormOptions options,
                                   int steps) {
  torch::manual_seed(0);
  const torch::Tensor x = torch::rand({256, 1}) * 4 - 2;
  const torch::Tensor y = torch::sin(3 * x);
  auto net = make_deep_tanh();
  torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.3));
  GradientNormMonitor monitor(options);
  for (int step = 0; step < steps; ++step) {
    const torch::Tensor idx = torch::randint(0, 256, {32});
    optimizer.zero_grad();
    torch::nn::functional::mse_loss(net->forward(x.index({idx})), y.index({idx})).backward();
    monitor.observe_norm(torch::nn::utils::clip_grad_norm_(
        net->parameters(), clip ? *clip : std::numeric_limits<double>::infinity()));
    optimizer.step();
  }
  return monitor.result();
}

TEST(GradientNormMonitor, HealthyTrainingHasNoSpikes) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));
  GradientNormMonitor monitor({.max_norm = 100.0, .max_clip_rate = 0.1});
  for (int step = 0; step < 40; ++step) {
    optimizer.zero_grad();
    torch::nn::functional::cross_entropy(model->forward(batch.inputs), batch.labels).backward();
    const double norm = monitor.observe(*model);
    EXPECT_GT(norm, 0.0);
    optimizer.step();
  }
  const GradientNormResult& result = monitor.result();
  EXPECT_TRUE(result);
  EXPECT_EQ(result.norms.size(), 40u);
  EXPECT_TRUE(result.spikes.empty());
  EXPECT_EQ(result.clipped_steps, 0);
  ASSERT_TRUE(result.clip_rate.has_value());
  EXPECT_EQ(*result.clip_rate, 0.0);
}

TEST(GradientNormMonitor, GlobalNormMatchesClipGradNorm) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  torch::nn::functional::cross_entropy(model->forward(batch.inputs), batch.labels).backward();
  const double ours = global_gradient_norm(*model);
  const double torchs = torch::nn::utils::clip_grad_norm_(model->parameters(), 1e9);
  EXPECT_NEAR(ours, torchs, 1e-5 * torchs);
}

TEST(GradientNormMonitor, ExplodingGradientsAreCaught) {
  // Planted bug: the seed's over-scaled deep tanh network without clipping.
  const GradientNormResult result = train_deep_tanh(std::nullopt, {}, 40);
  EXPECT_FALSE(result.passed);
  EXPECT_FALSE(result.spikes.empty());
  EXPECT_TRUE(explains(result, "spike(s); first at step"));
}

TEST(GradientNormMonitor, ClippingEngagementRateIsReportedAndJudged) {
  // The same network clipped at 1.0 survives, but the clip engages on most steps: a seatbelt
  // worn as a crutch. The rate fails the check once a limit is set.
  const GradientNormResult reported = train_deep_tanh(1.0, {.max_norm = 1.0}, 40);
  ASSERT_TRUE(reported.clip_rate.has_value());
  EXPECT_GT(reported.clipped_steps, 0);
  EXPECT_DOUBLE_EQ(*reported.clip_rate, static_cast<double>(reported.clipped_steps) / 40.0);
  EXPECT_FALSE(reported.first_non_finite_step.has_value());

  const GradientNormResult judged =
      train_deep_tanh(1.0, {.max_norm = 1.0, .max_clip_rate = 0.1, .fail_on_spike = false}, 40);
  EXPECT_FALSE(judged.passed);
  EXPECT_TRUE(explains(judged, "clipping engaged in"));
}

TEST(GradientNormMonitor, SpikeIsJudgedAgainstTheRunningMedian) {
  GradientNormMonitor monitor({.spike_factor = 10.0, .warmup_steps = 5});
  for (double norm : {1.0, 2.0, 3.0, 100.0, 2.0, 2.0}) monitor.observe_norm(norm);
  // Step 3 (100) is inside the warm-up; the median of {1, 2, 3, 100, 2} is 2.
  EXPECT_TRUE(monitor.result().spikes.empty());
  EXPECT_EQ(monitor.result().median_norm, 2.0);
  monitor.observe_norm(20.0);  // exactly 10 x the median: not above it
  EXPECT_TRUE(monitor.result().spikes.empty());
  monitor.observe_norm(45.0);  // median of the 7 previous norms is 2
  ASSERT_EQ(monitor.result().spikes.size(), 1u);
  const GradientSpike& spike = monitor.result().spikes.front();
  EXPECT_EQ(spike.step, 7);
  EXPECT_EQ(spike.running_median, 2.0);
  EXPECT_EQ(spike.ratio, 22.5);
  EXPECT_FALSE(monitor.result().passed);
  EXPECT_TRUE(explains(monitor.result(), "first at step 7: norm 45 = 22.5 x the running median 2"));
}

TEST(GradientNormMonitor, NonFiniteNormFailsAndIsCountedAsClipped) {
  GradientNormMonitor monitor({.max_norm = 5.0});
  for (double norm : {1.0, 1.0, std::numeric_limits<double>::quiet_NaN(), 1.0}) {
    monitor.observe_norm(norm);
  }
  const GradientNormResult& result = monitor.result();
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.first_non_finite_step, 2);
  EXPECT_EQ(result.clipped_steps, 1);
  EXPECT_EQ(result.median_norm, 1.0);
  EXPECT_TRUE(explains(result, "gradient norm is nan at step 2"));
}

// Value clipping beside norm clipping: what clip_grad_value_ caps, how often it engages, and the
// seed's distinction between the two (the norm clip keeps the gradient's direction).

// Sets every gradient of the module to `value`, then component `index` of the first parameter
// to `outlier`.
void set_gradients(torch::nn::Module& module, float value, std::int64_t index, float outlier) {
  bool first = true;
  for (auto& p : module.parameters()) {
    p.mutable_grad() = torch::full_like(p, value);
    if (first) p.mutable_grad().view({-1})[index] = outlier;
    first = false;
  }
}

double cosine(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  torch::Tensor x = torch::cat({a[0].flatten(), a[1].flatten()}).to(torch::kFloat64);
  torch::Tensor y = torch::cat({b[0].flatten(), b[1].flatten()}).to(torch::kFloat64);
  return (x.dot(y) / (x.norm() * y.norm())).item<double>();
}

std::vector<torch::Tensor> gradients(torch::nn::Module& module) {
  std::vector<torch::Tensor> out;
  for (auto& p : module.parameters()) out.push_back(p.grad().clone());
  return out;
}

TEST(GradientNormMonitor, MaxAbsGradientIsWhatClipGradValueCaps) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  torch::nn::functional::cross_entropy(model->forward(batch.inputs), batch.labels).backward();
  const double before = max_abs_gradient(*model);
  double expected = 0.0;
  for (const auto& p : model->parameters()) {
    expected = std::max(expected, p.grad().abs().max().item<double>());
  }
  EXPECT_EQ(before, expected);
  const double bound = 0.5 * before;
  torch::nn::utils::clip_grad_value_(model->parameters(), bound);
  EXPECT_NEAR(max_abs_gradient(*model), bound, 1e-6 * bound) << "the clip caps the largest |g|";
}

TEST(GradientNormMonitor, ValueClipEngagementIsCountedAndJudged) {
  torch::nn::Linear layer(2, 1);  // 3 gradient components: weight 2, bias 1
  GradientNormMonitor monitor({.clip_value = 1.0, .max_clip_rate = 0.4});
  set_gradients(*layer, 0.1F, 0, 0.1F);
  monitor.observe(*layer);
  EXPECT_TRUE(monitor.result()) << "no component above the bound";
  set_gradients(*layer, 0.1F, 1, -5.0F);  // planted: one component 5x the bound
  monitor.observe(*layer);
  const GradientNormResult& r = monitor.result();
  ASSERT_EQ(r.max_abs.size(), 2u);
  EXPECT_FLOAT_EQ(static_cast<float>(r.max_abs[1]), 5.0F);
  EXPECT_EQ(r.value_clipped_steps, 1);
  ASSERT_TRUE(r.value_clip_rate.has_value());
  EXPECT_EQ(*r.value_clip_rate, 0.5);
  ASSERT_TRUE(r.clipped_component_fraction.has_value());
  EXPECT_DOUBLE_EQ(*r.clipped_component_fraction, 1.0 / 6.0);
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(explains(r, "value clipping engaged in 50.0% of steps"));
}

TEST(GradientNormMonitor, ValueClippingTurnsTheGradientNormClippingDoesNot) {
  // Gradients (5, 0.9 | 0.9): the value clip makes them (1, 0.9 | 0.9), cosine 0.79.
  torch::nn::Linear layer(2, 1);
  set_gradients(*layer, 0.9F, 0, 5.0F);
  const std::vector<torch::Tensor> original = gradients(*layer);
  torch::nn::utils::clip_grad_norm_(layer->parameters(), 1.0);
  EXPECT_NEAR(cosine(original, gradients(*layer)), 1.0, 1e-6) << "norm clipping scales only";
  set_gradients(*layer, 0.9F, 0, 5.0F);
  torch::nn::utils::clip_grad_value_(layer->parameters(), 1.0);
  EXPECT_LT(cosine(original, gradients(*layer)), 0.99) << "value clipping changes the direction";
}

}  // namespace
}  // namespace mlregress::checks
