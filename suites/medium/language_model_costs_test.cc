// The language model in the medium tier: what a step costs and whether its evaluation can be
// believed. Tokens/s is a timing (gated on the same environment profile, or across builds with
// `run --ab`); peak bytes, allocations and operators per step are exact counts per numerics
// profile, recorded at the test's sequence length and at twice it, so "double the sequence length
// and watch peak memory" is a figure and `--set LmStepCost.sequence_length=32` (the length doubled
// by mistake) is a REGRESSION naming the operators. Validation loss is held against the language's
// entropy bound: no model can beat it, so a loss below it means the evaluation leaks the answer.
#include <algorithm>
#include <cmath>
#include <iostream>

#include "lm_properties.h"
#include "lm_trainer.h"
#include "mlregress/mlregress.h"
#include "synthetic_language.h"
#include "tiny_gpt.h"

namespace {

namespace ex = mlregress::examples;

constexpr std::int64_t kBatch = 16;

ex::TinyGpt make_model(std::int64_t context, bool causal = true) {
  torch::manual_seed(mlregress::MlTest::seed());
  return ex::TinyGpt(ex::TinyGptOptions{
      .vocabulary = ex::SyntheticLanguage{}.vocabulary(), .context = context, .causal = causal});
}

struct StepCost {
  double peak_bytes = 0, allocations = 0, operators = 0;
  mlregress::Breakdown bytes_by_operator, allocations_by_operator, calls_by_operator;
};

// One steady-state training step (AdamW's state already made) at `length` tokens per sequence.
StepCost measure_step(std::int64_t length) {
  const torch::Tensor batch = ex::sample_sequences(ex::SyntheticLanguage{}, kBatch, length);
  ex::LmTrainer trainer(make_model(length), {});
  trainer.step(batch);
  mlregress::MemoryScope memory("training step");
  mlregress::OpCounter ops;
  trainer.step(batch);
  ops.stop();
  memory.stop();
  return {.peak_bytes = static_cast<double>(memory.stats().peak_bytes_above_start),
          .allocations = static_cast<double>(memory.stats().allocations),
          .operators = static_cast<double>(ops.total()),
          .bytes_by_operator = ops.breakdown(mlregress::BreakdownUnit::Bytes),
          .allocations_by_operator = ops.breakdown(mlregress::BreakdownUnit::Allocations),
          .calls_by_operator = ops.breakdown(mlregress::BreakdownUnit::Calls)};
}

// The exact per-token loss of the generating process itself on `data`: the best any model can do
// on these very tokens, and its standard error (the spread of per-token losses / sqrt(n)).
struct OracleLoss {
  double mean = 0, standard_error = 0;
};

OracleLoss oracle_loss(const ex::SyntheticLanguage& language, const torch::Tensor& data) {
  const double v = static_cast<double>(language.content_tokens);
  const double r = (1.0 - language.repeat_probability) / v;
  const double q = language.repeat_probability + r;
  const auto tokens = data.accessor<std::int64_t, 2>();
  double sum = 0, sum_of_squares = 0, n = 0;
  for (std::int64_t row = 0; row < data.size(0); ++row) {
    for (std::int64_t t = 1; t < data.size(1); ++t) {
      const double loss = t < language.distance                                  ? std::log(v)
                          : tokens[row][t] == tokens[row][t - language.distance] ? -std::log(q)
                                                                                 : -std::log(r);
      sum += loss;
      sum_of_squares += loss * loss;
      n += 1;
    }
  }
  const double mean = sum / n;
  return {mean, std::sqrt((sum_of_squares / n - mean * mean) / n)};
}

}  // namespace

ML_TIMING_TEST(Medium, LmTokensPerSecond, {"sequence_length", 16}) {
  const std::int64_t length = param<std::int64_t>("sequence_length");
  const torch::Tensor batch = ex::sample_sequences(ex::SyntheticLanguage{}, kBatch, length);
  ex::LmTrainer trainer(make_model(length), {});
  ex::record_language_model(trainer.model(), length);
  const mlregress::ThroughputResult result = mlregress::measure_throughput(
      "train_step", [&] { trainer.step(batch); },
      {.items_per_step = static_cast<double>(kBatch * length), .item_name = "tokens"});
  std::cout << result.describe() << std::endl;
  record_throughput("train_step", result);
  EXPECT_GT(result.median_items_per_s, 0.0);
}

ML_TEST(Medium, LmStepCost, {"sequence_length", 16}) {
  ASSERT_TRUE(mlregress::install_memory_tracker());
  const std::int64_t length = param<std::int64_t>("sequence_length");
  const StepCost at_length = measure_step(length);
  const StepCost at_double = measure_step(2 * length);
  ex::TinyGpt measured = make_model(length);
  ex::record_language_model(measured, length);
  const Exact per_profile{.scope = Scope::Numerics};
  record("peak_bytes_per_step", at_length.peak_bytes, LowerIsBetter, per_profile);
  record_breakdown("peak_bytes_per_step", at_length.bytes_by_operator);
  record("allocations_per_step", at_length.allocations, LowerIsBetter, per_profile);
  record_breakdown("allocations_per_step", at_length.allocations_by_operator);
  record("ops_per_step", at_length.operators, LowerIsBetter, per_profile);
  record_breakdown("ops_per_step", at_length.calls_by_operator);
  record("peak_bytes_per_step_at_double_length", at_double.peak_bytes, LowerIsBetter, per_profile);
  // Attention's scores grow with the square of the length, the rest linearly: between 2 and 4.
  const double growth = at_double.peak_bytes / at_length.peak_bytes;
  record("peak_bytes_growth_when_doubled", growth, MustEqual, per_profile);
  EXPECT_GT(growth, 1.5);
  EXPECT_LT(growth, 4.5);
}

// `train_length` below 16 plants a collate bug: every training sequence cut to that many tokens
// after loading (the dataset's fingerprint is unchanged), so the later positions never train.
ML_TEST(Medium, LmValidationLossRespectsTheEntropyBound, {"steps", 300}, {"causal", true},
        {"train_length", 16}) {
  const ex::SyntheticLanguage language;
  constexpr std::int64_t kLength = 16;
  const torch::Tensor train = ex::sample_sequences(language, 512, kLength);
  const torch::Tensor validation = ex::sample_sequences(language, 256, kLength);
  record_dataset("train", ex::fingerprint(language, train));
  record_dataset("validation", ex::fingerprint(language, validation));
  const std::int64_t steps = param<std::int64_t>("steps");
  const std::int64_t train_length = std::min(param<std::int64_t>("train_length"), kLength);
  ex::LmTrainer trainer(make_model(kLength, param<bool>("causal")), {.total_steps = steps});
  ex::record_language_model(trainer.model(), kLength);
  const std::vector<double> losses = trainer.train(
      train.index({torch::indexing::Slice(), torch::indexing::Slice(0, train_length)}), steps);
  record_curve("train_loss", losses);
  // Per token, where the language has a right answer (positions from d on: the token d back),
  // the trained model's next-token predictions, compared with the baseline's token by token
  // (McNemar on the tokens that flipped), sliced by the token's position and by whether it
  // repeats the token d back (the flips of a bug that hits late positions land in their slices).
  {
    torch::NoGradGuard no_grad;
    trainer.model()->eval();
    using torch::indexing::Slice;
    const std::int64_t d = language.distance;
    const torch::Tensor predicted =
        trainer.model()->forward(validation).argmax(-1).index({Slice(), Slice(d - 1, -1)});
    const torch::Tensor target = validation.index({Slice(), Slice(d, torch::indexing::None)});
    const torch::Tensor ids =
        (torch::arange(validation.size(0)).unsqueeze(1) * kLength + torch::arange(d, kLength))
            .reshape(-1);
    const torch::Tensor repeats = target == validation.index({Slice(), Slice(0, kLength - d)});
    record_predictions("next_token_from_d", ids, predicted.reshape(-1), target.reshape(-1),
                       {{"position", ids.remainder(kLength)},
                        {"repeats_d_back", repeats.reshape(-1).to(torch::kLong)}});
  }
  const double loss = ex::evaluate_loss(trainer.model(), validation);
  const OracleLoss best = oracle_loss(language, validation);
  const double bound = ex::entropy_bound(language, kLength, kLength);
  record("validation_loss", loss, LowerIsBetter, Exact{.scope = Scope::Numerics});
  record("validation_loss_over_oracle", loss - best.mean, LowerIsBetter,
         Exact{.scope = Scope::Numerics});
  std::cout << "validation loss " << loss << ", the generating process's own loss on these tokens "
            << best.mean << " (± " << best.standard_error << "), entropy bound " << bound
            << ", ln V " << std::log(static_cast<double>(language.content_tokens)) << std::endl;
  // Four standard errors below the oracle is out of reach for any model that does not see the
  // tokens it predicts.
  EXPECT_GT(loss, best.mean - 4 * best.standard_error)
      << "validation loss below what the language allows: the model sees what it predicts";
  EXPECT_LT(loss, std::log(static_cast<double>(language.content_tokens)))
      << "the model learned nothing of the language's long-range repeats";
}
