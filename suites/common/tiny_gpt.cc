#include "tiny_gpt.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace mlregress::examples {

namespace nn = torch::nn;

CausalSelfAttentionImpl::CausalSelfAttentionImpl(const TinyGptOptions& options)
    : heads_(options.heads), causal_(options.causal), window_(options.attention_window) {
  qkv_ = register_module("qkv", nn::Linear(options.width, 3 * options.width));
  projection_ = register_module("projection", nn::Linear(options.width, options.width));
}

torch::Tensor CausalSelfAttentionImpl::forward(const torch::Tensor& x,
                                               const torch::Tensor& key_padding) {
  const std::int64_t batch = x.size(0), length = x.size(1), width = x.size(2);
  const std::int64_t head_width = width / heads_;
  // [B, T, 3·W] → three [B, heads, T, head_width]
  std::vector<torch::Tensor> qkv =
      qkv_(x).view({batch, length, 3, heads_, head_width}).permute({2, 0, 3, 1, 4}).unbind(0);
  torch::Tensor scores =
      torch::matmul(qkv[0], qkv[1].transpose(-2, -1)) / std::sqrt(static_cast<double>(head_width));
  const double hidden = -std::numeric_limits<double>::infinity();
  if (causal_) {
    const torch::Tensor future =
        torch::ones({length, length}, torch::kBool).triu(1);  // key after query
    scores = scores.masked_fill(future, hidden);
  }
  if (window_ > 0) {
    const torch::Tensor too_far =
        torch::ones({length, length}, torch::kBool).tril(-window_);  // key window or more back
    scores = scores.masked_fill(too_far, hidden);
  }
  if (key_padding.defined()) {
    scores = scores.masked_fill(key_padding.view({batch, 1, 1, length}), hidden);
  }
  const torch::Tensor attended = torch::matmul(torch::softmax(scores, -1), qkv[2]);
  return projection_(attended.transpose(1, 2).reshape({batch, length, width}));
}

TransformerBlockImpl::TransformerBlockImpl(const TinyGptOptions& options) {
  attention_norm_ =
      register_module("attention_norm", nn::LayerNorm(nn::LayerNormOptions({options.width})));
  attention_ = register_module("attention", CausalSelfAttention(options));
  mlp_norm_ = register_module("mlp_norm", nn::LayerNorm(nn::LayerNormOptions({options.width})));
  mlp_ = register_module("mlp",
                         nn::Sequential(nn::Linear(options.width, 4 * options.width), nn::GELU(),
                                        nn::Linear(4 * options.width, options.width)));
}

torch::Tensor TransformerBlockImpl::forward(const torch::Tensor& x,
                                            const torch::Tensor& key_padding) {
  const torch::Tensor h = x + attention_(attention_norm_(x), key_padding);
  return h + mlp_->forward(mlp_norm_(h));
}

TinyGptImpl::TinyGptImpl(const TinyGptOptions& options) : options_(options) {
  if (options.width % options.heads != 0) {
    throw std::invalid_argument("TinyGpt: width must be a multiple of heads");
  }
  token_embedding_ =
      register_module("token_embedding", nn::Embedding(options.vocabulary, options.width));
  position_embedding_ =
      register_module("position_embedding", nn::Embedding(options.context, options.width));
  blocks_ = register_module("blocks", nn::ModuleList());
  for (std::int64_t i = 0; i < options.layers; ++i) blocks_->push_back(TransformerBlock(options));
  final_norm_ = register_module("final_norm", nn::LayerNorm(nn::LayerNormOptions({options.width})));
  head_ = register_module("head", nn::Linear(options.width, options.vocabulary));
}

torch::Tensor TinyGptImpl::forward(const torch::Tensor& tokens, const torch::Tensor& key_padding) {
  const std::int64_t length = tokens.size(1);
  if (length > options_.context) {
    throw std::invalid_argument("TinyGpt: a sequence of " + std::to_string(length) +
                                " tokens is longer than the context of " +
                                std::to_string(options_.context));
  }
  torch::Tensor x = token_embedding_(tokens) + position_embedding_(torch::arange(length));
  for (const auto& block : *blocks_) x = block->as<TransformerBlock>()->forward(x, key_padding);
  return head_(final_norm_(x));
}

torch::Tensor next_token_loss(TinyGpt& model, const torch::Tensor& tokens,
                              std::optional<std::int64_t> ignore_token, bool count_ignored) {
  const std::int64_t length = tokens.size(1);
  torch::Tensor key_padding;
  if (ignore_token) key_padding = tokens.eq(*ignore_token);
  const torch::Tensor logits = model->forward(tokens, key_padding)
                                   .slice(1, 0, length - 1)
                                   .reshape({-1, model->options().vocabulary});
  const torch::Tensor targets = tokens.slice(1, 1, length).reshape({-1});
  auto options = nn::functional::CrossEntropyFuncOptions();
  if (ignore_token && !count_ignored) options.ignore_index(*ignore_token);
  return nn::functional::cross_entropy(logits, targets, options);
}

std::vector<std::int64_t> generate(TinyGpt& model, const std::vector<std::int64_t>& prompt,
                                   const GenerationOptions& options) {
  if (prompt.empty()) throw std::invalid_argument("generate: the prompt is empty");
  torch::NoGradGuard no_grad;
  std::vector<std::int64_t> sequence = prompt;
  std::vector<std::int64_t> produced;
  const std::int64_t context = model->options().context;
  while (static_cast<std::int64_t>(produced.size()) < options.max_new_tokens) {
    const std::int64_t start =
        std::max<std::int64_t>(0, static_cast<std::int64_t>(sequence.size()) - context);
    const torch::Tensor input =
        torch::tensor(std::vector<std::int64_t>(sequence.begin() + start, sequence.end()),
                      torch::kLong)
            .unsqueeze(0);
    const torch::Tensor last = model->forward(input).select(1, input.size(1) - 1).squeeze(0);
    const std::int64_t next =
        options.temperature > 0
            ? torch::multinomial(torch::softmax(last / options.temperature, -1), 1)
                  .item<std::int64_t>()
            : last.argmax().item<std::int64_t>();
    sequence.push_back(next);
    produced.push_back(next);
    if (options.end_token && next == *options.end_token) break;
  }
  return produced;
}

}  // namespace mlregress::examples
