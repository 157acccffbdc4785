#include "lm_tokenizer.h"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <algorithm>
#include <array>
#include <fstream>

namespace mlregress::examples {
namespace {

// Two syllables a word, so that BPE has pieces to merge below the whole words.
constexpr std::array<const char*, 4> kSyllables = {"ka", "lo", "mi", "tu"};

std::string word_of(std::int64_t token) {
  return std::string(kSyllables[static_cast<std::size_t>(token / 4 % 4)]) +
         kSyllables[static_cast<std::size_t>(token % 4)];
}

class LineIterator : public sentencepiece::SentenceIterator {
 public:
  explicit LineIterator(const std::vector<std::string>& lines) : lines_(lines) {}
  bool done() const override { return next_ >= lines_.size(); }
  void Next() override { ++next_; }
  const std::string& value() const override { return lines_[next_]; }
  sentencepiece::util::Status status() const override { return {}; }

 private:
  const std::vector<std::string>& lines_;
  std::size_t next_ = 0;
};

}  // namespace

std::vector<std::string> render_text(const torch::Tensor& sequences) {
  const auto tokens = sequences.accessor<std::int64_t, 2>();
  std::vector<std::string> lines;
  for (std::int64_t row = 0; row < sequences.size(0); ++row) {
    std::string line;
    for (std::int64_t t = 0; t < sequences.size(1); ++t) {
      if (t > 0) line += ' ';
      line += word_of(tokens[row][t]);
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

void train_tokenizer(const std::vector<std::string>& lines, int vocabulary_size,
                     const std::string& path) {
  LineIterator input(lines);
  std::string model;
  const auto status = sentencepiece::SentencePieceTrainer::Train(
      "--model_type=bpe --vocab_size=" + std::to_string(vocabulary_size) +
          " --character_coverage=1.0 --num_threads=1 --minloglevel=2",
      &input, &model);
  if (!status.ok()) {
    throw TokenizerError(path + ": training a tokenizer of " + std::to_string(vocabulary_size) +
                         " pieces failed: " + status.ToString());
  }
  std::ofstream out(path, std::ios::binary);
  out.write(model.data(), static_cast<std::streamsize>(model.size()));
  if (!out.flush()) throw TokenizerError(path + ": cannot write the tokenizer model");
}

struct Tokenizer::Model {
  sentencepiece::SentencePieceProcessor processor;
};

Tokenizer::Tokenizer(const std::string& path) : model_(std::make_unique<Model>()), path_(path) {
  const auto status = model_->processor.Load(path);
  if (!status.ok()) {
    throw TokenizerError(path + ": not a readable tokenizer model (" + status.ToString() + ")");
  }
}

Tokenizer::~Tokenizer() = default;

std::vector<std::int64_t> Tokenizer::encode(const std::string& text) const {
  std::vector<int> ids;
  const auto status = model_->processor.Encode(text, &ids);
  if (!status.ok()) throw TokenizerError(path_ + ": cannot encode: " + status.ToString());
  return {ids.begin(), ids.end()};
}

std::string Tokenizer::decode(const std::vector<std::int64_t>& ids) const {
  std::string text;
  const auto status = model_->processor.Decode(std::vector<int>(ids.begin(), ids.end()), &text);
  if (!status.ok()) throw TokenizerError(path_ + ": cannot decode: " + status.ToString());
  return text;
}

std::int64_t Tokenizer::vocabulary_size() const { return model_->processor.GetPieceSize(); }

torch::Tensor encode_lines(const Tokenizer& tokenizer, const std::vector<std::string>& lines,
                           std::int64_t length, std::int64_t pad) {
  torch::Tensor out =
      torch::full({static_cast<std::int64_t>(lines.size()), length}, pad, torch::kLong);
  auto rows = out.accessor<std::int64_t, 2>();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::vector<std::int64_t> ids = tokenizer.encode(lines[i]);
    const std::size_t kept = std::min<std::size_t>(ids.size(), static_cast<std::size_t>(length));
    for (std::size_t t = 0; t < kept; ++t)
      rows[static_cast<std::int64_t>(i)][static_cast<std::int64_t>(t)] = ids[t];
  }
  return out;
}

}  // namespace mlregress::examples
