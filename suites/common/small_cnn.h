// The seed's small CNN and its one-batch training loop ("Overfit one batch first"): two conv
// blocks and a linear head over 1x16x16 images, 4 classes, Adam, one batch of 8 examples.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace mlregress::examples {

inline constexpr std::int64_t kSmallCnnClasses = 4;

/// Modules are constructed in statement order (push_back), so their weights are drawn from the
/// RNG in the same order as the seed's Python code. `softmax_before_loss` plants the seed's bug:
/// a Softmax in front of CrossEntropyLoss, which applies log-softmax itself.
/// `resolution` is the square input side (the seed's is 16; the head grows with it).
torch::nn::Sequential make_small_cnn(bool softmax_before_loss = false,
                                     std::int64_t resolution = 16);

struct Batch {
  torch::Tensor images;  ///< [n, 1, resolution, resolution] standard normal
  torch::Tensor labels;  ///< [n] in [0, classes)
};

/// Random images with random labels: nothing to generalise, everything to memorise.
Batch make_random_batch(std::int64_t examples = 8, std::int64_t resolution = 16);

/// Adam on the one batch for `steps` steps; returns the loss before each step, as the seed
/// prints it.
std::vector<double> train_on_batch(torch::nn::Sequential& model, const Batch& batch, double lr,
                                   std::int64_t steps);

}  // namespace mlregress::examples
