// Numbers as people read them in reports and notes: the comparator writes them into its
// tolerances and notes, the reporters into every line they print.
#pragma once

#include <string>

namespace mlregress::internal {

/// Up to 6 significant digits, "nan", "inf", "-inf".
std::string format_value(double value);

}  // namespace mlregress::internal
