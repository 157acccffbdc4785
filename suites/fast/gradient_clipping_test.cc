// Exploding gradients and the clip that catches them (the seed's deep tanh network): without
// clipping a gradient goes non-finite within a few dozen steps and the loss is NaN for good;
// with clip_grad_norm_ to 1.0, identical in every other respect, the run trains. The clipped run
// also suggests the threshold its own healthy steps support (checks::suggest_clip_threshold);
// --set DeepTanhWithClippingTrains.clip_mode=value clips each component to `clip` instead.
#include <cmath>
#include <optional>
#include <string>

#include "deep_tanh.h"
#include "mlregress/mlregress.h"

namespace {

using mlregress::examples::ClipMode;
using mlregress::examples::ClippingRun;
using mlregress::examples::train_deep_tanh;
namespace checks = mlregress::checks;

}  // namespace

ML_TEST(Fast, DeepTanhWithoutClippingExplodes, {"lr", 0.3}, {"steps", 801},
        {"max_first_non_finite_step", 100}) {
  const ClippingRun run =
      train_deep_tanh(std::nullopt, param<double>("lr"), param<std::int64_t>("steps"), seed());
  record_curve("full_loss", run.eval_steps, run.full_losses);
  record("first_non_finite_grad_step", static_cast<double>(run.first_non_finite_grad_step),
         MustEqual, Exact{});
  // The norm on the step before the blow-up amplifies every rounding difference of the steps
  // before it: 1.08e19 with LibTorch 1.13, 7.70e18 with 2.13, on the same machine. It repeats
  // bitwise on one toolchain, so it is gated exactly, per environment, not by a band.
  record("max_finite_grad_norm", run.max_finite_grad_norm, MustEqual, Exact{});
  // The planted instability must be caught: a non-finite gradient early, and no training.
  ASSERT_GE(run.first_non_finite_grad_step, 0) << "the unclipped net never produced a "
                                                  "non-finite gradient";
  EXPECT_LT(run.first_non_finite_grad_step, param<std::int64_t>("max_first_non_finite_step"));
  const checks::LossProgress progress = checks::judge_loss_progress(run.losses);
  EXPECT_EQ(progress.status, checks::LossProgressStatus::NonFinite)
      << checks::trains(run.losses).message();
  EXPECT_FALSE(checks::trains(run.losses));
}

ML_TEST(Fast, DeepTanhWithClippingTrains, {"lr", 0.3}, {"steps", 801}, {"clip", 1.0},
        {"target_full_loss", 0.05}, {"clip_mode", "norm"}) {
  const std::string mode = param<std::string>("clip_mode");
  ASSERT_TRUE(mode == "norm" || mode == "value") << "clip_mode is norm or value, not " << mode;
  const ClippingRun run =
      train_deep_tanh(param<double>("clip"), param<double>("lr"), param<std::int64_t>("steps"),
                      seed(), 200, mode == "value" ? ClipMode::kValue : ClipMode::kNorm);
  record_curve("loss", run.losses);
  record_curve("full_loss", run.eval_steps, run.full_losses);
  // The final loss of 801 clipped steps is chaotic across CPU code paths: 0.0076 on an AMD EPYC,
  // 0.0068 on an Intel Xeon, 0.029 there with ATen's default kernels (runner/docs/numerics.md).
  // A band on its value would need to be wider than the value itself; what the test protects is
  // the decision, that clipped training reaches the target, a 0/1 that holds on every path (the
  // largest loss measured, 0.029, is 0.58 of the target).
  record("reached_target_full_loss",
         run.full_losses.back() < param<double>("target_full_loss") ? 1.0 : 0.0, MustEqual,
         Exact{});
  record("max_finite_grad_norm", run.max_finite_grad_norm, LowerIsBetter, Band{.rtol = 0.5});
  EXPECT_EQ(run.first_non_finite_grad_step, -1) << "clipping caps the norm after it is "
                                                   "computed; a non-finite one means NaN weights";
  EXPECT_TRUE(checks::trains(run.losses));
  EXPECT_LT(run.full_losses.back(), 0.5 * run.full_losses.front())
      << "full-data loss should fall well below its step-0 value";
  if (mode == "value") {
    // A count along the deep tanh net's chaotic trajectory: exact per numerics profile, never
    // portable (another CPU's kernels move the trajectory and so the count).
    record("value_clipped_steps", static_cast<double>(run.value_clipped_steps), LowerIsBetter,
           Exact{.scope = Scope::Numerics});
  }
  // The threshold this run's unclipped norms support, beside the 1.0 it was given: a property,
  // never gated (it follows the trajectory, which other CPUs' kernels move; checks.md).
  const std::optional<checks::ClipSuggestion> suggestion =
      checks::suggest_clip_threshold(run.grad_norms);
  ASSERT_TRUE(suggestion.has_value()) << "801 steps hold more than 100 healthy ones";
  checks::record_suggested_clip_threshold("grad", *suggestion);
  EXPECT_TRUE(std::isfinite(suggestion->threshold)) << suggestion->rule;
}
