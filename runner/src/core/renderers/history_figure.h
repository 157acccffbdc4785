// A metric's history as a chart: the per-commit means in commit order, the first change point
// marked, every change point named in the caption. The report's History section (report
// --history, run --baseline-history) shows one per metric; `history --format html` draws its
// own small multiples (renderers/history_page.h).
#pragma once

#include <string>

#include "statistics/change_points.h"
#include "storage/metric_history.h"

namespace mlregress::internal {

/// An HTML <figure> with an inline SVG chart and its caption.
std::string history_figure(const Series& series, const stats::ChangePointOptions& options);

}  // namespace mlregress::internal
