// The seed's "compare curves, not just final loss" on the XOR-quadrant task: Adam at lr 0.03 for
// 200 minibatch steps, the loss curve gated step by step against the committed reference curve.
// The planted bug is the learning rate ten times too high (--set XorAdamLossCurve.lr_scale=10):
// the loss jumps from 0.7 to several units within the first steps and only then recovers, so the
// final loss alone still passes its loose band (it even comes out lower) while the curve leaves
// its band at step 1 and is a REGRESSION.
#include "mlregress/mlregress.h"
#include "xor_task.h"

namespace {

namespace examples = mlregress::examples;

// The mean of the last `tail` values: a single minibatch loss is too noisy to band.
double tail_mean(const std::vector<double>& values, std::size_t tail) {
  double sum = 0.0;
  for (std::size_t i = values.size() - tail; i < values.size(); ++i) sum += values[i];
  return sum / static_cast<double>(tail);
}

}  // namespace

ML_TEST(Medium, XorAdamLossCurve, {"lr", 0.03}, {"lr_scale", 1.0}, {"steps", 200},
        {"tail_steps", 20}) {
  torch::manual_seed(seed());
  const examples::LabeledPoints data = examples::make_xor_quadrants(512);
  auto model = examples::make_xor_mlp(32);
  const double lr = param<double>("lr") * param<double>("lr_scale");
  const std::vector<double> losses =
      examples::train_minibatches(model, data, lr, param<std::int64_t>("steps"), 64, /*adam=*/true);

  // Minibatch losses jump by ±0.1 from step to step, so both curves are smoothed over 10 steps
  // before the band applies; three smoothed steps in a row above it make the regression.
  record_curve("loss", losses,
               CurvePolicy{.rtol = 0.25,
                           .atol = 0.02,
                           .smoothing = 10,
                           .consecutive = 3,
                           .direction = mlregress::Direction::LowerIsBetter});
  // The loose band a final-value-only gate would use; it cannot see a detour.
  record("tail_loss", tail_mean(losses, param<std::size_t>("tail_steps")), LowerIsBetter,
         Band{.rtol = 0.25});
  EXPECT_LT(losses.back(), losses.front()) << "the loss must fall over the run";
}
