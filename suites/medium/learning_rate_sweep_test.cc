// The seed's learning-rate sweep on the XOR-quadrant task: 60 SGD steps at each rate from 1e-3
// to 10, tail loss = mean of the last 10. The table is a U: too low never moves, too high
// thrashes above the initial loss, and the best band lies within 0.3 to 1.
#include <fmt/format.h>

#include "mlregress/mlregress.h"
#include "xor_task.h"

namespace {

namespace checks = mlregress::checks;
namespace examples = mlregress::examples;

}  // namespace

ML_TEST(Medium, XorLearningRateSweepIsUShaped, {"steps", 60}, {"tail_steps", 10},
        {"band_factor", 1.1}, {"band_low", 0.3}, {"band_high", 1.0}) {
  const std::vector<double> rates = {1e-3, 1e-2, 1e-1, 3e-1, 1.0, 3.0, 10.0};
  checks::LearningRateSweepOptions options;
  options.steps = param<std::int64_t>("steps");
  options.best_band_factor = param<double>("band_factor");
  options.progress.tail_steps = param<std::size_t>("tail_steps");
  // Every rate starts from the same data, initialisation and minibatch order (the same seed).
  const checks::LearningRateSweep sweep = checks::sweep_learning_rates(
      rates,
      [](double lr, std::int64_t steps) {
        torch::manual_seed(seed());
        const examples::LabeledPoints data = examples::make_xor_quadrants(512);
        auto model = examples::make_xor_mlp(32);
        return examples::train_minibatches(model, data, lr, steps, 64, /*adam=*/false);
      },
      options);
  std::cout << sweep.table();
  for (const std::string& warning : sweep.warnings()) std::cout << "warning: " << warning << "\n";
  for (const checks::SweepPoint& point : sweep.points) {
    record(fmt::format("tail_loss_lr_{:g}", point.learning_rate), point.progress.tail_loss,
           MustEqual, Band{.rtol = 0.01});
  }
  for (const checks::SweepPoint& point : sweep.points) {
    record_curve(fmt::format("loss_lr_{:g}", point.learning_rate), point.losses);
  }
  EXPECT_TRUE(checks::u_shaped(sweep));
  EXPECT_TRUE(
      checks::best_band_within(sweep, param<double>("band_low"), param<double>("band_high")));
  // The ends carry the warnings the seed reads off the table.
  EXPECT_EQ(sweep.points.front().progress.status, checks::LossProgressStatus::Stalled);
  EXPECT_EQ(sweep.points.back().progress.status, checks::LossProgressStatus::Thrashing);
}
