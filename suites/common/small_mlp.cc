#include "small_mlp.h"

namespace mlregress::examples {

namespace nn = torch::nn;

nn::Sequential make_small_mlp(std::int64_t hidden, std::int64_t depth) {
  nn::Sequential model;
  std::int64_t inputs = kSmallMlpInputs;
  for (std::int64_t layer = 0; layer < depth; ++layer) {
    model->push_back(nn::Linear(inputs, hidden));
    model->push_back(nn::ReLU());
    inputs = hidden;
  }
  model->push_back(nn::Linear(inputs, kSmallMlpClasses));
  return model;
}

Batch make_random_mlp_batch(std::int64_t examples) {
  Batch batch;
  batch.images = torch::randn({examples, kSmallMlpInputs});
  batch.labels = torch::randint(0, kSmallMlpClasses, {examples});
  return batch;
}

}  // namespace mlregress::examples
