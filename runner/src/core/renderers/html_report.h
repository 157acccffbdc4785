// report.html: one self-contained page per run. No script, no font, no image file, no request:
// a Content-Security-Policy meta tag forbids every load but inline style and data: images, the
// plots are inline SVG (renderers/svg_plot.h), a recorded batch's images inline BMPs
// (renderers/batch_html.h) and the tables plain HTML, so it opens from a CI artifact, from
// file:// and in a browser without JavaScript. Regressions and failures come first.
#pragma once

#include <string>

#include "renderers/run_report.h"

namespace mlregress::internal {

std::string render_html_report(const RunReport& report);

/// The page's <head> and the opening of its <body>: the CSP, the style sheet (and `more_style`
/// after it), the title.
std::string html_page_start(std::string_view title, std::string_view more_style = "");
/// The method footer and the end of the page.
std::string html_page_end(std::string_view method);

}  // namespace mlregress::internal
