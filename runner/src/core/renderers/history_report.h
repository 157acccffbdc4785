// `history --format json` and `history --format text`: the series of a metric history, each
// point a commit's mean (with sd, count and, for a failure rate, its failures among trials and
// their 95% interval) and each change point named (renderers/change_point_text.h). The page of
// `--format html` is renderers/history_page.h.
#pragma once

#include <string>

#include "statistics/change_points.h"
#include "storage/metric_history.h"

namespace mlregress::internal {

/// The JSON document, indented by 2, ending in a newline.
std::string render_history_json(const MetricHistory& history,
                                const stats::ChangePointOptions& options);

/// The text: a line of totals, then per series its table of points and a line per change point.
std::string render_history_text(const MetricHistory& history,
                                const stats::ChangePointOptions& options);

}  // namespace mlregress::internal
