#include "mlregress/metric.h"

namespace mlregress {

std::string_view direction_name(Direction direction) {
  switch (direction) {
    case Direction::LowerIsBetter:
      return "lower_is_better";
    case Direction::HigherIsBetter:
      return "higher_is_better";
    case Direction::MustEqual:
      return "must_equal";
  }
  return "unknown";
}

std::optional<Direction> parse_direction(std::string_view text) {
  for (Direction d : {Direction::LowerIsBetter, Direction::HigherIsBetter, Direction::MustEqual}) {
    if (text == direction_name(d)) return d;
  }
  return std::nullopt;
}

}  // namespace mlregress
