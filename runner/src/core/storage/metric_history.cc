#include "storage/metric_history.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "environment/git_info.h"
#include "statistics/moments.h"
#include "storage/run_folder_search.h"
#include "storage/run_record.h"
#include "support/child_process.h"
#include "support/enum_names.h"

namespace mlregress::internal {
namespace {

constexpr auto kChangeKindNames = enum_names<ChangeKind>({{ChangeKind::kRegression, "regression"},
                                                          {ChangeKind::kImprovement, "improvement"},
                                                          {ChangeKind::kChange, "change"}});

std::optional<long long> commit_time(const std::string& commit, const std::string& repository) {
  if (commit == "unknown") return std::nullopt;
  std::vector<std::string> git = {"git"};
  if (!repository.empty()) git.insert(git.end(), {"-C", repository});
  git.insert(git.end(), {"show", "-s", "--format=%ct", commit});
  const auto out = capture_output(git);
  if (!out || out->empty()) return std::nullopt;
  try {
    return std::stoll(*out);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

MetricHistory read_metric_history(const std::vector<std::string>& paths,
                                  const std::string& test_name, const std::string& metric_name,
                                  const std::string& repository) {
  MetricHistory history;
  const std::vector<std::string> folders = find_run_folders(paths, "history");
  auto& all = history.series;
  std::size_t& used = history.runs;
  for (const std::string& folder : folders) {
    const RunRecord record = read_run_record(folder);
    const RunInfo& info = record.run.info;
    if (info.shard || info.finished_at.empty()) continue;  // partial: a shard, or killed
    ++used;
    const GitInfo git = recorded_git(info.environment);
    for (const TestResult& test : record.run.tests) {
      if (!test_name.empty() && test.name != test_name && test.full_name != test_name) continue;
      for (const MetricRecord& metric : test.metrics) {
        if (!metric_name.empty() && metric.name != metric_name) continue;
        Series& series = all[{test.full_name, metric.name, record.profile.id}];
        series.test = test.full_name;
        series.metric = metric.name;
        series.profile = record.profile.id;
        series.direction = metric.direction;
        series.seeded = test.seeded;
        series.rate = std::holds_alternative<FailureRate>(metric.policy);
        // A flaky-aware test's own metrics are its first attempt's single values.
        const bool samples = test.seeded && (!test.attempts || series.rate);
        Point& point = series.points[git.commit];
        point.commit = git.commit;
        point.dirty = point.dirty || git.dirty;
        if (point.first_run_at.empty() || info.started_at < point.first_run_at)
          point.first_run_at = info.started_at;
        if (samples) {
          point.values.insert(point.values.end(), metric.samples.begin(), metric.samples.end());
        } else {
          point.values.push_back(metric.value);
        }
        point.runs.push_back(info.run_id);
        point.folders.push_back(folder);
      }
    }
  }
  // Commit times, once per commit.
  std::map<std::string, std::optional<long long>> times;
  for (auto& [key, series] : all) {
    for (auto& [commit, point] : series.points) {
      if (!times.count(commit)) times[commit] = commit_time(commit, repository);
      point.time = times[commit];
    }
  }

  return history;
}

std::string_view change_kind_name(ChangeKind kind) { return kChangeKindNames.name(kind); }

std::vector<const Point*> ordered(const Series& series) {
  std::vector<const Point*> points;
  for (const auto& [commit, point] : series.points) points.push_back(&point);
  std::stable_sort(points.begin(), points.end(), [](const Point* a, const Point* b) {
    if (a->time && b->time && *a->time != *b->time) return *a->time < *b->time;
    return a->first_run_at < b->first_run_at;
  });
  return points;
}

std::vector<FoundChange> changes(const Series& series, const std::vector<const Point*>& points,
                                 const stats::ChangePointOptions& options) {
  std::vector<double> means;
  means.reserve(points.size());
  for (const Point* p : points) means.push_back(stats::summarize_samples(p->values).mean);
  if (std::any_of(means.begin(), means.end(), [](double v) { return !std::isfinite(v); }))
    return {};
  std::vector<FoundChange> found;
  for (const stats::ChangePoint& c : stats::detect_change_points(means, options)) {
    const bool up = c.mean_after > c.mean_before;
    const ChangeKind kind = series.direction == Direction::MustEqual ? ChangeKind::kChange
                            : (up == (series.direction == Direction::LowerIsBetter))
                                ? ChangeKind::kRegression
                                : ChangeKind::kImprovement;
    found.push_back({c, points[c.index]->commit, kind});
  }
  return found;
}

}  // namespace mlregress::internal
