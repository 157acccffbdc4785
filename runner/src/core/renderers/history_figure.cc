#include "renderers/history_figure.h"

#include <fmt/format.h>

#include "renderers/change_point_text.h"
#include "renderers/svg_plot.h"
#include "statistics/moments.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {

std::string history_figure(const Series& series, const stats::ChangePointOptions& options) {
  // The per-commit means in commit order, the first change point marked.
  const std::vector<const Point*> points = ordered(series);
  PlotLine line{series.metric, {}, {}, false};
  for (std::size_t i = 0; i < points.size(); ++i) {
    line.x.push_back(static_cast<double>(i));
    line.y.push_back(stats::summarize_samples(points[i]->values).mean);
  }
  LineChart chart{fmt::format("{} {} ({})", series.test, series.metric, series.profile),
                  "commit (in order)",
                  {line},
                  std::nullopt,
                  "",
                  "history"};
  const std::vector<FoundChange> found = changes(series, points, options);
  if (!found.empty()) {
    chart.marker_x = static_cast<double>(found.front().point.index);
    chart.marker_label = change_point_place(found.front(), found.front().commit.substr(0, 7));
  }
  std::string caption;
  for (const FoundChange& c : found) {
    caption += escape_markup(change_point_sentence(c, {.commit = c.commit.substr(0, 12)}) + "; ");
  }
  return fmt::format("<figure class=\"history\">{}<figcaption>{}</figcaption></figure>",
                     line_chart_svg(chart), caption.empty() ? "no change point" : caption);
}

}  // namespace mlregress::internal
