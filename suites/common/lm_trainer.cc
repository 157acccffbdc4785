#include "lm_trainer.h"

#include <algorithm>
#include <cmath>

namespace mlregress::examples {

double scheduled_learning_rate(const LmTrainingOptions& options, std::int64_t step) {
  if (step < options.warmup_steps) {
    return options.learning_rate * static_cast<double>(step + 1) /
           static_cast<double>(options.warmup_steps);
  }
  const double decay_steps =
      static_cast<double>(std::max<std::int64_t>(1, options.total_steps - options.warmup_steps));
  const double progress =
      std::min(1.0, static_cast<double>(step - options.warmup_steps) / decay_steps);
  const double floor = options.min_lr_fraction;
  return options.learning_rate * (floor + (1.0 - floor) * 0.5 * (1.0 + std::cos(M_PI * progress)));
}

std::int64_t schedule_step(const LmTrainingOptions& options, std::int64_t update) {
  return options.schedule_counts_examples ? update * options.batch_size : update;
}

LmTrainer::LmTrainer(TinyGpt model, const LmTrainingOptions& options)
    : model_(std::move(model)),
      options_(options),
      optimizer_(
          model_->parameters(),
          torch::optim::AdamWOptions(options.learning_rate).weight_decay(options.weight_decay)) {}

double LmTrainer::step(const torch::Tensor& batch, std::optional<std::int64_t> pad_token) {
  const double lr = scheduled_learning_rate(options_, schedule_step(options_, steps_done_));
  for (auto& group : optimizer_.param_groups()) {
    static_cast<torch::optim::AdamWOptions&>(group.options()).lr(lr);
  }
  model_->train();
  optimizer_.zero_grad();
  torch::Tensor loss;
  {
    const AutocastScope autocast(options_.precision);  // fp32: does nothing
    loss = next_token_loss(model_, batch, pad_token);
  }
  loss.backward();
  grad_norms_.push_back(
      torch::nn::utils::clip_grad_norm_(model_->parameters(), options_.clip_norm));
  optimizer_.step();
  ++steps_done_;
  return loss.item<double>();
}

std::vector<double> LmTrainer::train(const torch::Tensor& data, std::int64_t until_step) {
  std::vector<double> losses;
  const std::int64_t rows = data.size(0);
  while (steps_done_ < until_step) {
    // Row order is a function of the step alone, so resuming at step k sees the same batches.
    const torch::Tensor index = torch::arange(steps_done_ * options_.batch_size,
                                              (steps_done_ + 1) * options_.batch_size, torch::kLong)
                                    .remainder(rows);
    losses.push_back(step(data.index_select(0, index)));
  }
  return losses;
}

double evaluate_loss(TinyGpt& model, const torch::Tensor& data) {
  torch::NoGradGuard no_grad;
  model->eval();
  return next_token_loss(model, data).item<double>();
}

}  // namespace mlregress::examples
