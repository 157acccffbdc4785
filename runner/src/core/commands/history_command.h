// `history [PATH...] [--test T] [--metric M] [--format text|json|html] [--out FILE] [--repo DIR]`:
// the values of each (test, metric, environment profile) across the runs found under PATHs (run
// folders, or folders holding them: runs/, CI artifacts unpacked into one directory), one point
// per commit, in commit order. It reads run folders only; it adds no storage of its own.
//
// One point per commit: the mean of that commit's runs (a seeded metric: the mean of every
// sample of every run of the commit, with their sd and count). Order: the commits' committer
// times from git when the repository knows them (--repo, else the current directory's), else
// the time of the commit's first run. Partial shard folders and incomplete runs are left out.
// Each series' per-commit means are searched for change points (statistics/change_points.h:
// E-Divisive means with a t test, --max-p 0.001, --min-magnitude 0), each classified against the
// metric's direction as a regression or an improvement. --format text and json print
// renderers/history_report.h's renderings; --format html writes one page
// (renderers/history_page.h) to --out (default history.html, - for stdout), its links to the runs
// relative to that file; --out with another format is a usage error.
#pragma once

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {

ExitCode history_command(const HistoryOptions& options);

}  // namespace mlregress::internal
