#include "deep_tanh.h"

#include <cmath>
#include <limits>

#include "mlregress/checks/gradient_norm_monitor.h"

namespace mlregress::examples {

namespace nn = torch::nn;

nn::Sequential make_deep_tanh_net() {
  nn::Sequential net;
  for (int i = 0; i < 8; ++i) {
    net->push_back(nn::Linear(i == 0 ? 1 : 32, 32));
    net->push_back(nn::Tanh());
  }
  net->push_back(nn::Linear(32, 1));
  torch::NoGradGuard no_grad;
  for (auto& p : net->parameters()) {
    if (p.dim() == 2) p.mul_(2.0);  // over-scaled initialisation: the planted instability
  }
  return net;
}

namespace {

// Clips the net's gradients as `mode` says and returns their global norm before the clip.
double clip_gradients(nn::Sequential& net, std::optional<double> clip, ClipMode mode,
                      ClippingRun& run) {
  if (mode == ClipMode::kNorm || !clip) {
    return nn::utils::clip_grad_norm_(net->parameters(),
                                      clip.value_or(std::numeric_limits<double>::infinity()));
  }
  const double norm = mlregress::checks::global_gradient_norm(*net);
  if (!(mlregress::checks::max_abs_gradient(*net) <= *clip)) ++run.value_clipped_steps;
  nn::utils::clip_grad_value_(net->parameters(), *clip);
  return norm;
}

}  // namespace

ClippingRun train_deep_tanh(std::optional<double> clip, double lr, std::int64_t steps,
                            std::uint64_t seed, std::int64_t eval_every, ClipMode mode) {
  // As in the seed: the data are drawn once, then every run rebuilds the net from the seed.
  torch::manual_seed(seed);
  const torch::Tensor x = torch::rand({256, 1}) * 4.0 - 2.0;
  const torch::Tensor y = torch::sin(3.0 * x);
  torch::manual_seed(seed);
  nn::Sequential net = make_deep_tanh_net();
  torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(lr));
  ClippingRun run;
  for (std::int64_t step = 0; step < steps; ++step) {
    const torch::Tensor idx = torch::randint(0, x.size(0), {32});
    optimizer.zero_grad();
    torch::Tensor loss =
        nn::functional::mse_loss(net->forward(x.index_select(0, idx)), y.index_select(0, idx));
    loss.backward();
    const double norm = clip_gradients(net, clip, mode, run);
    run.grad_norms.push_back(norm);
    if (std::isfinite(norm)) {
      run.max_finite_grad_norm = std::max(run.max_finite_grad_norm, norm);
    } else if (run.first_non_finite_grad_step < 0) {
      run.first_non_finite_grad_step = step;
    }
    optimizer.step();
    run.losses.push_back(loss.item<double>());
    if (step % eval_every == 0) {
      torch::NoGradGuard no_grad;
      run.eval_steps.push_back(step);
      run.full_losses.push_back(nn::functional::mse_loss(net->forward(x), y).item<double>());
    }
  }
  return run;
}

}  // namespace mlregress::examples
