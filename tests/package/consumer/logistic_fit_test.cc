// A third test file of the consumer: logistic regression on a separable problem.
#include "mlregress/mlregress.h"

ML_TEST(Fast, LogisticFitSeparates, {"steps", 100}) {
  const torch::Tensor x = torch::randn({128, 2});
  const torch::Tensor y = (x.select(1, 0) > 0).to(torch::kFloat).unsqueeze(1);
  torch::nn::Linear model(2, 1);
  torch::optim::SGD optimizer(model->parameters(), 0.5);
  for (std::int64_t step = 0; step < param<std::int64_t>("steps"); ++step) {
    optimizer.zero_grad();
    torch::binary_cross_entropy_with_logits(model(x), y).backward();
    optimizer.step();
  }
  const double accuracy =
      ((model(x) > 0).to(torch::kFloat) == y).to(torch::kFloat).mean().item<double>();
  record("accuracy", accuracy, HigherIsBetter, Band{.atol = 0.02});
  EXPECT_GT(accuracy, 0.9);
}
