// The plots of the HTML report, drawn as inline SVG: no script, no library, no request, so the
// page opens from a CI artifact or file:// under a Content-Security-Policy that forbids all
// loads, and a browser without JavaScript shows it whole. Each function returns one <svg>
// element with a <title> (what a screen reader and a tooltip say) and data- attributes that
// name what it shows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/verdict.h"
#include "mlregress/metric.h"

namespace mlregress::internal {

/// One line of a line chart.
struct PlotLine {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;   ///< NaN/Inf break the line and are marked at the top edge
  bool reference = false;  ///< drawn grey and dashed, under the candidate lines
};

struct LineChart {
  std::string title;    ///< "loss"
  std::string x_label;  ///< "step"
  std::vector<PlotLine> lines;
  /// A vertical marker, e.g. the first step where the candidate leaves the reference's band.
  std::optional<double> marker_x;
  std::string marker_label;
  std::string data_kind = "curve";  ///< data-plot attribute
};

/// A line chart; the y axis is logarithmic when every value is positive and they span more than
/// two decades (a loss falling from 2.3 to 1e-4 reads on a log axis). Lines longer than a few
/// hundred points are reduced to the minimum and maximum of each pixel column, so spikes stay.
std::string line_chart_svg(const LineChart& chart);

/// One look of a sequential seeded test (Seeds(b).up_to(cap)): the seeds so far and the
/// difference's interval at that look's level.
struct LookMark {
  int seeds = 0;
  double lower = 0.0, upper = 0.0;  ///< may be infinite (drawn to the edge)
  double level = 0.0;               ///< two-sided, e.g. 0.971
  std::string outcome;              ///< "continue", "regression", "improvement", "pass"
};

/// The per-seed values of a seeded metric, baseline above candidate, with each mean marked; and
/// below them the difference (candidate − baseline) with its 95% CI against the margin on the
/// worse side; for a sequential test, one row per look below that, on the same axis: the
/// interval each look saw and what it decided (the last look's in the verdict's colour).
struct SeedStrip {
  std::string metric;
  Direction direction = Direction::HigherIsBetter;
  std::vector<double> baseline;   ///< may be empty (no stored samples)
  std::vector<double> candidate;  ///< NaN/Inf drawn as crosses at the edge
  std::optional<double> difference, ci_low, ci_high;
  double margin = 0.0;
  Verdict verdict = Verdict::kNew;
  std::vector<LookMark> looks = {};
};
std::string seed_strip_svg(const SeedStrip& strip);

/// A single value against its baseline: the band around the baseline (shaded, the worse side in
/// red), the baseline tick and the candidate's dot in the verdict's colour.
std::string band_svg(double baseline, double allowed, double observed, Direction direction,
                     Verdict verdict);

/// A/B timing: one dot per round's cost ratio (> 1: the candidate was slower), the median with
/// its interval, 1 and the margin marked.
std::string ratio_strip_svg(const std::string& metric, const std::vector<double>& ratios,
                            double median, double ci_low, double ci_high, double margin,
                            Verdict verdict);

/// The colour a verdict is drawn in (also used by the page's badges).
std::string_view verdict_colour(Verdict verdict);

}  // namespace mlregress::internal
