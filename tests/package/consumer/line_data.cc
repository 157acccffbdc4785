#include "line_data.h"

std::pair<torch::Tensor, torch::Tensor> line_data() {
  torch::Tensor x = torch::linspace(-1.0, 1.0, 64).unsqueeze(1);
  torch::Tensor y = 3.0 * x + 0.5;
  return {x, y};
}
