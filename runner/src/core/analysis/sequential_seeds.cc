#include "analysis/sequential_seeds.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "analysis/anytime_seeds.h"
#include "statistics/block_combination.h"
#include "statistics/t_distribution.h"
#include "statistics/t_sequential_boundaries.h"
#include "support/enum_names.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

constexpr auto kLookOutcomeNames =
    enum_names<LookOutcome>({{LookOutcome::kContinue, "continue"},
                             {LookOutcome::kRegression, "regression"},
                             {LookOutcome::kImproved, "improvement"},
                             {LookOutcome::kPass, "pass"}});

// The values (and seeds) begin .. end - 1 of a sample, in the order they ran.
SeedSamples seeds_between(const SeedSamples& samples, int begin, int end) {
  const auto from = static_cast<std::ptrdiff_t>(begin);
  const auto to = static_cast<std::ptrdiff_t>(end);
  return {std::vector<double>(samples.values.begin() + from, samples.values.begin() + to),
          std::vector<std::uint64_t>(samples.seeds.begin() + from, samples.seeds.begin() + to)};
}

// The first n values (and seeds) of a sample.
SeedSamples first(const SeedSamples& samples, int n) { return seeds_between(samples, 0, n); }

// ", settled below 0.0005 = alpha / 20 hypotheses" when the run's family has more than one.
std::string family_clause(const SequentialLook& look) {
  if (look.family <= 1) return "";
  return fmt::format("; settles below {:.2g} = alpha / {} hypotheses", look.decision_level,
                     look.family);
}

// "; the PASS error is spent early (pass_early)": the interval's level follows from it.
std::string pass_spending_clause(const SequentialLook& look) {
  if (look.pass_spending != stats::SpendingFunction::kPocock) return "";
  return "; the PASS error is spent early (pass_early)";
}

// The one-sided p-values of block k's own paired t test, toward worse and toward better. A block
// the t test cannot judge (a last block of one seed) adds no evidence either way: p 0.5.
std::pair<double, double> block_p_values(const std::string& metric, Direction direction,
                                         double margin, const SeedSamples& candidate,
                                         const SeedSamples& baseline, const std::vector<int>& looks,
                                         std::size_t k) {
  // Block k (0-based): the seeds after look k - 1, up to look k.
  const SeedSamples c = seeds_between(candidate, k == 0 ? 0 : looks[k - 1], looks[k]);
  const std::optional<SeedSamples> b = samples_of_seeds(baseline, c.seeds);
  if (!b || c.values.size() < 2) return {0.5, 0.5};
  const DistributionAnalysis a = analyse_distribution(metric, direction, margin, c, *b);
  if (!a.problem.empty()) return {0.5, 0.5};
  return {a.p_worse, a.p_better};
}

}  // namespace

std::vector<int> sequential_looks(const SequentialPlan& plan) {
  if (plan.block < 2 || plan.cap < plan.block || plan.next_block < 0 || plan.next_block == 1) {
    throw std::invalid_argument(fmt::format(
        "a sequential plan needs blocks of at least 2 seeds and a cap of at least one block "
        "(block {}, then blocks of {}, cap {})",
        plan.block, plan.next_block > 0 ? plan.next_block : plan.block, plan.cap));
  }
  const int next = plan.next_block > 0 ? plan.next_block : plan.block;
  std::vector<int> looks;
  for (int n = plan.block; n < plan.cap; n += next) looks.push_back(n);
  looks.push_back(plan.cap);
  return looks;
}

std::vector<SequentialLook> look_sequentially(const std::string& metric, Direction direction,
                                              double margin, const SeedSamples& candidate,
                                              const SeedSamples& baseline,
                                              const SequentialPlan& plan, double alpha,
                                              const CovariateSamples* covariate) {
  if (plan.anytime)
    return look_anytime(metric, direction, margin, candidate, baseline, plan, alpha, covariate);
  const std::vector<int> looks = sequential_looks(plan);
  const int available = static_cast<int>(std::min(candidate.values.size(), candidate.seeds.size()));
  // Paired looks when the baseline holds as many seeds as the plan may run, the candidate's among
  // them (the runner runs the baseline's seeds); the information then grows with the seeds.
  // Otherwise each look compares with the whole baseline as an independent arm.
  const bool paired = baseline.seeds.size() >= static_cast<std::size_t>(plan.cap) &&
                      samples_of_seeds(baseline, first(candidate, available).seeds).has_value();
  const std::vector<double> t =
      stats::information_fractions(looks, paired ? 0 : static_cast<int>(baseline.values.size()));
  const std::vector<double> worse_spent =
      stats::spent_increments(t, alpha, plan.regression_spending);
  // Exact boundaries only where they can be exact for the t tests: paired looks, whose t
  // statistics' joint law depends on the seed counts alone. Against a fixed baseline arm (fresh
  // seeds) it also depends on the unknown variances, so there the union bound holds the level.
  const std::vector<double> pass_spent =
      plan.exact_pass_boundaries && paired
          ? stats::t_nominal_p_thresholds(looks, plan.pass_error, plan.pass_spending)
          : stats::spent_increments(t, plan.pass_error, plan.pass_spending);

  // Bonferroni's level for the run's family: what Holm's correction will certainly reject.
  const double decision_level = alpha / std::max(1, plan.family);
  const bool exact_regression = plan.exact_regression_boundaries && paired;
  const std::vector<double> exact_thresholds =
      exact_regression ? stats::nominal_p_thresholds(t, decision_level, plan.regression_spending)
                       : std::vector<double>{};
  std::vector<double> block_z_worse, block_z_better, z_worse, z_better;
  std::vector<int> block_sizes;

  std::vector<SequentialLook> taken;
  // A seed that diverged decides the metric at once, as in the single-look gate, wherever it
  // is among the seeds that ran; fewer seeds than one block cannot be looked at.
  const SeedSamples ran = first(candidate, available);
  const bool diverged =
      std::any_of(ran.values.begin(), ran.values.end(), [](double v) { return !std::isfinite(v); });
  if (diverged || available < looks.front()) {
    SequentialLook look;
    look.seeds = available;
    look.analysis = analyse_distribution(metric, direction, margin, ran, baseline, covariate);
    if (diverged) {
      look.outcome = LookOutcome::kRegression;
      look.p_worse_sequential = 0.0;
    } else {
      look.analysis.problem = fmt::format("{} seeds ran, fewer than the plan's first look ({})",
                                          available, looks.front());
    }
    taken.push_back(look);
    return taken;
  }
  double p_worse_sequential = std::numeric_limits<double>::infinity();
  double p_better_sequential = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < looks.size() && looks[k] <= available; ++k) {
    SequentialLook look;
    look.seeds = looks[k];
    look.information = t[k];
    look.decision_level = decision_level;
    look.family = std::max(1, plan.family);
    // The share of the decision level this look tests at: exact boundaries allow more than the
    // union bound's increment, because they count only the paths that have not crossed yet.
    look.worse_weight =
        exact_regression ? exact_thresholds[k] / decision_level : worse_spent[k] / alpha;
    const double pass_tail = pass_spent[k];  // the one-sided error this look's PASS may spend
    look.pass_level = 1.0 - 2.0 * pass_tail;
    look.pass_spending = plan.pass_spending;
    const SeedSamples c = first(candidate, look.seeds);
    const std::optional<SeedSamples> same_seeds =
        paired ? samples_of_seeds(baseline, c.seeds) : std::nullopt;
    look.analysis = analyse_distribution(metric, direction, margin, c,
                                         same_seeds.value_or(baseline), covariate);
    const DistributionAnalysis& a = look.analysis;
    if (!a.problem.empty()) {
      taken.push_back(look);
      break;
    }
    if (exact_regression) {
      const auto [p_worse_block, p_better_block] =
          block_p_values(metric, direction, margin, candidate, baseline, looks, k);
      block_z_worse.push_back(stats::block_z(p_worse_block));
      block_z_better.push_back(stats::block_z(p_better_block));
      block_sizes.push_back(looks[k] - (k == 0 ? 0 : looks[k - 1]));
      z_worse.push_back(stats::combined_z(block_z_worse, block_sizes));
      z_better.push_back(stats::combined_z(block_z_better, block_sizes));
      p_worse_sequential =
          stats::crossing_p_value(z_worse, t, alpha, plan.family, plan.regression_spending);
      p_better_sequential =
          stats::crossing_p_value(z_better, t, alpha, plan.family, plan.regression_spending);
      look.exact_regression = true;
      look.z_worse = z_worse.back();
      look.z_better = z_better.back();
      look.regression_boundary = stats::block_z(exact_thresholds[k]);
    } else if (look.worse_weight > 0.0) {
      // A look whose share underflowed to 0 can reject nothing (0 / 0 must not become NaN).
      p_worse_sequential = std::min(p_worse_sequential, a.p_worse / look.worse_weight);
      p_better_sequential = std::min(p_better_sequential, a.p_better / look.worse_weight);
    }
    look.p_worse_sequential = std::min(1.0, p_worse_sequential);
    look.p_better_sequential = std::min(1.0, p_better_sequential);
    if (a.standard_error > 0.0) {
      // Nothing left to spend: an unbounded interval, which cannot PASS.
      const double half = pass_tail > 0.0
                              ? stats::t_upper_quantile(pass_tail, a.df) * a.standard_error
                              : std::numeric_limits<double>::infinity();
      look.interval_lower = a.difference - half;
      look.interval_upper = a.difference + half;
    } else {
      look.interval_lower = look.interval_upper = a.difference;
    }
    const double worse = degradation_of(direction, a.difference);
    const double worst_case =
        direction == Direction::HigherIsBetter ? -look.interval_lower : look.interval_upper;
    if (look.p_worse_sequential < decision_level && worse > margin) {
      look.outcome = LookOutcome::kRegression;
    } else if (look.p_better_sequential < decision_level && -worse > margin) {
      look.outcome = LookOutcome::kImproved;
    } else if (worst_case <= margin) {
      look.outcome = LookOutcome::kPass;
    }
    taken.push_back(look);
    if (look.outcome != LookOutcome::kContinue) break;
  }
  return taken;
}

std::string_view look_outcome_name(LookOutcome outcome) {
  return kLookOutcomeNames.name(outcome, "continue");
}

std::optional<LookOutcome> parse_look_outcome(std::string_view name) {
  return kLookOutcomeNames.parse(name);
}

DistributionAnalysis sequential_decision_analysis(const SequentialLook& last) {
  DistributionAnalysis a = last.analysis;
  if (!a.problem.empty() || a.candidate_not_finite) return a;
  a.p_worse = last.p_worse_sequential;
  a.p_better = last.p_better_sequential;
  a.pass_interval =
      DistributionAnalysis::Interval{last.pass_level, last.interval_lower, last.interval_upper};
  return a;
}

std::string format_look(const SequentialLook& look) {
  if (look.anytime) return format_anytime_look(look);
  const DistributionAnalysis& a = look.analysis;
  if (!a.problem.empty()) {
    return fmt::format("look at {} seeds: not tested: {}", look.seeds, a.problem);
  }
  const std::string_view outcome = look_outcome_name(look.outcome);
  if (look.exact_regression) {
    return fmt::format(
        "look at {} seeds: diff {:.4g} [{}% CI {:.4g}, {:.4g}], p(worse) {:.2g} → sequential "
        "{:.2g} (blocks combined: z {:.3g} against the exact boundary {:.3g}{}{}); {}",
        look.seeds, a.difference, format_level_percent(look.pass_level), look.interval_lower,
        look.interval_upper, a.p_worse, look.p_worse_sequential, look.z_worse,
        look.regression_boundary, family_clause(look), pass_spending_clause(look), outcome);
  }
  return fmt::format(
      "look at {} seeds: diff {:.4g} [{}% CI {:.4g}, {:.4g}], p(worse) {:.2g} → sequential "
      "{:.2g} (this look may spend {:.0f}% of alpha{}{}); {}",
      look.seeds, a.difference, format_level_percent(look.pass_level), look.interval_lower,
      look.interval_upper, a.p_worse, look.p_worse_sequential, 100.0 * look.worse_weight,
      family_clause(look), pass_spending_clause(look), outcome);
}

}  // namespace mlregress::internal
