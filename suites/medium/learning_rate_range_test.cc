// The learning-rate range test against a sweep: one run with the rate rising geometrically on the
// same model, its suggested band (runner/docs/checks.md, "Learning-rate range test"), and a short
// sweep whose best rate must lie in that band widened by `agreement_factor`. The sweep trains a
// fresh model per rate; the range test trains one model through all of them, so the two agree
// only to within a factor: the test gates that decision, not the band's edges.
//
// XorLearningRateRangeTest: SGD on the XOR-quadrant task, against the same sweep as
// XorLearningRateSweepIsUShaped (60 steps per rate, seed, data and minibatch size). CnnLearning-
// RateRangeTest: Adam on the small CNN over a template-image task, against a sweep of its own;
// Adam's band lies far below SGD's.
#include <fmt/format.h>

#include "mlregress/mlregress.h"
#include "small_cnn.h"
#include "xor_task.h"

namespace {

namespace checks = mlregress::checks;
namespace examples = mlregress::examples;

// The decision the test gates: a whole number, stored portable and gated on every machine. The
// band's edges are argmins and argmaxes over the grid of rates, and a last-bit change of a kernel
// can move the steepest descent to another local dip, so they are recorded ungated, as curves:
// the band (low at step 0, high at step 1), the rate and the smoothed loss at each step.
void record_range(const checks::LearningRateRange& range, const checks::LearningRateSweep& sweep,
                  double factor) {
  const bool agrees = static_cast<bool>(checks::agrees_with_sweep(range, sweep, factor));
  mlregress::MlTest::record("range_agrees_with_sweep", agrees ? 1.0 : 0.0, mlregress::MustEqual,
                            mlregress::Exact{});
  std::vector<double> smoothed = range.smoothed;
  if (range.non_finite) smoothed.pop_back();  // the NaN of the step that stopped the run
  mlregress::MlTest::record_curve("range_smoothed_loss", smoothed);
  mlregress::MlTest::record_curve("range_learning_rate", range.rates);
  if (range.has_band) {
    mlregress::MlTest::record_curve("range_suggested_band",
                                    {range.suggested_low, range.suggested_high});
  }
}

void print_range(const checks::LearningRateRange& range, const checks::LearningRateSweep& sweep) {
  std::cout << "range test:\n" << range.table();
  for (const std::string& warning : range.warnings()) std::cout << "warning: " << warning << "\n";
  std::cout << "sweep:\n" << sweep.table();
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double rate) {
  for (torch::optim::OptimizerParamGroup& group : optimizer.param_groups()) {
    if (auto* sgd = dynamic_cast<torch::optim::SGDOptions*>(&group.options())) sgd->lr(rate);
    if (auto* adam = dynamic_cast<torch::optim::AdamOptions*>(&group.options())) adam->lr(rate);
  }
}

// One update on a minibatch; returns the loss computed before it.
double update(torch::optim::Optimizer& optimizer, const torch::Tensor& logits,
              const torch::Tensor& labels) {
  optimizer.zero_grad();
  torch::Tensor loss = torch::nn::functional::cross_entropy(logits, labels);
  loss.backward();
  optimizer.step();
  return loss.item<double>();
}

// `n` images of the class templates scaled by `signal` in unit noise, from torch's global RNG.
examples::Batch template_batch(const torch::Tensor& templates, double signal, std::int64_t n) {
  examples::Batch batch;
  batch.labels = torch::randint(0, examples::kSmallCnnClasses, {n});
  batch.images = signal * templates.index_select(0, batch.labels) +
                 torch::randn({n, 1, templates.size(2), templates.size(3)});
  return batch;
}

// The range test's settings, from the test's parameters `range_steps`, `min_rate`, `max_rate`.
checks::RangeTestOptions range_options() {
  checks::RangeTestOptions options;
  options.steps = mlregress::MlTest::param<std::int64_t>("range_steps");
  options.min_rate = mlregress::MlTest::param<double>("min_rate");
  options.max_rate = mlregress::MlTest::param<double>("max_rate");
  return options;
}

// Prints and records the range test beside its sweep; asserts a band that agrees with the sweep
// within the test's `agreement_factor`.
void judge_range(const checks::LearningRateRange& range, const checks::LearningRateSweep& sweep) {
  print_range(range, sweep);
  const double factor = mlregress::MlTest::param<double>("agreement_factor");
  record_range(range, sweep, factor);
  EXPECT_TRUE(range.has_band) << range.table();
  EXPECT_TRUE(checks::agrees_with_sweep(range, sweep, factor));
}

}  // namespace

// The sweep's best rate is 1 (XorLearningRateSweepIsUShaped); the range test's band lies just
// below its lowest point, where SGD starts to thrash.
ML_TEST(Medium, XorLearningRateRangeTest, {"range_steps", 300}, {"min_rate", 1e-3},
        {"max_rate", 10.0}, {"sweep_steps", 60}, {"agreement_factor", 3.0}) {
  constexpr std::int64_t kBatch = 64;
  checks::LearningRateSweepOptions sweep_options;
  sweep_options.steps = param<std::int64_t>("sweep_steps");
  const checks::LearningRateSweep sweep = checks::sweep_learning_rates(
      {1e-3, 1e-2, 1e-1, 3e-1, 1.0, 3.0, 10.0},
      [](double lr, std::int64_t steps) {
        torch::manual_seed(seed());
        const examples::LabeledPoints data = examples::make_xor_quadrants(512);
        auto model = examples::make_xor_mlp(32);
        return examples::train_minibatches(model, data, lr, steps, kBatch, /*adam=*/false);
      },
      sweep_options);

  torch::manual_seed(seed());
  const examples::LabeledPoints data = examples::make_xor_quadrants(512);
  auto model = examples::make_xor_mlp(32);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(1e-3));
  const checks::LearningRateRange range = checks::run_learning_rate_range_test(
      [&](double rate) {
        set_learning_rate(optimizer, rate);
        const torch::Tensor idx = torch::randint(0, data.inputs.size(0), {kBatch});
        return update(optimizer, model->forward(data.inputs.index_select(0, idx)),
                      data.labels.index_select(0, idx));
      },
      range_options());
  judge_range(range, sweep);
}

// `signal`: the templates' scale against unit noise (an easy task, so the loss falls within the
// range test's few steps); one fresh minibatch of `batch` images per step. Agreement within 4x:
// at 3x the 40-step sweep's best rate fell outside on 1 of seeds 0-39 (seed 4: 0.003 against a
// band from 0.0117, 3.9x), a sweep noisier than the XOR one (3x held on all 40 seeds there).
ML_TEST(Medium, CnnLearningRateRangeTest, {"range_steps", 150}, {"min_rate", 1e-4},
        {"max_rate", 1.0}, {"sweep_steps", 40}, {"batch", 8}, {"signal", 1.0},
        {"agreement_factor", 4.0}) {
  const auto batch = param<std::int64_t>("batch");
  const double signal = param<double>("signal");
  checks::LearningRateSweepOptions sweep_options;
  sweep_options.steps = param<std::int64_t>("sweep_steps");
  const checks::LearningRateSweep sweep = checks::sweep_learning_rates(
      {1e-3, 3e-3, 1e-2, 3e-2, 1e-1},
      [&](double lr, std::int64_t steps) {
        torch::manual_seed(seed());
        const torch::Tensor templates = torch::randn({examples::kSmallCnnClasses, 1, 16, 16});
        auto model = examples::make_small_cnn();
        torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(lr));
        std::vector<double> losses;
        for (std::int64_t step = 0; step < steps; ++step) {
          const examples::Batch b = template_batch(templates, signal, batch);
          losses.push_back(update(optimizer, model->forward(b.images), b.labels));
        }
        return losses;
      },
      sweep_options);

  torch::manual_seed(seed());
  const torch::Tensor templates = torch::randn({examples::kSmallCnnClasses, 1, 16, 16});
  auto model = examples::make_small_cnn();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-5));
  const checks::LearningRateRange range = checks::run_learning_rate_range_test(
      [&](double rate) {
        set_learning_rate(optimizer, rate);
        const examples::Batch b = template_batch(templates, signal, batch);
        return update(optimizer, model->forward(b.images), b.labels);
      },
      range_options());
  judge_range(range, sweep);
}
