// Finite everything: a NaN or Inf in a loss, gradient or parameter is a bug until shown
// otherwise. These assertions name the tensor, how many entries are bad and the first one.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress::checks {

/// Where a tensor holds NaN or Inf: enough to find the element without a debugger.
struct NonFiniteTensor {
  std::string name;  ///< e.g. "loss", "gradient of 0.weight"
  std::vector<std::int64_t> shape;
  std::string dtype;
  std::int64_t non_finite_count = 0;
  std::int64_t element_count = 0;
  std::vector<std::int64_t> first_index;  ///< multi-dimensional index of the first bad element
  double first_value = 0.0;               ///< NaN, inf or -inf

  /// "gradient of 0.weight (shape [8, 1, 3, 3], Float) has 3 non-finite of 72 elements; ..."
  std::string describe() const;
};

/// The tensor's non-finite elements, or nullopt when all are finite (cheap in that case: one
/// reduction). Integer and boolean tensors are always finite.
std::optional<NonFiniteTensor> find_non_finite(const torch::Tensor& tensor, std::string_view name);

/// Every element of `tensor` is finite.
::testing::AssertionResult all_finite(const torch::Tensor& tensor, std::string_view name);

/// Every defined gradient of the module's parameters is finite.
::testing::AssertionResult gradients_finite(const torch::nn::Module& module);

/// Every parameter of the module is finite.
::testing::AssertionResult parameters_finite(const torch::nn::Module& module);

/// Same parameter names, shapes, dtypes and bit-identical values; otherwise names the first
/// parameter that differs, with its largest absolute difference and where it is.
::testing::AssertionResult parameters_identical(const torch::nn::Module& a,
                                                const torch::nn::Module& b);

}  // namespace mlregress::checks
