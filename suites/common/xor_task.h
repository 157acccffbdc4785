// The seeds' XOR-quadrant task: 2-D points, label 1 when both coordinates have the same sign,
// noise added after labelling. A ReLU MLP must learn it with a hidden layer. Used by the
// permuted-label leak test, the learning-rate sweep and the multi-seed studies (xor_experiment.h).
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace mlregress::examples {

struct LabeledPoints {
  torch::Tensor inputs;  ///< [n, 2] float
  torch::Tensor labels;  ///< [n] int64 in {0, 1}
};

/// X ~ N(0, 0.5²), y = [x0 · x1 > 0], then X += N(0, 0.1²); drawn from torch's global RNG (the
/// seed drew from NumPy, so the numbers differ; the conclusions must not).
LabeledPoints make_xor_quadrants(std::int64_t n);

/// `depth` hidden layers of `width` ReLU units, then Linear(width, 2); depth 2 is
/// Linear(2, width), ReLU, Linear(width, width), ReLU, Linear(width, 2). Built in statement order
/// so the weights are drawn in the same order as the seed's Python.
torch::nn::Sequential make_xor_mlp(std::int64_t width, std::int64_t depth = 2);

/// `steps` minibatch steps (indices drawn with replacement from torch's RNG); returns the
/// minibatch loss at each step. SGD when `adam` is false.
std::vector<double> train_minibatches(torch::nn::Sequential& model, const LabeledPoints& data,
                                      double lr, std::int64_t steps, std::int64_t batch_size,
                                      bool adam);

/// Class predictions (argmax of the logits) without tracking gradients.
torch::Tensor predict_classes(torch::nn::Sequential& model, const torch::Tensor& inputs);

}  // namespace mlregress::examples
