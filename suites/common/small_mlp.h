// A small multi-layer perceptron and a random batch for it: the second model of the medium
// tier's training-step throughput, whose cost is dominated by matrix products rather than by
// convolutions.
#pragma once

#include <torch/torch.h>

#include <cstdint>

#include "small_cnn.h"

namespace mlregress::examples {

inline constexpr std::int64_t kSmallMlpInputs = 64;
inline constexpr std::int64_t kSmallMlpClasses = 10;

/// Linear(64, hidden) - ReLU - ... - Linear(hidden, 10), with `depth` hidden layers; modules
/// are constructed in statement order (push_back), so weights are drawn in a repeatable order.
torch::nn::Sequential make_small_mlp(std::int64_t hidden = 256, std::int64_t depth = 2);

/// Standard normal inputs [examples, 64] (in Batch::images) with random labels in [0, 10).
Batch make_random_mlp_batch(std::int64_t examples);

}  // namespace mlregress::examples
