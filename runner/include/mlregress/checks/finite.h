// Finite everything: a NaN or Inf in a loss, gradient or parameter is a bug until shown
// otherwise. These assertions name the tensor, how many entries are bad and the first one.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string_view>

namespace mlregress::checks {

/// Every element of `tensor` is finite.
::testing::AssertionResult all_finite(const torch::Tensor& tensor, std::string_view name);

/// Every defined gradient of the module's parameters is finite.
::testing::AssertionResult gradients_finite(const torch::nn::Module& module);

/// Every parameter of the module is finite.
::testing::AssertionResult parameters_finite(const torch::nn::Module& module);

/// Same parameter names, shapes, dtypes and bit-identical values; otherwise names the first
/// parameter that differs, with its largest absolute difference and where it is.
::testing::AssertionResult parameters_identical(const torch::nn::Module& a, const torch::nn::Module& b);

}  // namespace mlregress::checks
