// The permuted-label leak test (the seed's experiment): labels permuted once at the source mean
// nothing, so validation must score at chance. A healthy pipeline (split, no duplicates) passes
// with training memorised; the leaky pipeline (oversample 2x before the split, so validation
// examples have twins in training) scores above chance and must be flagged.
#include <cstdio>

#include "mlregress/mlregress.h"
#include "xor_task.h"

namespace {

namespace checks = mlregress::checks;
namespace examples = mlregress::examples;

checks::LabeledSplits take_rows(const torch::Tensor& inputs, const torch::Tensor& labels,
                                const torch::Tensor& train_rows,
                                const torch::Tensor& validation_rows) {
  return {inputs.index_select(0, train_rows), labels.index_select(0, train_rows),
          inputs.index_select(0, validation_rows), labels.index_select(0, validation_rows)};
}

// The seed's fit(): a fresh 2-256-256-2 MLP from the seed, Adam 1e-3, minibatches of 64.
checks::TrainAndPredict fit(std::int64_t steps) {
  return [steps](const checks::LabeledSplits& splits) {
    torch::manual_seed(mlregress::MlTest::seed());
    auto model = examples::make_xor_mlp(256);
    examples::train_minibatches(model, {splits.train_inputs, splits.train_labels}, 1e-3, steps, 64,
                                /*adam=*/true);
    return checks::SplitPredictions{examples::predict_classes(model, splits.train_inputs),
                                    examples::predict_classes(model, splits.validation_inputs)};
  };
}

// What both tests gate by value: the quantities no CPU code path measured moves past their bands
// (runner/docs/numerics.md): the training accuracy (1 for the healthy pipeline, which memorises
// its labels; 0.80-0.81 for the leaky one) and chance itself (a property of the data). The p-value
// is not among them: at chance it is a uniform random number, and even far below alpha each CPU
// code path trains another model and moves it by more than its own size
// (runner/docs/numerics.md#chaotic-values-are-gated-as-decisions); the decision it supports is
// recorded instead, and the numbers are printed.
void record_stable_values(const checks::LeakTestResult& r) {
  mlregress::MlTest::record("train_accuracy", r.train_accuracy, mlregress::HigherIsBetter,
                            mlregress::Band{.atol = 0.05});
  mlregress::MlTest::record("chance_rate", r.chance_rate, mlregress::MustEqual,
                            mlregress::Band{.atol = 0.03});
  std::printf("%s\n", checks::no_leak(r).message());
}

}  // namespace

// Part A of the seed: 64 training points, 1,000 fresh validation points, nothing shared.
ML_TEST(Medium, PermutedLabelsHealthyPipelineAtChance, {"steps", 4000}, {"alpha", 0.01}) {
  const examples::LabeledPoints source = examples::make_xor_quadrants(64 + 1000);
  const checks::SplitPipeline split_only = [](const torch::Tensor& x, const torch::Tensor& y) {
    const torch::Tensor order = torch::randperm(x.size(0));
    return take_rows(x, y, order.slice(0, 0, 64), order.slice(0, 64));
  };
  checks::LeakTestOptions options;
  options.alpha = param<double>("alpha");
  const checks::LeakTestResult r = checks::permuted_label_leak_test(
      source.inputs, source.labels, split_only, fit(param<std::int64_t>("steps")), options);
  record_stable_values(r);
  // Its validation accuracy is a draw at chance too (0.517 on one CPU, 0.503 on another): what
  // is gated is that the test does not flag it, a 0/1 decision that holds on every CPU.
  record("leak_flagged", r.leak ? 1.0 : 0.0, MustEqual, Exact{});
  EXPECT_GT(r.train_accuracy, 0.95) << "the model should memorise 64 meaningless labels";
  EXPECT_TRUE(checks::no_leak(r));
}

// Part B of the seed: 400 points oversampled 2x BEFORE the 400/400 split (the bug).
ML_TEST(Medium, PermutedLabelsLeakyPipelineFlagged, {"steps", 4000}, {"alpha", 0.01}) {
  const examples::LabeledPoints source = examples::make_xor_quadrants(400);
  const checks::SplitPipeline oversample_then_split = [](const torch::Tensor& x,
                                                         const torch::Tensor& y) {
    const torch::Tensor xd = torch::cat({x, x});
    const torch::Tensor yd = torch::cat({y, y});
    const torch::Tensor order = torch::randperm(xd.size(0));
    return take_rows(xd, yd, order.slice(0, 0, 400), order.slice(0, 400));
  };
  checks::LeakTestOptions options;
  options.alpha = param<double>("alpha");
  const checks::LeakTestResult r =
      checks::permuted_label_leak_test(source.inputs, source.labels, oversample_then_split,
                                       fit(param<std::int64_t>("steps")), options);
  record_stable_values(r);
  // Far above chance, the validation accuracy is stable enough for a band.
  record("validation_accuracy", r.validation_accuracy, MustEqual, Band{.atol = 0.03});
  // The planted leak must be caught: validation twins of training rows score above chance.
  record("caught/permuted_label_leak", r.leak ? 1.0 : 0.0, MustEqual, Exact{});
  EXPECT_TRUE(r.leak) << checks::no_leak(r).message();
  EXPECT_FALSE(checks::no_leak(r));
}
