#include "timing/ab_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "mlregress/metric.h"
#include "storage/json_number.h"

namespace mlregress::internal {
namespace {

// "+15.2%" for a cost ratio of 1.152: how much longer the candidate takes.
std::string percent(double cost_ratio) {
  return fmt::format("{:+.1f}%", 100.0 * (cost_ratio - 1.0));
}

nlohmann::json numbers(const std::vector<double>& values) {
  nlohmann::json array = nlohmann::json::array();
  for (const double v : values) array.push_back(json_number(v));
  return array;
}

}  // namespace

std::string render_ab_table(const std::vector<AbMetricResult>& results,
                            const AbSettings& settings) {
  std::size_t width = 6;
  for (const AbMetricResult& r : results) {
    width = std::max(width, r.series.test.size() + 1 + r.series.metric.size());
  }
  std::string out = fmt::format("{:<{}}  {:>8}  {:>19}  {:>9}  {}\n", "metric", width, "time",
                                "interval", "p slower", "verdict");
  for (const AbMetricResult& r : results) {
    const std::string name = r.series.test + "." + r.series.metric;
    if (r.cost_ratios.empty()) {
      out += fmt::format("{:<{}}  {:>8}  {:>19}  {:>9}  {}\n", name, width, "-", "-", "-",
                         verdict_name(r.verdict));
      continue;
    }
    out += fmt::format("{:<{}}  {:>8}  {:>19}  {:>9.3g}  {}\n", name, width,
                       percent(r.median_cost_ratio),
                       fmt::format("[{}, {}]", percent(r.ci_low), percent(r.ci_high)),
                       r.p_slower_holm, verdict_name(r.verdict));
  }
  double coverage = 1.0;
  for (const AbMetricResult& r : results) {
    if (!r.cost_ratios.empty()) coverage = std::min(coverage, r.ci_coverage);
  }
  out += fmt::format(
      "time: median over the rounds of candidate time / other time - 1 (+ = candidate slower);\n"
      "interval: order statistics, {:.1f}% coverage; p slower: one-sided Wilcoxon signed-rank on\n"
      "the log ratios, Holm-adjusted. REGRESSION needs p < {} and a median beyond +{:.1f}%.\n",
      100.0 * coverage, settings.alpha, 100.0 * settings.margin);
  for (const AbMetricResult& r : results) {
    if (!r.note.empty())
      out += fmt::format("  {}.{}: {}\n", r.series.test, r.series.metric, r.note);
  }
  return out;
}

nlohmann::json ab_metrics_json(const std::vector<AbMetricResult>& results) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const AbMetricResult& r : results) {
    nlohmann::json m = {{"test", r.series.test},
                        {"metric", r.series.metric},
                        {"direction", direction_name(r.series.direction)},
                        {"candidate", numbers(r.series.candidate)},
                        {"other", numbers(r.series.other)},
                        {"cost_ratios", numbers(r.cost_ratios)},
                        {"verdict", verdict_name(r.verdict)},
                        {"note", r.note}};
    if (!r.cost_ratios.empty()) {
      m["median_cost_ratio"] = json_number(r.median_cost_ratio);
      m["interval"] = {{"low", json_number(r.ci_low)},
                       {"high", json_number(r.ci_high)},
                       {"coverage", json_number(r.ci_coverage)},
                       {"method", "order statistics of the per-round ratios"}};
      m["wilcoxon"] = {{"method", r.wilcoxon_method},
                       {"p_slower", json_number(r.p_slower)},
                       {"p_faster", json_number(r.p_faster)},
                       {"p_slower_holm", json_number(r.p_slower_holm)},
                       {"p_faster_holm", json_number(r.p_faster_holm)}};
    }
    metrics.push_back(std::move(m));
  }
  return metrics;
}

}  // namespace mlregress::internal
