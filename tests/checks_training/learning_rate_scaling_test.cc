#include "mlregress/checks/learning_rate_scaling.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

namespace mlregress::checks {
namespace {

using ::testing::HasSubstr;

TEST(LearningRateScaling, LinearRuleDoublesTheRateWithTheBatch) {
  EXPECT_DOUBLE_EQ(scaled_learning_rate(0.02, 16, 32), 0.04);
  EXPECT_TRUE(follows_scaling_rule(0.04, 32, 0.02, 16));
  // Planted: the batch doubled, the rate kept.
  const ::testing::AssertionResult kept = follows_scaling_rule(0.02, 32, 0.02, 16);
  EXPECT_FALSE(kept);
  EXPECT_THAT(kept.message(), HasSubstr("expected 0.04, got 0.02"));
}

TEST(LearningRateScaling, SquareRootRuleDoublesTheRateForFourTimesTheBatch) {
  EXPECT_DOUBLE_EQ(scaled_learning_rate(1e-3, 64, 256, ScalingRule::SquareRoot), 2e-3);
  EXPECT_TRUE(follows_scaling_rule(2e-3, 256, 1e-3, 64, ScalingRule::SquareRoot));
  // The linear rule's answer is twice too high for the square-root rule.
  EXPECT_FALSE(follows_scaling_rule(4e-3, 256, 1e-3, 64, ScalingRule::SquareRoot));
}

// lr_per_example is what the rule keeps: the same for every batch that follows it, another
// value for a batch changed with the rate kept.
TEST(LearningRateScaling, RatePerExampleIsStableAcrossBatchesThatFollowTheRule) {
  const double reference = learning_rate_per_example(0.02, 16);
  EXPECT_EQ(learning_rate_per_example(0.04, 32), reference);
  EXPECT_EQ(learning_rate_per_example(0.08, 64), reference);
  EXPECT_NE(learning_rate_per_example(0.02, 32), reference);
  EXPECT_DOUBLE_EQ(learning_rate_per_example(2e-3, 256, ScalingRule::SquareRoot),
                   learning_rate_per_example(1e-3, 64, ScalingRule::SquareRoot));
}

TEST(LearningRateScaling, NonsenseThrows) {
  EXPECT_THROW(scaled_learning_rate(0.02, 0, 32), std::invalid_argument);
  EXPECT_THROW(learning_rate_per_example(-1.0, 16), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::checks
