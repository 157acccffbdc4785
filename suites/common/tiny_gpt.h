// The seeds' running example: a small GPT-style decoder-only transformer, written with LibTorch's
// C++ modules the way a team writes one: token and position embeddings, pre-norm blocks of causal
// self-attention and an MLP, a final layer norm and a linear head. Small enough (two blocks of
// width 32) that the fast tier trains it in well under a second.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace mlregress::examples {

struct TinyGptOptions {
  std::int64_t vocabulary = 18;  ///< output classes, special tokens included
  std::int64_t context = 16;     ///< the longest sequence the position embedding covers
  std::int64_t width = 32;
  std::int64_t heads = 2;
  std::int64_t layers = 2;
  /// How many positions (itself included) a position may attend to in each block; 0: all
  /// earlier ones. Blocks compose, so the model's context is layers · (window − 1) + 1 tokens
  /// (receptive_field); one shorter than the language's dependency distance cannot learn it (the
  /// context capability study).
  std::int64_t attention_window = 0;
  /// false plants the bug every sequence model must be guarded against: attention may look at
  /// later positions, so training and evaluation see the answer (very convincing numbers).
  bool causal = true;
};

/// The tokens back (the predicting one included) that reach a position's logits.
inline std::int64_t receptive_field(const TinyGptOptions& options) {
  return options.attention_window > 0 ? options.layers * (options.attention_window - 1) + 1
                                      : options.context;
}

/// One head group of causal self-attention: queries, keys and values from one projection.
class CausalSelfAttentionImpl : public torch::nn::Module {
 public:
  CausalSelfAttentionImpl(const TinyGptOptions& options);
  /// x [B, T, width]; `key_padding` [B, T] bool, true where a key is padding (never attended).
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& key_padding = {});

 private:
  std::int64_t heads_;
  bool causal_;
  std::int64_t window_;
  torch::nn::Linear qkv_{nullptr}, projection_{nullptr};
};
TORCH_MODULE(CausalSelfAttention);

class TransformerBlockImpl : public torch::nn::Module {
 public:
  TransformerBlockImpl(const TinyGptOptions& options);
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& key_padding = {});

 private:
  torch::nn::LayerNorm attention_norm_{nullptr}, mlp_norm_{nullptr};
  CausalSelfAttention attention_{nullptr};
  torch::nn::Sequential mlp_{nullptr};
};
TORCH_MODULE(TransformerBlock);

class TinyGptImpl : public torch::nn::Module {
 public:
  explicit TinyGptImpl(const TinyGptOptions& options);
  /// tokens [B, T] int64 with T <= context → logits [B, T, vocabulary]: position t's logits
  /// predict token t + 1.
  torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& key_padding = {});
  const TinyGptOptions& options() const { return options_; }

 private:
  TinyGptOptions options_;
  torch::nn::Embedding token_embedding_{nullptr}, position_embedding_{nullptr};
  torch::nn::ModuleList blocks_{nullptr};
  torch::nn::LayerNorm final_norm_{nullptr};
  torch::nn::Linear head_{nullptr};
};
TORCH_MODULE(TinyGpt);

/// Mean next-token cross-entropy of `tokens` [B, T]: logits at 0..T−2 against tokens 1..T−1.
/// Targets equal to `ignore_token` (padding) are left out of the mean unless `count_ignored`
/// plants the bug of counting them.
torch::Tensor next_token_loss(TinyGpt& model, const torch::Tensor& tokens,
                              std::optional<std::int64_t> ignore_token = std::nullopt,
                              bool count_ignored = false);

struct GenerationOptions {
  std::int64_t max_new_tokens = 8;
  std::optional<std::int64_t> end_token;  ///< stop after producing it (it is returned)
  double temperature = 0.0;               ///< 0: greedy; > 0: sampled from torch's global RNG
};

/// Continues `prompt` (a non-empty list of tokens), at most max_new_tokens new tokens, cropping
/// the model's input to its last `context` tokens; returns only the new tokens.
std::vector<std::int64_t> generate(TinyGpt& model, const std::vector<std::int64_t>& prompt,
                                   const GenerationOptions& options);

}  // namespace mlregress::examples
