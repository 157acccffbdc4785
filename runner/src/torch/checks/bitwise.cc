#include "bitwise.h"

#include <cstring>

namespace mlregress::checks::detail {

std::optional<std::int64_t> first_bitwise_difference(const torch::Tensor& a,
                                                     const torch::Tensor& b) {
  TORCH_INTERNAL_ASSERT(a.sizes().equals(b.sizes()) && a.scalar_type() == b.scalar_type(),
                        "first_bitwise_difference: shapes or dtypes differ");
  const torch::Tensor x = a.detach().to(torch::kCPU).contiguous();
  const torch::Tensor y = b.detach().to(torch::kCPU).contiguous();
  const auto* px = static_cast<const unsigned char*>(x.data_ptr());
  const auto* py = static_cast<const unsigned char*>(y.data_ptr());
  const auto element = static_cast<std::size_t>(x.element_size());
  const auto count = static_cast<std::size_t>(x.numel());
  if (count == 0 || std::memcmp(px, py, count * element) == 0) return std::nullopt;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::memcmp(px + i * element, py + i * element, element) != 0) {
      return static_cast<std::int64_t>(i);
    }
  }
  return std::nullopt;  // unreachable: the whole-buffer memcmp found a difference
}

double max_abs_difference(const torch::Tensor& a, const torch::Tensor& b) {
  if (a.numel() == 0) return 0.0;
  torch::NoGradGuard no_grad;
  const torch::Tensor diff =
      (a.detach().to(torch::kFloat64) - b.detach().to(torch::kFloat64)).abs();
  if (diff.isnan().any().item<bool>()) return std::numeric_limits<double>::quiet_NaN();
  return diff.max().item<double>();
}

}  // namespace mlregress::checks::detail
