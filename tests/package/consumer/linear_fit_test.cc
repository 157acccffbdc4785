// The consumer's own model: a line fitted by SGD, gated on its final loss and recorded as a curve.
#include "line_data.h"
#include "mlregress/mlregress.h"

ML_TEST(Fast, LinearFitConverges, {"steps", 200}, {"lr", 0.1}) {
  const auto [x, y] = line_data();
  torch::nn::Linear model(1, 1);
  torch::optim::SGD optimizer(model->parameters(), param<double>("lr"));
  std::vector<double> losses;
  for (std::int64_t step = 0; step < param<std::int64_t>("steps"); ++step) {
    optimizer.zero_grad();
    const torch::Tensor loss = torch::mse_loss(model(x), y);
    loss.backward();
    optimizer.step();
    losses.push_back(loss.item<double>());
  }
  record_curve("loss", losses);
  record("final_loss", losses.back(), LowerIsBetter, Band{.rtol = 0.1, .atol = 1e-6});
  EXPECT_LT(losses.back(), losses.front());
}
