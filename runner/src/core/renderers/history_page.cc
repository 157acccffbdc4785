#include "renderers/history_page.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

#include "renderers/change_point_text.h"
#include "renderers/html_report.h"
#include "statistics/moments.h"
#include "support/number_format.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

// Added to report.html's style sheet: a grid of small charts, each stretched to its cell (the
// path's coordinates are commits × 0..100, the strokes keep their width whatever the stretch).
// Bevel joins: round joins on 200 paths of 1,000 vertices made painting the whole page in
// headless Chromium take 7 s more than without the paths; bevel joins 1 s.
constexpr std::string_view kHistoryStyle =
    "body{max-width:1400px}"
    ".multiples{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));"
    "gap:10px 14px}"
    "figure.series{margin:0;border:1px solid #e3e3e3;border-radius:4px;padding:4px 6px;"
    "min-width:0}"
    "figure.series.changed{border-left:5px solid #ef6c00}"
    "figure.series.regressed{border-left:5px solid #c62828}"
    "figure.series figcaption{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}"
    "svg.spark{display:block;width:100%;height:64px;background:#fafafa}"
    "svg.spark path{fill:none;stroke:#1565c0;stroke-width:1.3;stroke-linecap:round;"
    "stroke-linejoin:bevel;vector-effect:non-scaling-stroke}"
    "svg.spark line{stroke-width:2;vector-effect:non-scaling-stroke}"
    "p.range{margin:0;font-size:11px;color:#555;display:flex;justify-content:space-between;"
    "font-variant-numeric:tabular-nums}"
    "p.cp{margin:2px 0 0;font-size:12px;font-weight:600}"
    ".cp-regression{color:#c62828;stroke:#c62828}.cp-improvement{color:#2e7d32;stroke:#2e7d32}"
    ".cp-change{color:#ef6c00;stroke:#ef6c00}"
    "td.runs a{margin-right:8px}tr:target{background:#fff4e0}";

constexpr int kHeight = 100;  // the y range of every chart's coordinates

// The commits of every series, merged: one column of the shared axis each, with every run of
// the commit once.
struct Columns {
  Series merged;
  std::vector<const Point*> order;
  std::unordered_map<std::string, std::size_t> index;  ///< by commit
};

Columns shared_columns(const MetricHistory& history) {
  Columns columns;
  std::map<std::string, std::set<std::string>> seen;  // commit → run folders already listed
  for (const auto& [key, series] : history.series) {
    for (const auto& [commit, point] : series.points) {
      Point& column = columns.merged.points[commit];
      column.commit = commit;
      column.dirty = column.dirty || point.dirty;
      if (point.time) column.time = point.time;
      if (column.first_run_at.empty() || point.first_run_at < column.first_run_at)
        column.first_run_at = point.first_run_at;
      for (std::size_t i = 0; i < point.runs.size(); ++i) {
        const std::string folder = i < point.folders.size() ? point.folders[i] : "";
        if (!seen[commit].insert(folder.empty() ? point.runs[i] : folder).second) continue;
        column.runs.push_back(point.runs[i]);
        column.folders.push_back(folder);
      }
    }
  }
  columns.order = ordered(columns.merged);
  for (std::size_t i = 0; i < columns.order.size(); ++i) {
    columns.index[columns.order[i]->commit] = i;
  }
  return columns;
}

// The first run of a column that has a folder: where a change point's label links to.
std::string first_run_link(const Point& column, const std::filesystem::path& page_folder) {
  for (const std::string& folder : column.folders) {
    if (!folder.empty()) return run_link(folder, page_folder);
  }
  return "";
}

std::string commit_label(const Point& column, std::size_t index) {
  return fmt::format("#{} {}{}", index + 1, column.commit.substr(0, 7), column.dirty ? "+" : "");
}

// One <path> for the whole series: "M x y" where a stretch of finite means starts, then moves
// relative to the previous point ("l1-3 1 5": one commit right, 3 up; one right, 5 down), the
// sign of a negative step doubling as the separator. A point alone between non-finite ones is
// a dot (h0 with a round cap).
std::string series_path(const std::vector<std::size_t>& xs, const std::vector<double>& means,
                        double low, double high) {
  std::string d;
  d.reserve(xs.size() * 6);
  long previous_x = 0, previous_y = 0;
  std::size_t stretch = 0;  // points in the current stretch
  const auto y_of = [&](double v) {
    if (high <= low) return static_cast<long>(kHeight / 2);
    return std::lround(kHeight - kHeight * (v - low) / (high - low));
  };
  for (std::size_t i = 0; i <= xs.size(); ++i) {
    const bool finite = i < xs.size() && std::isfinite(means[i]);
    if (!finite) {
      if (stretch == 1) d += "h0";
      stretch = 0;
      continue;
    }
    const long x = static_cast<long>(xs[i]), y = y_of(means[i]);
    if (stretch == 0) {
      d += fmt::format("M{} {}", x, y);
    } else {
      if (stretch == 1)
        d += 'l';
      else
        d += ' ';
      d += fmt::format("{}{}{}", x - previous_x, y - previous_y < 0 ? "" : " ", y - previous_y);
    }
    previous_x = x, previous_y = y;
    ++stretch;
  }
  return d;
}

struct SeriesChanges {
  const Series* series = nullptr;
  std::size_t figure = 0;
  std::vector<FoundChange> found;
};

// The page's arrow between a change point's means.
constexpr std::string_view kArrow = "→";

// A series' change points drawn (a vertical <line> each) and named (a label each, its commit
// linked to its row of runs, and to the first run's report).
struct ChangeMarks {
  std::string lines, labels;
  bool regressed = false;
};

ChangeMarks change_marks(const std::vector<FoundChange>& found, const Columns& columns,
                         const std::filesystem::path& page_folder) {
  ChangeMarks marks;
  for (const FoundChange& c : found) {
    const std::size_t x = columns.index.at(c.commit);
    const Point& column = *columns.order[x];
    const std::string_view kind = change_kind_name(c.kind);
    marks.regressed = marks.regressed || c.kind == ChangeKind::kRegression;
    marks.lines +=
        fmt::format("<line class=\"cp-{}\" x1=\"{}\" x2=\"{}\" y1=\"-3\" y2=\"103\"/>", kind, x, x);
    const std::string report = first_run_link(column, page_folder);
    // The commit is a link to its row of runs; the rest of the sentence is words and numbers.
    const std::string commit =
        fmt::format("<a href=\"#c{}\">{}</a>", x + 1, escape_markup(commit_label(column, x)));
    marks.labels +=
        fmt::format("<p class=\"cp cp-{0}\" data-kind=\"{0}\" data-column=\"{1}\">{2}{3}</p>", kind,
                    x + 1, change_point_sentence(c, {.commit = commit, .arrow = kArrow}),
                    report.empty() ? "" : fmt::format(" <a href=\"{}\">report</a>", report));
  }
  return marks;
}

std::string series_figure(const Series& series, std::size_t figure, const Columns& columns,
                          const stats::ChangePointOptions& options,
                          const std::filesystem::path& page_folder, SeriesChanges& changed) {
  // The series' points in the shared axis' order (its own order unless commits lack git times
  // and their first runs differ between series).
  std::vector<const Point*> points = ordered(series);
  std::stable_sort(points.begin(), points.end(), [&](const Point* a, const Point* b) {
    return columns.index.at(a->commit) < columns.index.at(b->commit);
  });
  std::vector<std::size_t> xs;
  std::vector<double> means;
  double low = INFINITY, high = -INFINITY;
  std::size_t non_finite = 0;
  for (const Point* p : points) {
    xs.push_back(columns.index.at(p->commit));
    means.push_back(stats::summarize_samples(p->values).mean);
    if (std::isfinite(means.back())) {
      low = std::min(low, means.back());
      high = std::max(high, means.back());
    } else {
      ++non_finite;
    }
  }
  changed = {&series, figure, changes(series, points, options)};
  const ChangeMarks marks = change_marks(changed.found, columns, page_folder);
  const std::string name =
      escape_markup(fmt::format("{} {} ({})", series.test, series.metric, series.profile));
  const std::string range =
      std::isfinite(low)
          ? fmt::format("<span>min {}</span><span>{} commits{}</span><span>max {}</span>",
                        format_value(low), points.size(),
                        non_finite ? fmt::format(", {} not finite", non_finite) : "",
                        format_value(high))
          : fmt::format("<span>{} commits, none finite</span>", points.size());
  return fmt::format(
      "<figure class=\"series{}\" id=\"s{}\" data-changes=\"{}\"><figcaption title=\"{}\"><b>{}"
      "</b> {} <span class=\"meta\">{}</span></figcaption>"
      "<svg class=\"spark\" data-plot=\"history\" viewBox=\"0 -3 {} {}\" "
      "preserveAspectRatio=\"none\" role=\"img\"><title>{}: {} commits</title><path d=\"{}\"/>{}"
      "</svg><p class=\"range\">{}</p>{}</figure>",
      changed.found.empty() ? "" : (marks.regressed ? " changed regressed" : " changed"), figure,
      changed.found.size(), name, escape_markup(series.test), escape_markup(series.metric),
      escape_markup(series.profile), std::max<std::size_t>(columns.order.size(), 2) - 1,
      kHeight + 6, name, points.size(), series_path(xs, means, low, high), marks.lines, range,
      marks.labels);
}

// Every change point of the page in one table, regressions first: what a reader looks for.
std::string change_table(const std::vector<SeriesChanges>& all, const Columns& columns,
                         const std::filesystem::path& page_folder) {
  struct Row {
    const SeriesChanges* series;
    const FoundChange* change;
  };
  std::vector<Row> rows;
  for (const SeriesChanges& s : all) {
    for (const FoundChange& c : s.found) rows.push_back({&s, &c});
  }
  if (rows.empty()) {
    return "<section id=\"changes\"><h2>Change points</h2><p>No change point in any series.</p>"
           "</section>";
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return (a.change->kind == ChangeKind::kRegression) >
           (b.change->kind == ChangeKind::kRegression);
  });
  std::string out =
      "<section id=\"changes\"><h2>Change points</h2><table><tr><th>kind</th><th>series</th>"
      "<th>commit</th><th>before → after</th><th>run</th></tr>";
  for (const Row& row : rows) {
    const Series& s = *row.series->series;
    const std::size_t x = columns.index.at(row.change->commit);
    const std::string report = first_run_link(*columns.order[x], page_folder);
    out += fmt::format(
        "<tr class=\"cp-{0}\"><td>{0}</td><td><a href=\"#s{1}\">{2}</a></td><td><a "
        "href=\"#c{3}\">{4}</a></td><td class=\"num\">{5}</td><td>{6}</td></tr>",
        change_kind_name(row.change->kind), row.series->figure,
        escape_markup(fmt::format("{} {} ({})", s.test, s.metric, s.profile)), x + 1,
        escape_markup(commit_label(*columns.order[x], x)),
        escape_markup(change_point_shift(row.change->point, kArrow)),
        report.empty() ? "" : fmt::format("<a href=\"{}\">report</a>", report));
  }
  return out + "</table></section>";
}

// One row per commit of the shared axis, its runs linked: the change points' labels point here.
std::string run_table(const Columns& columns, const std::filesystem::path& page_folder) {
  std::string out =
      "<section id=\"runs\"><h2>Commits and their runs</h2><table><tr><th>#</th><th>commit</th>"
      "<th>first run</th><th>runs (report)</th></tr>";
  for (std::size_t i = 0; i < columns.order.size(); ++i) {
    const Point& column = *columns.order[i];
    std::string runs;
    for (std::size_t r = 0; r < column.runs.size(); ++r) {
      const std::string& folder = column.folders[r];
      runs += folder.empty() ? escape_markup(column.runs[r]) + " "
                             : fmt::format("<a href=\"{}\">{}</a>", run_link(folder, page_folder),
                                           escape_markup(column.runs[r]));
    }
    out += fmt::format(
        "<tr id=\"c{}\"><td class=\"num\">{}</td><td><code>{}</code>{}</td><td>{}</td>"
        "<td class=\"runs\">{}</td></tr>",
        i + 1, i + 1, escape_markup(column.commit.substr(0, 12)),
        column.dirty ? " uncommitted changes" : "", escape_markup(column.first_run_at), runs);
  }
  return out + "</table></section>";
}

}  // namespace

std::string run_link(const std::filesystem::path& run_folder,
                     const std::filesystem::path& page_folder) {
  std::error_code error;
  const bool has_report = std::filesystem::is_regular_file(run_folder / "report.html", error);
  std::filesystem::path relative = run_folder.lexically_relative(page_folder);
  if (relative.empty()) relative = run_folder;  // no relative path between them: absolute
  std::string path = relative.generic_string();
  if (path == ".") path.clear();
  if (!path.empty() && path.back() != '/') path += '/';
  return percent_encoded(has_report ? path + "report.html" : (path.empty() ? "./" : path));
}

std::string render_history_page(const MetricHistory& history,
                                const stats::ChangePointOptions& options,
                                const std::filesystem::path& page_folder) {
  const Columns columns = shared_columns(history);
  std::vector<SeriesChanges> changed(history.series.size());
  std::string figures;
  std::size_t figure = 0;
  for (const auto& [key, series] : history.series) {
    figures += series_figure(series, figure, columns, options, page_folder, changed[figure]);
    ++figure;
  }
  std::size_t found = 0, regressions = 0;
  for (const SeriesChanges& s : changed) {
    found += s.found.size();
    for (const FoundChange& c : s.found) regressions += c.kind == ChangeKind::kRegression;
  }
  std::string page = html_page_start("mlregress history", kHistoryStyle);
  page += fmt::format(
      "<header id=\"verdict\" class=\"verdict{}\"><h1>History</h1><p class=\"summary\">{} series "
      "from {} runs of {} commits: {} change point{} ({} regression{})</p><p class=\"meta\">"
      "One chart per series, commits left to right on one shared axis (numbered as in the "
      "<a href=\"#runs\">table of runs</a>), each chart scaled to its own minimum and maximum; "
      "a vertical line marks each change point.</p></header>",
      regressions ? " regression" : "", history.series.size(), history.runs, columns.order.size(),
      found, found == 1 ? "" : "s", regressions, regressions == 1 ? "" : "s");
  page += change_table(changed, columns, page_folder);
  page += "<section id=\"series\"><h2>Series</h2><div class=\"multiples\">" + figures +
          "</div></section>";
  page += run_table(columns, page_folder);
  return page +
         html_page_end(fmt::format(
             "One point per commit: the mean of its runs (of every sample of every run for a "
             "seeded metric). Change points: E-Divisive means with a t test, Bonferroni-adjusted "
             "for the splits tried, p &lt; {}, relative change ≥ {}. Written by mlregress.",
             format_value(options.max_p), format_value(options.min_magnitude)));
}

}  // namespace mlregress::internal
