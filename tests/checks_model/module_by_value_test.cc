// Every check that takes a torch::nn::Module& works on a module held by value, as much
// third-party training code holds its model (`Net net;`, no shared_ptr owning it): nothing may
// need shared_from_this. Planted in train_eval_mode_test.cc (AModelHeldByValueIsChecked) for the
// check that needed it; here each check runs once on such a model, a healthy step, and must give
// its healthy answer rather than throw.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "mlregress/checks/finite.h"
#include "mlregress/checks/finite_monitor.h"
#include "mlregress/checks/gradient_norm_monitor.h"
#include "mlregress/checks/parameter_updates.h"
#include "mlregress/checks/train_eval_mode.h"

namespace mlregress::checks {
namespace {

struct HeldByValue : torch::nn::Module {
  HeldByValue()
      : fc1(register_module("fc1", torch::nn::Linear(4, 8))),
        drop(register_module("drop", torch::nn::Dropout(0.2))),
        fc2(register_module("fc2", torch::nn::Linear(8, 1))) {}
  torch::Tensor forward(const torch::Tensor& x) {
    return fc2->forward(drop->forward(torch::relu(fc1->forward(x))));
  }
  torch::nn::Linear fc1;
  torch::nn::Dropout drop;
  torch::nn::Linear fc2;
};

TEST(ModuleHeldByValue, EveryCheckThatTakesAModuleAcceptsIt) {
  torch::manual_seed(0);
  HeldByValue net;
  HeldByValue other;
  const torch::Tensor x = torch::randn({16, 4});
  const torch::Tensor y = torch::randn({16, 1});
  torch::optim::SGD optimizer(net.parameters(), 0.1);
  const auto step = [&] {
    optimizer.zero_grad();
    torch::mse_loss(net.forward(x), y).backward();
    optimizer.step();
  };

  const ParameterUpdateResult updated = check_parameters_update(net, step);
  EXPECT_TRUE(updated.assertion());
  optimizer.zero_grad();
  const torch::Tensor loss = torch::mse_loss(net.forward(x), y);
  loss.backward();
  EXPECT_TRUE(gradients_finite(net));
  EXPECT_TRUE(parameters_finite(net));
  EXPECT_FALSE(parameters_identical(net, other)) << "two inits from different draws";
  EXPECT_GT(global_gradient_norm(net), 0.0);
  GradientNormMonitor norms;
  EXPECT_GT(norms.observe(net), 0.0);
  FiniteMonitor finite;
  EXPECT_TRUE(finite.observe(0, loss, net));
  const TrainEvalResult modes = check_train_eval_modes(
      net, [&net](const torch::Tensor& in) { return net.forward(in); }, x);
  EXPECT_TRUE(modes.assertion());
  EXPECT_EQ(modes.mode_dependent_layers, (std::vector<std::string>{"drop (Dropout)"}));
}

}  // namespace
}  // namespace mlregress::checks
