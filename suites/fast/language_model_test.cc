// The seeds' running example in the fast tier: a small GPT-style model (tiny_gpt.h) on a
// synthetic language whose best loss is known (synthetic_language.h). Each test states one
// invariant a sequence model must keep, and carries a parameter that plants the bug the invariant
// exists for, so `--set` shows the check catching it:
//   causal=false                  attention sees later tokens (LmCausalMaskHidesTheFuture)
//   loss_ignores_padding=false    padding counted in the loss (LmPaddingLeavesTheLossUnchanged)
//   length_offset=1               generation one token too long (LmGenerationHonoursItsLength)
//   resume_optimizer_state=false  resumed without AdamW's state (LmCheckpointRoundTrip)
//   schedule_counts_examples=true the scheduler advanced per example (LmScheduleDoesWhatItSays)

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <string>

#include "lm_checkpoint.h"
#include "lm_properties.h"
#include "mlregress/mlregress.h"
#include "mlregress/torch/dataset.h"
#include "synthetic_language.h"
#include "temporary_file.h"
#include "tiny_gpt.h"

namespace {

namespace ex = mlregress::examples;

constexpr std::int64_t kLength = 16;

ex::SyntheticLanguage language() { return ex::SyntheticLanguage{}; }

// Every test's model, whose shape, masking and dtype the run records (lm_properties.h).
ex::TinyGpt make_model(bool causal = true) {
  torch::manual_seed(mlregress::MlTest::seed());
  ex::TinyGpt model(ex::TinyGptOptions{
      .vocabulary = language().vocabulary(), .context = kLength, .causal = causal});
  ex::record_language_model(model, kLength);
  return model;
}

// The largest |a − b| over two tensors of one shape, as a double (0 when bit-identical).
double max_abs_difference(const torch::Tensor& a, const torch::Tensor& b) {
  return (a - b).abs().max().item<double>();
}

double max_parameter_difference(ex::TinyGpt& a, ex::TinyGpt& b) {
  double largest = 0;
  const auto theirs = b->named_parameters();
  for (const auto& mine : a->named_parameters()) {
    largest = std::max(largest, max_abs_difference(mine.value(), theirs[mine.key()]));
  }
  return largest;
}

}  // namespace

// Before any update, an untrained model spreads its bet over the whole vocabulary: the loss is
// ln(vocabulary) (plus half the logits' variance; runner/docs/checks.md#initial-loss).
ML_TEST(Fast, LmInitialLossIsLnVocabulary) {
  const torch::Tensor data = ex::sample_sequences(language(), 32, kLength);
  record_dataset("language", ex::fingerprint(language(), data));
  ex::TinyGpt model = make_model();
  torch::NoGradGuard no_grad;
  const torch::Tensor logits =
      model->forward(data).slice(1, 0, kLength - 1).reshape({-1, language().vocabulary()});
  const torch::Tensor targets = data.slice(1, 1, kLength).reshape({-1});
  const auto result = mlregress::checks::check_initial_loss(logits, targets);
  // Gated bit for bit where it was measured (kernels round differently on another CPU); the check
  // below holds it near ln(vocabulary) on every machine.
  record("initial_loss", result.loss, MustEqual, Exact{.scope = Scope::Numerics});
  EXPECT_TRUE(result);
}

// The keystone: a correct model memorises one batch. A broken loss, mask or optimizer stalls.
ML_TEST(Fast, LmOverfitsOneBatch, {"steps", 150}, {"lr", 1e-2}) {
  const torch::Tensor batch = ex::sample_sequences(language(), 8, kLength);
  record_dataset("batch", ex::fingerprint(language(), batch));
  const std::int64_t steps = param<std::int64_t>("steps");
  ex::LmTrainer trainer(make_model(), {.learning_rate = param<double>("lr"),
                                       .warmup_steps = 10,
                                       .total_steps = steps,
                                       .batch_size = 8});
  const std::vector<double> losses = trainer.train(batch, steps);
  record_curve("loss", losses);
  record("final_loss", losses.back(), MustEqual, Exact{.scope = Scope::Numerics});
  EXPECT_TRUE(mlregress::checks::overfits(losses));
}

// Changing the tokens after position t must leave the logits at positions <= t bit-identical:
// the masked scores are exactly −inf, so the future adds exact zeros. Without the mask the model
// reads the answer, and every loss it reports is too good to be true.
ML_TEST(Fast, LmCausalMaskHidesTheFuture, {"causal", true}) {
  const std::int64_t t = kLength / 2;
  const torch::Tensor tokens = ex::sample_sequences(language(), 4, kLength);
  torch::Tensor changed = tokens.clone();
  changed.slice(1, t + 1, kLength).add_(1).remainder_(language().content_tokens);
  ex::TinyGpt model = make_model(param<bool>("causal"));
  torch::NoGradGuard no_grad;
  const double leak = max_abs_difference(model->forward(tokens).slice(1, 0, t + 1),
                                         model->forward(changed).slice(1, 0, t + 1));
  record("past_logits_moved_by_the_future", leak, MustEqual, Exact{.scope = Scope::Portable});
  EXPECT_EQ(leak, 0.0) << "logits at positions <= " << t << " changed when only later tokens did";
}

// Appending padding (masked as keys, ignored as targets) must leave the loss unchanged; a loss
// that counts padding rewards the model for predicting padding, and moves with batch shapes.
ML_TEST(Fast, LmPaddingLeavesTheLossUnchanged, {"loss_ignores_padding", true}) {
  const torch::Tensor tokens = ex::sample_sequences(language(), 4, kLength - 4);
  const torch::Tensor padded =
      torch::cat({tokens, torch::full({4, 4}, language().pad_token(), torch::kLong)}, 1);
  ex::TinyGpt model = make_model();
  torch::NoGradGuard no_grad;
  const double plain = ex::next_token_loss(model, tokens, language().pad_token()).item<double>();
  const double with_padding =
      ex::next_token_loss(model, padded, language().pad_token(),
                          /*count_ignored=*/!param<bool>("loss_ignores_padding"))
          .item<double>();
  const double relative = std::abs(with_padding - plain) / plain;
  // Longer rows change the kernels' blocking, so the last bits may differ; padding counted
  // changes the mean by far more than 1e-5.
  record("padding_shift_of_the_loss", relative, MustEqual, Band{.atol = 1e-5});
  EXPECT_LT(relative, 1e-5) << "loss " << plain << " became " << with_padding << " with padding";
}

// Generation returns exactly the requested number of new tokens, greedy or sampled, and stops
// right after the end token when one is given. length_offset plants an off-by-one in the caller.
ML_TEST(Fast, LmGenerationHonoursItsLength, {"length_offset", 0}) {
  ex::TinyGpt model = make_model();
  model->eval();
  const std::vector<std::int64_t> prompt = {1, 2, 3};
  const std::int64_t offset = param<std::int64_t>("length_offset");
  std::int64_t wrong_lengths = 0;
  for (const std::int64_t requested :
       {std::int64_t{1}, std::int64_t{5}, 2 * kLength}) {  // the last crops its context
    for (const double temperature : {0.0, 1.0}) {
      const auto produced = ex::generate(
          model, prompt, {.max_new_tokens = requested + offset, .temperature = temperature});
      wrong_lengths += static_cast<std::int64_t>(produced.size()) != requested;
    }
  }
  record("generations_of_a_wrong_length", static_cast<double>(wrong_lengths), MustEqual, Exact{});
  EXPECT_EQ(wrong_lengths, 0);

  // Stop at the end token: take the greedy continuation's third token as the end token; the
  // generation must end at its first occurrence, inclusive.
  const auto free_run = ex::generate(model, prompt, {.max_new_tokens = 8});
  ASSERT_EQ(free_run.size(), 8u);
  const std::int64_t end = free_run[2];
  const auto stopped =
      ex::generate(model, prompt, {.max_new_tokens = 8 + offset, .end_token = end});
  const auto first_end = std::find(free_run.begin(), free_run.end(), end);
  EXPECT_EQ(stopped, std::vector<std::int64_t>(free_run.begin(), first_end + 1));
}

// A checkpoint brings back the model, AdamW's moments and the schedule's step: evaluation after
// a load is exact, and training resumed from it is the uninterrupted training bit for bit. A
// checkpoint of another shape or a damaged file is an error naming the tensor or the file.
ML_TEST(Fast, LmCheckpointRoundTrip, {"resume_optimizer_state", true}) {
  const torch::Tensor data = ex::sample_sequences(language(), 64, kLength);
  record_dataset("language", ex::fingerprint(language(), data));
  const ex::LmTrainingOptions options{.total_steps = 40};
  ex::LmTrainer uninterrupted(make_model(), options);
  uninterrupted.train(data, 40);

  ex::LmTrainer first_half(make_model(), options);
  record_property("checkpoint", "model, AdamW moments and step (lm_checkpoint.h), at step 25");
  first_half.train(data, 25);
  const ex::TemporaryFile checkpoint("checkpoint.pt");
  ex::save_checkpoint(first_half, checkpoint.path);

  torch::manual_seed(seed() + 1);  // other initial weights, so the load must overwrite them all
  ex::LmTrainer resumed(ex::TinyGpt(first_half.model()->options()), options);
  ex::load_checkpoint(resumed, checkpoint.path,
                      {.optimizer = param<bool>("resume_optimizer_state")});
  EXPECT_EQ(ex::evaluate_loss(resumed.model(), data), ex::evaluate_loss(first_half.model(), data));
  // The losses after the resume, gated as a curve: without AdamW's moments the first updates
  // take other steps, and the curve leaves its band (the cause the gate names: optimisation).
  const std::int64_t resumed_at = resumed.steps_done();
  const std::vector<double> after_resume = resumed.train(data, 40);
  std::vector<std::int64_t> steps(after_resume.size());
  std::iota(steps.begin(), steps.end(), resumed_at);
  record_curve("loss_after_resume", steps, after_resume,
               CurvePolicy{.rtol = 0.01, .consecutive = 2, .direction = MustEqual});
  const double drift = max_parameter_difference(resumed.model(), uninterrupted.model());
  record("resumed_weights_off_uninterrupted", drift, MustEqual, Exact{.scope = Scope::Portable});
  EXPECT_EQ(drift, 0.0) << "training resumed at step 25 ended elsewhere than uninterrupted";

  auto other_shape = first_half.model()->options();
  other_shape.width = 48;
  ex::LmTrainer wider(ex::TinyGpt(other_shape), options);
  try {
    ex::load_checkpoint(wider, checkpoint.path);
    ADD_FAILURE() << "a checkpoint of width 32 loaded into a model of width 48";
  } catch (const ex::CheckpointError& error) {
    EXPECT_NE(std::string(error.what()).find("'token_embedding.weight' has shape [18, 32]"),
              std::string::npos)
        << error.what();
  }
  const ex::TemporaryFile damaged("damaged.pt");
  std::ofstream(damaged.path) << "not a checkpoint";
  EXPECT_THROW(ex::load_checkpoint(resumed, damaged.path), ex::CheckpointError);
}

// The recipe's schedule does what its configuration says: the warmup reaches the peak at step
// warmup_steps - 1 and not before, the rate never exceeds it, the cosine falls at every update
// and the last update runs at the floor (checks::check_schedule, runner/docs/checks.md#schedules).
// The rates are those the trainer hands AdamW for updates 0 .. total_steps - 1, so a scheduler
// advanced per example instead of per update fails here without training a step.
ML_TEST(Fast, LmScheduleDoesWhatItSays, {"lr", 2e-2}, {"warmup_steps", 20}, {"total_steps", 320},
        {"batch_size", 16}, {"schedule_counts_examples", false}) {
  const ex::LmTrainingOptions options{
      .learning_rate = param<double>("lr"),
      .warmup_steps = param<std::int64_t>("warmup_steps"),
      .total_steps = param<std::int64_t>("total_steps"),
      .batch_size = param<std::int64_t>("batch_size"),
      .schedule_counts_examples = param<bool>("schedule_counts_examples")};
  std::vector<double> rates;
  for (std::int64_t update = 0; update < options.total_steps; ++update) {
    rates.push_back(ex::scheduled_learning_rate(options, ex::schedule_step(options, update)));
  }
  const mlregress::checks::ScheduleCheck check = mlregress::checks::check_schedule(
      rates, {.peak = options.learning_rate,
              .warmup_steps = options.warmup_steps,
              .total_steps = options.total_steps,
              .floor = options.min_lr_fraction * options.learning_rate});
  mlregress::checks::record_schedule("schedule", check);
  EXPECT_TRUE(check);
}
