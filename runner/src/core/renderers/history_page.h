// `history --format html`: one self-contained page for the whole history, small multiples of
// every series on one shared commit axis. Like report.html it has no script, no font, no image
// file and no request (a Content-Security-Policy forbids every load), so it opens from a CI
// artifact or file:// and in a browser without JavaScript.
//
// Sized for 1,000 runs × 200 metrics (ci/history-html-benchmark.sh measures it): each series is
// one small <svg> holding one <path> (integer coordinates, relative moves: about 5 bytes a
// commit) and one <line> per change point; nothing is drawn per point. Runs are linked once, in
// a table with a row per commit (its runs' report.html, else their folder, relative to the page)
// that each change point's label points to, instead of an anchor per point of every series.
#pragma once

#include <filesystem>
#include <string>

#include "statistics/change_points.h"
#include "storage/metric_history.h"

namespace mlregress::internal {

/// The page. Links to run folders are relative to `page_folder` (the folder the page is written
/// into; absolute).
std::string render_history_page(const MetricHistory& history,
                                const stats::ChangePointOptions& options,
                                const std::filesystem::path& page_folder);

/// The link from a page in `page_folder` to a run folder: its report.html when it has one, else
/// the folder itself (ending in /); relative, every byte outside [A-Za-z0-9-._~/] percent-encoded,
/// so a name with a space, '#', '"' or '<' neither breaks the link nor the markup.
std::string run_link(const std::filesystem::path& run_folder,
                     const std::filesystem::path& page_folder);

}  // namespace mlregress::internal
