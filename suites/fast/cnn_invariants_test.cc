// Invariants of the small CNN that hold for any healthy build: initial loss near ln(classes),
// finite loss and gradients, the output shape contract, and bitwise determinism under a seed.
#include <algorithm>
#include <cmath>

#include "mlregress/mlregress.h"
#include "small_cnn.h"

namespace {

using namespace mlregress::examples;
namespace checks = mlregress::checks;

}  // namespace

// With roughly uniform predictions over C classes, cross-entropy starts near ln(C). The check
// explains a failure: whether the logits' spread or their relation to the labels is the cause.
ML_TEST(Fast, CnnInitialLossNearLnClasses, {"relative_tolerance", 0.1}) {
  const auto batch = make_random_batch();
  auto model = make_small_cnn();
  const torch::Tensor logits = model->forward(batch.images);
  const double loss = torch::nn::functional::cross_entropy(logits, batch.labels).item<double>();
  record("initial_loss", loss, MustEqual, Band{.rtol = 0.01});
  EXPECT_TRUE(checks::check_initial_loss(
      logits, batch.labels, {.relative_tolerance = param<double>("relative_tolerance")}));
}

ML_TEST(Fast, CnnLossAndGradientsStayFinite, {"steps", 20}, {"lr", 1e-3}) {
  const auto batch = make_random_batch();
  auto model = make_small_cnn();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(param<double>("lr")));
  double max_grad_norm = 0.0;
  for (std::int64_t step = 0; step < param<std::int64_t>("steps"); ++step) {
    optimizer.zero_grad();
    torch::Tensor loss =
        torch::nn::functional::cross_entropy(model->forward(batch.images), batch.labels);
    ASSERT_TRUE(checks::all_finite(loss, "loss")) << "at step " << step;
    loss.backward();
    ASSERT_TRUE(checks::gradients_finite(*model)) << "at step " << step;
    double squared = 0.0;
    for (const auto& p : model->parameters()) squared += p.grad().pow(2).sum().item<double>();
    max_grad_norm = std::max(max_grad_norm, std::sqrt(squared));
    optimizer.step();
    ASSERT_TRUE(checks::parameters_finite(*model)) << "after step " << step;
  }
  record("max_grad_norm", max_grad_norm, LowerIsBetter, Band{.rtol = 0.5});
}

ML_TEST(Fast, CnnOutputShapeContract, {"batch_size", 3}) {
  const std::int64_t n = param<std::int64_t>("batch_size");
  auto model = make_small_cnn();
  const torch::Tensor logits = model->forward(torch::randn({n, 1, 16, 16}));
  EXPECT_EQ(logits.sizes(), (std::vector<std::int64_t>{n, kSmallCnnClasses}));
  EXPECT_EQ(logits.scalar_type(), torch::kFloat32);
  // Classification models output raw logits: rows must not already sum to one.
  const torch::Tensor row_sums = logits.sum(1);
  EXPECT_FALSE(torch::allclose(row_sums, torch::ones_like(row_sums)))
      << "outputs look like probabilities; CrossEntropyLoss expects logits";
}

// `reverse_batch` plants a data-order change: the same examples served in the opposite order.
// The exact final loss then differs in its last bits (the reductions add in another order), and the
// recorded order names the cause beside the REGRESSION (runner/docs/causes.md).
ML_TEST(Fast, CnnTrainingIsBitwiseDeterministic, {"steps", 50}, {"lr", 1e-3},
        {"reverse_batch", false}) {
  auto batch = make_random_batch();
  std::vector<std::int64_t> served(static_cast<std::size_t>(batch.labels.size(0)));
  for (std::size_t i = 0; i < served.size(); ++i) served[i] = static_cast<std::int64_t>(i);
  if (param<bool>("reverse_batch")) {
    batch.images = batch.images.flip(0);
    batch.labels = batch.labels.flip(0);
    std::reverse(served.begin(), served.end());
  }
  record_data_order("batch", served);
  const std::int64_t steps = param<std::int64_t>("steps");
  torch::manual_seed(seed());
  auto first = make_small_cnn();
  const std::vector<double> first_losses = train_on_batch(first, batch, param<double>("lr"), steps);
  torch::manual_seed(seed());
  auto second = make_small_cnn();
  const std::vector<double> second_losses =
      train_on_batch(second, batch, param<double>("lr"), steps);
  for (std::size_t step = 0; step < first_losses.size(); ++step) {
    ASSERT_EQ(first_losses[step], second_losses[step]) << "losses first differ at step " << step;
  }
  EXPECT_TRUE(checks::parameters_identical(*first, *second));
  record("final_loss", first_losses.back(), MustEqual, Exact{});
}
