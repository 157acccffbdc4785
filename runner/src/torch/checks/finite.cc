#include "mlregress/checks/finite.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "mlregress/ml_test.h"
#include "tensor_text.h"

namespace mlregress::checks {

using detail::index_text;
using detail::shape_text;
using detail::unravel_index;

std::string NonFiniteTensor::describe() const {
  return fmt::format("{} (shape {}, {}) has {} non-finite of {} elements; first at {} = {}", name,
                     shape_text(shape), dtype, non_finite_count, element_count,
                     index_text(first_index), first_value);
}

std::optional<NonFiniteTensor> find_non_finite(const torch::Tensor& tensor, std::string_view name) {
  if (!tensor.defined() || !tensor.is_floating_point()) return std::nullopt;
  const torch::Tensor values = tensor.detach();
  if (torch::isfinite(values).all().item<bool>()) return std::nullopt;
  const torch::Tensor bad = torch::logical_not(torch::isfinite(values)).reshape(-1);
  const std::int64_t first = bad.nonzero().index({0, 0}).item<std::int64_t>();
  NonFiniteTensor found;
  found.name = std::string(name);
  found.shape = values.sizes().vec();
  found.dtype = std::string(c10::toString(values.scalar_type()));
  found.non_finite_count = bad.sum().item<std::int64_t>();
  found.element_count = values.numel();
  found.first_index = unravel_index(values.sizes(), first);
  found.first_value = values.reshape(-1)[first].item<double>();
  return found;
}

std::int64_t count_non_finite(const torch::Tensor& tensor) {
  if (!tensor.defined() || !tensor.is_floating_point()) return 0;
  return torch::logical_not(torch::isfinite(tensor.detach())).sum().item<std::int64_t>();
}

std::int64_t count_non_finite(const std::vector<double>& values) {
  return static_cast<std::int64_t>(
      std::count_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }));
}

std::int64_t count_non_finite(const torch::nn::Module& module) {
  std::int64_t count = 0;
  for (const auto& item : module.named_parameters()) {
    count += count_non_finite(item.value());
    count += count_non_finite(item.value().grad());
  }
  return count;
}

void record_non_finite_count(std::int64_t count) {
  if (count < 0) {
    throw std::invalid_argument(
        fmt::format("record_non_finite_count: a count is not negative, not {}", count));
  }
  MlTest::record(kNonFiniteCountMetric, static_cast<double>(count), Direction::LowerIsBetter,
                 Exact{.scope = Scope::Portable});
}

::testing::AssertionResult all_finite(const torch::Tensor& tensor, std::string_view name) {
  const std::optional<NonFiniteTensor> bad = find_non_finite(tensor, name);
  if (!bad) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad->describe();
}

::testing::AssertionResult gradients_finite(const torch::nn::Module& module) {
  for (const auto& item : module.named_parameters()) {
    const torch::Tensor& grad = item.value().grad();
    if (!grad.defined()) continue;
    ::testing::AssertionResult result = all_finite(grad, "gradient of " + item.key());
    if (!result) return result;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult parameters_finite(const torch::nn::Module& module) {
  for (const auto& item : module.named_parameters()) {
    ::testing::AssertionResult result = all_finite(item.value(), "parameter " + item.key());
    if (!result) return result;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult parameters_identical(const torch::nn::Module& a,
                                                const torch::nn::Module& b) {
  const auto pa = a.named_parameters();
  const auto pb = b.named_parameters();
  if (pa.size() != pb.size()) {
    return ::testing::AssertionFailure()
           << fmt::format("modules have {} and {} parameters", pa.size(), pb.size());
  }
  for (std::size_t i = 0; i < pa.size(); ++i) {
    const std::string& name = pa[i].key();
    const torch::Tensor& x = pa[i].value();
    const torch::Tensor& y = pb[i].value();
    if (name != pb[i].key() || !x.sizes().equals(y.sizes()) || x.scalar_type() != y.scalar_type()) {
      return ::testing::AssertionFailure()
             << fmt::format("parameter {} {} {} vs {} {} {}", name, shape_text(x.sizes()),
                            std::string(c10::toString(x.scalar_type())), pb[i].key(),
                            shape_text(y.sizes()), std::string(c10::toString(y.scalar_type())));
    }
    if (torch::equal(x, y)) continue;
    const torch::Tensor diff = (x.detach() - y.detach()).abs().reshape(-1);
    const int64_t worst = diff.argmax().item<int64_t>();
    return ::testing::AssertionFailure() << fmt::format(
               "parameter {} (shape {}) differs: max abs difference {:.3g} at {} ({} vs {})", name,
               shape_text(x.sizes()), diff[worst].item<double>(),
               index_text(unravel_index(x.sizes(), worst)),
               x.detach().reshape(-1)[worst].item<double>(),
               y.detach().reshape(-1)[worst].item<double>());
  }
  return ::testing::AssertionSuccess();
}

}  // namespace mlregress::checks
