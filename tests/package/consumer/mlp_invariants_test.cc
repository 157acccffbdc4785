// A second test file of the consumer: invariants of a small MLP.
#include "mlregress/mlregress.h"

ML_TEST(Fast, MlpOutputsAreFinite, {"width", 16}) {
  torch::nn::Sequential mlp;
  mlp->push_back(torch::nn::Linear(4, param<std::int64_t>("width")));
  mlp->push_back(torch::nn::ReLU());
  mlp->push_back(torch::nn::Linear(param<std::int64_t>("width"), 3));
  const torch::Tensor out = mlp->forward(torch::randn({8, 4}));
  EXPECT_TRUE(mlregress::checks::all_finite(out, "logits"));
  record("logit_abs_mean", out.abs().mean().item<double>(), MustEqual, Exact{});
}
