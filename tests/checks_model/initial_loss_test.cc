#include "mlregress/checks/initial_loss.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "text_classifiers.h"
#include "tiny_models.h"

namespace mlregress::checks {
namespace {

using test_models::EmbeddingBagClassifier;
using test_models::explains;
using test_models::kClasses;
using test_models::kVocabulary;
using test_models::make_mlp;
using test_models::make_tiny_batch;

TEST(InitialLoss, FreshModelStartsNearLnClasses) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch(64);
  auto model = make_mlp();
  const InitialLossResult result = check_initial_loss(model->forward(batch.inputs), batch.labels);
  EXPECT_TRUE(result);
  EXPECT_TRUE(result.passed);
  EXPECT_EQ(result.classes, kClasses);
  EXPECT_DOUBLE_EQ(result.expected, std::log(3.0));
  EXPECT_NEAR(result.ratio, 1.0, 0.1);
  ASSERT_TRUE(result.mean_prediction_distance.has_value());
  EXPECT_LT(*result.mean_prediction_distance, 0.1);
}

TEST(InitialLoss, SeedsCnnNumbersPass) {
  // The seed's correct and double-softmax CNNs both start at 1.34-1.37 against ln(4) = 1.386.
  EXPECT_TRUE(check_initial_loss(1.3411, 4));
  EXPECT_TRUE(check_initial_loss(1.3746, 4));
}

TEST(InitialLoss, OverconfidentOutputScaleIsCaught) {
  // Planted bug: logits 30x too large (an output layer initialised far too wide).
  torch::manual_seed(0);
  const auto batch = make_tiny_batch(64);
  auto model = make_mlp();
  const torch::Tensor logits = 30.0 * model->forward(batch.inputs);
  const InitialLossResult result = check_initial_loss(logits, batch.labels);
  EXPECT_FALSE(result.passed);
  EXPECT_GT(result.ratio, 1.5);
  const ::testing::AssertionResult assertion = result;
  EXPECT_FALSE(assertion);
  EXPECT_TRUE(explains(assertion, "ratio"));
  EXPECT_TRUE(explains(assertion, "ln(3)"));
}

TEST(InitialLoss, BiasTowardOneClassIsMeasuredFromLogits) {
  // Planted bug: the output bias favours class 2, so the mean prediction is far from uniform.
  torch::manual_seed(0);
  const auto batch = make_tiny_batch(64);
  auto model = make_mlp();
  {
    torch::NoGradGuard no_grad;
    model->named_parameters()["2.bias"].copy_(torch::tensor({0.0, 0.0, 6.0}));
  }
  const InitialLossResult result = check_initial_loss(model->forward(batch.inputs), batch.labels);
  EXPECT_FALSE(result.passed);
  ASSERT_TRUE(result.most_predicted_class.has_value());
  EXPECT_EQ(*result.most_predicted_class, 2);
  EXPECT_GT(*result.mean_prediction_distance, 0.5);
  EXPECT_TRUE(explains(result.assertion(), "most predicted class 2"));
}

TEST(InitialLoss, ReportsTheLogitsSpreadAndTheLossItExplains) {
  // 32 examples whose logits are {0, 2}: variance across the classes 1; on labels independent of
  // them the loss would be logsumexp(0, 2) - 1 give or take sqrt(1 / 32). The labels all pick
  // the larger logit, so the loss is 1 lower, 5.7 standard errors: the predictions agree with the
  // labels, which no narrower initialisation would explain.
  const torch::Tensor logits = torch::tensor({0.0, 2.0}).repeat({32, 1});
  const torch::Tensor labels = torch::ones({32}, torch::kLong);
  const InitialLossResult result = check_initial_loss(logits, labels);
  ASSERT_TRUE(result.logit_variance.has_value());
  EXPECT_NEAR(*result.logit_variance, 1.0, 1e-12);
  ASSERT_TRUE(result.loss_explained_by_spread.has_value());
  EXPECT_NEAR(*result.loss_explained_by_spread, std::log(1.0 + std::exp(2.0)) - 1.0, 1e-12);
  EXPECT_NEAR(result.loss, std::log(1.0 + std::exp(2.0)) - 2.0, 1e-12);
  EXPECT_FALSE(result.passed);
  EXPECT_TRUE(explains(result.assertion(), "mean variance 1"));
  EXPECT_TRUE(explains(result.assertion(), "already agree with the labels"));
  EXPECT_FALSE(explains(result.assertion(), "explains the loss, not the labels"));
  ASSERT_TRUE(result.spread_standard_error.has_value());
  EXPECT_NEAR(*result.spread_standard_error, std::sqrt(1.0 / 32.0), 1e-12);
}

TEST(InitialLoss, RealSizedHealthyTextClassifierPassesAtTheDefault) {
  // The bag-of-embeddings classifier of PyTorch's text tutorial (6.1M parameters), initialised
  // as it does: logits near zero, so the loss starts within 2% of ln(4) on every seed
  // (ci/initial-loss-survey.sh: 100 of 100 seeds).
  for (int seed = 0; seed < 5; ++seed) {
    torch::manual_seed(seed);
    EmbeddingBagClassifier model(4);
    const torch::Tensor tokens = torch::randint(0, kVocabulary, {64, 100});
    torch::NoGradGuard no_grad;
    const InitialLossResult result =
        check_initial_loss(model->forward(tokens), torch::randint(0, 4, {64}));
    EXPECT_TRUE(result) << "seed " << seed;
  }
}

TEST(InitialLoss, SummedEmbeddingsAreCaughtAtTheDefault) {
  // Planted bug in the same model: the bag sums its 100 tokens' embeddings instead of averaging
  // them, so the logits start 100 times too wide. The default catches it and names the spread.
  torch::manual_seed(0);
  EmbeddingBagClassifier model(4, /*sum_tokens=*/true);
  const torch::Tensor tokens = torch::randint(0, kVocabulary, {64, 100});
  torch::NoGradGuard no_grad;
  const InitialLossResult result =
      check_initial_loss(model->forward(tokens), torch::randint(0, 4, {64}));
  EXPECT_FALSE(result.passed);
  EXPECT_GT(result.ratio, 2.0);
  EXPECT_TRUE(explains(result.assertion(), "The logits' spread explains the loss"));
  EXPECT_TRUE(explains(result.assertion(), "relative_tolerance >="));
}

TEST(InitialLoss, NonFiniteLossNeverPasses) {
  EXPECT_FALSE(check_initial_loss(std::numeric_limits<double>::quiet_NaN(), 4).passed);
  EXPECT_FALSE(check_initial_loss(std::numeric_limits<double>::infinity(), 4).passed);
}

TEST(InitialLoss, ToleranceIsRelative) {
  const double ln4 = std::log(4.0);
  EXPECT_TRUE(check_initial_loss(ln4 * 1.19, 4, {.relative_tolerance = 0.2}).passed);
  EXPECT_FALSE(check_initial_loss(ln4 * 1.21, 4, {.relative_tolerance = 0.2}).passed);
  EXPECT_FALSE(check_initial_loss(ln4 * 0.79, 4, {.relative_tolerance = 0.2}).passed);
}

// NLLLoss fed logits instead of log-probabilities: the "loss" is -z_y, about 0 for a fresh model's
// small logits, far from ln(4). The check catches it before any training step.
TEST(InitialLoss, NllLossOnLogitsStartingNearZeroIsCaught) {
  const InitialLossResult result = check_initial_loss(0.0, 4);
  EXPECT_FALSE(result.passed);
  EXPECT_DOUBLE_EQ(result.ratio, 0.0);
  EXPECT_FALSE(result.assertion());
  EXPECT_FALSE(check_initial_loss(-0.05, 4).passed) << "a negative cross-entropy is impossible";
}

}  // namespace
}  // namespace mlregress::checks
