#include "analysis/anytime_seeds.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/sequential_look_steps.h"
#include "statistics/confidence_sequence.h"
#include "statistics/moments.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// What one look of the confidence sequence says: its set for candidate − baseline at the PASS
// level, and the one-sided anytime p-values of a degradation and of an improvement.
struct SequenceLook {
  stats::ConfidenceInterval interval;
  double p_worse = 1.0, p_better = 1.0;
};

// Paired: the mean of the per-seed differences candidate − baseline is one sample's mean.
SequenceLook paired_sequence(Direction direction, const SeedSamples& c, const SeedSamples& b,
                             double a) {
  std::vector<double> differences(c.values.size());
  for (std::size_t i = 0; i < differences.size(); ++i) differences[i] = c.values[i] - b.values[i];
  const stats::SampleSummary d = stats::summarize_samples(differences);
  const double n = static_cast<double>(d.n);
  const double worse = degradation_of(direction, d.mean);  // the mean degradation
  return {stats::mean_confidence_sequence(d.mean, d.sd, n, a),
          stats::paired_anytime_p_value(worse, d.sd, n),
          stats::paired_anytime_p_value(-worse, d.sd, n)};
}

// Fresh candidate seeds against the whole baseline, a fixed arm: the union bound of
// difference_confidence_sequence. The p-values take both means oriented so that "above 0" is the
// side tested (degradation_of is linear: its sign at 1 orients every difference).
SequenceLook independent_sequence(Direction direction, const SeedSamples& c, const SeedSamples& b,
                                  double a) {
  const stats::SampleSummary cs = stats::summarize_samples(c.values);
  const stats::SampleSummary bs = stats::summarize_samples(b.values);
  const double cn = static_cast<double>(cs.n), bn = static_cast<double>(bs.n);
  const double worse_sign = degradation_of(direction, 1.0);
  return {stats::difference_confidence_sequence(cs.mean, cs.sd, cn, bs.mean, bs.sd, bn, a),
          stats::independent_anytime_p_value(worse_sign * cs.mean, cs.sd, cn, worse_sign * bs.mean,
                                             bs.sd, bn),
          stats::independent_anytime_p_value(-worse_sign * cs.mean, cs.sd, cn,
                                             -worse_sign * bs.mean, bs.sd, bn)};
}

// Why an independent-arms look leaves the covariate out (see the header).
constexpr const char* kUnadjustedNote =
    "anytime-valid looks (until_decided) compare the unadjusted values: an adjustment estimated "
    "from the candidate's seeds would void the confidence sequence's guarantee";

// Look `seeds` of the plan, before its seeds are analysed: an anytime look spends no share of
// alpha, and its interval has level 1 − pass_error.
SequentialLook planned_anytime_look(const SequentialPlan& plan, int seeds, double decision_level) {
  SequentialLook look;
  look.anytime = true;
  look.seeds = seeds;
  look.information = static_cast<double>(seeds) / plan.cap;
  look.worse_weight = 0.0;
  look.pass_level = 1.0 - plan.pass_error;
  look.pass_spending = plan.pass_spending;
  look.decision_level = decision_level;
  look.family = std::max(1, plan.family);
  return look;
}

// What the looks so far leave to the next: the running intersection of the confidence sequence
// and the running minima of the anytime p-values.
struct RunningSequence {
  stats::ConfidenceInterval interval;
  double p_worse = 1.0, p_better = 1.0;

  // Adds a look's sequence and writes the running interval and p-values into the look.
  void add(const SequenceLook& s, SequentialLook& look) {
    interval = stats::intersect(interval, s.interval);
    p_worse = std::min(p_worse, s.p_worse);
    p_better = std::min(p_better, s.p_better);
    look.interval_lower = interval.lower;
    look.interval_upper = interval.upper;
    look.p_worse_sequential = p_worse;
    look.p_better_sequential = p_better;
  }
};

}  // namespace

std::vector<SequentialLook> look_anytime(const std::string& metric, Direction direction,
                                         double margin, const SeedSamples& candidate,
                                         const SeedSamples& baseline, const SequentialPlan& plan,
                                         double alpha, const CovariateSamples* covariate) {
  const std::vector<int> looks = sequential_looks(plan);
  const int available = seeds_that_ran(candidate);
  // As look_sequentially: paired when the baseline holds every seed the plan may run, the
  // candidate's among them; otherwise the whole baseline is one fixed arm.
  const SeedSamples ran = first_seeds(candidate, available);
  const bool paired = looks_are_paired(ran, baseline, plan.cap);
  const double decision_level = alpha / std::max(1, plan.family);
  // Level 1 − pass_error (97.5% for 2.5%): Ville's inequality bounds the chance that the
  // sequence ever misses the true difference, on either side, by a, so a PASS at a true
  // degradation of the margin is at most pass_error at any stopping time. (At 1 − 2·pass_error,
  // the single-look gate's 95%, only 2·pass_error would be guaranteed.)
  const double a = plan.pass_error;
  const CovariateSamples* paired_covariate = paired ? covariate : nullptr;

  const SeedComparison comparison{metric, direction, margin, candidate, baseline, covariate};
  if (std::optional<SequentialLook> single =
          look_before_first_block(comparison, ran, looks.front(), /*anytime=*/true)) {
    return {*single};
  }

  std::vector<SequentialLook> taken;
  RunningSequence running{{-kInf, kInf, 1.0 - a}};
  for (std::size_t k = 0; k < looks.size() && looks[k] <= available; ++k) {
    SequentialLook look = planned_anytime_look(plan, looks[k], decision_level);
    const SeedSamples c = first_seeds(candidate, look.seeds);
    const std::optional<SeedSamples> same_seeds =
        paired ? samples_of_seeds(baseline, c.seeds) : std::nullopt;
    const SeedSamples& b = same_seeds ? *same_seeds : baseline;
    look.analysis = analyse_distribution(metric, direction, margin, c, b, paired_covariate);
    if (covariate != nullptr && !paired) {
      CovariateUse& use = look.analysis.covariate.emplace();
      use.name = covariate->name;
      use.note = kUnadjustedNote;
    }
    if (!look.analysis.problem.empty()) {
      taken.push_back(look);
      break;
    }
    const SequenceLook s =
        paired ? paired_sequence(direction, c, b, a) : independent_sequence(direction, c, b, a);
    running.add(s, look);
    look.outcome = settle_look(look, direction, margin);
    taken.push_back(look);
    if (look.outcome != LookOutcome::kContinue) break;
  }
  return taken;
}

std::string format_anytime_look(const SequentialLook& look) {
  const DistributionAnalysis& a = look.analysis;
  if (!a.problem.empty()) {
    return fmt::format("look at {} seeds: not tested: {}", look.seeds, a.problem);
  }
  return fmt::format(
      "look at {} seeds: diff {:.4g} [{}% CS {:.4g}, {:.4g}], anytime p(worse) {:.2g}{}; {}",
      look.seeds, a.difference, format_level_percent(look.pass_level), look.interval_lower,
      look.interval_upper, look.p_worse_sequential, family_clause(look),
      look_outcome_name(look.outcome));
}

}  // namespace mlregress::internal
