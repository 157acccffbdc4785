#include "timing/ab_analysis.h"

#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>

#include "statistics/holm.h"
#include "statistics/median_interval.h"
#include "statistics/wilcoxon.h"

namespace mlregress::internal {
namespace {

// Log-ratios closer than this are the same hypothesis (examples/s = steps/s * batch differs
// from steps/s only by rounding).
constexpr double kSameHypothesisTolerance = 1e-9;

std::optional<std::string> unusable(const AbSeries& s) {
  if (s.direction == Direction::MustEqual)
    return "a timing must be higher_is_better or lower_is_better";
  if (s.candidate.size() != s.other.size()) {
    return fmt::format("{} candidate rounds but {} of the other binary", s.candidate.size(),
                       s.other.size());
  }
  if (s.candidate.empty()) return "no rounds";
  for (std::size_t i = 0; i < s.candidate.size(); ++i) {
    for (const double v : {s.candidate[i], s.other[i]}) {
      if (!(std::isfinite(v) && v > 0.0)) {
        return fmt::format("round {} measured {}; a timing must be finite and > 0", i + 1, v);
      }
    }
  }
  return std::nullopt;
}

std::string method_name(stats::WilcoxonMethod method) {
  switch (method) {
    case stats::WilcoxonMethod::kExact:
      return "exact";
    case stats::WilcoxonMethod::kNormalApproximation:
      return "normal approximation";
    case stats::WilcoxonMethod::kNoData:
      return "no data";
  }
  return "?";
}

bool same_hypothesis(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::abs(a[i] - b[i]) > kSameHypothesisTolerance) return false;
  }
  return true;
}

}  // namespace

namespace {

// One metric's cost ratios, their median interval and the Wilcoxon p-values of "slower" and
// "faster"; its log-ratios go to `log_ratios`. An unusable series is INCONCLUSIVE with the reason.
AbMetricResult analyse_series(const AbSeries& series, std::vector<double>& log_ratios) {
  AbMetricResult r;
  r.series = series;
  if (const auto reason = unusable(r.series)) {
    r.verdict = Verdict::kInconclusive;
    r.note = *reason;
    return r;
  }
  const bool rate = r.series.direction == Direction::HigherIsBetter;
  for (std::size_t i = 0; i < r.series.candidate.size(); ++i) {
    const double cost = rate ? r.series.other[i] / r.series.candidate[i]
                             : r.series.candidate[i] / r.series.other[i];
    r.cost_ratios.push_back(cost);
    log_ratios.push_back(std::log(cost));
  }
  // The interval is computed on the logs and mapped back, which is the same thing for order
  // statistics (exp is monotone) but keeps an even count's median a geometric mean.
  const stats::MedianInterval ci = stats::median_interval(log_ratios);
  r.median_cost_ratio = std::exp(ci.median);
  r.ci_low = std::exp(ci.low);
  r.ci_high = std::exp(ci.high);
  r.ci_coverage = ci.coverage;
  const auto slower = stats::wilcoxon_signed_rank(log_ratios, stats::Alternative::kGreater);
  const auto faster = stats::wilcoxon_signed_rank(log_ratios, stats::Alternative::kLess);
  r.p_slower = slower.p_value;
  r.p_faster = faster.p_value;
  r.wilcoxon_method = method_name(slower.method);
  return r;
}

// Holm over distinct hypotheses: the first metric of each group of identical ratio series
// stands for the group.
struct HypothesisGroups {
  std::vector<std::size_t> group_of;         // per metric
  std::vector<std::size_t> representatives;  // per group: the metric that stands for it
};

HypothesisGroups hypothesis_groups(const std::vector<AbMetricResult>& results,
                                   const std::vector<std::vector<double>>& log_ratios) {
  std::vector<std::size_t> group_of(log_ratios.size(), 0);
  std::vector<std::size_t> representatives;
  for (std::size_t m = 0; m < results.size(); ++m) {
    if (!results[m].note.empty()) continue;
    std::optional<std::size_t> group;
    for (std::size_t g = 0; g < representatives.size() && !group; ++g) {
      if (same_hypothesis(log_ratios[representatives[g]], log_ratios[m])) group = g;
    }
    if (!group) {
      group = representatives.size();
      representatives.push_back(m);
    }
    group_of[m] = *group;
  }
  return {std::move(group_of), std::move(representatives)};
}

// The verdict of a metric whose Holm-adjusted p-values are set.
void decide_metric(AbMetricResult& r, const AbSettings& settings) {
  const double slow_limit = 1.0 + settings.margin;
  if (r.p_slower_holm < settings.alpha && r.median_cost_ratio > slow_limit) {
    r.verdict = Verdict::kRegression;
  } else if (r.p_faster_holm < settings.alpha && r.median_cost_ratio < 1.0 / slow_limit) {
    r.verdict = Verdict::kImproved;
  } else if (r.median_cost_ratio > slow_limit) {
    r.verdict = Verdict::kInconclusive;
    r.note = fmt::format(
        "median {:+.1f}% slower, but p = {:.3g} (Holm) is not below {}: "
        "more rounds would tell",
        100.0 * (r.median_cost_ratio - 1.0), r.p_slower_holm, settings.alpha);
  } else {
    r.verdict = Verdict::kPass;
  }
}

}  // namespace

std::vector<AbMetricResult> analyse_ab(const std::vector<AbSeries>& series,
                                       const AbSettings& settings) {
  std::vector<AbMetricResult> results;
  std::vector<std::vector<double>> log_ratios(series.size());
  for (std::size_t m = 0; m < series.size(); ++m) {
    results.push_back(analyse_series(series[m], log_ratios[m]));
  }

  const HypothesisGroups groups = hypothesis_groups(results, log_ratios);
  std::vector<double> p_slower, p_faster;
  for (const std::size_t m : groups.representatives) {
    p_slower.push_back(results[m].p_slower);
    p_faster.push_back(results[m].p_faster);
  }
  const std::vector<double> slower_holm = stats::holm_adjust(p_slower);
  const std::vector<double> faster_holm = stats::holm_adjust(p_faster);

  for (std::size_t m = 0; m < results.size(); ++m) {
    AbMetricResult& r = results[m];
    if (!r.note.empty()) continue;
    r.p_slower_holm = slower_holm[groups.group_of[m]];
    r.p_faster_holm = faster_holm[groups.group_of[m]];
    decide_metric(r, settings);
  }
  return results;
}

}  // namespace mlregress::internal
