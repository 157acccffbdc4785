#include "analysis/sequential_seeds.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "analysis/anytime_seeds.h"
#include "analysis/likelihood_ratio_seeds.h"
#include "analysis/sequential_look_steps.h"
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

// What the plan fixes before the first look: where it looks, whether the looks are paired, and
// the error each look may spend.
struct LookSchedule {
  std::vector<int> looks;
  bool paired = false;
  std::vector<double> t;            // the information fraction of each look
  std::vector<double> worse_spent;  // the union bound's increments of alpha
  std::vector<double> pass_spent;   // the one-sided error each look's PASS may spend
  double decision_level = 0.0;      // alpha / family
  bool exact_regression = false;
  std::vector<double> exact_thresholds;  // with exact_regression: each look's nominal level
};

LookSchedule schedule_looks(const SeedSamples& candidate, const SeedSamples& baseline,
                            const SequentialPlan& plan, double alpha) {
  LookSchedule s;
  s.looks = sequential_looks(plan);
  // The information then grows with the seeds (paired), or is measured against the whole
  // baseline as an independent arm.
  s.paired =
      looks_are_paired(first_seeds(candidate, seeds_that_ran(candidate)), baseline, plan.cap);
  s.t = stats::information_fractions(s.looks,
                                     s.paired ? 0 : static_cast<int>(baseline.values.size()));
  s.worse_spent = stats::spent_increments(s.t, alpha, plan.regression_spending);
  // Exact boundaries only where they can be exact for the t tests: paired looks, whose t
  // statistics' joint law depends on the seed counts alone. Against a fixed baseline arm (fresh
  // seeds) it also depends on the unknown variances, so there the union bound holds the level.
  s.pass_spent = plan.exact_pass_boundaries && s.paired
                     ? stats::t_nominal_p_thresholds(s.looks, plan.pass_error, plan.pass_spending)
                     : stats::spent_increments(s.t, plan.pass_error, plan.pass_spending);

  // Bonferroni's level for the run's family: what Holm's correction will certainly reject.
  s.decision_level = alpha / std::max(1, plan.family);
  s.exact_regression = plan.exact_regression_boundaries && s.paired;
  s.exact_thresholds = s.exact_regression ? stats::nominal_p_thresholds(s.t, s.decision_level,
                                                                        plan.regression_spending)
                                          : std::vector<double>{};
  return s;
}

// What the looks so far leave to the next: the sequential p-values (before capping at 1) and,
// with exact REGRESSION boundaries, the blocks' statistics combined so far.
struct RunningEvidence {
  double p_worse_sequential = std::numeric_limits<double>::infinity();
  double p_better_sequential = std::numeric_limits<double>::infinity();
  std::vector<double> block_z_worse, block_z_better, z_worse, z_better;
  std::vector<int> block_sizes;
};

// Look k as the plan lays it out, before its seeds are analysed.
SequentialLook planned_look(const LookSchedule& schedule, const SequentialPlan& plan, double alpha,
                            std::size_t k) {
  SequentialLook look;
  look.seeds = schedule.looks[k];
  look.information = schedule.t[k];
  look.decision_level = schedule.decision_level;
  look.family = std::max(1, plan.family);
  // The share of the decision level this look tests at: exact boundaries allow more than the
  // union bound's increment, because they count only the paths that have not crossed yet.
  look.worse_weight = schedule.exact_regression
                          ? schedule.exact_thresholds[k] / schedule.decision_level
                          : schedule.worse_spent[k] / alpha;
  const double pass_tail =
      schedule.pass_spent[k];  // the one-sided error this look's PASS may spend
  look.pass_level = 1.0 - 2.0 * pass_tail;
  look.pass_spending = plan.pass_spending;
  return look;
}

// Exact REGRESSION boundaries: block k's own t tests join the combined statistics, whose crossing
// p-values are the sequential ones.
void combine_blocks(SequentialLook& look, const SeedComparison& comparison,
                    const LookSchedule& schedule, const SequentialPlan& plan, double alpha,
                    std::size_t k, RunningEvidence& e) {
  const std::vector<int>& looks = schedule.looks;
  const auto [p_worse_block, p_better_block] =
      block_p_values(comparison.metric, comparison.direction, comparison.margin,
                     comparison.candidate, comparison.baseline, looks, k);
  e.block_z_worse.push_back(stats::block_z(p_worse_block));
  e.block_z_better.push_back(stats::block_z(p_better_block));
  e.block_sizes.push_back(looks[k] - (k == 0 ? 0 : looks[k - 1]));
  e.z_worse.push_back(stats::combined_z(e.block_z_worse, e.block_sizes));
  e.z_better.push_back(stats::combined_z(e.block_z_better, e.block_sizes));
  e.p_worse_sequential =
      stats::crossing_p_value(e.z_worse, schedule.t, alpha, plan.family, plan.regression_spending);
  e.p_better_sequential =
      stats::crossing_p_value(e.z_better, schedule.t, alpha, plan.family, plan.regression_spending);
  look.exact_regression = true;
  look.z_worse = e.z_worse.back();
  look.z_better = e.z_better.back();
  look.regression_boundary = stats::block_z(schedule.exact_thresholds[k]);
}

// The union bound: the sequential p-value is the least p_j / w_j of the looks so far. Only for
// a look whose share is above 0: one that underflowed to 0 can reject nothing (0 / 0 must not
// become NaN).
void spend_by_union_bound(const SequentialLook& look, RunningEvidence& e) {
  const DistributionAnalysis& a = look.analysis;
  e.p_worse_sequential = std::min(e.p_worse_sequential, a.p_worse / look.worse_weight);
  e.p_better_sequential = std::min(e.p_better_sequential, a.p_better / look.worse_weight);
}

// The look's interval at its pass level, around the analysis's difference.
void set_pass_interval(SequentialLook& look, double pass_tail) {
  const DistributionAnalysis& a = look.analysis;
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
}

}  // namespace

std::vector<int> sequential_looks(const SequentialPlan& plan) {
  if (plan.block < 2 || plan.cap < plan.block || plan.next_block < 0 ||
      (plan.next_block == 1 && !plan.likelihood_ratio)) {
    throw std::invalid_argument(fmt::format(
        "a sequential plan needs a first block of at least 2 seeds, later blocks of at least 2 "
        "(1 in a likelihood-ratio plan) and a cap of at least one block (block {}, then blocks "
        "of {}, cap {})",
        plan.block, plan.next_block > 0 ? plan.next_block : plan.block, plan.cap));
  }
  const int next = plan.next_block > 0 ? plan.next_block : plan.block;
  std::vector<int> looks;
  for (int n = plan.block; n < plan.cap; n += next) looks.push_back(n);
  looks.push_back(plan.cap);
  return looks;
}

std::string pass_boundary_clause(bool likelihood_ratio, double rise, int from_seeds,
                                 bool constant_pass) {
  if (rise > 0.0)
    return fmt::format(", PASS boundary rising by {:g} from {} seeds", rise, from_seeds);
  if (!likelihood_ratio) return "";
  return constant_pass ? ", constant PASS boundary" : ", PASS boundary chosen per shape";
}

std::string look_pass_boundary_clause(const SequentialLook& look) {
  if (!look.likelihood_ratio || !(look.pass_rise > 0.0)) return "";
  const std::string where =
      look.pass_rise_to == look.pass_rise_from
          ? fmt::format("raised by {:.4g} at {} seeds", look.pass_rise, look.pass_rise_from)
      : look.pass_rise_to > 0
          ? fmt::format("raised by {:.4g} from {} to {} seeds", look.pass_rise, look.pass_rise_from,
                        look.pass_rise_to)
          : fmt::format("rising by {:.4g} from {} seeds", look.pass_rise, look.pass_rise_from);
  return fmt::format(", PASS boundary {}{}", where,
                     look.pass_rise_chosen ? ", chosen for the shape" : "");
}

std::vector<SequentialLook> look_sequentially(const std::string& metric, Direction direction,
                                              double margin, const SeedSamples& candidate,
                                              const SeedSamples& baseline,
                                              const SequentialPlan& plan, double alpha,
                                              const CovariateSamples* covariate) {
  if (plan.anytime)
    return look_anytime(metric, direction, margin, candidate, baseline, plan, alpha, covariate);
  if (plan.likelihood_ratio) {
    return look_likelihood_ratio(metric, direction, margin, candidate, baseline, plan, alpha,
                                 covariate);
  }
  const LookSchedule schedule = schedule_looks(candidate, baseline, plan, alpha);
  const SeedComparison comparison{metric, direction, margin, candidate, baseline, covariate};
  const SeedSamples ran = first_seeds(candidate, seeds_that_ran(candidate));
  if (std::optional<SequentialLook> single =
          look_before_first_block(comparison, ran, schedule.looks.front(), /*anytime=*/false)) {
    return {*single};
  }

  std::vector<SequentialLook> taken;
  RunningEvidence evidence;
  const int available = static_cast<int>(ran.values.size());
  for (std::size_t k = 0; k < schedule.looks.size() && schedule.looks[k] <= available; ++k) {
    SequentialLook look = planned_look(schedule, plan, alpha, k);
    const SeedSamples c = first_seeds(candidate, look.seeds);
    const std::optional<SeedSamples> same_seeds =
        schedule.paired ? samples_of_seeds(baseline, c.seeds) : std::nullopt;
    look.analysis = analyse_distribution(metric, direction, margin, c,
                                         same_seeds.value_or(baseline), covariate);
    if (!look.analysis.problem.empty()) {
      taken.push_back(look);
      break;
    }
    if (schedule.exact_regression) {
      combine_blocks(look, comparison, schedule, plan, alpha, k, evidence);
    } else if (look.worse_weight > 0.0) {
      spend_by_union_bound(look, evidence);
    }
    look.p_worse_sequential = std::min(1.0, evidence.p_worse_sequential);
    look.p_better_sequential = std::min(1.0, evidence.p_better_sequential);
    set_pass_interval(look, schedule.pass_spent[k]);
    look.outcome = settle_look(look, direction, margin);
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
  if (last.likelihood_ratio) {
    a.likelihood_ratio = DistributionAnalysis::LikelihoodRatio{
        last.log_ratio, last.regression_boundary, last.pass_boundary, last.alternative};
  }
  return a;
}

std::string format_look(const SequentialLook& look) {
  if (look.anytime) return format_anytime_look(look);
  if (look.likelihood_ratio) return format_likelihood_ratio_look(look);
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
