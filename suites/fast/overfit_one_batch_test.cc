// Overfit one batch (the seed's keystone test): the correct small CNN memorises 8 random
// examples; the same CNN with a softmax before CrossEntropyLoss stalls near 0.74. The overfit
// criterion must pass the first and reject the second.
#include "mlregress/mlregress.h"
#include "small_cnn.h"

namespace {

using mlregress::examples::make_random_batch;
using mlregress::examples::make_small_cnn;
using mlregress::examples::train_on_batch;

// The runner seeded torch with seed() before the body: the batch comes first, then the model
// is built from the same seed again, as in the seed's script.
std::vector<double> overfit(bool softmax_before_loss, double lr, std::int64_t steps) {
  const auto batch = make_random_batch();
  torch::manual_seed(mlregress::MlTest::seed());
  auto model = make_small_cnn(softmax_before_loss);
  return train_on_batch(model, batch, lr, steps);
}

}  // namespace

ML_TEST(Fast, CnnOverfitsOneBatch, {"lr", 1e-3}, {"steps", 501}) {
  const std::vector<double> losses =
      overfit(false, param<double>("lr"), param<std::int64_t>("steps"));
  record_curve("loss", losses);
  record("initial_loss", losses.front(), MustEqual, Band{.rtol = 0.01});
  record("final_loss", losses.back(), LowerIsBetter, Band{.rtol = 0.5, .atol = 1e-4});
  EXPECT_TRUE(mlregress::checks::overfits(losses));
}

ML_TEST(Fast, SoftmaxBeforeCrossEntropyFailsToOverfit, {"lr", 1e-3}, {"steps", 501}) {
  const std::vector<double> losses =
      overfit(true, param<double>("lr"), param<std::int64_t>("steps"));
  record_curve("loss", losses);
  record("final_loss", losses.back(), MustEqual, Band{.rtol = 0.01});
  // The planted bug must be caught: the double softmax caps how low the loss can go.
  EXPECT_FALSE(mlregress::checks::overfits(losses));
  EXPECT_GT(losses.back(), 0.5);
}
