// Numbers as people read them in reports and notes: the comparator writes them into its
// tolerances and notes, the reporters into every line they print.
#pragma once

#include <string>

namespace mlregress::internal {

/// Up to 6 significant digits, "nan", "inf", "-inf".
std::string format_value(double value);

/// A confidence level as a percentage with enough decimals to tell it from 100: 0.95 → "95",
/// 0.9849 → "98.5", 0.99992 → "99.992", 0.9999996 → "99.99996"; 1 and above → "100".
std::string format_level_percent(double level);

}  // namespace mlregress::internal
