// A real tokenizer for the language model: the synthetic language rendered as text (each content
// token a four-letter word of two syllables) and a SentencePiece BPE model trained on it by the
// suite. The model file is what a run fingerprints (record_dataset), so a tokenizer retrained with
// another vocabulary makes the test's values NOT_COMPARABLE, naming it, instead of a silent
// regression. SentencePiece stays behind this header: the tests see only the Tokenizer.
#pragma once

#include <torch/torch.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mlregress::examples {

/// A tokenizer model that cannot be trained, read or used; the message names the file.
class TokenizerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One line of text per sequence [N, T] of content tokens: words separated by single spaces.
std::vector<std::string> render_text(const torch::Tensor& sequences);

/// Trains a BPE model of `vocabulary_size` pieces on `lines` and writes it to `path`. One thread
/// and no input file recorded in the model, so the same lines give the same bytes on every
/// machine with the same SentencePiece.
void train_tokenizer(const std::vector<std::string>& lines, int vocabulary_size,
                     const std::string& path);

class Tokenizer {
 public:
  /// Loads the model at `path`; TokenizerError naming it when it is missing or not a model.
  explicit Tokenizer(const std::string& path);
  ~Tokenizer();
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  std::vector<std::int64_t> encode(const std::string& text) const;
  std::string decode(const std::vector<std::int64_t>& ids) const;
  std::int64_t vocabulary_size() const;
  const std::string& path() const { return path_; }

 private:
  struct Model;
  std::unique_ptr<Model> model_;
  std::string path_;
};

/// Each line encoded and padded (or cut) to `length` ids with `pad` [lines, length] int64.
torch::Tensor encode_lines(const Tokenizer& tokenizer, const std::vector<std::string>& lines,
                           std::int64_t length, std::int64_t pad);

}  // namespace mlregress::examples
