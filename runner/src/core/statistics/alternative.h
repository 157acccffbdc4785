// Which side of the null hypothesis a test looks at. Every test in this folder compares a first
// sample x with a second sample y (paired tests: the differences x - y), as SciPy does: kLess
// means "H1: x is smaller than y", kGreater "H1: x is larger than y". The gate maps candidate,
// baseline and the metric's direction onto this; nothing here knows which way is better.
#pragma once

#include <string_view>

namespace mlregress::internal::stats {

enum class Alternative { kTwoSided, kLess, kGreater };

/// "two-sided", "less", "greater" (SciPy's spelling).
constexpr std::string_view alternative_name(Alternative alternative) {
  switch (alternative) {
    case Alternative::kTwoSided:
      return "two-sided";
    case Alternative::kLess:
      return "less";
    case Alternative::kGreater:
      return "greater";
  }
  return "?";
}

}  // namespace mlregress::internal::stats
