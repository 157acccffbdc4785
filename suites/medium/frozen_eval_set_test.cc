// A short training run scored on a frozen evaluation set ("a validation metric on a frozen
// evaluation set"): the task (one template image per class) and the evaluation examples are
// drawn from fixed seeds of their own, so the evaluation set is the same whatever --seed the
// run uses; only the training data and the initial weights follow the test's seed. Validation
// loss and accuracy gate against the baseline with bands; the test itself asserts that the model
// learned something (accuracy far above chance, loss well below its start).
//
// `permute_labels` plants the bug a validation metric exists to catch: training labels shuffled
// against their images (a broken join in the input pipeline). Training loss still falls a little,
// but nothing carries over to the evaluation set, and the test fails.
//
// The predictions on the evaluation set are recorded per example (record_predictions), so a run
// is compared with the baseline's example by example: `shuffle_class` plants a subtler bug, the
// training labels of one class only shuffled among all classes (a bad merge of one class's
// annotations). The test still passes its own checks, the accuracy drops by a few points, and
// the flips say where: almost all correct -> wrong flips are examples of that class, and
// McNemar's test on them is a REGRESSION. Another evaluation set (`eval_examples`) is
// NOT_COMPARABLE, naming the dataset, never compared; another order of the training examples
// (`shuffle_train`) is judged as usual, each verdict noting that the data order changed.
#include <ATen/CPUGeneratorImpl.h>

#include "mlregress/mlregress.h"
#include "small_cnn.h"

namespace {

using mlregress::examples::Batch;
using mlregress::examples::kSmallCnnClasses;

constexpr std::uint64_t kTaskSeed = 20240501;  // the class templates: what there is to learn
constexpr std::uint64_t kEvalSeed = 77;        // the frozen evaluation examples
constexpr std::int64_t kSide = 16;

// n copies of random class templates scaled by `signal`, in unit noise, drawn from `generator`
// only.
Batch sample(const torch::Tensor& templates, double signal, std::int64_t n,
             at::Generator& generator) {
  Batch batch;
  batch.labels = torch::randint(0, kSmallCnnClasses, {n}, generator);
  batch.images = signal * templates.index_select(0, batch.labels) +
                 torch::randn({n, 1, kSide, kSide}, generator);
  return batch;
}

struct Evaluation {
  double loss = 0.0;
  double accuracy = 0.0;
};

Evaluation evaluate(torch::nn::Sequential& model, const Batch& eval) {
  torch::NoGradGuard no_grad;
  model->eval();
  const torch::Tensor logits = model->forward(eval.images);
  Evaluation result{torch::nn::functional::cross_entropy(logits, eval.labels).item<double>(),
                    logits.argmax(1).eq(eval.labels).to(torch::kDouble).mean().item<double>()};
  model->train();
  return result;
}

}  // namespace

// `signal`: the template's scale against unit noise (learnable in a short run, not trivially).
ML_TEST(Medium, CnnFrozenEvalSet, {"steps", 300}, {"lr", 2e-3}, {"signal", 0.3},
        {"permute_labels", false}, {"shuffle_class", -1}, {"eval_examples", 512},
        {"shuffle_train", false}) {
  const double signal = param<double>("signal");
  at::Generator task_generator = at::detail::createCPUGenerator(kTaskSeed);
  at::Generator eval_generator = at::detail::createCPUGenerator(kEvalSeed);
  const torch::Tensor templates = torch::randn({kSmallCnnClasses, 1, kSide, kSide}, task_generator);
  const Batch eval =
      sample(templates, signal, param<std::int64_t>("eval_examples"), eval_generator);
  // The evaluation set's version: its labels (integers, the same bits on every machine; the
  // images are floats drawn from the same generator right after them).
  record_dataset("eval", mlregress::fingerprint_tensors({eval.labels}));

  at::Generator train_generator = at::detail::createCPUGenerator(seed());
  Batch train = sample(templates, signal, 1024, train_generator);
  if (param<bool>("permute_labels"))
    train.labels = train.labels.index_select(0, torch::randperm(1024));
  if (const auto shuffled = param<std::int64_t>("shuffle_class"); shuffled >= 0) {
    const torch::Tensor of_class = train.labels.eq(shuffled);
    const torch::Tensor random_labels =
        torch::randint(0, kSmallCnnClasses, {1024}, train_generator);
    train.labels = torch::where(of_class, random_labels, train.labels);
  }

  // The order the training examples are served in: their ids over the first 10 batches. A
  // changed sampler (shuffle_train plants one) shows as a data-order change beside the verdicts.
  torch::Tensor served = torch::arange(1024);
  if (param<bool>("shuffle_train")) {
    served = torch::randperm(1024, train_generator);
    train.images = train.images.index_select(0, served);
    train.labels = train.labels.index_select(0, served);
  }
  const torch::Tensor first_batches = served.narrow(0, 0, 320).contiguous();
  record_data_order("train",
                    std::vector<std::int64_t>(first_batches.data_ptr<std::int64_t>(),
                                              first_batches.data_ptr<std::int64_t>() + 320));

  auto model = mlregress::examples::make_small_cnn();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(param<double>("lr")));
  const auto steps = param<std::int64_t>("steps");
  constexpr std::int64_t kBatch = 32;
  const Evaluation initial = evaluate(model, eval);
  std::vector<std::int64_t> curve_steps = {0};
  std::vector<double> val_losses = {initial.loss};
  for (std::int64_t step = 1; step <= steps; ++step) {
    const std::int64_t start = ((step - 1) * kBatch) % train.images.size(0);
    optimizer.zero_grad();
    torch::nn::functional::cross_entropy(model->forward(train.images.narrow(0, start, kBatch)),
                                         train.labels.narrow(0, start, kBatch))
        .backward();
    optimizer.step();
    if (step % 20 == 0 || step == steps) {
      curve_steps.push_back(step);
      val_losses.push_back(evaluate(model, eval).loss);
    }
  }
  const Evaluation trained = evaluate(model, eval);
  record("val_loss", trained.loss, LowerIsBetter, Band{.rtol = 0.1, .atol = 0.01});
  record("val_accuracy", trained.accuracy, HigherIsBetter, Band{.rtol = 0.0, .atol = 0.03});
  record_curve("val_loss", curve_steps, val_losses);
  torch::Tensor predicted;
  {
    torch::NoGradGuard no_grad;
    model->eval();
    predicted = model->forward(eval.images).argmax(1);
    record_predictions("eval", torch::arange(eval.labels.size(0)), predicted, eval.labels);
    model->train();
  }
  std::cout << "val_loss " << initial.loss << " -> " << trained.loss << ", val_accuracy "
            << initial.accuracy << " -> " << trained.accuracy << std::endl;

  // Chance is 1/4: a model that learned the task is far above it.
  EXPECT_GT(trained.accuracy, 0.6) << "val_accuracy near chance: the model did not learn the task";
  // ... and above always answering the commonest evaluation class, with its confusion matrix.
  EXPECT_TRUE(mlregress::checks::check_above_class_prior(predicted, eval.labels));
  EXPECT_LT(trained.loss, 0.6 * initial.loss) << "val_loss barely moved from its initial value";
}
