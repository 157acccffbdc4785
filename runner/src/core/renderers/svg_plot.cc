#include "renderers/svg_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "support/number_format.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

constexpr const char* kCandidateColour = "#1f5fa8";
constexpr const char* kReferenceColour = "#8a8a8a";
constexpr const char* kWorseColour = "#c62828";

// A value axis mapped onto a pixel range; logarithmic when asked.
struct Axis {
  double lo = 0.0, hi = 1.0;
  bool log = false;
  double from = 0.0, to = 1.0;  ///< pixels for lo and hi (to < from for a y axis)

  double transform(double v) const { return log ? std::log10(v) : v; }
  double pixel(double v) const {
    const double a = transform(lo), b = transform(hi);
    const double t = b > a ? (transform(v) - a) / (b - a) : 0.5;
    return from + t * (to - from);
  }
};

// Where the plot area of an SVG lies, in pixels.
struct Frame {
  double left, right, top, bottom;
  double middle() const { return (left + right) / 2; }
};

// Lower and upper ends that contain every finite value, widened a little so no point sits on
// the frame, and never empty.
Axis value_axis(std::vector<double> values, bool allow_log) {
  values.erase(
      std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
      values.end());
  Axis axis;
  if (values.empty()) return axis;
  const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
  double lo = *min_it, hi = *max_it;
  if (allow_log && lo > 0.0 && hi / lo > 100.0) {
    axis.log = true;
    axis.lo = std::pow(10.0, std::floor(std::log10(lo)));
    axis.hi = std::pow(10.0, std::ceil(std::log10(hi)));
    return axis;
  }
  if (hi == lo) {
    const double pad = lo == 0.0 ? 1.0 : std::fabs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  } else {
    const double pad = (hi - lo) * 0.06;
    lo -= pad;
    hi += pad;
  }
  axis.lo = lo;
  axis.hi = hi;
  return axis;
}

// Tick positions at 1, 2 or 5 times a power of ten (decades on a log axis).
std::vector<double> ticks(const Axis& axis) {
  std::vector<double> out;
  if (axis.log) {
    const int first = static_cast<int>(std::floor(std::log10(axis.lo)));
    const int last = static_cast<int>(std::ceil(std::log10(axis.hi)));
    const int every = std::max(1, (last - first) / 6);
    for (int e = first; e <= last; e += every) out.push_back(std::pow(10.0, e));
    return out;
  }
  const double raw = (axis.hi - axis.lo) / 5.0;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * power;
    if (step >= raw) break;
  }
  for (double t = std::ceil(axis.lo / step) * step; t <= axis.hi + step * 1e-9; t += step) {
    out.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  }
  return out;
}

std::string tick_label(double v) { return fmt::format("{:.3g}", v); }

std::string px(double v) { return fmt::format("{:.1f}", v); }

// The points of one line as pixel coordinates, cut into runs of finite values. A run longer
// than two points per pixel column keeps, per column, its lowest and highest point in step
// order: the line looks the same and a one-step spike is still drawn.
std::vector<std::vector<std::pair<double, double>>> polyline_runs(const PlotLine& line,
                                                                  const Axis& x, const Axis& y) {
  std::vector<std::vector<std::pair<double, double>>> runs(1);
  for (std::size_t i = 0; i < line.x.size() && i < line.y.size(); ++i) {
    const double v = line.y[i];
    if (!std::isfinite(v) || (y.log && v <= 0.0)) {
      if (!runs.back().empty()) runs.emplace_back();
      continue;
    }
    runs.back().emplace_back(x.pixel(line.x[i]), y.pixel(v));
  }
  for (auto& run : runs) {
    const double width = std::fabs(x.to - x.from);
    if (run.size() <= 2 * static_cast<std::size_t>(width)) continue;
    std::vector<std::pair<double, double>> reduced;
    std::size_t begin = 0;
    while (begin < run.size()) {
      const int column = static_cast<int>(run[begin].first);
      std::size_t end = begin;
      std::size_t low = begin, high = begin;
      while (end < run.size() && static_cast<int>(run[end].first) == column) {
        if (run[end].second > run[low].second) low = end;  // pixel y grows downwards
        if (run[end].second < run[high].second) high = end;
        ++end;
      }
      reduced.push_back(run[std::min(low, high)]);
      if (low != high) reduced.push_back(run[std::max(low, high)]);
      begin = end;
    }
    run = std::move(reduced);
  }
  std::erase_if(runs, [](const auto& run) { return run.empty(); });
  return runs;
}

// The ticks of `axis` whose pixel lies between `from` and `to` (half a pixel of slack), each
// with its label.
std::vector<std::pair<double, std::string>> visible_ticks(const Axis& axis, double from,
                                                          double to) {
  std::vector<std::pair<double, std::string>> visible;
  for (double t : ticks(axis)) {
    const double pixel = axis.pixel(t);
    if (pixel < from - 0.5 || pixel > to + 0.5) continue;
    visible.emplace_back(pixel, tick_label(t));
  }
  return visible;
}

std::string axis_lines(const Axis& x, const Axis& y, const Frame& frame) {
  const auto [left, right, top, bottom] = frame;
  std::string out = fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ccc\"/>",
      px(left), px(top), px(right - left), px(bottom - top));
  for (const auto& [py, label] : visible_ticks(y, top, bottom)) {
    out += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#eee\"/>"
        "<text x=\"{3}\" y=\"{4}\" text-anchor=\"end\" class=\"tick\">{5}</text>",
        px(left), px(right), px(py), px(left - 4), px(py + 4), label);
  }
  for (const auto& [pxl, label] : visible_ticks(x, left, right)) {
    out += fmt::format(
        "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#eee\"/>"
        "<text x=\"{0}\" y=\"{3}\" text-anchor=\"middle\" class=\"tick\">{4}</text>",
        px(pxl), px(top), px(bottom), px(bottom + 14), label);
  }
  return out;
}

std::string svg_open(std::string_view kind, std::string_view name, int width, int height,
                     std::string_view title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" data-plot=\"{}\" data-name=\"{}\" "
      "role=\"img\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\"><title>{}</title>",
      kind, escape_markup(name), width, height, width, height, escape_markup(title));
}

std::string cross(double x, double y, std::string_view colour, std::string_view title) {
  return fmt::format(
      "<path d=\"M{0} {1}l6 6m0 -6l-6 6\" transform=\"translate(-3 -3)\" stroke=\"{2}\" "
      "stroke-width=\"2\"><title>{3}</title></path>",
      px(x), px(y), colour, escape_markup(title));
}

// `axis` drawn from pixel `from` (its lower end) to pixel `to`.
Axis placed(Axis axis, double from, double to) {
  axis.from = from;
  axis.to = to;
  return axis;
}

// The tick labels of a horizontal axis, on the line `label_y`.
std::string tick_labels(const Axis& axis, double label_y) {
  std::string out;
  for (double t : ticks(axis)) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"tick\">{}</text>",
                       px(axis.pixel(t)), px(label_y), tick_label(t));
  }
  return out;
}

// The x (step) and y (value) axes of a line chart, each spanning every line.
std::pair<Axis, Axis> line_chart_axes(const LineChart& chart, const Frame& frame) {
  std::vector<double> xs, ys;
  for (const PlotLine& line : chart.lines) {
    xs.insert(xs.end(), line.x.begin(), line.x.end());
    ys.insert(ys.end(), line.y.begin(), line.y.end());
  }
  Axis x = value_axis(xs, false);
  if (!xs.empty()) {  // steps: no padding, the curve starts at the left edge
    const auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
    x.lo = *lo;
    x.hi = *hi > *lo ? *hi : *lo + 1.0;
  }
  return {placed(x, frame.left, frame.right),
          placed(value_axis(ys, true), frame.bottom, frame.top)};
}

// The finite runs of one line: a polyline each, or a dot for a lone value. Candidates are drawn
// thinner and fainter when there are many lines (one per seed).
std::string line_runs_svg(const PlotLine& line, std::size_t line_count, const Axis& x,
                          const Axis& y) {
  const std::string style =
      line.reference
          ? fmt::format("stroke=\"{}\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"",
                        kReferenceColour)
          : fmt::format("stroke=\"{}\" stroke-width=\"{}\" stroke-opacity=\"{}\"", kCandidateColour,
                        line_count > 4 ? 1.0 : 1.6, line_count > 4 ? 0.55 : 1.0);
  std::string out;
  for (const auto& run : polyline_runs(line, x, y)) {
    if (run.size() == 1) {  // a lone finite value (the next step was already NaN)
      out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"/>", px(run[0].first),
                         px(run[0].second), line.reference ? kReferenceColour : kCandidateColour);
      continue;
    }
    out += "<polyline fill=\"none\" " + style + " points=\"";
    for (const auto& [px_x, px_y] : run) out += px(px_x) + "," + px(px_y) + " ";
    out += "\"/>";
  }
  return out;
}

// The first NaN/Inf of a line, crossed at the top edge; a candidate's is also said in words.
std::string first_non_finite_svg(const PlotLine& line, const Axis& x, const Frame& frame) {
  std::string out;
  for (std::size_t i = 0; i < line.x.size() && i < line.y.size(); ++i) {
    if (std::isfinite(line.y[i])) continue;
    const double at = x.pixel(line.x[i]);
    out += cross(at, frame.top + 4, kWorseColour,
                 fmt::format("{} is {} at step {}", line.label, format_value(line.y[i]),
                             format_value(line.x[i])));
    if (!line.reference) {
      out += fmt::format(
          "<text x=\"{}\" y=\"{}\" fill=\"{}\" class=\"tick\" text-anchor=\"{}\">{} from "
          "step {}</text>",
          px(at + (at > frame.middle() ? -8 : 8)), px(frame.top + 8), kWorseColour,
          at > frame.middle() ? "end" : "start", format_value(line.y[i]), format_value(line.x[i]));
    }
    break;  // the first one says it; a diverged run is not finite from there on
  }
  return out;
}

std::string plot_line_svg(const PlotLine& line, std::size_t line_count, const Axis& x,
                          const Axis& y, const Frame& frame) {
  std::string out = fmt::format("<g class=\"{}\" data-label=\"{}\"><title>{}</title>",
                                line.reference ? "reference-line" : "candidate-line",
                                escape_markup(line.label), escape_markup(line.label));
  out += line_runs_svg(line, line_count, x, y);
  out += first_non_finite_svg(line, x, frame);
  return out + "</g>";
}

// A vertical marker at pixel `mx` with its label, on the side with more room.
std::string divergence_marker_svg(double mx, std::string_view label, const Frame& frame) {
  return fmt::format(
      "<g class=\"divergence\"><line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"{3}\" "
      "stroke-width=\"1.5\"/><text x=\"{4}\" y=\"{5}\" fill=\"{3}\" class=\"tick\" "
      "text-anchor=\"{6}\">{7}</text></g>",
      px(mx), px(frame.top), px(frame.bottom), kWorseColour,
      px(mx + (mx > frame.middle() ? -4 : 4)), px(frame.top + 12),
      mx > frame.middle() ? "end" : "start", escape_markup(label));
}

// Which line is the candidate and which the reference, top right.
std::string legend_svg(double right) {
  return fmt::format(
      "<g class=\"legend\"><line x1=\"{0}\" x2=\"{1}\" y1=\"12\" y2=\"12\" stroke=\"{2}\" "
      "stroke-width=\"2\"/><text x=\"{3}\" y=\"16\" class=\"tick\">candidate</text>"
      "<line x1=\"{4}\" x2=\"{5}\" y1=\"12\" y2=\"12\" stroke=\"{6}\" stroke-width=\"1.5\" "
      "stroke-dasharray=\"5 3\"/><text x=\"{7}\" y=\"16\" class=\"tick\">reference</text></g>",
      px(right - 170), px(right - 150), kCandidateColour, px(right - 146), px(right - 80),
      px(right - 60), kReferenceColour, px(right - 56));
}

// One row of per-seed values: a dot per seed (NaN/Inf crossed at the right edge) and a bar at
// their mean.
std::string sample_row_svg(const std::vector<double>& samples, const Axis& x, double row_y,
                           std::string_view label, std::string_view colour, std::string_view css) {
  std::string out =
      fmt::format("<g class=\"{}\"><text x=\"8\" y=\"{}\" class=\"tick\">{} (n={})</text>", css,
                  px(row_y + 4), label, samples.size());
  double sum = 0.0;
  std::size_t finite = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double jitter = (static_cast<double>(i % 5) - 2.0) * 3.0;  // fixed: same file twice
    if (!std::isfinite(samples[i])) {
      out += cross(x.to - 4, row_y + jitter, kWorseColour,
                   fmt::format("seed value {}", format_value(samples[i])));
      continue;
    }
    sum += samples[i];
    ++finite;
    out += fmt::format(
        "<circle class=\"sample\" cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\" fill-opacity=\"0.6\">"
        "<title>{}</title></circle>",
        px(x.pixel(samples[i])), px(row_y + jitter), colour, format_value(samples[i]));
  }
  if (finite > 0) {
    const double mean_x = x.pixel(sum / static_cast<double>(finite));
    out += fmt::format(
        "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#222\" stroke-width=\"2\">"
        "<title>mean {3}</title></line>",
        px(mean_x), px(row_y - 11), px(row_y + 11),
        format_value(sum / static_cast<double>(finite)));
  }
  return out + "</g>";
}

// The axis of the difference row and the look rows: the final CI, 0 and the margin on both
// sides, and every look's finite interval ends.
Axis difference_axis(const SeedStrip& strip, double left, double right) {
  const double limit = strip.margin;
  std::vector<double> values{*strip.ci_low, *strip.ci_high, 0.0, limit, -limit};
  for (const LookMark& look : strip.looks) {
    for (const double end : {look.lower, look.upper}) {
      if (std::isfinite(end)) values.push_back(end);
    }
  }
  return placed(value_axis(values, false), left, right);
}

// The difference with its CI on the line `diff_y`, against 0 and the margin on the worse side
// (that side shaded).
std::string difference_svg(const SeedStrip& strip, const Axis& d, double diff_y) {
  const double left = d.from, right = d.to;
  const double worse_sign = strip.direction == Direction::HigherIsBetter ? -1.0 : 1.0;
  const double limit = worse_sign * strip.margin;
  const double zero = d.pixel(0.0), edge = d.pixel(limit);
  const double shade_from = worse_sign > 0 ? edge : left, shade_to = worse_sign > 0 ? right : edge;
  std::string out = fmt::format(
      "<g class=\"difference\"><text x=\"8\" y=\"{0}\" class=\"tick\">difference, 95% CI</text>"
      "<rect x=\"{1}\" y=\"{2}\" width=\"{3}\" height=\"22\" fill=\"{4}\" fill-opacity=\"0.12\">"
      "<title>worse than the margin ({5})</title></rect>"
      "<line x1=\"{6}\" x2=\"{6}\" y1=\"{2}\" y2=\"{7}\" stroke=\"#999\"/>"
      "<line x1=\"{8}\" x2=\"{8}\" y1=\"{2}\" y2=\"{7}\" stroke=\"{4}\" stroke-dasharray=\"4 "
      "2\"/>",
      px(diff_y + 4), px(shade_from), px(diff_y - 11), px(std::max(0.0, shade_to - shade_from)),
      kWorseColour, format_value(limit), px(zero), px(diff_y + 11), px(edge));
  const std::string_view colour = verdict_colour(strip.verdict);
  out += fmt::format(
      "<line class=\"ci\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"{3}\" "
      "stroke-width=\"4\"><title>95% CI [{4}, {5}]</title></line>"
      "<circle cx=\"{6}\" cy=\"{2}\" r=\"5\" fill=\"{3}\"><title>difference {7}</title></circle>",
      px(d.pixel(*strip.ci_low)), px(d.pixel(*strip.ci_high)), px(diff_y), colour,
      format_value(*strip.ci_low), format_value(*strip.ci_high), px(d.pixel(*strip.difference)),
      format_value(*strip.difference));
  out += tick_labels(d, diff_y + 26);
  return out + "</g>";
}

// One row per look from `first_y` down, each `kLookRow` apart: "look k · n seeds" and the
// interval it saw (an infinite end drawn to the edge); the last look, the one that decided, in
// the verdict's colour, the others grey.
constexpr double kLookRow = 16;
std::string looks_svg(const SeedStrip& strip, const Axis& d, double first_y) {
  std::string out = "<g class=\"looks\">";
  const auto clamp_end = [&](double v) {
    return std::isfinite(v) ? d.pixel(v) : (v > 0 ? d.to : d.from);
  };
  for (std::size_t k = 0; k < strip.looks.size(); ++k) {
    const LookMark& look = strip.looks[k];
    const double y = first_y + kLookRow * static_cast<double>(k);
    const bool last = k + 1 == strip.looks.size();
    const std::string_view colour = last ? verdict_colour(strip.verdict) : "#9e9e9e";
    out += fmt::format(
        "<text x=\"8\" y=\"{0}\" class=\"tick\">look {1} · {2} seeds</text>"
        "<line class=\"look\" x1=\"{3}\" x2=\"{4}\" y1=\"{5}\" y2=\"{5}\" stroke=\"{6}\" "
        "stroke-width=\"{7}\"><title>look {1} ({2} seeds): {8}% CI [{9}, {10}]; {11}</title>"
        "</line>",
        px(y + 4), k + 1, look.seeds, px(clamp_end(look.lower)), px(clamp_end(look.upper)), px(y),
        colour, last ? 3 : 2, format_level_percent(look.level), format_value(look.lower),
        format_value(look.upper), escape_markup(look.outcome));
  }
  return out + "</g>";
}

}  // namespace

std::string_view verdict_colour(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
      return "#2e7d32";
    case Verdict::kRegression:
      return kWorseColour;
    case Verdict::kImproved:
      return "#1565c0";
    case Verdict::kInconclusive:
      return "#ef6c00";
    case Verdict::kNew:
      return "#6a1b9a";
    case Verdict::kNotComparable:
    case Verdict::kUngated:
      return "#757575";
  }
  return "#757575";
}

std::string line_chart_svg(const LineChart& chart) {
  constexpr int kWidth = 640, kHeight = 250;
  constexpr Frame frame{62, kWidth - 14, 26, kHeight - 34};
  const auto [x, y] = line_chart_axes(chart, frame);
  std::string out = svg_open(chart.data_kind, chart.title, kWidth, kHeight,
                             chart.title + (y.log ? " (log scale)" : ""));
  out += fmt::format("<text x=\"{}\" y=\"16\" class=\"plot-title\">{}{}</text>", px(frame.left),
                     escape_markup(chart.title), y.log ? " (log scale)" : "");
  out += axis_lines(x, y, frame);
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"tick\">{}</text>",
                     px(frame.middle()), kHeight - 4, escape_markup(chart.x_label));
  // References first, so the candidate is drawn over them.
  for (int pass = 0; pass < 2; ++pass) {
    for (const PlotLine& line : chart.lines) {
      if (line.reference == (pass == 0))
        out += plot_line_svg(line, chart.lines.size(), x, y, frame);
    }
  }
  if (chart.marker_x) {
    out += divergence_marker_svg(x.pixel(*chart.marker_x), chart.marker_label, frame);
  }
  if (std::ranges::any_of(chart.lines, &PlotLine::reference)) out += legend_svg(frame.right);
  return out + "</svg>";
}

std::string seed_strip_svg(const SeedStrip& strip) {
  constexpr int kWidth = 640, kStripHeight = 168;
  constexpr double left = 130, right = kWidth - 16;
  const bool has_difference = strip.difference && strip.ci_low && strip.ci_high;
  std::vector<double> values = strip.baseline;
  values.insert(values.end(), strip.candidate.begin(), strip.candidate.end());
  const Axis x = placed(value_axis(values, false), left, right);
  const std::string title =
      fmt::format("{}: per-seed values, baseline (n={}) and candidate (n={})", strip.metric,
                  strip.baseline.size(), strip.candidate.size());
  const bool show_looks = has_difference && !strip.looks.empty();
  const double diff_y = 136;
  const double looks_y = diff_y + 40;  // below the difference row and its tick labels
  const int height =
      show_looks ? static_cast<int>(looks_y + kLookRow * static_cast<double>(strip.looks.size()))
                 : kStripHeight;
  std::string out = svg_open("seeded", strip.metric, kWidth, height, title);
  out += fmt::format("<text x=\"8\" y=\"14\" class=\"plot-title\">{}</text>",
                     escape_markup(strip.metric));
  const double axis_y = 84;
  out += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#ccc\"/>",
                     px(left), px(right), px(axis_y));
  out += tick_labels(x, axis_y + 13);
  out += sample_row_svg(strip.baseline, x, 34, "baseline", kReferenceColour, "baseline-samples");
  out += sample_row_svg(strip.candidate, x, 62, "candidate", kCandidateColour, "candidate-samples");

  if (has_difference) {
    const Axis d = difference_axis(strip, left, right);
    out += difference_svg(strip, d, diff_y);
    if (show_looks) out += looks_svg(strip, d, looks_y);
  } else {
    out += fmt::format(
        "<text x=\"8\" y=\"{}\" class=\"tick\">no difference to show: the baseline has no "
        "samples to compare with</text>",
        px(diff_y + 4));
  }
  return out + "</svg>";
}

std::string band_svg(double baseline, double allowed, double observed, Direction direction,
                     Verdict verdict) {
  constexpr int kWidth = 180, kHeight = 22;
  constexpr double left = 6, right = kWidth - 6, mid = kHeight / 2.0;
  std::vector<double> values = {baseline - allowed, baseline + allowed, baseline};
  if (std::isfinite(observed)) values.push_back(observed);
  const Axis x = placed(value_axis(values, false), left, right);
  std::string out = svg_open("band", "", kWidth, kHeight,
                             fmt::format("baseline {} ± {}, candidate {}", format_value(baseline),
                                         format_value(allowed), format_value(observed)));
  out += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#ddd\"/>",
                     px(left), px(right), px(mid));
  if (allowed > 0.0) {
    out += fmt::format(
        "<rect x=\"{}\" y=\"4\" width=\"{}\" height=\"14\" fill=\"#9e9e9e\" "
        "fill-opacity=\"0.25\"/>",
        px(x.pixel(baseline - allowed)),
        px(x.pixel(baseline + allowed) - x.pixel(baseline - allowed)));
  }
  auto edge = [&](double v) {
    out += fmt::format(
        "<line x1=\"{0}\" x2=\"{0}\" y1=\"2\" y2=\"20\" stroke=\"{1}\" stroke-width=\"1.5\"/>",
        px(x.pixel(v)), kWorseColour);
  };
  if (direction != Direction::HigherIsBetter) edge(baseline + allowed);
  if (direction != Direction::LowerIsBetter) edge(baseline - allowed);
  out += fmt::format("<line x1=\"{0}\" x2=\"{0}\" y1=\"5\" y2=\"17\" stroke=\"#222\"/>",
                     px(x.pixel(baseline)));
  if (std::isfinite(observed)) {
    out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{}\"/>", px(x.pixel(observed)),
                       px(mid), verdict_colour(verdict));
  } else {
    out += cross(right - 4, mid, kWorseColour, format_value(observed));
  }
  return out + "</svg>";
}

std::string ratio_strip_svg(const std::string& metric, const std::vector<double>& ratios,
                            double median, double ci_low, double ci_high, double margin,
                            Verdict verdict) {
  constexpr int kWidth = 640, kHeight = 96;
  constexpr double left = 16, right = kWidth - 16, row_y = 40;
  std::vector<double> values = ratios;
  values.insert(values.end(), {1.0, 1.0 + margin, 1.0 / (1.0 + margin), ci_low, ci_high});
  const Axis x = placed(value_axis(values, false), left, right);
  std::string out = svg_open(
      "ab", metric, kWidth, kHeight,
      fmt::format(
          "{}: cost ratio per round (candidate / other; above 1: slower), median {} [{}, {}]",
          metric, format_value(median), format_value(ci_low), format_value(ci_high)));
  out += fmt::format("<text x=\"{}\" y=\"14\" class=\"plot-title\">{}</text>", px(left),
                     escape_markup(metric));
  out += fmt::format(
      "<line x1=\"{0}\" x2=\"{0}\" y1=\"22\" y2=\"60\" stroke=\"#999\"/>"
      "<line x1=\"{1}\" x2=\"{1}\" y1=\"22\" y2=\"60\" stroke=\"{2}\" stroke-dasharray=\"4 2\">"
      "<title>1 + margin</title></line>",
      px(x.pixel(1.0)), px(x.pixel(1.0 + margin)), kWorseColour);
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    if (!std::isfinite(ratios[i])) continue;
    out += fmt::format(
        "<circle class=\"round\" cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\" fill-opacity=\"0.6\">"
        "<title>round {}: {}</title></circle>",
        px(x.pixel(ratios[i])), px(row_y + (static_cast<double>(i % 5) - 2.0) * 3.0),
        kCandidateColour, i + 1, format_value(ratios[i]));
  }
  out += fmt::format(
      "<line x1=\"{0}\" x2=\"{1}\" y1=\"58\" y2=\"58\" stroke=\"{2}\" stroke-width=\"4\"/>"
      "<circle cx=\"{3}\" cy=\"58\" r=\"5\" fill=\"{2}\"/>",
      px(x.pixel(ci_low)), px(x.pixel(ci_high)), verdict_colour(verdict), px(x.pixel(median)));
  for (double t : ticks(x)) {
    out += fmt::format("<text x=\"{}\" y=\"80\" text-anchor=\"middle\" class=\"tick\">{}</text>",
                       px(x.pixel(t)), tick_label(t));
  }
  return out + "</svg>";
}

}  // namespace mlregress::internal
