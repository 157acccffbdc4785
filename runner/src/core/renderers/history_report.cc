#include "renderers/history_report.h"

#include <cstdarg>
#include <cstdio>
#include <optional>

#include "analysis/failure_rate_gate.h"
#include "record/json_number.h"
#include "record/json_text.h"
#include "renderers/change_point_text.h"
#include "statistics/failure_rate_design.h"
#include "statistics/moments.h"
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

nlohmann::json point_json(const Series& series, const Point& p) {
  const stats::SampleSummary s = stats::summarize_samples(p.values);
  nlohmann::json point = {{"commit", p.commit},
                          {"dirty", p.dirty},
                          {"commit_time", p.time ? nlohmann::json(*p.time) : nlohmann::json()},
                          {"first_run_at", p.first_run_at},
                          {"value", json_number(s.mean)},
                          {"sd", json_number(s.sd)},
                          {"n", p.values.size()},
                          {"runs", p.runs}};
  if (const std::optional<PointRate> rate = point_rate(series, p)) {
    point["failures"] = rate->count.failures;
    point["trials"] = rate->count.trials;
    point["interval"] = {json_number(rate->interval.lower), json_number(rate->interval.upper)};
  }
  return point;
}

nlohmann::json change_point_json(const FoundChange& c) {
  return {{"commit", c.commit},
          {"index", c.point.index},
          {"mean_before", json_number(c.point.mean_before)},
          {"mean_after", json_number(c.point.mean_after)},
          {"relative_change", json_number(c.point.relative_change)},
          {"p_value", json_number(c.point.p_value)},
          {"kind", change_kind_name(c.kind)}};
}

nlohmann::json series_json(const Series& series, const stats::ChangePointOptions& options) {
  nlohmann::json points = nlohmann::json::array();
  for (const Point* p : ordered(series)) points.push_back(point_json(series, *p));
  nlohmann::json change_points = nlohmann::json::array();
  for (const FoundChange& c : changes(series, ordered(series), options)) {
    change_points.push_back(change_point_json(c));
  }
  return {{"change_points", std::move(change_points)},
          {"test", series.test},
          {"metric", series.metric},
          {"profile", series.profile},
          {"direction", direction_name(series.direction)},
          {"seeded", series.seeded},
          {"rate", series.rate},
          {"points", std::move(points)}};
}

// printf's formatting, into a string: the text's columns are printf's, padded by bytes.
[[gnu::format(printf, 1, 2)]] std::string printf_text(const char* format, ...) {
  std::va_list args, copy;
  va_start(args, format);
  va_copy(copy, args);
  const int size = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text(static_cast<std::size_t>(size), '\0');
  std::vsnprintf(text.data(), text.size() + 1, format, args);
  va_end(args);
  return text;
}

std::string point_line(const Series& series, const Point& p) {
  const stats::SampleSummary s = stats::summarize_samples(p.values);
  std::string line = printf_text(
      "  %-14s %-24s %14s %12s %5zu", (p.commit.substr(0, 12) + (p.dirty ? "+" : "")).c_str(),
      p.first_run_at.c_str(), format_value(s.mean).c_str(),
      p.values.size() > 1 ? format_value(s.sd).c_str() : "-", p.values.size());
  if (const std::optional<PointRate> rate = point_rate(series, p)) {
    const FailureCount& count = rate->count;
    line += printf_text("  failed %d of %d (%.1f%%, 95%% CI %.1f–%.1f%%)", count.failures,
                        count.trials, 100.0 * count.failures / count.trials,
                        100.0 * rate->interval.lower, 100.0 * rate->interval.upper);
  }
  return line + "\n";
}

std::string series_text(const Series& series, const stats::ChangePointOptions& options) {
  std::string text =
      printf_text("\n%s  %s  (%s, %s)\n", series.test.c_str(), series.metric.c_str(),
                  series.profile.c_str(), std::string(direction_name(series.direction)).c_str());
  text += printf_text("  %-14s %-24s %14s %12s %5s\n", "commit", "first run", "value", "sd", "n");
  for (const Point* p : ordered(series)) text += point_line(series, *p);
  for (const FoundChange& c : changes(series, ordered(series), options)) {
    const std::string commit = c.commit.substr(0, 12);
    text += "  " + change_point_sentence(c, {.commit = commit, .kind_last = true}) + "\n";
  }
  return text;
}

}  // namespace

std::string render_history_json(const MetricHistory& history,
                                const stats::ChangePointOptions& options) {
  nlohmann::json out = {{"runs", history.runs}, {"series", nlohmann::json::array()}};
  for (const auto& [key, series] : history.series) {
    out["series"].push_back(series_json(series, options));
  }
  return json_text(out, 2) + "\n";
}

std::string render_history_text(const MetricHistory& history,
                                const stats::ChangePointOptions& options) {
  std::string text =
      printf_text("history: %zu series from %zu runs\n", history.series.size(), history.runs);
  for (const auto& [key, series] : history.series) text += series_text(series, options);
  return text;
}

}  // namespace mlregress::internal
