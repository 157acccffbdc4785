// The language model's recipe shortened to fit the medium tier: 4,096 training and 256 validation
// sequences of 16 tokens of the synthetic language, drawn from the test's seed, and a TinyGpt
// trained by AdamW at a peak rate of 0.02 after 20 warmup steps, 16 sequences a step.
// LmPrecisionExperiment trains it at each precision, LmReachesTargetLoss for a number of steps.
#pragma once

#include <torch/torch.h>

#include <cstdint>

#include "lm_trainer.h"
#include "mlregress/torch/precision.h"
#include "synthetic_language.h"
#include "tiny_gpt.h"

namespace mlregress::examples {

struct ShortLmRecipe {
  static constexpr std::int64_t kLength = 16;
  SyntheticLanguage language;
  torch::Tensor train;
  torch::Tensor validation;

  /// Seeds torch's generator with `seed`, then draws the training and the validation sequences
  /// (the model made next draws its initial weights from the same generator).
  explicit ShortLmRecipe(std::uint64_t seed);
  /// A fresh model of the language's vocabulary and context kLength.
  TinyGpt model() const;
  /// The schedule for `steps` steps (the cosine ends there) at `precision`.
  static LmTrainingOptions options(std::int64_t steps, Precision precision = Precision::kFloat32);
};

}  // namespace mlregress::examples
