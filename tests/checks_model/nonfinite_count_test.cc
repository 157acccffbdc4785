// The count of non-finite values, the metric nonfinite_count: nothing counted in healthy
// tensors, a loss history or a module; each planted NaN and Inf counted once, wherever it is.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <limits>
#include <stdexcept>
#include <vector>

#include "mlregress/checks/finite.h"

namespace mlregress::checks {
namespace {

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(CountNonFinite, CountsEveryPlantedNanAndInfInATensor) {
  torch::Tensor t = torch::ones({3, 4});
  EXPECT_EQ(count_non_finite(t), 0);
  t.index_put_({1, 2}, kNan);
  EXPECT_EQ(count_non_finite(t), 1);
  t.index_put_({0, 0}, kInf);
  t.index_put_({2, 3}, -kInf);
  EXPECT_EQ(count_non_finite(t), 3);
  EXPECT_EQ(count_non_finite(torch::ones({4}, torch::kInt64)), 0);  // integers are finite
  EXPECT_EQ(count_non_finite(torch::Tensor()), 0);                  // undefined: nothing
}

TEST(CountNonFinite, CountsTheNonFiniteLossesOfAHistory) {
  EXPECT_EQ(count_non_finite(std::vector<double>{2.3, 1.1, 0.7}), 0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(count_non_finite(std::vector<double>{2.3, nan, inf, 0.7, nan}), 3);
}

TEST(CountNonFinite, CountsParametersAndGradientsOfAModule) {
  torch::nn::Linear layer(3, 2);
  EXPECT_EQ(count_non_finite(*layer), 0);  // no gradients yet: the parameters only
  layer->forward(torch::ones({1, 3})).sum().backward();
  EXPECT_EQ(count_non_finite(*layer), 0);
  {
    torch::NoGradGuard no_grad;
    layer->weight.index_put_({1, 0}, kNan);
  }
  layer->bias.mutable_grad().index_put_({0}, kInf);
  EXPECT_EQ(count_non_finite(*layer), 2);
}

TEST(RecordNonFiniteCount, RefusesANegativeCountAndNeedsARunningTest) {
  EXPECT_THROW(record_non_finite_count(-1), std::invalid_argument);
  // Outside an ML_TEST there is no test to record for: MlTest::record says so.
  EXPECT_THROW(record_non_finite_count(0), std::logic_error);
  EXPECT_STREQ(kNonFiniteCountMetric, "nonfinite_count");
}

}  // namespace
}  // namespace mlregress::checks
