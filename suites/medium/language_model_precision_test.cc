// Mixed precision as an experiment: the language model's recipe, shortened, trained and evaluated
// with its forward pass and loss under autocast at the `precision` parameter (fp32, bf16; fp16
// needs CUDA), the backward pass and AdamW in fp32. Run it once as it is and once in bfloat16,
// then compare the two runs metric by metric (the precision is a property, so the comparison
// names it as what changed):
//
//   mlregress_suites run --filter LmPrecisionExperiment
//   mlregress_suites run --filter LmPrecisionExperiment --set LmPrecisionExperiment.precision=bf16
//   mlregress_suites compare RUN_A RUN_B
//
// runner/docs/sequence-models.md ("Mixed precision") says what is recorded.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "lm_properties.h"
#include "mlregress/mlregress.h"
#include "short_lm_recipe.h"

namespace ex = mlregress::examples;

ML_TEST(Medium, LmPrecisionExperiment, {"precision", "fp32"}) {
  constexpr std::int64_t kSteps = 160;
  ASSERT_TRUE(mlregress::install_memory_tracker());
  const mlregress::Precision precision =
      mlregress::parse_precision(param<std::string>("precision"));
  const ex::ShortLmRecipe recipe(seed());
  const torch::Tensor& train = recipe.train;
  const torch::Tensor& validation = recipe.validation;
  record_dataset("validation", mlregress::fingerprint_tensors({validation}));

  ex::LmTrainer trainer(recipe.model(), ex::ShortLmRecipe::options(kSteps, precision));
  // dtype stays float32: it is the parameters', and autocast leaves them in fp32.
  ex::record_language_model(trainer.model(), ex::ShortLmRecipe::kLength);
  record_property("precision", mlregress::precision_name(precision));
  const std::vector<double> losses = trainer.train(train, kSteps);

  double loss = 0;
  {
    const mlregress::AutocastScope autocast(precision);
    loss = ex::evaluate_loss(trainer.model(), validation);
  }
  const Exact per_profile{.scope = Scope::Numerics};
  record("validation_loss", loss, LowerIsBetter, per_profile);
  // The training loss where it ended: the mean of the last 16 steps' losses.
  const std::size_t tail = std::min<std::size_t>(16, losses.size());
  record("train_loss",
         std::accumulate(losses.end() - static_cast<std::ptrdiff_t>(tail), losses.end(), 0.0) /
             static_cast<double>(tail),
         LowerIsBetter, per_profile);

  // One more step, AdamW's state long made: what a training step holds at its peak at this
  // precision (the casts autocast makes, against the fp32 activations they replace).
  mlregress::MemoryScope memory("training step");
  trainer.step(train.slice(0, 0, trainer.options().batch_size));
  memory.stop();
  record("peak_bytes_per_step", static_cast<double>(memory.stats().peak_bytes_above_start),
         LowerIsBetter, per_profile);
  mlregress::checks::record_non_finite_count(mlregress::checks::count_non_finite(losses) +
                                             mlregress::checks::count_non_finite(*trainer.model()));

  // Steps and tokens per second at this precision, timed last: the timed steps train the model
  // on, which nothing above needs any more.
  const torch::Tensor batch = train.slice(0, 0, trainer.options().batch_size);
  record_throughput("train_step", mlregress::measure_throughput(
                                      "train_step", [&] { trainer.step(batch); },
                                      {.items_per_step = static_cast<double>(batch.numel()),
                                       .repetitions = 3,
                                       .min_time_s = 0.1,
                                       .item_name = "tokens"}));

  EXPECT_TRUE(std::isfinite(loss))
      << "validation loss " << loss << " at " << param<std::string>("precision");
  EXPECT_LT(loss, std::log(static_cast<double>(recipe.language.content_tokens)))
      << "the model learned nothing of the language's long-range repeats";
}
