// The language model's tokenizer in the fast tier: a SentencePiece BPE model trained by the test
// on the synthetic language rendered as text (lm_tokenizer.h, run as the mlregress_tokenizer
// tool). Its model file is fingerprinted with record_dataset_files, so
// `--set LmTokenizerRoundTrip.vocabulary_size=48` (the tokenizer retrained with another
// vocabulary) makes every value of the test NOT_COMPARABLE, naming `tokenizer`, instead of
// comparing token counts of two different tokenizers.
#include <fstream>
#include <string>

#include "lm_tokenizer.h"
#include "mlregress/mlregress.h"
#include "synthetic_language.h"
#include "temporary_file.h"

namespace ex = mlregress::examples;

namespace {

// The TokenizerError `load` throws, or "" when it loads.
std::string load_error(const std::string& path) {
  try {
    const ex::Tokenizer tokenizer(path);
    return "";
  } catch (const ex::TokenizerError& error) {
    return error.what();
  }
}

}  // namespace

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
  record_property("tokenizer", ex::describe_tokenizer(tokenizer.vocabulary_size()));

  const std::vector<std::vector<std::int64_t>> ids = tokenizer.encode(held_out);
  const std::vector<std::string> decoded = tokenizer.decode(ids);
  ASSERT_EQ(decoded.size(), held_out.size());
  std::int64_t failures = 0, tokens = 0;
  for (std::size_t i = 0; i < held_out.size(); ++i) {
    tokens += static_cast<std::int64_t>(ids[i].size());
    if (decoded[i] != held_out[i]) ++failures;
  }
  record("round_trip_failures", static_cast<double>(failures), MustEqual, Exact{});
  record("vocabulary_size", static_cast<double>(tokenizer.vocabulary_size()), MustEqual, Exact{});
  record("tokens_of_held_out_text", static_cast<double>(tokens), MustEqual, Exact{});
  EXPECT_EQ(failures, 0) << "decode(encode(text)) != text";
  EXPECT_EQ(tokenizer.vocabulary_size(), param<std::int64_t>("vocabulary_size"));

  const std::string missing = model.path + ".missing";
  EXPECT_NE(load_error(missing).find(missing), std::string::npos) << load_error(missing);
  const ex::TemporaryFile damaged("damaged.model");
  std::ofstream(damaged.path) << "not a tokenizer model";
  EXPECT_NE(load_error(damaged.path).find(damaged.path), std::string::npos)
      << load_error(damaged.path);
}
