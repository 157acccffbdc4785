// The run as GitHub-flavoured Markdown, for $GITHUB_STEP_SUMMARY and pull-request comments: a
// headline, a BASE | HEAD | Δ | verdict table with what needs attention first, seeded metrics
// with their confidence intervals, the passing rest in a collapsed section, the method in a
// footer. It never exceeds kMarkdownLimit bytes (a pull-request comment's limit is 65,536
// characters): rows past the budget are cut with a note that says how many.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "renderers/run_report.h"

namespace mlregress::internal {

inline constexpr std::size_t kMarkdownLimit = 64000;

std::string render_markdown_report(const RunReport& report, std::size_t limit = kMarkdownLimit);

/// `text` as one cell of a Markdown table: one line, `|` escaped, no HTML of its own, at most
/// 300 bytes.
std::string markdown_cell(std::string_view text);

}  // namespace mlregress::internal
