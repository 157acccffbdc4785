// Real-sized text classifiers of the kinds teams adopt, freshly initialised as their code does:
// for the initial-loss check's survey (tests/benchmarks/initial_loss_survey.cc) and its tests.
// Tokens are ids in [0, kVocabulary) (the bag-of-embeddings model has its tutorial's 95,811).
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace mlregress::checks::test_models {

inline constexpr std::int64_t kVocabulary = 20000;

// Kim's TextCNN: embeddings (PyTorch's default N(0, 1)), filters of widths 3, 4 and 5, ReLU,
// max over time, dropout, one Linear layer.
struct TextCnnImpl : torch::nn::Module {
  explicit TextCnnImpl(std::int64_t classes)
      : embedding(register_module("embedding", torch::nn::Embedding(kVocabulary, 300))),
        conv3(register_module("conv3", torch::nn::Conv1d(300, 100, 3))),
        conv4(register_module("conv4", torch::nn::Conv1d(300, 100, 4))),
        conv5(register_module("conv5", torch::nn::Conv1d(300, 100, 5))),
        dropout(register_module("dropout", torch::nn::Dropout(0.5))),
        output(register_module("output", torch::nn::Linear(300, classes))) {}
  torch::Tensor forward(const torch::Tensor& tokens) {
    const torch::Tensor x = embedding(tokens).transpose(1, 2);  // [N, 300, T]
    std::vector<torch::Tensor> pooled;
    for (auto* conv : {&conv3, &conv4, &conv5}) {
      pooled.push_back(std::get<0>(torch::relu((*conv)(x)).max(2)));
    }
    return output(dropout(torch::cat(pooled, 1)));
  }
  torch::nn::Embedding embedding;
  torch::nn::Conv1d conv3, conv4, conv5;
  torch::nn::Dropout dropout;
  torch::nn::Linear output;
};
TORCH_MODULE(TextCnn);

// The bag-of-embeddings classifier of PyTorch's text-classification tutorial: mean of the
// tokens' embeddings, one Linear layer; weights uniform in [-0.5, 0.5], bias zero, as it sets.
struct EmbeddingBagClassifierImpl : torch::nn::Module {
  /// `sum_tokens` plants a bug: the bag sums its tokens' embeddings instead of averaging them.
  explicit EmbeddingBagClassifierImpl(std::int64_t classes, bool sum_tokens = false)
      : embedding(register_module(
            "embedding", torch::nn::EmbeddingBag(torch::nn::EmbeddingBagOptions(95811, 64).mode(
                             sum_tokens ? torch::nn::EmbeddingBagMode(torch::kSum)
                                        : torch::nn::EmbeddingBagMode(torch::kMean))))),
        output(register_module("output", torch::nn::Linear(64, classes))) {
    torch::NoGradGuard no_grad;
    embedding->weight.uniform_(-0.5, 0.5);
    output->weight.uniform_(-0.5, 0.5);
    output->bias.zero_();
  }
  torch::Tensor forward(const torch::Tensor& tokens) { return output(embedding(tokens)); }
  torch::nn::EmbeddingBag embedding;
  torch::nn::Linear output;
};
TORCH_MODULE(EmbeddingBagClassifier);

// Embeddings, a bidirectional LSTM, the last step of both directions, one Linear layer.
struct BiLstmClassifierImpl : torch::nn::Module {
  explicit BiLstmClassifierImpl(std::int64_t classes)
      : embedding(register_module("embedding", torch::nn::Embedding(kVocabulary, 128))),
        lstm(register_module(
            "lstm", torch::nn::LSTM(
                        torch::nn::LSTMOptions(128, 128).bidirectional(true).batch_first(true)))),
        output(register_module("output", torch::nn::Linear(256, classes))) {}
  torch::Tensor forward(const torch::Tensor& tokens) {
    const torch::Tensor h = std::get<0>(std::get<1>(lstm(embedding(tokens))));  // [2, N, 128]
    return output(torch::cat({h[0], h[1]}, 1));
  }
  torch::nn::Embedding embedding;
  torch::nn::LSTM lstm;
  torch::nn::Linear output;
};
TORCH_MODULE(BiLstmClassifier);

}  // namespace mlregress::checks::test_models
