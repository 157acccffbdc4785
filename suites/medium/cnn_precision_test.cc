// Mixed precision as an experiment, the small CNN's arm (the language model's is
// language_model_precision_test.cc): the CNN trained briefly on the frozen evaluation set's task
// (frozen_eval_set_test.cc: one template image per class in unit noise; the templates and the
// held-out examples drawn from fixed seeds of their own, the training examples from the test's
// seed) with its forward pass and loss under autocast at the `precision` parameter (fp32, bf16;
// fp16 needs CUDA), the backward pass and Adam in fp32, then evaluated under the same precision.
// Autocast runs the convolutions and the linear head in the lower precision; the parameters stay
// fp32. Run it once as it is and once in bfloat16, then compare the two runs metric by metric (the
// precision is a property, so the comparison names it as what changed):
//
//   mlregress_suites run --filter CnnPrecisionExperiment              # RUN_A, fp32
//   the same with --set CnnPrecisionExperiment.precision=bf16          # RUN_B
//   mlregress_suites compare RUN_A RUN_B
//
// runner/docs/sequence-models.md ("Mixed precision") says what is recorded.
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <string>

#include "mlregress/checks/finite.h"
#include "mlregress/mlregress.h"
#include "small_cnn.h"

namespace {

using mlregress::examples::Batch;
using mlregress::examples::kSmallCnnClasses;

// The frozen evaluation set's task and held-out examples (frozen_eval_set_test.cc): the same
// seeds, side, signal and number, so the held-out set is that test's evaluation set.
constexpr std::uint64_t kTaskSeed = 20240501;
constexpr std::uint64_t kEvalSeed = 77;
constexpr std::int64_t kSide = 16;
constexpr std::int64_t kEvalExamples = 512;
// 100 Adam steps of 32 examples, a little over three passes over 1024: a third of
// CnnFrozenEvalSet's training, enough for the loss to fall well below its start.
constexpr std::int64_t kTrainExamples = 1024;
constexpr std::int64_t kSteps = 100;
constexpr std::int64_t kBatch = 32;

// `n` labels, then their class templates scaled by 0.3 in unit noise (CnnFrozenEvalSet's `signal`),
// drawn from `generator` only and in that test's order.
Batch draw(const torch::Tensor& templates, std::int64_t n, at::Generator& generator) {
  torch::Tensor labels = torch::randint(0, kSmallCnnClasses, {n}, generator);
  torch::Tensor noise = torch::randn({n, 1, kSide, kSide}, generator);
  return {0.3 * templates.index_select(0, labels) + noise, labels};
}

struct Evaluation {
  double loss = 0.0;
  double accuracy = 0.0;
};

// Loss and accuracy on the held-out set, the forward pass under `precision`.
Evaluation evaluate_at(mlregress::Precision precision, torch::nn::Sequential& model,
                       const Batch& held_out) {
  const torch::NoGradGuard no_grad;
  const mlregress::AutocastScope autocast(precision);
  const torch::Tensor logits = model->forward(held_out.images);
  const torch::Tensor correct = logits.argmax(1).eq(held_out.labels);
  return {torch::nn::functional::cross_entropy(logits, held_out.labels).item<double>(),
          correct.to(torch::kDouble).mean().item<double>()};
}

}  // namespace

ML_TEST(Medium, CnnPrecisionExperiment, {"precision", "fp32"}) {
  ASSERT_TRUE(mlregress::install_memory_tracker());
  const mlregress::Precision precision =
      mlregress::parse_precision(param<std::string>("precision"));
  record_property("precision", mlregress::precision_name(precision));

  at::Generator task_generator = at::detail::createCPUGenerator(kTaskSeed);
  at::Generator eval_generator = at::detail::createCPUGenerator(kEvalSeed);
  at::Generator train_generator = at::detail::createCPUGenerator(seed());
  const torch::Tensor templates = torch::randn({kSmallCnnClasses, 1, kSide, kSide}, task_generator);
  const Batch held_out = draw(templates, kEvalExamples, eval_generator);
  record_dataset("eval", mlregress::fingerprint_tensors({held_out.labels}));
  const Batch train = draw(templates, kTrainExamples, train_generator);

  torch::manual_seed(seed());
  auto model = mlregress::examples::make_small_cnn();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(2e-3));
  // One step on the examples from `start`: forward and loss under autocast, backward and Adam's
  // update in fp32 outside it. The logits stay a temporary of the loss's statement.
  const auto step = [&](std::int64_t start) {
    optimizer.zero_grad();
    torch::Tensor loss;
    {
      const mlregress::AutocastScope autocast(precision);
      loss = torch::nn::functional::cross_entropy(
          model->forward(train.images.narrow(0, start, kBatch)),
          train.labels.narrow(0, start, kBatch));
    }
    loss.backward();
    optimizer.step();
  };

  const Evaluation initial = evaluate_at(precision, model, held_out);
  for (std::int64_t i = 0; i < kSteps; ++i) step((i * kBatch) % kTrainExamples);
  const Evaluation trained = evaluate_at(precision, model, held_out);
  const Exact per_profile{.scope = Scope::Numerics};
  record("validation_loss", trained.loss, LowerIsBetter, per_profile);
  record("validation_accuracy", trained.accuracy, HigherIsBetter, per_profile);

  // One more step, Adam's state long made: what a training step holds at its peak at this
  // precision (the casts autocast makes, against the fp32 activations they replace).
  mlregress::MemoryScope memory("training step");
  step(0);
  memory.stop();
  record("peak_bytes_per_step", static_cast<double>(memory.stats().peak_bytes_above_start),
         LowerIsBetter, per_profile);
  mlregress::checks::record_non_finite_count(mlregress::checks::count_non_finite(*model));
  // Steps and examples per second at this precision, timed last: the timed steps train the model
  // on, which nothing above needs any more.
  record_throughput(
      "train_step",
      mlregress::measure_throughput(
          "train_step", [&] { step(0); },
          {.items_per_step = static_cast<double>(kBatch), .repetitions = 3, .min_time_s = 0.1}));

  std::cout << "precision " << mlregress::precision_name(precision) << ": validation_loss "
            << initial.loss << " -> " << trained.loss << ", validation_accuracy "
            << initial.accuracy << " -> " << trained.accuracy << std::endl;
  EXPECT_TRUE(std::isfinite(trained.loss))
      << "validation loss " << trained.loss << " at " << param<std::string>("precision");
  EXPECT_LT(trained.loss, initial.loss) << "the validation loss did not fall from its start";
}
