#include "comparison/comparator.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "analysis/band.h"
#include "support/number_format.h"

namespace mlregress::internal {

namespace {

// Sets the comparison's allowed deviation and its description from the baseline's policy (the
// default band or Exact without one). False when the policy cannot gate: a Timing band wider
// than kTimingMaximumBand, for which the verdict is set INCONCLUSIVE.
bool apply_tolerance(MetricComparison& c, const BaselineMetric& baseline,
                     const std::string& profile_id, double base) {
  TolerancePolicy policy = baseline.policy;
  if (std::holds_alternative<std::monostate>(policy)) {
    policy = baseline.direction == Direction::MustEqual ? TolerancePolicy{Exact{}}
                                                        : TolerancePolicy{kDefaultBand};
  }
  double allowed = 0.0;
  if (const Band* band = std::get_if<Band>(&policy)) {
    allowed = band_half_width(band->rtol, band->atol, base);
    c.tolerance = fmt::format("band ±{}", format_value(allowed));
  } else if (std::holds_alternative<Timing>(policy)) {
    c.kind = MetricKind::kPerformance;
    const auto cv = baseline.cv_by_environment.find(profile_id);
    const double spread = cv != baseline.cv_by_environment.end() ? cv->second : 0.0;
    const double rtol = std::max(kTimingBandSpreads * spread, kTimingMinimumBand);
    allowed = band_half_width(rtol, 0.0, base);
    c.tolerance =
        fmt::format("band ±{:.1f}% (cv {:.1f}% at promotion)", rtol * 100.0, spread * 100.0);
    if (rtol > kTimingMaximumBand) {
      // A band that wide could never fail: say so instead of passing everything.
      c.verdict = Verdict::kInconclusive;
      c.note = fmt::format(
          "the promoted spread (cv {:.1f}%) is too wide to gate on; promote on a quieter "
          "machine, or gate with run --ab",
          spread * 100.0);
      return false;
    }
  } else {
    c.tolerance = "exact";
  }
  c.allowed = allowed;
  return true;
}

// A change of `delta` (observed − baseline) against the allowed deviation, in `direction`.
Verdict verdict_within(Direction direction, double delta, double allowed) {
  if (direction == Direction::MustEqual) {
    return std::fabs(delta) > allowed ? Verdict::kRegression : Verdict::kPass;
  }
  const double worse_by = direction == Direction::HigherIsBetter ? -delta : delta;
  if (worse_by > allowed) return Verdict::kRegression;
  if (-worse_by > allowed) return Verdict::kImproved;
  return Verdict::kPass;
}

// A baseline holding a failure rate or per-seed samples has nothing one value compares with:
// NOT_COMPARABLE, and true.
bool holds_another_kind(const BaselineMetric& baseline, MetricComparison& c) {
  if (baseline.failure_count) {
    c.kind = MetricKind::kRate;
    c.verdict = Verdict::kNotComparable;
    c.note =
        "the baseline holds a failure rate (failures and trials) and this run one value; "
        "promote to adopt";
    return true;
  }
  if (std::holds_alternative<Margin>(baseline.policy)) {
    c.kind = MetricKind::kDistribution;
    c.verdict = Verdict::kNotComparable;
    c.note = "the baseline holds per-seed samples and this run one value; promote to adopt";
    return true;
  }
  return false;
}

// `observed` against the baseline's value `base` (the one for `profile_id` where it keys values by
// profile), within the tolerance its policy allows.
void judge_value(double observed, double base, const BaselineMetric& baseline,
                 const std::string& profile_id, MetricComparison& c) {
  if (!std::isfinite(observed)) {
    c.verdict = Verdict::kRegression;
    c.tolerance = "finite";
    c.note = fmt::format("observed {}", format_value(observed));
    return;
  }
  if (!std::isfinite(base)) {
    c.verdict = Verdict::kInconclusive;
    c.note = "the baseline value is not finite; promote a healthy run";
    return;
  }
  c.delta = observed - base;
  if (base != 0.0) c.relative_change = *c.delta / std::fabs(base);

  if (!apply_tolerance(c, baseline, profile_id, base)) return;
  c.verdict = verdict_within(baseline.direction, *c.delta, *c.allowed);
}

Verdict verdict_of(stats::RateDecision decision) {
  switch (decision) {
    case stats::RateDecision::kRegression:
      return Verdict::kRegression;
    case stats::RateDecision::kPass:
      return Verdict::kPass;
    case stats::RateDecision::kInconclusive:
    case stats::RateDecision::kContinue:
      return Verdict::kInconclusive;
  }
  return Verdict::kInconclusive;
}

}  // namespace

MetricComparison compare_metric(const std::string& name, double observed,
                                Direction observed_direction, const BaselineMetric* baseline,
                                const EnvironmentProfile& profile) {
  MetricComparison c;
  c.metric = name;
  c.observed = observed;
  if (baseline == nullptr) {
    c.verdict = Verdict::kNew;
    c.note = "no baseline yet";
    return c;
  }

  if (holds_another_kind(*baseline, c)) return c;
  if (std::holds_alternative<Timing>(baseline->policy)) c.kind = MetricKind::kPerformance;
  std::optional<double> base = baseline->value;
  const std::string profile_id = stored_profile_id(*baseline, profile);
  if (!profile_id.empty()) base = baseline->by_environment.at(profile_id);
  if (!base) {
    // Not a change of the code, and not a pass either: nothing here can be compared with.
    c.verdict = Verdict::kUngated;
    c.note = fmt::format("no value for this machine's {} profile {}; recorded for {}",
                         keyed_by_numerics(baseline->policy) ? "numerics" : "machine",
                         profile_id_for(baseline->policy, profile),
                         fmt::join(recorded_profiles(*baseline), ", "));
    return c;
  }
  c.baseline = base;
  if (baseline->direction != observed_direction) {
    c.direction_change = DirectionChange{observed_direction, baseline->direction};
  }

  judge_value(observed, *base, *baseline, profile_id, c);
  return c;
}

std::optional<OperatorDiff> compare_operators(const MetricRecord& metric,
                                              const MetricComparison& comparison,
                                              const BaselineMetric* baseline,
                                              const EnvironmentProfile& profile) {
  if (!metric.breakdown || baseline == nullptr) return std::nullopt;
  if (comparison.verdict != Verdict::kRegression && comparison.verdict != Verdict::kImproved)
    return std::nullopt;
  const auto stored = baseline->breakdowns.find(breakdown_profile_id(*baseline, profile));
  if (stored == baseline->breakdowns.end()) return missing_operator_diff(metric.breakdown->unit);
  return diff_operators(stored->second, *metric.breakdown);
}

MetricComparison compare_failure_rate(const MetricRecord& metric, const BaselineMetric* baseline,
                                      int block, int cap, double alpha, const std::string& unit) {
  MetricComparison c;
  c.metric = metric.name;
  c.kind = MetricKind::kRate;
  const FailureRate* policy = std::get_if<FailureRate>(&metric.policy);
  const double detect = policy != nullptr ? policy->detect : FailureRate{}.detect;
  // The outcomes as failures, in order, for the looks.
  std::vector<double> failures;
  for (double v : metric.samples) failures.push_back(is_failure(v, metric.direction) ? 1.0 : 0.0);
  const FailureCount observed = count_failures(metric.samples, metric.direction);
  const int trials = observed.trials;
  const int failed = observed.failures;
  // Values in the metric's own orientation (reached_target: the share that reached it), as the
  // run records and history plots them; the analysis speaks of failures.
  c.observed = trials > 0 ? failure_count_value(observed, metric.direction)
                          : failure_count_value({0, 1}, metric.direction);
  c.tolerance = fmt::format("failure rate, a rise to {:g}% caught with {:.0f}% power",
                            100.0 * detect, 100.0 * kFailureRatePower);
  if (baseline == nullptr) {
    c.verdict = Verdict::kNew;
    c.note = fmt::format("{} of {} failed; no baseline yet", failed, trials);
    return c;
  }
  if (!baseline->failure_count) {
    c.verdict = Verdict::kNotComparable;
    c.note = "the baseline holds another kind of value, not failures and trials; promote to adopt";
    return c;
  }
  const FailureCount& count = *baseline->failure_count;
  c.baseline = failure_count_value(count, metric.direction);
  c.delta = c.observed - *c.baseline;
  if (*c.baseline != 0.0) c.relative_change = *c.delta / *c.baseline;
  if (trials == 0) {
    c.verdict = Verdict::kInconclusive;
    c.note = "no outcome to judge (every attempt skipped)";
    return c;
  }
  c.rate = analyse_failure_rate(failures, count.failures, count.trials, detect,
                                std::max(1, std::min(block, cap)), std::max(1, cap), alpha);
  if (!c.rate->problem.empty()) {
    // Nothing can be gated against such a baseline: listed with the metrics not gated.
    c.verdict = Verdict::kNotComparable;
    c.note = describe_failure_rate(*c.rate, unit);
    return c;
  }
  c.verdict = verdict_of(c.rate->decision);
  c.note = describe_failure_rate(*c.rate, unit);
  if (c.rate->problem.empty()) {
    c.tolerance = fmt::format("failure rate, a rise to {:.1f}% caught with {:.0f}% power",
                              100.0 * c.rate->detect_rate, 100.0 * c.rate->power);
  }
  return c;
}

MetricComparison compare_distribution(const MetricRecord& metric, const BaselineMetric* baseline,
                                      const CovariateSamples* covariate) {
  MetricComparison c;
  c.metric = metric.name;
  c.kind = MetricKind::kDistribution;
  c.observed = metric.value;
  const Margin* margin = std::get_if<Margin>(&metric.policy);
  const double delta = margin != nullptr ? margin->delta : 0.0;
  c.tolerance = fmt::format("margin {}", format_value(delta));
  if (baseline == nullptr) {
    c.verdict = Verdict::kNew;
    c.note = "no baseline yet";
    return c;
  }
  if (baseline->samples.empty()) {
    c.verdict = Verdict::kNotComparable;
    c.note = "the baseline holds one value, not per-seed samples; promote to adopt";
    return c;
  }
  // A covariate is pre-registered: chosen before the data, stored with the samples it was
  // promoted with. Adjusting by one the baseline did not register (or not adjusting by the one it
  // did) would let the code pick the analysis after seeing how the seeds fell.
  const Margin* stored_margin = std::get_if<Margin>(&baseline->policy);
  const std::string stored_covariate = stored_margin != nullptr ? stored_margin->covariate : "";
  const std::string declared_covariate = margin != nullptr ? margin->covariate : "";
  if (stored_covariate != declared_covariate) {
    const auto named = [](const std::string& covariate) {
      return covariate.empty() ? std::string("no covariate") : "covariate '" + covariate + "'";
    };
    c.verdict = Verdict::kNotComparable;
    c.note = fmt::format(
        "the baseline pre-registered {}, the test now declares {} (Margin{{.covariate}}); a "
        "covariate is chosen before the data: promote to register the new one",
        named(stored_covariate), named(declared_covariate));
    return c;
  }
  // A baseline holding the run's seeds among others (a pool grown with promote --add-seeds) is
  // compared on those seeds, paired; fresh seeds are compared with all of it (Welch).
  const SeedSamples stored{baseline->samples, baseline->seeds};
  const std::optional<SeedSamples> same_seeds =
      metric.sample_seeds.empty() ? std::nullopt : samples_of_seeds(stored, metric.sample_seeds);
  c.distribution = analyse_distribution(metric.name, metric.direction, delta,
                                        SeedSamples{metric.samples, metric.sample_seeds},
                                        same_seeds.value_or(stored), covariate);
  c.baseline = c.distribution->baseline_mean;
  c.delta = c.distribution->difference;
  c.verdict = Verdict::kInconclusive;
  c.note = "decided when the run ends, with Holm's correction across the run's statistical checks";
  // The gate follows the test as it is now; the stored direction is only history.
  if (baseline->direction != metric.direction) {
    c.direction_change = DirectionChange{metric.direction, baseline->direction};
  }
  return c;
}

MetricComparison compare_sequential_distribution(const MetricRecord& metric,
                                                 const BaselineMetric* baseline,
                                                 const SequentialPlan& plan, double alpha,
                                                 const CovariateSamples* covariate) {
  MetricComparison c = compare_distribution(metric, baseline, covariate);
  if (!c.distribution) return c;
  const Margin* margin = std::get_if<Margin>(&metric.policy);
  c.looks =
      look_sequentially(metric.name, metric.direction, margin != nullptr ? margin->delta : 0.0,
                        SeedSamples{metric.samples, metric.sample_seeds},
                        SeedSamples{baseline->samples, baseline->seeds, baseline->paired_spread},
                        plan, alpha, covariate);
  c.distribution = sequential_decision_analysis(c.looks.back());
  c.baseline = c.distribution->baseline_mean;
  c.delta = c.distribution->difference;
  c.tolerance += plan.next_block > 0 && plan.next_block != plan.block
                     ? fmt::format(", {} seeds, then {} at a time up to {}", plan.block,
                                   plan.next_block, plan.cap)
                     : fmt::format(", {} seeds at a time up to {}", plan.block, plan.cap);
  if (plan.anytime) c.tolerance += ", anytime-valid";
  if (plan.likelihood_ratio) c.tolerance += ", likelihood-ratio looks";
  if (plan.likelihood_ratio && plan.constant_pass) c.tolerance += ", constant PASS boundary";
  c.tolerance += look_pass_boundary_clause(c.looks.back());
  return c;
}

}  // namespace mlregress::internal
