// The seed's small CNN (suites/common/small_cnn.cc) and one Adam step on one batch, with the two
// planted changes the counters must catch: a doubled input resolution (more memory) and an extra
// ReLU (more operators). Shared by the counter tests and the observer-overhead benchmark.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <memory>

namespace mlregress::test_counters {

inline constexpr std::int64_t kClasses = 4;
inline constexpr std::int64_t kBatch = 8;

/// Which variant of the small CNN to build.
struct CnnVariant {
  std::int64_t resolution = 16;  ///< square input side; the seed's is 16
  bool extra_relu = false;       ///< a second (idempotent) ReLU after the first conv's ReLU
};

/// Conv(1->8) ReLU MaxPool Conv(8->16) ReLU MaxPool Flatten Linear, built in statement order.
inline torch::nn::Sequential make_cnn(const CnnVariant& variant) {
  namespace nn = torch::nn;
  nn::Sequential model;
  model->push_back(nn::Conv2d(nn::Conv2dOptions(1, 8, 3).padding(1)));
  model->push_back(nn::ReLU());
  if (variant.extra_relu) model->push_back(nn::ReLU());
  model->push_back(nn::MaxPool2d(2));
  model->push_back(nn::Conv2d(nn::Conv2dOptions(8, 16, 3).padding(1)));
  model->push_back(nn::ReLU());
  model->push_back(nn::MaxPool2d(2));
  model->push_back(nn::Flatten());
  const std::int64_t side = variant.resolution / 4;
  model->push_back(nn::Linear(16 * side * side, kClasses));
  return model;
}

/// A seeded model, its Adam optimizer and one random batch; step() is one training step.
class CnnTraining {
 public:
  explicit CnnTraining(const CnnVariant& variant = {}, std::uint64_t seed = 0) {
    torch::manual_seed(seed);
    model_ = make_cnn(variant);
    optimizer_ =
        std::make_unique<torch::optim::Adam>(model_->parameters(), torch::optim::AdamOptions(1e-3));
    images_ = torch::randn({kBatch, 1, variant.resolution, variant.resolution});
    labels_ = torch::randint(0, kClasses, {kBatch});
  }

  /// zero_grad, forward, cross-entropy, backward, Adam step; returns the loss.
  double step() {
    optimizer_->zero_grad();
    torch::Tensor loss = torch::nn::functional::cross_entropy(model_->forward(images_), labels_);
    loss.backward();
    optimizer_->step();
    return loss.item<double>();
  }

 private:
  torch::nn::Sequential model_{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer_;
  torch::Tensor images_;
  torch::Tensor labels_;
};

}  // namespace mlregress::test_counters
