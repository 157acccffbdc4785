// A capability, not a regression guard: "can the language model's validation loss fall below
// 1.80 nats?" The recipe of LmPrecisionExperiment in fp32, trained for `steps` steps. The target
// is reported MET or NOT MET with its success rate over the runs folder's history (the runs of
// the same configuration, one per commit and seed), and never fails the run; once it is met
// reliably, `graduate` turns it into a guard (runner/docs/capabilities.md):
//
//   mlregress_suites run --filter LmReachesTargetLoss --out runs --seed 1         # 160 steps: MET
//   mlregress_suites run --filter LmReachesTargetLoss --out runs \
//       --set LmReachesTargetLoss.steps=40                                      # NOT MET
//   ... nine more seeds at 160 steps, then:
//   mlregress_suites graduate runs --test LmReachesTargetLoss --metric validation_loss \
//       --baselines baselines --reason "met in every run"
#include <cmath>
#include <cstdint>
#include <vector>

#include "lm_properties.h"
#include "mlregress/mlregress.h"
#include "short_lm_recipe.h"

namespace ex = mlregress::examples;

ML_CAPABILITY_TEST(Medium, LmReachesTargetLoss, {"steps", 160}) {
  const std::int64_t steps = param<std::int64_t>("steps");
  // The seed draws the data as it draws the initial weights: each seed is a new draw of both,
  // which is what a capability's runs vary (so no dataset fingerprint that every seed would
  // change).
  const ex::ShortLmRecipe recipe(seed());

  ex::LmTrainer trainer(recipe.model(), ex::ShortLmRecipe::options(steps));
  ex::record_language_model(trainer.model(), ex::ShortLmRecipe::kLength);
  const std::vector<double> losses = trainer.train(recipe.train, steps);
  const double loss = ex::evaluate_loss(trainer.model(), recipe.validation);

  record_target("validation_loss", loss, Below{1.80});
  mlregress::checks::record_non_finite_count(mlregress::checks::count_non_finite(losses) +
                                             mlregress::checks::count_non_finite(*trainer.model()));
  EXPECT_TRUE(std::isfinite(loss)) << "validation loss " << loss << " after " << steps << " steps";
}
