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

/// How many elements of `tensor` are NaN or Inf (0 for an undefined, integer or boolean tensor).
std::int64_t count_non_finite(const torch::Tensor& tensor);

/// How many values of a series (a loss history, the losses of every step) are NaN or Inf.
std::int64_t count_non_finite(const std::vector<double>& values);

/// How many elements of the module's parameters and of their defined gradients are NaN or Inf.
std::int64_t count_non_finite(const torch::nn::Module& module);

/// The metric record_non_finite_count records.
inline constexpr const char* kNonFiniteCountMetric = "nonfinite_count";

/// Records a count of NaN and Inf values (count_non_finite, added up over what the test checks)
/// as the metric "nonfinite_count": lower is better, Exact with Portable scope (a count is the
/// same number on every machine), so one more than the baseline is a REGRESSION and one fewer
/// IMPROVED; a constraint such as `nonfinite_count <= 0` holds it to none. Inside a plain
/// ML_TEST (a seeded test records the count itself with a Margin); a negative count throws
/// std::invalid_argument.
///
///   std::int64_t bad = checks::count_non_finite(losses) + checks::count_non_finite(*model);
///   checks::record_non_finite_count(bad);
void record_non_finite_count(std::int64_t count);

/// Same parameter names, shapes, dtypes and bit-identical values; otherwise names the first
/// parameter that differs, with its largest absolute difference and where it is.
::testing::AssertionResult parameters_identical(const torch::nn::Module& a,
                                                const torch::nn::Module& b);

}  // namespace mlregress::checks
