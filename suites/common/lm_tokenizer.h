// A real tokenizer for the language model: the synthetic language rendered as text (each content
// token a four-letter word of two syllables) and a SentencePiece BPE model trained on it by the
// suite. SentencePiece runs in a process of its own, the mlregress_tokenizer tool
// (tokenizer_tool.cc): linked into a LibTorch binary its protobuf deadlocks or crashes LibTorch.
// The model file is what a run fingerprints (record_dataset_files), so a tokenizer retrained with
// another vocabulary makes the test's values NOT_COMPARABLE, naming it, instead of a silent
// regression.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace mlregress::examples {

/// A tokenizer model that cannot be trained, read or used, or a tool that cannot run; the
/// message names the file.
class TokenizerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The tokenizer tool this suite runs: $MLREGRESS_TOKENIZER_TOOL when set, else
/// mlregress_tokenizer in the folder of the running executable (where the build puts both).
std::string tokenizer_tool();

/// The SentencePiece version the tool was built with ("0.1.97"), for the run record.
std::string tokenizer_version();

/// "sentencepiece 0.1.97 bpe, 40 pieces": the tokenizer a test ran on, for record_property.
std::string describe_tokenizer(std::int64_t vocabulary_size);

/// One line of text per sequence [N, T] of content tokens: words separated by single spaces.
std::vector<std::string> render_text(const torch::Tensor& sequences);

/// Trains a BPE model of `vocabulary_size` pieces on `lines` and writes it to `path`. One thread
/// and no input file recorded in the model, so the same lines give the same bytes on every
/// machine with the same SentencePiece.
void train_tokenizer(const std::vector<std::string>& lines, int vocabulary_size,
                     const std::string& path);

class Tokenizer {
 public:
  /// Checks the model at `path`; TokenizerError naming it when it is missing or not a model.
  explicit Tokenizer(std::string path);

  /// One list of ids for each line, in one run of the tool.
  std::vector<std::vector<std::int64_t>> encode(const std::vector<std::string>& lines) const;
  std::vector<std::string> decode(const std::vector<std::vector<std::int64_t>>& ids) const;
  std::int64_t vocabulary_size() const { return vocabulary_size_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::int64_t vocabulary_size_ = 0;
};

/// Each line encoded and padded (or cut) to `length` ids with `pad` [lines, length] int64.
torch::Tensor encode_lines(const Tokenizer& tokenizer, const std::vector<std::string>& lines,
                           std::int64_t length, std::int64_t pad);

}  // namespace mlregress::examples
