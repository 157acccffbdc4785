#include "renderers/change_point_text.h"

#include <fmt/format.h>

#include "support/number_format.h"

namespace mlregress::internal {

std::string change_point_shift(const stats::ChangePoint& point, std::string_view arrow) {
  return fmt::format("{} {} {} ({:+.1f}%, p={:.2g})", format_value(point.mean_before), arrow,
                     format_value(point.mean_after), 100.0 * point.relative_change, point.p_value);
}

std::string change_point_place(const FoundChange& change, std::string_view commit) {
  return fmt::format("{} at {}", change_kind_name(change.kind), commit);
}

std::string change_point_sentence(const FoundChange& change, const ChangePointWording& wording) {
  const std::string shift = change_point_shift(change.point, wording.arrow);
  if (wording.kind_last) {
    return fmt::format("CHANGE at {}: {}: {}", wording.commit, shift,
                       change_kind_name(change.kind));
  }
  return fmt::format("{}: {}", change_point_place(change, wording.commit), shift);
}

}  // namespace mlregress::internal
