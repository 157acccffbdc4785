#include "commands/history_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "environment/git_info.h"
#include "report/html_report.h"
#include "report/svg_plot.h"
#include "statistics/change_points.h"
#include "statistics/moments.h"
#include "storage/json_number.h"
#include "storage/json_text.h"
#include "storage/run_folder_search.h"
#include "storage/run_record.h"
#include "support/atomic_file.h"
#include "support/child_process.h"
#include "support/errors.h"
#include "support/number_format.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

struct Point {
  std::string commit;
  std::string first_run_at;       ///< the earliest run of the commit
  std::optional<long long> time;  ///< committer time from git
  std::vector<double> values;     ///< every run's value, or every sample of every run
  std::vector<std::string> runs;
  bool dirty = false;
};

struct Series {
  std::string test, metric, profile;
  Direction direction = Direction::LowerIsBetter;
  bool seeded = false;
  std::map<std::string, Point> points;  ///< by commit
};

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

std::vector<const Point*> ordered(const Series& series) {
  std::vector<const Point*> points;
  for (const auto& [commit, point] : series.points) points.push_back(&point);
  std::stable_sort(points.begin(), points.end(), [](const Point* a, const Point* b) {
    if (a->time && b->time && *a->time != *b->time) return *a->time < *b->time;
    return a->first_run_at < b->first_run_at;
  });
  return points;
}

// The change points of a series of per-commit means, each classified against the metric's
// direction ("regression" when the later mean is worse).
struct FoundChange {
  stats::ChangePoint point;
  std::string commit;
  std::string kind;  ///< "regression", "improvement" or "change" (must-equal metrics)
};

std::vector<FoundChange> changes(const Series& series, const std::vector<const Point*>& points,
                                 const HistoryOptions& options) {
  std::vector<double> means;
  means.reserve(points.size());
  for (const Point* p : points) means.push_back(stats::summarize_samples(p->values).mean);
  if (std::any_of(means.begin(), means.end(), [](double v) { return !std::isfinite(v); }))
    return {};
  std::vector<FoundChange> found;
  for (const stats::ChangePoint& c : stats::detect_change_points(
           means, {.max_p = options.max_p, .min_magnitude = options.min_magnitude})) {
    const bool up = c.mean_after > c.mean_before;
    const std::string kind = series.direction == Direction::MustEqual ? "change"
                             : (up == (series.direction == Direction::LowerIsBetter))
                                 ? "regression"
                                 : "improvement";
    found.push_back({c, points[c.index]->commit, kind});
  }
  return found;
}

}  // namespace

ExitCode history_command(const HistoryOptions& options) {
  const std::vector<std::string> folders = find_run_folders(options.paths, "history");
  std::map<std::tuple<std::string, std::string, std::string>, Series> all;
  std::size_t used = 0;
  std::string repository = options.repo;
  for (const std::string& folder : folders) {
    const RunRecord record = read_run_record(folder);
    const RunInfo& info = record.run.info;
    if (info.shard || info.finished_at.empty()) continue;  // partial: a shard, or killed
    ++used;
    const GitInfo git = recorded_git(info.environment);
    for (const TestResult& test : record.run.tests) {
      if (!options.test.empty() && test.name != options.test && test.full_name != options.test)
        continue;
      for (const MetricRecord& metric : test.metrics) {
        if (!options.metric.empty() && metric.name != options.metric) continue;
        Series& series = all[{test.full_name, metric.name, record.profile.id}];
        series.test = test.full_name;
        series.metric = metric.name;
        series.profile = record.profile.id;
        series.direction = metric.direction;
        series.seeded = test.seeded;
        Point& point = series.points[git.commit];
        point.commit = git.commit;
        point.dirty = point.dirty || git.dirty;
        if (point.first_run_at.empty() || info.started_at < point.first_run_at)
          point.first_run_at = info.started_at;
        if (test.seeded) {
          point.values.insert(point.values.end(), metric.samples.begin(), metric.samples.end());
        } else {
          point.values.push_back(metric.value);
        }
        point.runs.push_back(info.run_id);
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

  if (options.format == "html") {
    // One chart per series: the per-commit means in commit order, the first change point marked.
    std::string page = html_page_start("mlregress history");
    page += fmt::format(
        "<header id=\"verdict\" class=\"verdict\"><h1>History</h1>"
        "<p class=\"summary\">{} series from {} runs</p></header>",
        all.size(), used);
    for (const auto& [key, series] : all) {
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
        chart.marker_label =
            fmt::format("{} at {}", found.front().kind, found.front().commit.substr(0, 7));
      }
      std::string caption;
      for (const FoundChange& c : found) {
        caption += escape_markup(
            fmt::format("{} at {}: {} -> {} ({:+.1f}%, p={:.2g}); ", c.kind, c.commit.substr(0, 12),
                        format_value(c.point.mean_before), format_value(c.point.mean_after),
                        100.0 * c.point.relative_change, c.point.p_value));
      }
      page += fmt::format(
          "<section class=\"test\"><figure class=\"history\">{}<figcaption>{}"
          "</figcaption></figure></section>",
          line_chart_svg(chart), caption.empty() ? "no change point" : caption);
    }
    page += html_page_end(
        "Change points: E-Divisive means with a t test, Bonferroni-adjusted "
        "for the splits tried.");
    const std::string out = options.out.empty() ? "history.html" : options.out;
    write_file_atomically(out, page);
    std::printf("history: %s (%zu series)\n", out.c_str(), all.size());
    return ExitCode::kPassed;
  }
  if (options.format == "json") {
    nlohmann::json out = {{"runs", used}, {"series", nlohmann::json::array()}};
    for (const auto& [key, series] : all) {
      nlohmann::json points = nlohmann::json::array();
      for (const Point* p : ordered(series)) {
        const stats::SampleSummary s = stats::summarize_samples(p->values);
        points.push_back({{"commit", p->commit},
                          {"dirty", p->dirty},
                          {"commit_time", p->time ? nlohmann::json(*p->time) : nlohmann::json()},
                          {"first_run_at", p->first_run_at},
                          {"value", json_number(s.mean)},
                          {"sd", json_number(s.sd)},
                          {"n", p->values.size()},
                          {"runs", p->runs}});
      }
      nlohmann::json change_points = nlohmann::json::array();
      for (const FoundChange& c : changes(series, ordered(series), options)) {
        change_points.push_back({{"commit", c.commit},
                                 {"index", c.point.index},
                                 {"mean_before", json_number(c.point.mean_before)},
                                 {"mean_after", json_number(c.point.mean_after)},
                                 {"relative_change", json_number(c.point.relative_change)},
                                 {"p_value", json_number(c.point.p_value)},
                                 {"kind", c.kind}});
      }
      out["series"].push_back({{"change_points", std::move(change_points)},
                               {"test", series.test},
                               {"metric", series.metric},
                               {"profile", series.profile},
                               {"direction", direction_name(series.direction)},
                               {"seeded", series.seeded},
                               {"points", std::move(points)}});
    }
    std::printf("%s\n", json_text(out, 2).c_str());
    return ExitCode::kPassed;
  }
  std::printf("history: %zu series from %zu runs\n", all.size(), used);
  for (const auto& [key, series] : all) {
    std::printf("\n%s  %s  (%s, %s)\n", series.test.c_str(), series.metric.c_str(),
                series.profile.c_str(), std::string(direction_name(series.direction)).c_str());
    std::printf("  %-14s %-24s %14s %12s %5s\n", "commit", "first run", "value", "sd", "n");
    for (const Point* p : ordered(series)) {
      const stats::SampleSummary s = stats::summarize_samples(p->values);
      std::printf("  %-14s %-24s %14s %12s %5zu\n",
                  (p->commit.substr(0, 12) + (p->dirty ? "+" : "")).c_str(),
                  p->first_run_at.c_str(), format_value(s.mean).c_str(),
                  p->values.size() > 1 ? format_value(s.sd).c_str() : "-", p->values.size());
    }
    for (const FoundChange& c : changes(series, ordered(series), options)) {
      std::printf("  CHANGE at %s: %s -> %s (%+.1f%%, p=%.2g): %s\n",
                  c.commit.substr(0, 12).c_str(), format_value(c.point.mean_before).c_str(),
                  format_value(c.point.mean_after).c_str(), 100.0 * c.point.relative_change,
                  c.point.p_value, c.kind.c_str());
    }
  }
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
