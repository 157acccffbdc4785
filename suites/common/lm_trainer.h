// How the language model trains, as the seeds train theirs: AdamW, a linear warmup then cosine
// decay of the learning rate, and the gradient norm clipped before every update. The schedule is
// a function of the step count alone, so a checkpoint that keeps the step keeps the schedule.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "mlregress/torch/precision.h"
#include "tiny_gpt.h"

namespace mlregress::examples {

struct LmTrainingOptions {
  double learning_rate = 3e-3;  ///< the peak, reached at the end of the warmup
  double weight_decay = 0.01;
  std::int64_t warmup_steps = 20;  ///< 0 plants "warmup removed": the peak from the first step
  std::int64_t total_steps = 300;  ///< the cosine reaches min_lr_fraction · peak here
  double min_lr_fraction = 0.1;
  double clip_norm = 1.0;
  std::int64_t batch_size = 16;
  /// true plants "the schedule counts examples, not updates": the scheduler is advanced by
  /// batch_size per update (len(dataset) where len(loader) was meant), so the warmup is over
  /// within an update or two and the floor is reached a batch_size-th of the way in.
  bool schedule_counts_examples = false;
  /// The forward pass and the loss of each step run under AutocastScope(precision); the backward
  /// pass, the clipping and AdamW's update stay in fp32 (the parameters are fp32 throughout).
  Precision precision = Precision::kFloat32;
};

/// The learning rate of step `step` (0-based): linear warmup over warmup_steps, then cosine decay.
double scheduled_learning_rate(const LmTrainingOptions& options, std::int64_t step);

/// The schedule step of update `update` (0-based): the update itself, or update x batch_size under
/// the planted schedule_counts_examples.
std::int64_t schedule_step(const LmTrainingOptions& options, std::int64_t update);

class LmTrainer {
 public:
  LmTrainer(TinyGpt model, const LmTrainingOptions& options);

  /// One update on `batch` [B, T]; returns the loss before it. Padding (when given) is ignored.
  double step(const torch::Tensor& batch, std::optional<std::int64_t> pad_token = std::nullopt);
  /// Steps through `data` [N, T] in order, batch_size rows at a time (wrapping), until
  /// `until_step` updates were made in all; returns each step's loss.
  std::vector<double> train(const torch::Tensor& data, std::int64_t until_step);

  TinyGpt& model() { return model_; }
  torch::optim::AdamW& optimizer() { return optimizer_; }
  std::int64_t steps_done() const { return steps_done_; }
  /// The global gradient norm of each update this trainer made, before clipping.
  const std::vector<double>& grad_norms() const { return grad_norms_; }
  void set_steps_done(std::int64_t steps) { steps_done_ = steps; }
  const LmTrainingOptions& options() const { return options_; }

 private:
  TinyGpt model_;
  LmTrainingOptions options_;
  torch::optim::AdamW optimizer_;
  std::int64_t steps_done_ = 0;
  std::vector<double> grad_norms_;
};

/// Mean next-token loss of `data` [N, T] without tracking gradients, in eval mode.
double evaluate_loss(TinyGpt& model, const torch::Tensor& data);

}  // namespace mlregress::examples
