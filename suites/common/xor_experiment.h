// The seed's run_experiment(config, seed): one complete training run on the XOR-quadrant task
// under one seed (data, initialisation and minibatch order all drawn from it). The multi-seed
// studies run it once per seed and compare the distributions of its results.
#pragma once

#include <cstdint>

namespace mlregress::examples {

/// Every choice of the run; the defaults are the seed's baseline config.
struct XorExperimentConfig {
  double lr = 1e-3;              ///< Adam
  std::int64_t width = 32;       ///< hidden units per layer
  std::int64_t depth = 2;        ///< hidden layers
  std::int64_t steps = 400;      ///< minibatch steps
  std::int64_t batch_size = 64;  ///< drawn with replacement from the training set
  std::int64_t train_size = 256;
  std::int64_t test_size = 2000;
  /// 0: the weights and minibatches continue the seed's random stream. k > 0: they come from
  /// stream k of that seed instead, with the same data: the same model trained as well, but not
  /// to the same numbers, as after a change that keeps the quality and moves the arithmetic
  /// (another initialisation order, a reordered reduction). A paired rerun with another stream
  /// is the A/A comparison of a CI job that runs on the baseline's seeds.
  std::int64_t weight_stream = 0;
};

struct XorExperimentResult {
  double test_accuracy = 0.0;  ///< on the held-out set, drawn after the training set
  double train_loss = 0.0;     ///< cross-entropy on the whole training set after training
  /// The accuracy of the true labelling rule (x0 · x1 > 0) on the noisy test inputs: how hard the
  /// seed's test set is, from the data alone. No change to the model or its training moves it,
  /// yet it explains about 40% of the seed-to-seed variance of test_accuracy: a covariate for
  /// variance reduction (Margin{.covariate}).
  double test_set_rule_accuracy = 0.0;
};

/// The seeds of a run's three sources of randomness, each its own (MlTest::seed(SeedStream)),
/// each below 2^63.
struct XorStreamSeeds {
  std::uint64_t data = 0;            ///< the training and test sets
  std::uint64_t initialisation = 0;  ///< the weights
  std::uint64_t order = 0;           ///< the minibatch indices
};

/// Seeds torch's RNG with `seed` itself, so the result is a function of (config, seed) whoever
/// calls it. Draws the training set, then the test set, then the weights, then the minibatches.
XorExperimentResult run_xor_experiment(const XorExperimentConfig& config, std::uint64_t seed);

/// The same run with each source of randomness drawn from its own seed (weight_stream is not
/// used). `order_from_global` plants the common mistake: the sampler draws from the global RNG,
/// which the initialisation seeded, so the minibatches follow `initialisation` and `order` is
/// ignored.
XorExperimentResult run_xor_stream_experiment(const XorExperimentConfig& config,
                                              const XorStreamSeeds& seeds,
                                              bool order_from_global = false);

}  // namespace mlregress::examples
