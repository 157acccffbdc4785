#include "mlregress/checks/finite.h"

#include <fmt/format.h>

namespace mlregress::checks {
namespace {

std::string shape_of(const torch::Tensor& t) {
  std::string out = "[";
  for (int64_t i = 0; i < t.dim(); ++i) out += fmt::format("{}{}", i ? ", " : "", t.size(i));
  return out + "]";
}

std::string index_of(const torch::Tensor& t, int64_t flat) {
  std::string out = "[";
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    const int64_t size = t.size(d);
    out.insert(1, fmt::format("{}{}", flat % size, d == t.dim() - 1 ? "" : ", "));
    flat /= size;
  }
  return out + "]";
}

}  // namespace

::testing::AssertionResult all_finite(const torch::Tensor& tensor, std::string_view name) {
  const torch::Tensor bad = torch::logical_not(torch::isfinite(tensor.detach())).reshape(-1);
  const int64_t count = bad.sum().item<int64_t>();
  if (count == 0) return ::testing::AssertionSuccess();
  const int64_t first = bad.nonzero().index({0, 0}).item<int64_t>();
  const double value = tensor.detach().reshape(-1)[first].item<double>();
  return ::testing::AssertionFailure() << fmt::format(
             "{} (shape {}, {}) has {} non-finite of {} elements; first at {} = {}", name,
             shape_of(tensor), std::string(c10::toString(tensor.scalar_type())), count,
             tensor.numel(), index_of(tensor, first), value);
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

::testing::AssertionResult parameters_identical(const torch::nn::Module& a, const torch::nn::Module& b) {
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
      return ::testing::AssertionFailure() << fmt::format(
                 "parameter {} {} {} vs {} {} {}", name, shape_of(x),
                 std::string(c10::toString(x.scalar_type())), pb[i].key(), shape_of(y),
                 std::string(c10::toString(y.scalar_type())));
    }
    if (torch::equal(x, y)) continue;
    const torch::Tensor diff = (x.detach() - y.detach()).abs().reshape(-1);
    const int64_t worst = diff.argmax().item<int64_t>();
    return ::testing::AssertionFailure() << fmt::format(
               "parameter {} (shape {}) differs: max abs difference {:.3g} at {} ({} vs {})", name,
               shape_of(x), diff[worst].item<double>(), index_of(x, worst),
               x.detach().reshape(-1)[worst].item<double>(), y.detach().reshape(-1)[worst].item<double>());
  }
  return ::testing::AssertionSuccess();
}

}  // namespace mlregress::checks
