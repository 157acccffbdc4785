#include "short_lm_recipe.h"

namespace mlregress::examples {

ShortLmRecipe::ShortLmRecipe(std::uint64_t seed) {
  torch::manual_seed(seed);
  train = sample_sequences(language, 4096, kLength);
  validation = sample_sequences(language, 256, kLength);
}

TinyGpt ShortLmRecipe::model() const {
  return TinyGpt(TinyGptOptions{.vocabulary = language.vocabulary(), .context = kLength});
}

LmTrainingOptions ShortLmRecipe::options(std::int64_t steps, Precision precision) {
  return {.learning_rate = 2e-2,
          .warmup_steps = 20,
          .total_steps = steps,
          .batch_size = 16,
          .precision = precision};
}

}  // namespace mlregress::examples
