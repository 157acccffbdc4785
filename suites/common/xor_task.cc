#include "xor_task.h"

namespace mlregress::examples {

namespace nn = torch::nn;

LabeledPoints make_xor_quadrants(std::int64_t n) {
  LabeledPoints data;
  data.inputs = torch::randn({n, 2}) * 0.5;
  data.labels = (data.inputs.select(1, 0) * data.inputs.select(1, 1) > 0).to(torch::kLong);
  data.inputs = data.inputs + torch::randn({n, 2}) * 0.1;
  return data;
}

nn::Sequential make_xor_mlp(std::int64_t width, std::int64_t depth) {
  nn::Sequential model;
  std::int64_t in_features = 2;
  for (std::int64_t layer = 0; layer < depth; ++layer) {
    model->push_back(nn::Linear(in_features, width));
    model->push_back(nn::ReLU());
    in_features = width;
  }
  model->push_back(nn::Linear(in_features, 2));
  return model;
}

std::vector<double> train_minibatches(nn::Sequential& model, const LabeledPoints& data, double lr,
                                      std::int64_t steps, std::int64_t batch_size, bool adam) {
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  if (adam) {
    optimizer =
        std::make_unique<torch::optim::Adam>(model->parameters(), torch::optim::AdamOptions(lr));
  } else {
    optimizer =
        std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(lr));
  }
  std::vector<double> losses;
  losses.reserve(static_cast<std::size_t>(steps));
  const std::int64_t n = data.inputs.size(0);
  for (std::int64_t step = 0; step < steps; ++step) {
    const torch::Tensor idx = torch::randint(0, n, {batch_size});
    optimizer->zero_grad();
    torch::Tensor loss = nn::functional::cross_entropy(
        model->forward(data.inputs.index_select(0, idx)), data.labels.index_select(0, idx));
    loss.backward();
    optimizer->step();
    losses.push_back(loss.item<double>());
  }
  return losses;
}

torch::Tensor predict_classes(nn::Sequential& model, const torch::Tensor& inputs) {
  torch::NoGradGuard no_grad;
  return model->forward(inputs).argmax(1);
}

}  // namespace mlregress::examples
