// The tensor-level finiteness and identity assertions: healthy tensors and modules pass; a
// planted NaN, Inf or perturbed weight is caught and named with its index.
#include "mlregress/checks/finite.h"

#include <gtest/gtest.h>

#include <limits>

#include "tiny_models.h"

namespace mlregress::checks {
namespace {

using test_models::explains;

TEST(AllFinite, PassesFiniteAndCatchesAPlantedNaNAtItsIndex) {
  torch::Tensor t = torch::zeros({2, 3});
  EXPECT_TRUE(all_finite(t, "activations"));
  t.index_put_({1, 2}, std::numeric_limits<float>::quiet_NaN());
  const ::testing::AssertionResult result = all_finite(t, "activations");
  EXPECT_FALSE(result);
  EXPECT_TRUE(explains(result, "activations"));
  EXPECT_TRUE(explains(result, "[1, 2]"));
}

TEST(GradientsFinite, NamesTheParameterWithAnInfGradient) {
  torch::nn::Linear layer(3, 2);
  layer->forward(torch::ones({1, 3})).sum().backward();
  EXPECT_TRUE(gradients_finite(*layer));
  layer->bias.mutable_grad().index_put_({0}, std::numeric_limits<float>::infinity());
  const ::testing::AssertionResult result = gradients_finite(*layer);
  EXPECT_FALSE(result);
  EXPECT_TRUE(explains(result, "gradient of bias"));
}

TEST(ParametersFinite, NamesTheParameterWithANaN) {
  torch::nn::Linear layer(3, 2);
  EXPECT_TRUE(parameters_finite(*layer));
  {
    torch::NoGradGuard no_grad;
    layer->weight.index_put_({0, 1}, std::numeric_limits<float>::quiet_NaN());
  }
  EXPECT_TRUE(explains(parameters_finite(*layer), "parameter weight"));
}

TEST(ParametersIdentical, PassesACopyAndCatchesOnePerturbedWeight) {
  torch::manual_seed(0);
  torch::nn::Linear a(3, 2);
  torch::manual_seed(0);
  torch::nn::Linear b(3, 2);
  EXPECT_TRUE(parameters_identical(*a, *b));
  {
    torch::NoGradGuard no_grad;
    b->weight.index_put_({1, 2}, b->weight.index({1, 2}) + 1e-6);
  }
  const ::testing::AssertionResult result = parameters_identical(*a, *b);
  EXPECT_FALSE(result);
  EXPECT_TRUE(explains(result, "parameter weight"));
  EXPECT_TRUE(explains(result, "[1, 2]"));
}

TEST(ParametersIdentical, CatchesADifferentShape) {
  torch::nn::Linear a(3, 2);
  torch::nn::Linear b(3, 4);
  EXPECT_FALSE(parameters_identical(*a, *b));
}

}  // namespace
}  // namespace mlregress::checks
