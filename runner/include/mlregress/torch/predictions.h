// record_predictions() with tensors: ids, predicted and target classes as 1-D integer tensors
// on any device, e.g.
//   record_predictions("eval", torch::arange(n), logits.argmax(1), labels);
// and with per-example attributes, 1-D tensors of any numeric dtype (NaN: no value), e.g.
//   record_predictions("eval", ids, logits.argmax(1), labels, {{"length", lengths}});
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "mlregress/ml_test.h"

namespace mlregress {

template <>
struct ClassIndices<torch::Tensor> {
  static std::vector<std::int64_t> to_vector(const torch::Tensor& tensor) {
    if (tensor.dim() != 1 || tensor.is_floating_point() || tensor.is_complex()) {
      throw std::invalid_argument(
          "record_predictions: ids and classes must be 1-D integer tensors (got " +
          std::to_string(tensor.dim()) + "-D " + std::string(c10::toString(tensor.scalar_type())) +
          ")");
    }
    const torch::Tensor values = tensor.to(torch::kCPU, torch::kLong).contiguous();
    const std::int64_t* data = values.data_ptr<std::int64_t>();
    return {data, data + values.numel()};
  }
};

template <>
struct ExampleValues<torch::Tensor> {
  static std::vector<double> to_vector(const torch::Tensor& tensor) {
    if (tensor.dim() != 1 || tensor.is_complex() || tensor.scalar_type() == torch::kBool) {
      throw std::invalid_argument(
          "record_predictions: an attribute must be a 1-D numeric tensor (got " +
          std::to_string(tensor.dim()) + "-D " + std::string(c10::toString(tensor.scalar_type())) +
          ")");
    }
    const torch::Tensor values = tensor.to(torch::kCPU, torch::kDouble).contiguous();
    const double* data = values.data_ptr<double>();
    return {data, data + values.numel()};
  }
};

}  // namespace mlregress
