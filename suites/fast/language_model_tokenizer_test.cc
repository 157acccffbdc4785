// The language model's tokenizer in the fast tier: a SentencePiece BPE model trained by the test
// on the synthetic language rendered as text (lm_tokenizer.h). Its model file is fingerprinted
// with record_dataset, so `--set LmTokenizerRoundTrip.vocabulary_size=48` (the tokenizer retrained
// with another vocabulary) makes every value of the test NOT_COMPARABLE, naming `tokenizer`,
// instead of comparing token counts of two different tokenizers.
#include <fstream>
#include <string>

#include "lm_tokenizer.h"
#include "mlregress/mlregress.h"
#include "synthetic_language.h"
#include "temporary_file.h"

namespace ex = mlregress::examples;

// Decoding what was encoded gives the text back, line for line; the vocabulary has the size it
// was trained for; a missing or damaged model file is a TokenizerError naming the file.
ML_TEST(Fast, LmTokenizerRoundTrip, {"vocabulary_size", 40}) {
  const ex::SyntheticLanguage language;
  const std::vector<std::string> corpus = ex::render_text(ex::sample_sequences(language, 300, 16));
  const std::vector<std::string> held_out = ex::render_text(ex::sample_sequences(language, 20, 16));
  const ex::TemporaryFile model("tokenizer.model");
  ex::train_tokenizer(corpus, static_cast<int>(param<std::int64_t>("vocabulary_size")), model.path);
  record_dataset_files("tokenizer", {model.path});
  const ex::Tokenizer tokenizer(model.path);

  std::int64_t failures = 0, tokens = 0;
  for (const std::string& line : held_out) {
    const std::vector<std::int64_t> ids = tokenizer.encode(line);
    tokens += static_cast<std::int64_t>(ids.size());
    if (tokenizer.decode(ids) != line) ++failures;
  }
  record("round_trip_failures", static_cast<double>(failures), MustEqual, Exact{});
  record("vocabulary_size", static_cast<double>(tokenizer.vocabulary_size()), MustEqual, Exact{});
  record("tokens_of_held_out_text", static_cast<double>(tokens), MustEqual, Exact{});
  EXPECT_EQ(failures, 0) << "decode(encode(text)) != text";
  EXPECT_EQ(tokenizer.vocabulary_size(), param<std::int64_t>("vocabulary_size"));

  try {
    const ex::Tokenizer missing(model.path + ".missing");
    ADD_FAILURE() << "a missing tokenizer model loaded";
  } catch (const ex::TokenizerError& error) {
    EXPECT_NE(std::string(error.what()).find(model.path + ".missing"), std::string::npos)
        << error.what();
  }
  const ex::TemporaryFile damaged("damaged.model");
  std::ofstream(damaged.path) << "not a tokenizer model";
  EXPECT_THROW(ex::Tokenizer{damaged.path}, ex::TokenizerError);
}
