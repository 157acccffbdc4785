// The statistical gate of seeded tests: a candidate's per-seed samples of one metric against
// the baseline's. Two steps, because Holm's correction needs every check of the run at once:
//
//   1. analyse_distribution() — per metric: the design (paired when the candidate ran exactly
//      the baseline's seeds, else two independent arms), the difference with its 95% CI, the
//      raw one-sided p-values for "worse" and "better", Hedges' g and P(improvement).
//   2. decide_gate() — over all analyses of the run: Holm-adjust the "worse" p-values as one
//      family and the "better" p-values as another, then decide each verdict:
//        REGRESSION    adjusted p_worse < alpha and the estimated degradation exceeds the margin
//        IMPROVED      adjusted p_better < alpha and the estimated improvement exceeds the margin
//        INCONCLUSIVE  otherwise, when the 95% CI still allows a degradation beyond the margin
//                      (or the samples cannot be tested: fewer than 2 seeds, NaN values)
//        PASS          otherwise: the CI rules out a degradation beyond the margin
//
// Differences are oriented as "candidate minus baseline" in the metric's own units; the
// direction says which sign is worse.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/paired_spread.h"
#include "analysis/verdict.h"
#include "mlregress/metric.h"

namespace mlregress::internal {

inline constexpr double kDefaultGateAlpha = 0.01;

struct SeedSamples {
  std::vector<double> values;
  std::vector<std::uint64_t> seeds;  ///< same length as values
  /// A baseline's stored spread of paired differences (analysis/paired_spread.h), when it has one.
  std::optional<PairedSpread> paired_spread = std::nullopt;
};

/// A pre-registered covariate of a metric (Margin{.covariate}): its per-seed values in each arm,
/// by seed. Used by independent-arms comparisons only: on the same seeds it is the same data and
/// cancels in the per-seed differences.
struct CovariateSamples {
  std::string name;
  SeedSamples candidate, baseline;
};

/// What a covariate did to an analysis: `applied` with its slope and the share of the metric's
/// within-arm variance it removed, or the reason it was left out (`note`).
struct CovariateUse {
  std::string name;
  bool applied = false;
  double theta = 0.0;
  double variance_explained = 0.0;
  double balance_p = 1.0;  ///< two-sided Welch p of the covariate's arms (independent arms)
  std::string note;        ///< why it was not applied; empty when applied
};

/// Below this two-sided p-value the arms' covariates differ more than chance explains: the change
/// may have moved the covariate, and adjusting by it would bias the estimate.
inline constexpr double kCovariateBalanceAlpha = 0.01;

enum class GateDesign {
  kIndependent,  ///< Welch's t test: the candidate used other seeds than the baseline
  kPaired,       ///< paired t test on per-seed differences: the same seeds, in any order
};

/// The baseline's samples of exactly `seeds`, in that order, or nullopt when it lacks one of
/// them. A baseline that holds the candidate's seeds among more (a grown pool) is compared on
/// those seeds, paired.
std::optional<SeedSamples> samples_of_seeds(const SeedSamples& baseline,
                                            const std::vector<std::uint64_t>& seeds);

/// A covariate's values for `samples`' seeds, in their order, or nullopt when one is missing or
/// not finite.
std::optional<std::vector<double>> covariate_values(const SeedSamples& samples,
                                                    const SeedSamples& covariate);

/// "welch" or "paired".
std::string_view gate_design_name(GateDesign design);
std::optional<GateDesign> parse_gate_design(std::string_view name);

struct DistributionAnalysis {
  std::string metric;
  Direction direction = Direction::HigherIsBetter;
  double margin = 0.0;  ///< delta, >= 0, in the metric's units
  GateDesign design = GateDesign::kIndependent;
  std::size_t n_candidate = 0, n_baseline = 0;
  double candidate_mean = 0.0, candidate_sd = 0.0;
  double baseline_mean = 0.0, baseline_sd = 0.0;
  /// Each arm's mean with its standard error and two-sided 95% t interval
  /// (statistics/robust_summary.h: mean_interval); NaN below 2 seeds.
  double candidate_sem = std::numeric_limits<double>::quiet_NaN();
  double baseline_sem = std::numeric_limits<double>::quiet_NaN();
  double candidate_mean_low = std::numeric_limits<double>::quiet_NaN();
  double candidate_mean_high = std::numeric_limits<double>::quiet_NaN();
  double baseline_mean_low = std::numeric_limits<double>::quiet_NaN();
  double baseline_mean_high = std::numeric_limits<double>::quiet_NaN();
  double difference = 0.0;  ///< candidate - baseline (paired: mean of per-seed differences)
  double ci_lower = 0.0, ci_upper = 0.0;  ///< 95% two-sided CI of the difference
  /// The t test's standard error of the difference and degrees of freedom (NaN when untested):
  /// an interval at another level is difference ± t_quantile(., df) · standard_error.
  double standard_error = std::numeric_limits<double>::quiet_NaN();
  double df = std::numeric_limits<double>::quiet_NaN();
  /// One-sided p-value for H1 "the candidate is worse": the t test's, or for a sequential test
  /// the sequential p-value of its last look (analysis/sequential_seeds.h).
  double p_worse = 1.0;
  double p_better = 1.0;  ///< one-sided p-value for H1 "the candidate is better"
  double hedges_g = 0.0;  ///< candidate vs baseline, positive when the candidate mean is larger
  double probability_of_improvement = 0.5;
  std::string
      problem;  ///< non-empty when the samples cannot be tested; the verdict is INCONCLUSIVE
  /// A candidate seed recorded NaN or Inf: a run that diverged. The verdict is REGRESSION, never
  /// INCONCLUSIVE, whatever the other seeds say.
  bool candidate_not_finite = false;
  /// Sequential tests: the interval PASS is judged by, the last look's (its level is below 1 -
  /// 2·2.5% only at the last look; earlier looks need a wider one). Unset: the 95% CI.
  struct Interval {
    double level = 0.95, lower = 0.0, upper = 0.0;
  };
  std::optional<Interval> pass_interval;
  /// Likelihood-ratio looks (analysis/likelihood_ratio_seeds.h): the last look's log likelihood
  /// ratio of a degradation of `alternative` against none, and its boundaries. The gate then
  /// decides by them: REGRESSION when p_worse (the ratio's stagewise p-value) is below alpha after
  /// Holm, PASS when the ratio fell to pass_boundary, else INCONCLUSIVE; never IMPROVED.
  struct LikelihoodRatio {
    double log_ratio = 0.0, regression_boundary = 0.0, pass_boundary = 0.0, alternative = 0.0;
  };
  std::optional<LikelihoodRatio> likelihood_ratio;
  /// Margin{.covariate}: whether the metric was adjusted by its covariate, and how much it helped.
  std::optional<CovariateUse> covariate;
};

/// How much worse a candidate is by a difference candidate - baseline, in the metric's units
/// (negative: better).
double degradation_of(Direction direction, double difference);

/// Analyses one metric. Never throws for bad samples (fewer than 2 seeds, non-finite values,
/// values and seeds of different lengths, a seed twice in one arm, a negative or NaN margin):
/// it fills `problem` instead. Identical constant samples (a deterministic metric rerun on the
/// same seeds) give difference 0, CI [0, 0], p-values 1; a nonzero difference without any spread
/// is known exactly: CI [d, d], p 0 on its side and 1 on the other. MustEqual has no "worse"
/// side and is reported as a problem.
DistributionAnalysis analyse_distribution(const std::string& metric, Direction direction,
                                          double margin, const SeedSamples& candidate,
                                          const SeedSamples& baseline);

/// The same with a pre-registered covariate (nullptr: none). Two independent arms are compared on
/// the metric adjusted by the covariate (statistics/control_variate.h: CUPED), with Welch's test
/// on the adjusted values and one degree of freedom fewer for the estimated slope, when every
/// sample's seed has a covariate value in its arm, the covariate varies, and its arms are
/// balanced (two-sided Welch p >= kCovariateBalanceAlpha); otherwise the plain analysis with
/// `covariate->note` saying why. Paired comparisons are never adjusted (the note says so).
DistributionAnalysis analyse_distribution(const std::string& metric, Direction direction,
                                          double margin, const SeedSamples& candidate,
                                          const SeedSamples& baseline,
                                          const CovariateSamples* covariate);

/// "adjusted for 'test_set_rule_accuracy' (slope 0.72, 39% of the seed-to-seed variance removed)",
/// or "covariate 'x' not adjusted: …".
std::string format_covariate_use(const CovariateUse& use);

struct GateDecision {
  Verdict verdict = Verdict::kInconclusive;
  double p_worse_adjusted = 1.0;  ///< Holm-adjusted over the run
  double p_better_adjusted = 1.0;
  std::string reason;  ///< one line: why this verdict ("worse: p=0.0021 (Holm 0.0042) < 0.01 and
                       ///< the estimated degradation 0.0131 exceeds the margin 0.01")
};

/// The verdicts of every statistical check of a run, in the order of `analyses`. Analyses with
/// a problem are INCONCLUSIVE and take no part in the Holm families. alpha outside (0, 1) is
/// std::invalid_argument (a configuration error, not a property of the samples).
std::vector<GateDecision> decide_gate(std::span<const DistributionAnalysis> analyses,
                                      double alpha = kDefaultGateAlpha);

/// Another statistical check of the run that joins the Holm families (McNemar's test on the
/// flips of a predictions comparison): its raw one-sided p-values, and after decide_gate the
/// adjusted ones.
struct OtherCheck {
  double p_worse = 1.0, p_better = 1.0;
};
/// decide_gate with `others` in the same two families; their adjusted p-values are written to
/// `others_adjusted` (same order). Each check decides its own verdict from them.
std::vector<GateDecision> decide_gate(std::span<const DistributionAnalysis> analyses,
                                      std::span<const OtherCheck> others,
                                      std::vector<OtherCheck>& others_adjusted, double alpha);

/// Fills each arm's sem and mean interval from its n, mean and sd (for analyses read back from
/// records that predate them).
void set_mean_intervals(DistributionAnalysis& analysis);

/// One report line, baseline → candidate, e.g.
///   "0.8743±0.0089 (n=8, sem 0.003147, 95% CI [0.8669, 0.8817]) → 0.8612±0.0101 (n=8,
///    sem 0.003571, 95% CI [0.8528, 0.8696]) · diff -0.0131 [95% CI -0.0232, -0.003] ·
///    welch · g=-1.31 · P(improvement)=0.16 · p(worse)=0.0021 (Holm 0.0042) · margin 0.01"
/// (each arm: mean ± sd, n, the mean's standard error and 95% t interval; the last two left out
/// below 2 seeds)
/// The p-value shown is that of the side the difference leans to (worse when it is 0). With a
/// problem: the two arms, then "not tested: <problem>".
std::string format_distribution(const DistributionAnalysis& analysis, const GateDecision& decision);

}  // namespace mlregress::internal
