// What a test records: named scalar metrics with a direction and a tolerance policy, and curves
// (a named series by step). Baseline comparison reads the direction and policy; the test only
// states them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mlregress {

/// Which way is worse. MustEqual metrics regress on any change.
enum class Direction { LowerIsBetter, HigherIsBetter, MustEqual };

inline constexpr Direction LowerIsBetter = Direction::LowerIsBetter;
inline constexpr Direction HigherIsBetter = Direction::HigherIsBetter;
inline constexpr Direction MustEqual = Direction::MustEqual;

/// "lower_is_better", "higher_is_better", "must_equal".
std::string_view direction_name(Direction direction);
std::optional<Direction> parse_direction(std::string_view text);

/// Tolerance band |observed - baseline| <= atol + rtol * |baseline|, applied in the bad direction.
/// Example: Band{.rtol = 0.5, .atol = 1e-3}.
struct Band {
  double rtol = 0.0;
  double atol = 0.0;
  friend bool operator==(const Band&, const Band&) = default;
};

/// Bit-for-bit equality with the baseline (deterministic values on the same environment).
struct Exact {
  friend bool operator==(const Exact&, const Exact&) = default;
};

/// No policy stated: the comparator's default applies.
using TolerancePolicy = std::variant<std::monostate, Band, Exact>;

struct MetricRecord {
  std::string name;
  double value = 0.0;
  Direction direction = Direction::LowerIsBetter;
  TolerancePolicy policy;
};

struct CurveRecord {
  std::string name;
  std::vector<std::int64_t> steps;
  std::vector<double> values;
};

}  // namespace mlregress
