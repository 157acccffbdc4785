#include "support/number_format.h"

#include <fmt/format.h>

#include <cmath>

namespace mlregress::internal {

std::string format_value(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{:.6g}", value);
}

}  // namespace mlregress::internal
