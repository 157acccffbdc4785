#include "xor_experiment.h"

#include "xor_task.h"

namespace mlregress::examples {
namespace {

// SplitMix64's finaliser: distinct (seed, stream) pairs give unrelated generator seeds.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31U);
}

// The trained model's results on the test set and the whole training set.
XorExperimentResult measure(torch::nn::Sequential& model, const LabeledPoints& train,
                            const LabeledPoints& test) {
  XorExperimentResult result;
  const torch::Tensor rule =
      (test.inputs.select(1, 0) * test.inputs.select(1, 1) > 0).to(torch::kLong);
  result.test_set_rule_accuracy = rule.eq(test.labels).to(torch::kDouble).mean().item<double>();
  result.test_accuracy =
      predict_classes(model, test.inputs).eq(test.labels).to(torch::kDouble).mean().item<double>();
  torch::NoGradGuard no_grad;
  // The whole training set rather than the last minibatch: a minibatch loss is one noisy draw.
  result.train_loss =
      torch::nn::functional::cross_entropy(model->forward(train.inputs), train.labels)
          .item<double>();
  return result;
}

}  // namespace

XorExperimentResult run_xor_experiment(const XorExperimentConfig& config, std::uint64_t seed) {
  torch::manual_seed(seed);
  // Same draw order as the seed's script: both data sets before the model (the seed drew the
  // data from its own NumPy generator, so here the weights come from a later point of the stream).
  const LabeledPoints train = make_xor_quadrants(config.train_size);
  const LabeledPoints test = make_xor_quadrants(config.test_size);
  if (config.weight_stream != 0) {
    // Torch takes the seed as a signed 64-bit value on some paths: keep it below 2^63.
    torch::manual_seed((mix(seed ^ mix(static_cast<std::uint64_t>(config.weight_stream)))) >> 1U);
  }
  torch::nn::Sequential model = make_xor_mlp(config.width, config.depth);
  train_minibatches(model, train, config.lr, config.steps, config.batch_size, /*adam=*/true);
  return measure(model, train, test);
}

XorExperimentResult run_xor_stream_experiment(const XorExperimentConfig& config,
                                              const XorStreamSeeds& seeds, bool order_from_global) {
  torch::manual_seed(seeds.data);
  const LabeledPoints train = make_xor_quadrants(config.train_size);
  const LabeledPoints test = make_xor_quadrants(config.test_size);
  torch::manual_seed(seeds.initialisation);
  torch::nn::Sequential model = make_xor_mlp(config.width, config.depth);
  // The planted mistake leaves the global RNG where the initialisation left it.
  if (!order_from_global) torch::manual_seed(seeds.order);
  train_minibatches(model, train, config.lr, config.steps, config.batch_size, /*adam=*/true);
  return measure(model, train, test);
}

}  // namespace mlregress::examples
