// The seed's exploding-gradient setup: an 8-layer tanh MLP with weights scaled 2x too large,
// plain SGD at lr 0.3 on y = sin(3x). Without clipping its gradients overflow within a few dozen
// steps; clip_grad_norm_ to 1.0 lets the same run train.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace mlregress::examples {

/// 1 -> 32 (x8, tanh) -> 1, matrices multiplied by 2 after construction (in statement order).
torch::nn::Sequential make_deep_tanh_net();

/// How the loop clips: the whole gradient to a norm (clip_grad_norm_, its direction kept), or
/// each component to a value (clip_grad_value_, its direction changed whenever it engages).
enum class ClipMode { kNorm, kValue };

struct ClippingRun {
  std::vector<double> losses;            ///< minibatch loss at each step
  std::vector<std::int64_t> eval_steps;  ///< where full_losses were measured
  std::vector<double> full_losses;       ///< loss on all 256 points, every eval_every steps
  double max_finite_grad_norm = 0.0;     ///< largest finite pre-clip gradient norm
  std::int64_t first_non_finite_grad_step = -1;
  std::vector<double> grad_norms;        ///< the pre-clip global norm of every step
  std::int64_t value_clipped_steps = 0;  ///< kValue: steps where a component exceeded the bound
};

/// Trains a fresh net (seeded with `seed`) on 256 points x ~ U(-2, 2), y = sin(3x), drawn from
/// torch's RNG; `clip` is clip_grad_norm_'s max_norm (kNorm) or clip_grad_value_'s bound
/// (kValue), none for no clipping.
ClippingRun train_deep_tanh(std::optional<double> clip, double lr, std::int64_t steps,
                            std::uint64_t seed, std::int64_t eval_every = 200,
                            ClipMode mode = ClipMode::kNorm);

}  // namespace mlregress::examples
