// Bitwise comparison of tensors for the checks that promise "same bits": NaN equals NaN with
// the same payload, -0.0 differs from 0.0. Private to the checks.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <optional>

namespace mlregress::checks::detail {

/// Flat (row-major) index of the first element whose bytes differ; nullopt when every byte is
/// equal. The tensors must have the same shape and dtype.
std::optional<std::int64_t> first_bitwise_difference(const torch::Tensor& a,
                                                     const torch::Tensor& b);

/// max |a - b| in double; NaN when a difference involves NaN; 0 for empty tensors.
double max_abs_difference(const torch::Tensor& a, const torch::Tensor& b);

}  // namespace mlregress::checks::detail
