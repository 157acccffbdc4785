// The language model trained on tokenized text (medium tier): the synthetic language rendered as
// words and tokenized by a SentencePiece model the test trains (lm_tokenizer.h).
#include <string>
#include <vector>

#include "lm_properties.h"
#include "lm_tokenizer.h"
#include "lm_trainer.h"
#include "mlregress/mlregress.h"
#include "synthetic_language.h"
#include "temporary_file.h"
#include "tiny_gpt.h"

namespace ex = mlregress::examples;

namespace {

// The first `rows` rows of a batch of token ids as the model receives them, decoded (one run of
// the tokenizer): the text the inputs say, and beside it the text its targets say (the same row
// one token on, padding dropped). A tokenizer that mangles words, or targets not shifted, shows.
mlregress::BatchView decoded_rows(const ex::Tokenizer& tokenizer, const torch::Tensor& batch,
                                  std::int64_t pad, std::int64_t rows) {
  const torch::Tensor ids = batch.slice(0, 0, rows).to(torch::kCPU, torch::kLong).contiguous();
  std::vector<std::vector<std::int64_t>> lists;
  for (std::int64_t r = 0; r < ids.size(0); ++r) {
    std::vector<std::int64_t> row;
    for (std::int64_t t = 0; t < ids.size(1); ++t) {
      const auto id = ids[r][t].item<std::int64_t>();
      if (id != pad) row.push_back(id);
    }
    lists.push_back(std::vector<std::int64_t>(row.begin(), row.end() - (row.empty() ? 0 : 1)));
    lists.push_back(std::vector<std::int64_t>(row.begin() + (row.empty() ? 0 : 1), row.end()));
  }
  const std::vector<std::string> decoded = tokenizer.decode(lists);
  std::vector<std::string> inputs, targets;
  for (std::size_t i = 0; i + 1 < decoded.size(); i += 2) {
    inputs.push_back(decoded[i]);
    targets.push_back("→ " + decoded[i + 1]);
  }
  return mlregress::text_batch(inputs, targets, rows);
}

}  // namespace

// The same model trained on tokenized text: the language rendered as words, tokenized by a
// SentencePiece model trained here, padded to 16 ids. The tokenizer's file is fingerprinted, so
// --set LmTrainsOnTokenizedText.vocabulary_size=48 (a retrained tokenizer that merges some word
// pairs) makes the losses NOT_COMPARABLE, naming `tokenizer`: the "same tokenizer?" question.
ML_TEST(Medium, LmTrainsOnTokenizedText, {"vocabulary_size", 40}, {"steps", 300}) {
  const ex::SyntheticLanguage language;
  constexpr std::int64_t kLength = 16;
  const std::vector<std::string> train_text =
      ex::render_text(ex::sample_sequences(language, 512, kLength));
  const std::vector<std::string> validation_text =
      ex::render_text(ex::sample_sequences(language, 256, kLength));
  const ex::TemporaryFile model("tokenizer.model");
  ex::train_tokenizer(train_text, static_cast<int>(param<std::int64_t>("vocabulary_size")),
                      model.path);
  record_dataset_files("tokenizer", {model.path});
  const ex::Tokenizer tokenizer(model.path);
  const std::int64_t pad = tokenizer.vocabulary_size();
  const torch::Tensor train = ex::encode_lines(tokenizer, train_text, kLength, pad);
  const torch::Tensor validation = ex::encode_lines(tokenizer, validation_text, kLength, pad);

  torch::manual_seed(seed());
  ex::TinyGpt gpt(ex::TinyGptOptions{.vocabulary = pad + 1, .context = kLength});
  ex::record_language_model(gpt, kLength);
  record_property("tokenizer", ex::describe_tokenizer(tokenizer.vocabulary_size()));
  // The first batch as the model receives it: 8 rows, decoded, each beside its target.
  record_batch("tokens", decoded_rows(tokenizer, train.slice(0, 0, 16), pad, 8));
  const std::int64_t steps = param<std::int64_t>("steps");
  ex::LmTrainer trainer(gpt, {.total_steps = steps});
  std::vector<double> losses;
  for (std::int64_t step = 0; step < steps; ++step) {
    const torch::Tensor rows =
        torch::arange(step * 16, (step + 1) * 16, torch::kLong).remainder(train.size(0));
    losses.push_back(trainer.step(train.index_select(0, rows), pad));
  }
  record_curve("train_loss", losses);
  torch::NoGradGuard no_grad;
  trainer.model()->eval();
  const double loss = ex::next_token_loss(trainer.model(), validation, pad).item<double>();
  record("validation_loss", loss, LowerIsBetter, Exact{.scope = Scope::Numerics});
  record("vocabulary_size", static_cast<double>(tokenizer.vocabulary_size()), MustEqual, Exact{});
  EXPECT_LT(loss, losses.front()) << "no progress on tokenized text";
}
