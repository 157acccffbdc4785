// A capability, not a regression guard: "can the language model's validation loss fall below
// 1.75 nats?" The recipe of LmPrecisionExperiment in fp32, trained for `steps` steps. The target
// is reported MET or NOT MET with its success rate over the runs folder's history, and never
// fails the run; once it is met reliably, `graduate` turns it into a guard
// (runner/docs/capabilities.md):
//
//   mlregress_suites run --filter LmReachesTargetLoss --out runs                 # 160 steps: MET
//   mlregress_suites run --filter LmReachesTargetLoss --out runs \
//       --set LmReachesTargetLoss.steps=40                                      # NOT MET
//   mlregress_suites graduate runs --test LmReachesTargetLoss --metric validation_loss \
//       --baselines baselines --reason "met in every run"
#include <cmath>
#include <cstdint>
#include <vector>

#include "lm_properties.h"
#include "lm_trainer.h"
#include "mlregress/checks/finite.h"
#include "mlregress/mlregress.h"
#include "synthetic_language.h"
#include "tiny_gpt.h"

namespace ex = mlregress::examples;

ML_CAPABILITY_TEST(Medium, LmReachesTargetLoss, {"steps", 160}) {
  constexpr std::int64_t kLength = 16;
  const std::int64_t steps = param<std::int64_t>("steps");
  const ex::SyntheticLanguage language;
  torch::manual_seed(seed());
  const torch::Tensor train = ex::sample_sequences(language, 4096, kLength);
  const torch::Tensor validation = ex::sample_sequences(language, 256, kLength);
  record_dataset("validation", mlregress::fingerprint_tensors({validation}));

  ex::LmTrainer trainer(
      ex::TinyGpt(ex::TinyGptOptions{.vocabulary = language.vocabulary(), .context = kLength}),
      {.learning_rate = 2e-2, .warmup_steps = 20, .total_steps = steps, .batch_size = 16});
  ex::record_language_model(trainer.model(), kLength);
  const std::vector<double> losses = trainer.train(train, steps);
  const double loss = ex::evaluate_loss(trainer.model(), validation);

  record_target("validation_loss", loss, Below{1.75});
  mlregress::checks::record_non_finite_count(mlregress::checks::count_non_finite(losses) +
                                             mlregress::checks::count_non_finite(*trainer.model()));
  EXPECT_TRUE(std::isfinite(loss)) << "validation loss " << loss << " after " << steps << " steps";
}
