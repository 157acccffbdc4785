// The linear scaling rule: when the batch grows k times, the learning rate grows k times too
// (Goyal et al., for SGD), or sqrt(k) times (the square-root rule, commonly argued for Adam).
// "Changed the batch size, kept the learning rate" is a silent regression: the same examples in
// fewer, equally sized updates. Recording the rate per example makes that change a REGRESSION of
// its own, named where it happened, before any curve has to show it. The rule is a heuristic with
// a domain: it holds while the batch is below the noise scale of the problem and after a warmup;
// a test that doubles the batch and the rate may still move its curve.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>

namespace mlregress::checks {

enum class ScalingRule {
  Linear,      ///< lr proportional to the batch: the seed's rule for SGD
  SquareRoot,  ///< lr proportional to sqrt(batch): commonly argued for Adam
};

/// "linear", "square-root".
std::string_view scaling_rule_name(ScalingRule rule);

/// The rate `batch` calls for when `reference_lr` was right at `reference_batch`. Throws
/// std::invalid_argument for a batch below 1 or a rate that is not finite and positive.
double scaled_learning_rate(double reference_lr, std::int64_t reference_batch, std::int64_t batch,
                            ScalingRule rule = ScalingRule::Linear);

/// Whether `lr` at `batch` is scaled_learning_rate(reference_lr, reference_batch, batch) within
/// rtol; the failure names the rate the rule expects ("expected 0.04, got 0.02").
::testing::AssertionResult follows_scaling_rule(double lr, std::int64_t batch, double reference_lr,
                                                std::int64_t reference_batch,
                                                ScalingRule rule = ScalingRule::Linear,
                                                double rtol = 0.01);

/// The rate per example the rule keeps constant: lr / batch (Linear) or lr / sqrt(batch).
double learning_rate_per_example(double lr, std::int64_t batch,
                                 ScalingRule rule = ScalingRule::Linear);

/// Records learning_rate_per_example(lr, batch, rule) from inside a test as "lr_per_example"
/// (MustEqual, Exact, Portable: a quotient of two configuration values, the same double on every
/// machine). A batch changed without the rate is a REGRESSION of it, with cause optimisation.
void record_learning_rate_scaling(double lr, std::int64_t batch,
                                  ScalingRule rule = ScalingRule::Linear);

}  // namespace mlregress::checks
