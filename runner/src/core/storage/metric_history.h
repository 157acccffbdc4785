// The history of each metric across kept runs: per (test, metric, environment profile) a series
// with one point per commit, in commit order, and its change points. `history` prints it;
// `report --history` and report.html under `run --baseline-history` draw it
// (renderers/history_figure.h).
//
// One point per commit: the mean of that commit's runs (a seeded metric: the mean of every
// sample of every run of the commit, with their sd and count). Order: the commits' committer
// times from git when the repository knows them, else the time of the commit's first run.
// Partial shard folders and incomplete runs are left out. Change points: E-Divisive means with
// a t test (statistics/change_points.h), each classified against the metric's direction.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "mlregress/metric.h"
#include "statistics/change_points.h"

namespace mlregress::internal {

struct Point {
  std::string commit;
  std::string first_run_at;          ///< the earliest run of the commit
  std::optional<long long> time;     ///< committer time from git
  std::vector<double> values;        ///< every run's value, or every sample of every run
  std::vector<std::string> runs;     ///< the run ids
  std::vector<std::string> folders;  ///< their run folders (canonical), in the same order
  bool dirty = false;
};

struct Series {
  std::string test, metric, profile;
  Direction direction = Direction::LowerIsBetter;
  bool seeded = false;
  /// A failure rate (FailureRate policy): each point's values are the 0/1 outcomes of its runs,
  /// pooled, so a point is the commit's flakiness: failures among trials.
  bool rate = false;
  std::map<std::string, Point> points;  ///< by commit
};

struct MetricHistory {
  /// By (full test name, metric, profile id).
  std::map<std::tuple<std::string, std::string, std::string>, Series> series;
  std::size_t runs = 0;  ///< run folders used
};

/// The series of the runs under `paths` (run folders or folders holding them), only of `test`
/// (name or full name) and `metric` when not empty; commits ordered through `repository` (empty:
/// the current directory's). Throws RunFolderError for a path that does not exist or a run
/// folder that cannot be read.
MetricHistory read_metric_history(const std::vector<std::string>& paths, const std::string& test,
                                  const std::string& metric, const std::string& repository);

/// The series' points in commit order.
std::vector<const Point*> ordered(const Series& series);

// A change point classified against the metric's direction: a regression when the later mean
// is worse, an improvement when it is better, a change for a must-equal metric.
enum class ChangeKind { kRegression, kImprovement, kChange };

/// "regression", "improvement" or "change": in history's text and JSON and the pages' classes.
std::string_view change_kind_name(ChangeKind kind);

// A change point of a series of per-commit means, and the commit it starts at.
struct FoundChange {
  stats::ChangePoint point;
  std::string commit;
  ChangeKind kind = ChangeKind::kChange;
};

std::vector<FoundChange> changes(const Series& series, const std::vector<const Point*>& points,
                                 const stats::ChangePointOptions& options);

}  // namespace mlregress::internal
