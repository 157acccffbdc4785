// How the initial-loss check's default tolerance (10%) fares on healthy models: for each model,
// freshly initialised under N seeds, the initial cross-entropy on a random batch over ln(C), the
// share of seeds the default fails, the logits' variance across classes v and the tolerance that
// would pass every seed. The example suites' CNN and MLP, and real-sized text classifiers of the
// kinds teams adopt: a TextCNN (Kim 2014; 6.4M parameters), a bag-of-embeddings classifier shaped
// like PyTorch's text-classification tutorial (6.1M), and a BiLSTM (2.8M); the TextCNN again with
// its output weights scaled down (the remedy for a wide start), and the bag-of-embeddings model
// with a planted bug (its bag sums the tokens instead of averaging them). Prints a table
// (ci/initial-loss-survey.sh runs it); fails on nothing.
//   initial_loss_survey [SEEDS]
#include <fmt/format.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mlregress/checks/initial_loss.h"
#include "small_cnn.h"
#include "small_mlp.h"
#include "text_classifiers.h"

namespace {

using namespace mlregress::checks::test_models;

constexpr std::int64_t kBatch = 64;
constexpr std::int64_t kTokens = 100;

struct Model {
  std::string name;
  std::int64_t classes;
  // Builds the model under the current seed and returns its logits on a random batch and labels.
  std::function<std::pair<torch::Tensor, torch::Tensor>()> logits_and_labels;
};

template <typename Module, typename... Options>
std::pair<torch::Tensor, torch::Tensor> text_logits(std::int64_t classes, double output_scale,
                                                    Options... options) {
  Module model(classes, options...);
  model->eval();
  torch::NoGradGuard no_grad;
  model->output->weight.mul_(output_scale);
  const torch::Tensor tokens = torch::randint(0, kVocabulary, {kBatch, kTokens});
  return {model->forward(tokens), torch::randint(0, classes, {kBatch})};
}

double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(std::lround(q * static_cast<double>(values.size() - 1)))];
}

}  // namespace

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::stoi(argv[1]) : 50;
  torch::set_num_threads(1);
  std::vector<Model> models = {
      {"suites: small CNN", mlregress::examples::kSmallCnnClasses,
       [] {
         auto model = mlregress::examples::make_small_cnn();
         const auto batch = mlregress::examples::make_random_batch(kBatch, 16);
         torch::NoGradGuard no_grad;
         return std::pair{model->forward(batch.images), batch.labels};
       }},
      {"suites: small MLP", mlregress::examples::kSmallMlpClasses,
       [] {
         auto model = mlregress::examples::make_small_mlp();
         const auto batch = mlregress::examples::make_random_mlp_batch(kBatch);
         torch::NoGradGuard no_grad;
         return std::pair{model->forward(batch.images), batch.labels};
       }},
      {"TextCNN, 2 classes", 2, [] { return text_logits<TextCnn>(2, 1.0); }},
      {"TextCNN, 4 classes", 4, [] { return text_logits<TextCnn>(4, 1.0); }},
      {"TextCNN, 2 classes, output weights x0.1", 2, [] { return text_logits<TextCnn>(2, 0.1); }},
      {"EmbeddingBag (tutorial), 4 classes", 4,
       [] { return text_logits<EmbeddingBagClassifier>(4, 1.0); }},
      {"BiLSTM, 2 classes", 2, [] { return text_logits<BiLstmClassifier>(2, 1.0); }},
      {"planted: EmbeddingBag summing its tokens", 4,
       [] { return text_logits<EmbeddingBagClassifier>(4, 1.0, true); }},
  };
  fmt::print("initial loss / ln(C) of freshly initialised models, {} seeds each, batch {}\n", seeds,
             kBatch);
  fmt::print("{:42} {:>3} {:>7} {:>7} {:>7} {:>7} {:>12} {:>8} {:>10}\n", "model", "C", "min",
             "median", "q95", "max", "fail at 10%", "mean v", "passes all");
  for (const Model& model : models) {
    std::vector<double> ratios, variances;
    int failures = 0;
    for (int seed = 0; seed < seeds; ++seed) {
      torch::manual_seed(seed);
      const auto [logits, labels] = model.logits_and_labels();
      const auto result = mlregress::checks::check_initial_loss(logits, labels);
      ratios.push_back(result.ratio);
      variances.push_back(*result.logit_variance);
      if (!result.passed) ++failures;
    }
    double widest = 0.0;
    for (const double r : ratios) widest = std::max(widest, std::abs(r - 1.0));
    double mean_v = 0.0;
    for (const double v : variances) mean_v += v / static_cast<double>(variances.size());
    fmt::print(
        "{:42} {:>3} {:>7.3f} {:>7.3f} {:>7.3f} {:>7.3f} {:>5} ({:>4.0f}%) {:>8.3f} {:>9.1f}%\n",
        model.name, model.classes, quantile(ratios, 0.0), quantile(ratios, 0.5),
        quantile(ratios, 0.95), quantile(ratios, 1.0), failures, 100.0 * failures / seeds, mean_v,
        100.0 * widest);
  }
  return 0;
}
