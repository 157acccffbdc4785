// The page and the Markdown of a bisect record (<bisect folder>/bisect.json): the culprit named
// at the top (or why none was named, with the candidates left), then the commits the bisect
// tried, in order, with the answer git was given, the metric, the verdict against GOOD and the
// run folder of each.
#pragma once

#include <string>

#include "storage/bisect_record.h"

namespace mlregress::internal {

/// ⌈log₂ N⌉ + 2: the commits a bisect of N commits (GOOD and BAD included) measures at most when
/// no commit is skipped: GOOD, BAD, and a halving of the N - 1 candidates per step.
int bisect_commit_bound(int commits);

/// One self-contained page (renderers/html_report.h's style). `run_links` is the bisect folder as
/// seen from where the page is written ("" when the page is in it): the run folders in the table
/// link to their report.html through it.
std::string render_bisect_html_report(const BisectRecord& record, const std::string& folder,
                                      const std::string& run_links);

/// GitHub-flavoured Markdown: the culprit as a heading, the tried commits as a table.
std::string render_bisect_markdown_report(const BisectRecord& record);

}  // namespace mlregress::internal
