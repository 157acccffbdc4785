#include "support/number_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mlregress::internal {

std::string format_value(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{:.6g}", value);
}

std::string format_level_percent(double level) {
  const double complement = 100.0 * (1.0 - level);
  if (!(complement > 0.0)) return "100";
  // Two significant digits of the distance to 100%; trailing zeros dropped below.
  const int decimals = std::max(0, static_cast<int>(std::floor(-std::log10(complement))) + 2);
  std::string text = fmt::format("{:.{}f}", 100.0 * level, decimals);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

}  // namespace mlregress::internal
