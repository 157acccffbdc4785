#include "analysis/distribution_gate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "statistics/control_variate.h"
#include "statistics/effect_size.h"
#include "statistics/holm.h"
#include "statistics/moments.h"
#include "statistics/paired.h"
#include "statistics/robust_summary.h"
#include "statistics/welch.h"
#include "support/enum_names.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

constexpr auto kGateDesignNames =
    enum_names<GateDesign>({{GateDesign::kIndependent, "welch"}, {GateDesign::kPaired, "paired"}});

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kConfidenceLevel = 0.95;

// Why one arm cannot be tested, or "" when it can.
std::string arm_problem(const SeedSamples& arm, const char* name) {
  if (arm.values.size() != arm.seeds.size()) {
    return fmt::format("the {} has {} values but {} seeds", name, arm.values.size(),
                       arm.seeds.size());
  }
  for (std::size_t i = 0; i < arm.values.size(); ++i) {
    if (!std::isfinite(arm.values[i])) {
      return fmt::format("the {}'s value for seed {} is {}", name, arm.seeds[i], arm.values[i]);
    }
  }
  if (arm.values.size() < 2) {
    return fmt::format("the {} has {} seed(s); the gate needs at least 2 on each side", name,
                       arm.values.size());
  }
  // Two samples of one seed are not two replications; pairing by seed would be ambiguous too.
  std::set<std::uint64_t> seen;
  for (const std::uint64_t seed : arm.seeds) {
    if (!seen.insert(seed).second) {
      return fmt::format("seed {} appears more than once in the {}", seed, name);
    }
  }
  return "";
}

std::string samples_problem(Direction direction, double margin, const SeedSamples& candidate,
                            const SeedSamples& baseline) {
  if (direction == Direction::MustEqual) {
    return "a must-equal metric has no worse side to test; compare it exactly or with a band";
  }
  if (!(margin >= 0.0) || !std::isfinite(margin)) {
    return fmt::format("the margin must be finite and >= 0, not {}", margin);
  }
  // The candidate first: a diverged seed is named even when the baseline has its own problem.
  if (std::string problem = arm_problem(candidate, "candidate"); !problem.empty()) return problem;
  return arm_problem(baseline, "baseline");
}

bool same_seed_set(const SeedSamples& candidate, const SeedSamples& baseline) {
  // Seeds are unique within each arm (checked before), so equal sets mean a one-to-one pairing.
  return std::set<std::uint64_t>(candidate.seeds.begin(), candidate.seeds.end()) ==
         std::set<std::uint64_t>(baseline.seeds.begin(), baseline.seeds.end());
}

// The baseline's values in the candidate's seed order, so that position i pairs one seed.
std::vector<double> baseline_in_candidate_order(const SeedSamples& candidate,
                                                const SeedSamples& baseline) {
  std::map<std::uint64_t, double> by_seed;
  for (std::size_t i = 0; i < baseline.seeds.size(); ++i) {
    by_seed[baseline.seeds[i]] = baseline.values[i];
  }
  std::vector<double> aligned;
  aligned.reserve(candidate.seeds.size());
  for (const std::uint64_t seed : candidate.seeds) aligned.push_back(by_seed.at(seed));
  return aligned;
}

// Which sign of "candidate minus baseline" is worse: the alternative of H1 "worse".
stats::Alternative worse_alternative(Direction direction) {
  return direction == Direction::HigherIsBetter ? stats::Alternative::kLess
                                                : stats::Alternative::kGreater;
}

stats::Alternative better_alternative(Direction direction) {
  return direction == Direction::HigherIsBetter ? stats::Alternative::kGreater
                                                : stats::Alternative::kLess;
}

// Only analyses with valid p-values join the Holm families (holm_adjust rejects NaN; an
// untestable check has no p-value to spend alpha on).
bool testable(const DistributionAnalysis& a) {
  const auto valid = [](double p) { return p >= 0.0 && p <= 1.0; };
  return a.problem.empty() && a.direction != Direction::MustEqual && valid(a.p_worse) &&
         valid(a.p_better);
}

constexpr std::size_t kNotDuplicate = static_cast<std::size_t>(-1);

// Two analyses of the same samples against the same baseline (one configuration run twice under
// two names): every statistic equal, bit for bit, which different samples do not produce.
bool same_hypothesis(const DistributionAnalysis& a, const DistributionAnalysis& b) {
  const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
  return a.direction == b.direction && a.design == b.design && a.n_candidate == b.n_candidate &&
         a.n_baseline == b.n_baseline && same(a.margin, b.margin) &&
         same(a.candidate_mean, b.candidate_mean) && same(a.candidate_sd, b.candidate_sd) &&
         same(a.baseline_mean, b.baseline_mean) && same(a.baseline_sd, b.baseline_sd) &&
         same(a.difference, b.difference) && same(a.standard_error, b.standard_error) &&
         same(a.p_worse, b.p_worse) && same(a.p_better, b.p_better);
}

// A likelihood-ratio test's verdict (analysis/likelihood_ratio_seeds.h): its stagewise p-value
// after Holm for a REGRESSION (below alpha / family wherever the ratio crossed its boundary), its
// lower boundary for a PASS. It weighs a degradation of the margin against none, so it has no
// IMPROVED.
GateDecision decide_by_likelihood_ratio(const DistributionAnalysis& a, double p_worse_adjusted,
                                        double alpha) {
  const DistributionAnalysis::LikelihoodRatio& lr = *a.likelihood_ratio;
  GateDecision d;
  d.p_worse_adjusted = p_worse_adjusted;
  d.p_better_adjusted = 1.0;
  const std::string ratio =
      fmt::format("log likelihood ratio {:.3g} of a degradation of {:.4g} against none",
                  lr.log_ratio, lr.alternative);
  if (p_worse_adjusted < alpha) {
    d.verdict = Verdict::kRegression;
    d.reason = fmt::format("worse: {} (REGRESSION at {:.3g}); p={:.2g} (Holm {:.2g}) < {:g}", ratio,
                           lr.regression_boundary, a.p_worse, p_worse_adjusted, alpha);
  } else if (lr.log_ratio <= lr.pass_boundary) {
    d.verdict = Verdict::kPass;
    d.reason =
        fmt::format("{} fell to its PASS boundary {:.3g}: no degradation of the margin {:.4g}",
                    ratio, lr.pass_boundary, a.margin);
  } else {
    d.verdict = Verdict::kInconclusive;
    d.reason = fmt::format(
        "{} lies between its boundaries ({:.3g} PASS, {:.3g} REGRESSION; p(worse) Holm {:.2g}); "
        "more seeds would tell",
        ratio, lr.pass_boundary, lr.regression_boundary, p_worse_adjusted);
  }
  return d;
}

GateDecision decide_one(const DistributionAnalysis& a, double p_worse_adjusted,
                        double p_better_adjusted, double alpha) {
  if (a.likelihood_ratio) return decide_by_likelihood_ratio(a, p_worse_adjusted, alpha);
  GateDecision d;
  d.p_worse_adjusted = p_worse_adjusted;
  d.p_better_adjusted = p_better_adjusted;
  const double degradation = degradation_of(a.direction, a.difference);
  const double improvement = -degradation;
  // The largest degradation the interval still allows (negative when it excludes any).
  const DistributionAnalysis::Interval interval =
      a.pass_interval.value_or(DistributionAnalysis::Interval{0.95, a.ci_lower, a.ci_upper});
  const double worst_case =
      a.direction == Direction::HigherIsBetter ? -interval.lower : interval.upper;
  const std::string interval_name = fmt::format("the {}% CI", format_level_percent(interval.level));

  if (p_worse_adjusted < alpha && degradation > a.margin) {
    d.verdict = Verdict::kRegression;
    d.reason = fmt::format(
        "worse: p={:.2g} (Holm {:.2g}) < {:g} and the estimated degradation {:.4g} exceeds the "
        "margin {:.4g}",
        a.p_worse, p_worse_adjusted, alpha, degradation, a.margin);
  } else if (p_better_adjusted < alpha && improvement > a.margin) {
    d.verdict = Verdict::kImproved;
    d.reason = fmt::format(
        "better: p={:.2g} (Holm {:.2g}) < {:g} and the estimated improvement {:.4g} exceeds the "
        "margin {:.4g}",
        a.p_better, p_better_adjusted, alpha, improvement, a.margin);
  } else if (worst_case > a.margin) {
    d.verdict = Verdict::kInconclusive;
    d.reason = fmt::format(
        "{} [{:.4g}, {:.4g}] still allows a degradation of {:.4g}, beyond the margin {:.4g} "
        "(p(worse) Holm {:.2g}); more seeds would tell",
        interval_name, interval.lower, interval.upper, worst_case, a.margin, p_worse_adjusted);
  } else {
    d.verdict = Verdict::kPass;
    d.reason = fmt::format("{} [{:.4g}, {:.4g}] rules out a degradation beyond the margin {:.4g}",
                           interval_name, interval.lower, interval.upper, a.margin);
  }
  return d;
}

// One family for "worse", one for "better": every testable check is a hypothesis in each,
// and a check identical to an earlier one is the same hypothesis, counted once. The other
// checks' p-values follow the analyses' members.
struct HolmFamilies {
  std::vector<std::size_t> members;  // the analyses that stand for their hypothesis
  std::vector<std::size_t> same_as;  // per analysis: the member it repeats, or kNotDuplicate
  std::vector<double> p_worse, p_better;
};

HolmFamilies holm_families(std::span<const DistributionAnalysis> analyses,
                           std::span<const OtherCheck> others) {
  std::vector<std::size_t> members;
  std::vector<std::size_t> same_as(analyses.size(), kNotDuplicate);
  std::vector<double> p_worse, p_better;
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    if (!testable(analyses[i])) continue;
    const auto earlier = std::find_if(members.begin(), members.end(), [&](std::size_t m) {
      return same_hypothesis(analyses[m], analyses[i]);
    });
    if (earlier != members.end()) {
      same_as[i] = *earlier;
      continue;
    }
    members.push_back(i);
    p_worse.push_back(analyses[i].p_worse);
    p_better.push_back(analyses[i].p_better);
  }
  for (const OtherCheck& other : others) {
    p_worse.push_back(other.p_worse);
    p_better.push_back(other.p_better);
  }
  return {std::move(members), std::move(same_as), std::move(p_worse), std::move(p_better)};
}

}  // namespace

std::optional<SeedSamples> samples_of_seeds(const SeedSamples& baseline,
                                            const std::vector<std::uint64_t>& seeds) {
  std::map<std::uint64_t, double> by_seed;
  for (std::size_t i = 0; i < baseline.seeds.size() && i < baseline.values.size(); ++i)
    by_seed.emplace(baseline.seeds[i], baseline.values[i]);
  SeedSamples out;
  for (std::uint64_t seed : seeds) {
    const auto it = by_seed.find(seed);
    if (it == by_seed.end()) return std::nullopt;
    out.values.push_back(it->second);
    out.seeds.push_back(seed);
  }
  return out;
}

std::string_view gate_design_name(GateDesign design) { return kGateDesignNames.name(design, "?"); }

std::optional<GateDesign> parse_gate_design(std::string_view name) {
  return kGateDesignNames.parse(name);
}

double degradation_of(Direction direction, double difference) {
  return direction == Direction::HigherIsBetter ? -difference : difference;
}

DistributionAnalysis analyse_distribution(const std::string& metric, Direction direction,
                                          double margin, const SeedSamples& candidate,
                                          const SeedSamples& baseline) {
  return analyse_distribution(metric, direction, margin, candidate, baseline, nullptr);
}

std::optional<std::vector<double>> covariate_values(const SeedSamples& samples,
                                                    const SeedSamples& covariate) {
  std::optional<SeedSamples> aligned = samples_of_seeds(covariate, samples.seeds);
  if (!aligned || !std::all_of(aligned->values.begin(), aligned->values.end(),
                               [](double v) { return std::isfinite(v); })) {
    return std::nullopt;
  }
  return std::move(aligned->values);
}

namespace {

// The two arms adjusted by the covariate, or the reason they are not (in `use.note`).
std::optional<stats::ControlVariateAdjustment> covariate_adjustment(const SeedSamples& candidate,
                                                                    const SeedSamples& baseline,
                                                                    const CovariateSamples& cov,
                                                                    CovariateUse& use) {
  const std::optional<std::vector<double>> xc = covariate_values(candidate, cov.candidate);
  const std::optional<std::vector<double>> xb = covariate_values(baseline, cov.baseline);
  if (!xc || !xb) {
    use.note = fmt::format("not adjusted: the {} lacks a finite '{}' for one of its seeds{}",
                           !xc ? "candidate" : "baseline", cov.name,
                           !xb ? " (promote a run that records it)" : "");
    return std::nullopt;
  }
  // The slope costs a degree of freedom: with 2 seeds in an arm Welch's df can be 1, and none
  // would be left.
  if (candidate.values.size() < 3 || baseline.values.size() < 3) {
    use.note = fmt::format("not adjusted by '{}': fewer than 3 seeds in an arm", cov.name);
    return std::nullopt;
  }
  try {
    use.balance_p = stats::welch_t_test(*xc, *xb).p_value;
    if (use.balance_p < kCovariateBalanceAlpha) {
      use.note = fmt::format(
          "not adjusted: '{}' differs between the arms (p={:.2g}), so the change may have moved it",
          cov.name, use.balance_p);
      return std::nullopt;
    }
    stats::ControlVariateAdjustment adjustment =
        stats::adjust_by_covariate(candidate.values, *xc, baseline.values, *xb);
    use.applied = true;
    use.theta = adjustment.theta;
    use.variance_explained = adjustment.variance_explained;
    return adjustment;
  } catch (const std::invalid_argument& error) {
    use.note = fmt::format("not adjusted by '{}': {}", cov.name, error.what());
    return std::nullopt;
  }
}

// What the gate reports of both samples before it tests them.
DistributionAnalysis describe_samples(const std::string& metric, Direction direction, double margin,
                                      const SeedSamples& candidate, const SeedSamples& baseline) {
  DistributionAnalysis a;
  a.metric = metric;
  a.direction = direction;
  a.margin = margin;
  a.n_candidate = candidate.values.size();
  a.n_baseline = baseline.values.size();
  // Also for samples the gate refuses to test: a NaN or Inf in a sample shows in its mean
  // rather than a plausible-looking number.
  const stats::SampleSummary c = stats::summarize_samples(candidate.values);
  const stats::SampleSummary b = stats::summarize_samples(baseline.values);
  a.candidate_mean = c.mean;
  a.candidate_sd = c.sd;
  a.baseline_mean = b.mean;
  a.baseline_sd = b.sd;
  set_mean_intervals(a);
  a.candidate_not_finite = std::any_of(candidate.values.begin(), candidate.values.end(),
                                       [](double v) { return !std::isfinite(v); });
  a.difference = c.mean - b.mean;
  a.ci_lower = a.ci_upper = kNaN;
  return a;
}

// The values the t tests compare (x the candidate's, y the baseline's), paired by seed or
// adjusted by a covariate, and the test that fits them.
struct TestedValues {
  GateDesign design = GateDesign::kIndependent;
  std::vector<double> x, y;
  // Welch's test on covariate-adjusted values has one degree of freedom fewer: the slope was
  // estimated from them.
  double df_spent_on_slope = 0.0;

  stats::TTestResult test(stats::Alternative alternative) const {
    if (design == GateDesign::kPaired) {
      return stats::paired_t_test(x, y, alternative, kConfidenceLevel);
    }
    const stats::TTestResult welch = stats::welch_t_test(x, y, alternative, kConfidenceLevel);
    if (df_spent_on_slope == 0.0) return welch;
    return stats::t_test_from_estimate(welch.estimate, welch.standard_error,
                                       welch.df - df_spent_on_slope, alternative, kConfidenceLevel);
  }
};

// The arms in a.design, adjusted by the covariate where it applies (a.covariate says whether).
TestedValues values_to_test(DistributionAnalysis& a, const SeedSamples& candidate,
                            const SeedSamples& baseline, const CovariateSamples* covariate) {
  TestedValues tested;
  tested.design = a.design;
  tested.x = candidate.values;
  tested.y = a.design == GateDesign::kPaired ? baseline_in_candidate_order(candidate, baseline)
                                             : baseline.values;
  if (covariate != nullptr) {
    CovariateUse& use = a.covariate.emplace();
    use.name = covariate->name;
    if (a.design == GateDesign::kPaired) {
      use.note = "not needed: paired on the same seeds, the covariate cancels";
    } else if (auto adjusted = covariate_adjustment(candidate, baseline, *covariate, use)) {
      tested.x = std::move(adjusted->first_adjusted);
      tested.y = std::move(adjusted->second_adjusted);
      tested.df_spent_on_slope = 1.0;
    }
  }
  return tested;
}

// The difference, its interval and the one-sided p-values of the t tests.
void set_t_test_results(DistributionAnalysis& a, const TestedValues& tested, Direction direction) {
  const stats::TTestResult two_sided = tested.test(stats::Alternative::kTwoSided);
  a.difference = two_sided.estimate;
  a.standard_error = two_sided.standard_error;
  a.df = two_sided.df;

  if (two_sided.standard_error == 0.0) {
    // No spread in what the test looks at (constant arms, or the same shift on every paired
    // seed): the difference is known exactly. The t test has no p-value here, but the limit
    // is clear: no evidence at all for a zero difference, certainty for a nonzero one.
    a.ci_lower = a.ci_upper = a.difference;
    const double degradation = degradation_of(direction, a.difference);
    a.p_worse = degradation > 0.0 ? 0.0 : 1.0;
    a.p_better = degradation < 0.0 ? 0.0 : 1.0;
  } else {
    a.ci_lower = two_sided.confidence_interval.lower;
    a.ci_upper = two_sided.confidence_interval.upper;
    a.p_worse = tested.test(worse_alternative(direction)).p_value;
    a.p_better = tested.test(better_alternative(direction)).p_value;
  }
}

}  // namespace

DistributionAnalysis analyse_distribution(const std::string& metric, Direction direction,
                                          double margin, const SeedSamples& candidate,
                                          const SeedSamples& baseline,
                                          const CovariateSamples* covariate) {
  DistributionAnalysis a = describe_samples(metric, direction, margin, candidate, baseline);
  a.problem = samples_problem(direction, margin, candidate, baseline);
  if (!a.problem.empty()) return a;

  a.design = same_seed_set(candidate, baseline) ? GateDesign::kPaired : GateDesign::kIndependent;
  const TestedValues tested = values_to_test(a, candidate, baseline, covariate);
  set_t_test_results(a, tested, direction);
  // A NaN here (variances so small that the Welch–Satterthwaite df underflows) must not
  // reach Holm or read as a pass.
  if (!testable(a) || std::isnan(a.ci_lower) || std::isnan(a.ci_upper)) {
    a.problem = "the t test is undefined for these samples (vanishing variance)";
    return a;
  }

  const double g = stats::hedges_g(candidate.values, baseline.values);
  // Constant, equal arms: 0/0. There is no effect, so report none rather than NaN.
  a.hedges_g = std::isnan(g) ? 0.0 : g;
  a.probability_of_improvement =
      stats::probability_of_improvement(candidate.values, baseline.values, direction);
  return a;
}

std::vector<GateDecision> decide_gate(std::span<const DistributionAnalysis> analyses,
                                      double alpha) {
  std::vector<OtherCheck> none;
  return decide_gate(analyses, {}, none, alpha);
}

std::vector<GateDecision> decide_gate(std::span<const DistributionAnalysis> analyses,
                                      std::span<const OtherCheck> others,
                                      std::vector<OtherCheck>& others_adjusted, double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) {
    throw std::invalid_argument(fmt::format("the gate's alpha must lie in (0, 1), not {}", alpha));
  }
  const HolmFamilies families = holm_families(analyses, others);
  const std::vector<std::size_t>& members = families.members;
  const std::vector<std::size_t>& same_as = families.same_as;
  const std::vector<double>& p_worse = families.p_worse;
  const std::vector<double>& p_better = families.p_better;
  const std::vector<double> worse_adjusted = stats::holm_adjust(p_worse);
  const std::vector<double> better_adjusted = stats::holm_adjust(p_better);
  others_adjusted.clear();
  for (std::size_t k = members.size(); k < p_worse.size(); ++k) {
    others_adjusted.push_back({worse_adjusted[k], better_adjusted[k]});
  }

  std::vector<GateDecision> decisions(analyses.size());
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    decisions[i].verdict = Verdict::kInconclusive;
    const std::string& problem = analyses[i].problem;
    decisions[i].reason =
        "not tested: " +
        (problem.empty() ? std::string("the analysis holds no valid p-values") : problem);
  }
  for (std::size_t k = 0; k < members.size(); ++k) {
    decisions[members[k]] =
        decide_one(analyses[members[k]], worse_adjusted[k], better_adjusted[k], alpha);
  }
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    if (same_as[i] == kNotDuplicate) continue;
    decisions[i] = decisions[same_as[i]];
    decisions[i].reason += fmt::format(
        " (the same samples as the check of '{}': one hypothesis, counted once in Holm's "
        "correction)",
        analyses[same_as[i]].metric);
  }
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    if (!analyses[i].candidate_not_finite) continue;
    decisions[i].verdict = Verdict::kRegression;
    decisions[i].reason = "a seed diverged: " + analyses[i].problem;
  }
  return decisions;
}

std::string format_covariate_use(const CovariateUse& use) {
  if (!use.applied) return fmt::format("covariate '{}' {}", use.name, use.note);
  return fmt::format(
      "adjusted for '{}' (slope {:.3g}, {:.0f}% of the seed-to-seed variance removed)", use.name,
      use.theta, 100.0 * use.variance_explained);
}

void set_mean_intervals(DistributionAnalysis& a) {
  const stats::MeanInterval c =
      stats::mean_interval_from(a.n_candidate, a.candidate_mean, a.candidate_sd);
  const stats::MeanInterval b =
      stats::mean_interval_from(a.n_baseline, a.baseline_mean, a.baseline_sd);
  a.candidate_sem = c.sem;
  a.candidate_mean_low = c.low;
  a.candidate_mean_high = c.high;
  a.baseline_sem = b.sem;
  a.baseline_mean_low = b.low;
  a.baseline_mean_high = b.high;
}

namespace {

// "0.8683±0.005935 (n=8, sem 0.002098, 95% CI [0.8633, 0.8733])": mean ± sd, then the mean's
// standard error and t interval when the arm has them (2 seeds or more, finite).
std::string arm_text(std::size_t n, double mean, double sd, double sem, double low, double high) {
  if (std::isnan(sem) || std::isnan(low)) return fmt::format("{:.4g}±{:.4g} (n={})", mean, sd, n);
  return fmt::format("{:.4g}±{:.4g} (n={}, sem {:.4g}, 95% CI [{:.4g}, {:.4g}])", mean, sd, n, sem,
                     low, high);
}

}  // namespace

std::string format_distribution(const DistributionAnalysis& a, const GateDecision& decision) {
  std::string line = arm_text(a.n_baseline, a.baseline_mean, a.baseline_sd, a.baseline_sem,
                              a.baseline_mean_low, a.baseline_mean_high) +
                     " → " +
                     arm_text(a.n_candidate, a.candidate_mean, a.candidate_sd, a.candidate_sem,
                              a.candidate_mean_low, a.candidate_mean_high);
  if (a.candidate_not_finite) return line + " · " + decision.reason;
  if (!a.problem.empty()) return line + " · not tested: " + a.problem;

  // The p-value of the side the estimate leans to: the one that could decide the verdict.
  const bool leans_worse = degradation_of(a.direction, a.difference) >= 0.0;
  line += fmt::format(
      " · diff {:.4g} [95% CI {:.4g}, {:.4g}] · {} · g={:.3g} · P(improvement)={:.2f} · "
      "p({})={:.2g} (Holm {:.2g}) · margin {:.4g}",
      a.difference, a.ci_lower, a.ci_upper, gate_design_name(a.design), a.hedges_g,
      a.probability_of_improvement, leans_worse ? "worse" : "better",
      leans_worse ? a.p_worse : a.p_better,
      leans_worse ? decision.p_worse_adjusted : decision.p_better_adjusted, a.margin);
  if (a.covariate) line += " · " + format_covariate_use(*a.covariate);
  return line;
}

}  // namespace mlregress::internal
