#include "mlregress/checks/learning_rate_scaling.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "mlregress/ml_test.h"

namespace mlregress::checks {

namespace {

void validate(double lr, std::int64_t batch, std::string_view where) {
  if (!(std::isfinite(lr) && lr > 0.0) || batch < 1) {
    throw std::invalid_argument(
        fmt::format("{}: needs a finite learning rate > 0 and a batch >= 1, got lr {:g}, batch {}",
                    where, lr, batch));
  }
}

double batch_factor(std::int64_t batch, ScalingRule rule) {
  const auto b = static_cast<double>(batch);
  return rule == ScalingRule::Linear ? b : std::sqrt(b);
}

}  // namespace

std::string_view scaling_rule_name(ScalingRule rule) {
  return rule == ScalingRule::Linear ? "linear" : "square-root";
}

double scaled_learning_rate(double reference_lr, std::int64_t reference_batch, std::int64_t batch,
                            ScalingRule rule) {
  validate(reference_lr, reference_batch, "scaled_learning_rate");
  validate(reference_lr, batch, "scaled_learning_rate");
  return reference_lr * batch_factor(batch, rule) / batch_factor(reference_batch, rule);
}

::testing::AssertionResult follows_scaling_rule(double lr, std::int64_t batch, double reference_lr,
                                                std::int64_t reference_batch, ScalingRule rule,
                                                double rtol) {
  validate(lr, batch, "follows_scaling_rule");
  const double expected = scaled_learning_rate(reference_lr, reference_batch, batch, rule);
  const std::string what = fmt::format(
      "the {} scaling rule from lr {:g} at batch {} to batch {}: expected {:g}, got {:g}",
      scaling_rule_name(rule), reference_lr, reference_batch, batch, expected, lr);
  if (std::fabs(lr - expected) <= rtol * expected) {
    return ::testing::AssertionSuccess() << what;
  }
  return ::testing::AssertionFailure()
         << what
         << fmt::format(" ({:+.1f}%, allowed ±{:g}%)", 100.0 * (lr / expected - 1.0), 100.0 * rtol);
}

double learning_rate_per_example(double lr, std::int64_t batch, ScalingRule rule) {
  validate(lr, batch, "learning_rate_per_example");
  return lr / batch_factor(batch, rule);
}

void record_learning_rate_scaling(double lr, std::int64_t batch, ScalingRule rule) {
  MlTest::record("lr_per_example", learning_rate_per_example(lr, batch, rule), Direction::MustEqual,
                 Exact{.scope = Scope::Portable});
}

}  // namespace mlregress::checks
