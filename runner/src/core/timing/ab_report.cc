#include "timing/ab_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "mlregress/metric.h"
#include "record/json_fields.h"
#include "record/json_number.h"

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

std::vector<AbMetricResult> ab_metrics_from_json(const nlohmann::json& metrics) {
  std::vector<AbMetricResult> results;
  with_field_context("metrics", [&] {
    if (!metrics.is_array()) throw std::invalid_argument("expected an array");
  });
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    with_field_context(fmt::format("metrics[{}]", i), [&] {
      const nlohmann::json& m = metrics[i];
      AbMetricResult r;
      r.series.test = field<std::string>(m, "test");
      r.series.metric = field<std::string>(m, "metric");
      r.series.direction = enum_field<Direction>(m, "direction", parse_direction);
      r.series.candidate = numbers_field(m, "candidate");
      r.series.other = numbers_field(m, "other");
      r.cost_ratios = numbers_field(m, "cost_ratios");
      r.verdict = enum_field<Verdict>(m, "verdict", parse_verdict);
      r.note = field_or<std::string>(m, "note", "");
      if (m.contains("median_cost_ratio")) {
        r.median_cost_ratio = number_field(m, "median_cost_ratio");
        with_field_context("interval", [&] {
          const nlohmann::json& interval = field<nlohmann::json>(m, "interval");
          r.ci_low = number_field(interval, "low");
          r.ci_high = number_field(interval, "high");
          r.ci_coverage = number_field(interval, "coverage");
        });
        with_field_context("wilcoxon", [&] {
          const nlohmann::json& w = field<nlohmann::json>(m, "wilcoxon");
          r.wilcoxon_method = field<std::string>(w, "method");
          r.p_slower = number_field(w, "p_slower");
          r.p_faster = number_field(w, "p_faster");
          r.p_slower_holm = number_field(w, "p_slower_holm");
          r.p_faster_holm = number_field(w, "p_faster_holm");
        });
      }
      results.push_back(std::move(r));
    });
  }
  return results;
}

}  // namespace mlregress::internal
