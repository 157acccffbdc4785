#include "commands/history_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>

#include "analysis/failure_rate_gate.h"
#include "record/json_number.h"
#include "record/json_text.h"
#include "renderers/history_page.h"
#include "statistics/failure_rate_design.h"
#include "statistics/moments.h"
#include "storage/metric_history.h"
#include "support/atomic_file.h"
#include "support/errors.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

// A failure-rate series' point: the flakiness of the commit, every run's outcomes pooled, with
// their 95% interval. nullopt for any other series.
struct PointRate {
  FailureCount count;
  stats::RateInterval interval;
};
std::optional<PointRate> point_rate(const Series& series, const Point& point) {
  if (!series.rate || point.values.empty()) return std::nullopt;
  const FailureCount count = count_failures(point.values, series.direction);
  return PointRate{count, stats::clopper_pearson(count.failures, count.trials, 0.95)};
}

}  // namespace

ExitCode history_command(const HistoryOptions& options) {
  if (!options.out.empty() && options.format != "html") {
    throw ConfigError(
        fmt::format("history: --out writes the page of --format html; --format {} prints to stdout",
                    options.format));
  }
  const stats::ChangePointOptions change_options{.max_p = options.max_p,
                                                 .min_magnitude = options.min_magnitude};
  const MetricHistory history =
      read_metric_history(options.paths, options.test, options.metric, options.repo);
  const auto& all = history.series;
  const std::size_t used = history.runs;
  if (options.format == "html") {
    // One page, links to the runs relative to the folder it is written into.
    const bool to_stdout = options.out == "-";
    const std::string out = options.out.empty() ? "history.html" : options.out;
    const std::filesystem::path folder = std::filesystem::weakly_canonical(
        to_stdout ? std::filesystem::current_path() : std::filesystem::absolute(out).parent_path());
    const std::string page = render_history_page(history, change_options, folder);
    if (to_stdout) {
      std::fwrite(page.data(), 1, page.size(), stdout);
      return ExitCode::kPassed;
    }
    write_file_atomically(out, page);
    std::printf("history: %s (%zu series from %zu runs)\n", out.c_str(), all.size(), used);
    return ExitCode::kPassed;
  }
  if (options.format == "json") {
    nlohmann::json out = {{"runs", used}, {"series", nlohmann::json::array()}};
    for (const auto& [key, series] : all) {
      nlohmann::json points = nlohmann::json::array();
      for (const Point* p : ordered(series)) {
        const stats::SampleSummary s = stats::summarize_samples(p->values);
        nlohmann::json point = {
            {"commit", p->commit},
            {"dirty", p->dirty},
            {"commit_time", p->time ? nlohmann::json(*p->time) : nlohmann::json()},
            {"first_run_at", p->first_run_at},
            {"value", json_number(s.mean)},
            {"sd", json_number(s.sd)},
            {"n", p->values.size()},
            {"runs", p->runs}};
        if (const std::optional<PointRate> rate = point_rate(series, *p)) {
          point["failures"] = rate->count.failures;
          point["trials"] = rate->count.trials;
          point["interval"] = {json_number(rate->interval.lower),
                               json_number(rate->interval.upper)};
        }
        points.push_back(std::move(point));
      }
      nlohmann::json change_points = nlohmann::json::array();
      for (const FoundChange& c : changes(series, ordered(series), change_options)) {
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
                               {"rate", series.rate},
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
      std::printf("  %-14s %-24s %14s %12s %5zu",
                  (p->commit.substr(0, 12) + (p->dirty ? "+" : "")).c_str(),
                  p->first_run_at.c_str(), format_value(s.mean).c_str(),
                  p->values.size() > 1 ? format_value(s.sd).c_str() : "-", p->values.size());
      if (const std::optional<PointRate> rate = point_rate(series, *p)) {
        const FailureCount& count = rate->count;
        std::printf("  failed %d of %d (%.1f%%, 95%% CI %.1f–%.1f%%)", count.failures, count.trials,
                    100.0 * count.failures / count.trials, 100.0 * rate->interval.lower,
                    100.0 * rate->interval.upper);
      }
      std::printf("\n");
    }
    for (const FoundChange& c : changes(series, ordered(series), change_options)) {
      std::printf("  CHANGE at %s: %s -> %s (%+.1f%%, p=%.2g): %s\n",
                  c.commit.substr(0, 12).c_str(), format_value(c.point.mean_before).c_str(),
                  format_value(c.point.mean_after).c_str(), 100.0 * c.point.relative_change,
                  c.point.p_value, c.kind.c_str());
    }
  }
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
