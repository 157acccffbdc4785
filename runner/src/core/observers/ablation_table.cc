#include "observers/ablation_table.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "observers/seed_spread.h"
#include "record/tuning_budget.h"
#include "statistics/holm.h"
#include "statistics/median_interval.h"
#include "statistics/moments.h"
#include "statistics/paired.h"
#include "statistics/robust_summary.h"

namespace mlregress::internal {
namespace {

// Values of one variant's metric by seed.
using BySeed = std::map<std::uint64_t, double>;

struct Comparison {
  std::string variant, metric;
  std::size_t pairs = 0;
  double difference = 0.0, ci_lower = 0.0, ci_upper = 0.0, p = 1.0;
  std::string problem;
};

Comparison compare_paired(const BySeed& variant, const BySeed& reference) {
  Comparison c;
  std::vector<double> x, y;
  for (const auto& [seed, value] : variant) {
    auto it = reference.find(seed);
    if (it == reference.end()) continue;
    x.push_back(value);
    y.push_back(it->second);
  }
  c.pairs = x.size();
  if (x.size() < 2) {
    c.problem = "fewer than 2 shared seeds";
    return c;
  }
  try {
    const stats::TTestResult t = stats::paired_t_test(x, y);
    c.difference = t.estimate;
    if (std::isnan(t.p_value)) {
      // Every seed moved by exactly the same amount: the difference is known without error.
      c.ci_lower = c.ci_upper = t.estimate;
      c.p = t.estimate == 0.0 ? 1.0 : 0.0;
    } else {
      c.ci_lower = t.confidence_interval.lower;
      c.ci_upper = t.confidence_interval.upper;
      c.p = t.p_value;
    }
  } catch (const std::invalid_argument& error) {
    c.problem = error.what();
  }
  return c;
}

std::string values_text(const BySeed& values) {
  std::vector<double> in_seed_order;
  for (const auto& entry : values) in_seed_order.push_back(entry.second);
  return fmt::format("{:.4g}", fmt::join(in_seed_order, ", "));
}

// The ledger's passed runs grouped: test -> variant order, and (variant, metric) -> values by
// seed; metrics in first-seen order.
struct GroupedLedger {
  std::vector<std::string> tests;
  std::map<std::string, std::vector<std::string>> variants, metrics;
  /// test -> the random_search() method of each variant, in variant order ("" for a hand one)
  std::map<std::string, std::vector<std::string>> methods;
  std::map<std::string, std::map<std::pair<std::string, std::string>, BySeed>> values;
};

GroupedLedger group_ledger(std::vector<SeedLedgerLine> lines, const std::string& only_test) {
  // The ledger is in finishing order, which depends on --jobs; the table follows the declared one.
  std::stable_sort(lines.begin(), lines.end(),
                   [](const SeedLedgerLine& a, const SeedLedgerLine& b) {
                     return a.run.variant_index < b.run.variant_index;
                   });
  GroupedLedger ledger;
  for (const SeedLedgerLine& line : lines) {
    if (!only_test.empty() && line.test != only_test) continue;
    if (std::find(ledger.tests.begin(), ledger.tests.end(), line.test) == ledger.tests.end())
      ledger.tests.push_back(line.test);
    auto& vs = ledger.variants[line.test];
    if (std::find(vs.begin(), vs.end(), line.run.variant) == vs.end()) {
      vs.push_back(line.run.variant);
      ledger.methods[line.test].push_back(line.run.method);
    }
    if (line.run.status != TestStatus::kPassed) continue;
    for (const MetricRecord& metric : line.run.metrics) {
      auto& ms = ledger.metrics[line.test];
      if (std::find(ms.begin(), ms.end(), metric.name) == ms.end()) ms.push_back(metric.name);
      ledger.values[line.test][{line.run.variant, metric.name}][line.run.seed] = metric.value;
    }
  }
  return ledger;
}

// "mean ± sem [95% CI low, high] (n)"; the interval left out below 2 seeds.
std::string mean_text(const stats::MeanInterval& m) {
  if (std::isnan(m.sem)) return fmt::format("{:.4f} ({})", m.mean, m.n);
  return fmt::format("{:.4f} ± {:.4f} [95% CI {:.4f}, {:.4f}] ({})", m.mean, m.sem, m.low, m.high,
                     m.n);
}

// --robust: "IQM x [bootstrap 95% a, b] · median m [c, d] (93.8%)", for few seeds or one that
// diverged (seeded-tests.md, "Few seeds: robust summaries").
std::string robust_text(const std::vector<double>& samples) {
  bool finite = !samples.empty();
  for (const double v : samples) finite = finite && std::isfinite(v);
  if (!finite) return "robust summaries need finite values";
  const stats::BootstrapInterval iqm =
      stats::bootstrap_interval(samples, stats::interquartile_mean);
  const stats::MedianInterval median = stats::median_interval(samples);
  return fmt::format(
      "IQM {:.4f} [bootstrap 95% {:.4f}, {:.4f}] · median {:.4f} [{:.4f}, {:.4f}] "
      "({:.1f}%)",
      iqm.estimate, iqm.low, iqm.high, median.median, median.low, median.high,
      100.0 * median.coverage);
}

// One metric's block: per variant the mean with its standard error and 95% t interval, the sd
// and the per-seed values (with `robust`, a line of robust summaries under each). Each variant
// after the first is compared with the first, into `comparisons`.
std::string metric_block(GroupedLedger& ledger, const std::string& test, const std::string& metric,
                         bool robust, std::vector<Comparison>& comparisons) {
  const std::vector<std::string>& vs = ledger.variants[test];
  std::string body = fmt::format("  {}\n  {:<16} {:<44} {:<8} {}\n", metric, "variant",
                                 "mean ± sem [95% CI] (n)", "sd", "per seed");
  for (const std::string& v : vs) {
    const BySeed& by_seed = ledger.values[test][{v, metric}];
    std::vector<double> samples;
    for (const auto& [seed, value] : by_seed) samples.push_back(value);
    const stats::MeanInterval m = stats::mean_interval(samples);
    body +=
        fmt::format("  {:<16} {:<44} {:<8.4f} {}\n", v, mean_text(m), m.sd, values_text(by_seed));
    if (robust) body += fmt::format("  {:<16} {}\n", "", robust_text(samples));
    if (v != vs.front()) {
      Comparison c = compare_paired(by_seed, ledger.values[test][{vs.front(), metric}]);
      c.variant = v;
      c.metric = metric;
      comparisons.push_back(std::move(c));
    }
  }
  return body;
}

// Each comparison with the first variant, its p-value Holm-adjusted across the comparisons that
// have one.
std::string comparison_rows(const std::string& first_variant,
                            const std::vector<Comparison>& comparisons) {
  std::vector<double> p_values;
  for (const Comparison& c : comparisons) {
    if (c.problem.empty()) p_values.push_back(c.p);
  }
  const std::vector<double> adjusted = stats::holm_adjust(p_values);
  std::string out = fmt::format(
      "  vs {} (paired t on per-seed differences, two-sided, Holm across {} comparisons)\n",
      first_variant, p_values.size());
  std::size_t next = 0;
  for (const Comparison& c : comparisons) {
    if (!c.problem.empty()) {
      out += fmt::format("  {:<16} {:<12} {}\n", c.variant, c.metric, c.problem);
      continue;
    }
    out += fmt::format(
        "  {:<16} {:<12} diff {:+.4f} [95% CI {:+.4f}, {:+.4f}] · {} pairs · p={:.2g} (Holm "
        "{:.2g})\n",
        c.variant, c.metric, c.difference, c.ci_lower, c.ci_upper, c.pairs, c.p, adjusted[next++]);
  }
  return out;
}

// A randomness study's spread over seeds, from the same grouped values ("" for another test).
std::string spread_section(GroupedLedger& ledger, const std::string& test) {
  SpreadSamples samples;
  for (const std::string& metric : ledger.metrics[test]) {
    for (const std::string& v : ledger.variants[test]) {
      std::vector<double>& values = samples[metric][v];
      for (const auto& entry : ledger.values[test][{v, metric}]) values.push_back(entry.second);
    }
  }
  return spread_over_seeds_block(ledger.variants[test], ledger.metrics[test], samples);
}

}  // namespace

std::string render_ablation_tables(std::vector<SeedLedgerLine> lines, const std::string& only_test,
                                   bool robust) {
  GroupedLedger ledger = group_ledger(std::move(lines), only_test);
  std::string out;
  for (const std::string& test : ledger.tests) {
    const std::vector<std::string>& vs = ledger.variants[test];
    if (vs.size() < 2) continue;
    std::vector<Comparison> comparisons;
    std::string body;
    for (const std::string& metric : ledger.metrics[test]) {
      body += metric_block(ledger, test, metric, robust, comparisons);
    }
    out += fmt::format("ABLATION {} ({} variants over the same seeds; from seeds.jsonl)\n", test,
                       vs.size());
    out += budget_lines(count_trials(ledger.methods[test]), "  ") + body;
    out += comparison_rows(vs.front(), comparisons);
    out += spread_section(ledger, test);
  }
  return out;
}

}  // namespace mlregress::internal
