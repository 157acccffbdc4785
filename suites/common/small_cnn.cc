#include "small_cnn.h"

namespace mlregress::examples {

namespace nn = torch::nn;

nn::Sequential make_small_cnn(bool softmax_before_loss, std::int64_t resolution) {
  nn::Sequential model;
  model->push_back(nn::Conv2d(nn::Conv2dOptions(1, 8, 3).padding(1)));
  model->push_back(nn::ReLU());
  model->push_back(nn::MaxPool2d(2));
  model->push_back(nn::Conv2d(nn::Conv2dOptions(8, 16, 3).padding(1)));
  model->push_back(nn::ReLU());
  model->push_back(nn::MaxPool2d(2));
  model->push_back(nn::Flatten());
  const std::int64_t side = resolution / 4;  // two 2x2 max-pools
  model->push_back(nn::Linear(16 * side * side, kSmallCnnClasses));
  if (softmax_before_loss) model->push_back(nn::Softmax(1));
  return model;
}

Batch make_random_batch(std::int64_t examples, std::int64_t resolution) {
  Batch batch;
  batch.images = torch::randn({examples, 1, resolution, resolution});
  batch.labels = torch::randint(0, kSmallCnnClasses, {examples});
  return batch;
}

std::vector<double> train_on_batch(nn::Sequential& model, const Batch& batch, double lr,
                                   std::int64_t steps) {
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(lr));
  std::vector<double> losses;
  losses.reserve(static_cast<std::size_t>(steps));
  for (std::int64_t step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = nn::functional::cross_entropy(model->forward(batch.images), batch.labels);
    loss.backward();
    optimizer.step();
    losses.push_back(loss.item<double>());
  }
  return losses;
}

}  // namespace mlregress::examples
