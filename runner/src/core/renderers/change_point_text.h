// A change point in words, the same in every output that names one: history's text, the history
// page (its labels and its table of change points) and the report's history figures.
//
//   regression at 1a2b3c4d5e6f: 1 -> 2 (+100.0%, p=0.001)
//
// The outputs differ only where their readers already rely on it: history's text puts the kind
// last ("CHANGE at <commit>: <shift>: regression"), the page writes "→" for "->", and each names
// the commit its own way (12 digits, 7, or the page's link to its row of runs).
#pragma once

#include <string>
#include <string_view>

#include "statistics/change_points.h"
#include "storage/metric_history.h"

namespace mlregress::internal {

struct ChangePointWording {
  std::string_view commit;        ///< as the output names it (inserted as is)
  std::string_view arrow = "->";  ///< between the means
  bool kind_last = false;         ///< "CHANGE at <commit>: <shift>: <kind>"
};

/// "1 -> 2 (+100.0%, p=0.001)": the means either side, the relative change, the p-value. Numbers
/// only besides the arrow: nothing in it needs escaping in markup.
std::string change_point_shift(const stats::ChangePoint& point, std::string_view arrow = "->");

/// "regression at <commit>": where a chart marks the change point.
std::string change_point_place(const FoundChange& change, std::string_view commit);

/// The whole sentence: "<kind> at <commit>: <shift>", or with `kind_last`
/// "CHANGE at <commit>: <shift>: <kind>".
std::string change_point_sentence(const FoundChange& change, const ChangePointWording& wording);

}  // namespace mlregress::internal
