#include "comparison/baseline_gate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/capability.h"
#include "analysis/distribution_gate.h"
#include "comparison/cause_classifier.h"
#include "comparison/comparator.h"
#include "comparison/config_diff.h"
#include "comparison/constraint.h"
#include "comparison/curve_gate.h"
#include "comparison/hypothesis_family.h"
#include "comparison/predictions_gate.h"
#include "storage/predictions_file.h"

namespace mlregress::internal {
namespace {

bool fails_the_test(const MetricComparison& c) { return c.verdict == Verdict::kRegression; }

// " · properties changed: dtype float32 → (none); sequence_length 16 → 32": the keys, in order,
// whose values differ from the baseline's, added and removed ones included; nothing when they are
// the same or the baseline holds none (promoted before the test recorded any). Not a verdict.
std::string properties_note(const std::map<std::string, std::string>& recorded,
                            const std::map<std::string, std::string>& baseline) {
  if (baseline.empty() || recorded == baseline) return "";
  const auto value_in = [](const std::map<std::string, std::string>& properties,
                           const std::string& key) -> std::optional<std::string> {
    const auto it = properties.find(key);
    if (it == properties.end()) return std::nullopt;
    return it->second;
  };
  std::set<std::string> keys;
  for (const auto* properties : {&baseline, &recorded})
    for (const auto& entry : *properties) keys.insert(entry.first);
  std::vector<std::string> changed;
  for (const std::string& key : keys) {
    const std::optional<std::string> before = value_in(baseline, key),
                                     after = value_in(recorded, key);
    if (before == after) continue;
    changed.push_back(
        fmt::format("{} {} → {}", key, before.value_or("(none)"), after.value_or("(none)")));
  }
  return fmt::format(" · properties changed: {}", fmt::join(changed, "; "));
}

}  // namespace

BaselineGate::BaselineGate(const BaselineSet& baselines, EnvironmentProfile profile, double alpha)
    : baselines_(baselines), profile_(std::move(profile)), alpha_(alpha) {}

void BaselineGate::plan_family(const std::map<std::string, std::string>& tests) {
  family_ = planned_hypotheses(baselines_, tests);
}

const BaselineTest* BaselineGate::find_baseline(TestResult& test) const {
  const LoadedBaselineFile* loaded = baselines_.find(test.name);
  if (loaded == nullptr) return nullptr;
  const BaselineTest* baseline = &loaded->file.tests.at(test.name);
  const Provenance& p = loaded->file.provenance;
  test.baseline_file = loaded->path;
  test.baseline_version = p.version;
  test.baseline_commit = p.git_commit;
  test.baseline_promoted_at = p.promoted_at;
  const auto env = loaded->file.environments.find(p.environment);
  test.environment_note =
      (env != loaded->file.environments.end() ? describe_environment_change(env->second, profile_)
                                              : std::string("environment unknown")) +
      config_note(baseline->config_hash, test.config_hash, baseline->config, test.config) +
      properties_note(test.properties, baseline->properties);
  return baseline;
}

namespace {

// The fingerprints of this run that differ from the baseline's: of what the values depend on
// (`order` false: the datasets they were measured on, the checkpoints they were loaded from) or
// of the order the data was served in.
std::string changed_fingerprints(const TestResult& test, const BaselineTest* baseline, bool order) {
  if (baseline == nullptr) return "";
  std::string changed;
  for (const RecordedDataset& d : test.datasets) {
    if ((d.kind == FingerprintKind::kDataOrder) != order) continue;
    const std::map<std::string, std::string>& recorded = fingerprints_of(*baseline, d.kind);
    const auto it = recorded.find(d.name);
    if (it == recorded.end() || it->second == d.sha256) continue;
    changed += fmt::format("{}the {} '{}' changed ({} → {})", changed.empty() ? "" : "; ",
                           fingerprint_kind_noun(d.kind), d.name, it->second.substr(0, 19),
                           d.sha256.substr(0, 19));
  }
  return changed;
}

// A value bound to other environment profiles: which fields of this machine differ from each of
// theirs ("cpu-34ba8055: threads 1 → 2"), so that two ids a character apart explain themselves.
std::string other_profiles_note(const BaselineMetric& entry,
                                const std::map<std::string, EnvironmentProfile>& environments,
                                const EnvironmentProfile& now) {
  std::vector<std::string> notes;
  for (const auto& [id, value] : entry.by_environment) {
    const auto recorded = environments.find(id);
    if (recorded == environments.end()) {
      notes.push_back(fmt::format("{}: not described in the baseline file", id));
      continue;
    }
    const std::string differences = profile_differences(recorded->second, now);
    // Every field the file records is the same: the profile has a field the file predates.
    notes.push_back(fmt::format("{}: {}", id,
                                differences.empty()
                                    ? "recorded before the profile held every field it holds now"
                                    : differences));
  }
  return fmt::format("{}", fmt::join(notes, "; "));
}

// The per-seed values of the covariate a seeded metric names (Margin{.covariate}) in this run and
// in the baseline; an arm that lacks it stays empty, which the analysis reports.
std::optional<CovariateSamples> covariate_of(const MetricRecord& metric, const TestResult& test,
                                             const BaselineTest* baseline) {
  const Margin* margin = std::get_if<Margin>(&metric.policy);
  if (!test.seeded || margin == nullptr || margin->covariate.empty()) return std::nullopt;
  CovariateSamples covariate;
  covariate.name = margin->covariate;
  for (const MetricRecord& other : test.metrics) {
    if (other.name == margin->covariate) covariate.candidate = {other.samples, other.sample_seeds};
  }
  if (baseline != nullptr) {
    const auto it = baseline->metrics.find(margin->covariate);
    if (it != baseline->metrics.end()) covariate.baseline = {it->second.samples, it->second.seeds};
  }
  return covariate;
}

// Values measured on other data say nothing about this change: none of the test's comparisons is
// judged, each NOT_COMPARABLE naming `other_data`. Whether one still fails the test.
bool judge_none(TestResult& test, const std::string& other_data) {
  bool regressed = false;
  for (MetricComparison& c : test.comparisons) {
    if (c.verdict == Verdict::kNew) continue;
    // Predictions that could not be paired keep what their own comparison found: the stored
    // set's accuracy and size beside this run's.
    const bool unpaired =
        c.kind == MetricKind::kPredictions && c.verdict == Verdict::kNotComparable;
    c.note = unpaired ? other_data + "; " + c.note : other_data;
    c.verdict = Verdict::kNotComparable;
    c.distribution.reset();
    c.flips.reset();
    c.looks.clear();
    c.rate.reset();
    c.decision.reset();
    c.operators.reset();
    regressed = regressed || fails_the_test(c);
  }
  return regressed;
}

const BaselineMetric* baseline_entry(const BaselineTest* baseline, const std::string& metric) {
  if (baseline == nullptr) return nullptr;
  const auto it = baseline->metrics.find(metric);
  return it != baseline->metrics.end() ? &it->second : nullptr;
}

// A seeded test's failure-rate metric is judged on its seeds' (or attempts') pass/fail outcomes.
bool judges_failure_rate(const TestResult& test, const MetricRecord& metric) {
  return test.seeded && std::holds_alternative<FailureRate>(metric.policy);
}

// What a flaky-aware test's first attempt, or a shard's share of the outcomes, leaves of a
// comparison: `rate` whether it judged a failure rate, over `outcomes`.
void qualify_by_attempts(const TestResult& test, bool rate, int outcomes, bool rates_at_merge,
                         MetricComparison& c) {
  if (!rate && first_attempt_failed(test) && !is_not_gated(c.verdict) &&
      c.verdict != Verdict::kNew) {
    // A flaky-aware test's values come from its first attempt; a failed attempt's values say
    // nothing about the code, and a quarantined test must not fail the run through them.
    c.verdict = Verdict::kInconclusive;
    c.operators.reset();
    c.note = fmt::format(
        "not judged: the first attempt (seed {}) failed, and the test's values "
        "are that attempt's",
        test.seed);
  }
  if (rate && rates_at_merge && c.rate) {
    c.rate.reset();
    c.verdict = Verdict::kInconclusive;
    c.note = fmt::format("decided at merge, over every shard's outcomes ({} here)", outcomes);
  }
  if (rate && test.quarantined && c.verdict == Verdict::kRegression) {
    c.note = "quarantined, but its failure rate rose significantly: " + c.note;
  }
}

// The recorded predictions and gated curves against their reference files in `references`;
// whether one fails the test.
bool compare_predictions_and_curves(TestResult& test, const std::string& references) {
  bool regressed = false;
  for (const RecordedPredictions& predictions : test.predictions) {
    const std::string reference =
        references.empty() ? std::string()
                           : references + "/" + predictions_file_name(test.name, predictions.name);
    MetricComparison c = compare_predictions_metric(predictions, reference);
    regressed = regressed || fails_the_test(c);
    test.comparisons.push_back(std::move(c));
  }
  for (const RecordedCurve& curve : test.curves) {
    if (!curve.curve.policy) continue;
    MetricComparison c =
        compare_curve_metric(curve, references.empty() ? "" : references + "/" + curve.csv_file);
    regressed = regressed || fails_the_test(c);
    test.comparisons.push_back(std::move(c));
  }
  return regressed;
}

// Judged as usual; every note says the order changed, as the first place to look.
void note_order_changed(TestResult& test, const std::string& other_order) {
  for (MetricComparison& c : test.comparisons) {
    if (c.verdict == Verdict::kNew) continue;
    c.note = c.note.empty() ? other_order : c.note + "; " + other_order;
  }
  test.environment_note += " · " + other_order;
}

}  // namespace

MetricComparison BaselineGate::analyse_metric(const TestResult& test, const MetricRecord& metric,
                                              const BaselineMetric* entry,
                                              const BaselineTest* baseline) const {
  const bool rate = judges_failure_rate(test, metric);
  const std::optional<CovariateSamples> covariate = covariate_of(metric, test, baseline);
  const int outcomes = static_cast<int>(metric.samples.size());
  return rate
             ? compare_failure_rate(metric, entry, test.seed_block > 0 ? test.seed_block : outcomes,
                                    test.seed_block > 0 ? test.seed_cap : outcomes, alpha_,
                                    test.attempts ? "attempts" : "seeds")
         : !test.seeded || test.attempts
             ? compare_metric(metric.name, metric.value, metric.direction, entry, profile_)
         : test.seed_block > 0
             ? compare_sequential_distribution(
                   metric, entry,
                   SequentialPlan{.block = test.seed_block,
                                  .cap = test.seed_cap,
                                  .next_block = test.seed_next_block,
                                  .anytime = test.seed_anytime,
                                  .likelihood_ratio = test.seed_likelihood_ratio,
                                  .pass_error = test.seed_pass_error,
                                  .pass_spending = test.seed_pass_spending,
                                  .family = family_,
                                  .pass_rise = test.seed_pass_rise,
                                  .pass_rise_from = test.seed_pass_rise_from,
                                  .constant_pass = test.seed_constant_pass},
                   alpha_, covariate ? &*covariate : nullptr)
             : compare_distribution(metric, entry, covariate ? &*covariate : nullptr);
}

MetricComparison BaselineGate::compare_recorded_metric(const TestResult& test,
                                                       const MetricRecord& metric,
                                                       const BaselineTest* baseline) const {
  const BaselineMetric* entry = baseline_entry(baseline, metric.name);
  MetricComparison c = analyse_metric(test, metric, entry, baseline);
  c.operators = compare_operators(metric, c, entry, profile_);
  if (entry != nullptr && c.verdict == Verdict::kUngated) {
    c.note += fmt::format(
        " ({})",
        other_profiles_note(*entry, baselines_.find(test.name)->file.environments, profile_));
  }
  qualify_by_attempts(test, judges_failure_rate(test, metric),
                      static_cast<int>(metric.samples.size()), rates_at_merge_, c);
  if (metric.target && entry == nullptr) {
    // A capability is reported MET or NOT MET, never gated, until graduate writes its guard.
    c.note = fmt::format("a capability (target {}), not a regression guard; graduate makes one",
                         target_text(*metric.target));
  }
  return c;
}

void BaselineGate::compare_test(TestResult& test) const {
  const BaselineTest* baseline = find_baseline(test);
  const std::string other_data = changed_fingerprints(test, baseline, /*order=*/false);
  bool regressed = false;
  for (const MetricRecord& metric : test.metrics) {
    MetricComparison c = compare_recorded_metric(test, metric, baseline);
    regressed = regressed || fails_the_test(c);
    test.comparisons.push_back(std::move(c));
  }
  regressed = compare_predictions_and_curves(test, baselines_.references_folder()) || regressed;
  if (!other_data.empty()) {
    regressed = judge_none(test, other_data);
    test.environment_note += " · " + other_data;
  }
  const std::string other_order = changed_fingerprints(test, baseline, /*order=*/true);
  if (!other_order.empty()) note_order_changed(test, other_order);
  if (regressed && test.status == TestStatus::kPassed) test.status = TestStatus::kRegressed;
  explain(test);
  // The test's own constraints, against the same baseline values; a test that failed or skipped
  // itself has no values to hold them to.
  if (test.status == TestStatus::kPassed || test.status == TestStatus::kRegressed)
    test.constraints_violated = violated_declared_constraints(test);
}

void BaselineGate::explain(TestResult& test) const {
  const LoadedBaselineFile* loaded = baselines_.find(test.name);
  static const std::map<std::string, EnvironmentProfile> kNoEnvironments;
  const BaselineTest* baseline = loaded == nullptr ? nullptr : &loaded->file.tests.at(test.name);
  explain_verdicts(
      test, gather_cause_evidence(
                test, baseline, loaded == nullptr ? kNoEnvironments : loaded->file.environments,
                profile_, loaded == nullptr ? "" : loaded->file.provenance.environment));
}

void BaselineGate::judge_run(RunResult& run) {
  std::map<std::string, std::string> tests;
  for (const TestResult& test : run.tests) tests[test.name] = test.config_hash;
  plan_family(tests);
  for (TestResult& test : run.tests) {
    if (!test.finished) continue;
    // A judgement against other baselines, if the run had one, is replaced: "regressed" means
    // the body passed, so the test starts from there.
    test.comparisons.clear();
    test.constraints_violated.clear();
    test.baseline_file.clear();
    test.environment_note.clear();
    if (test.status == TestStatus::kRegressed) test.status = TestStatus::kPassed;
    compare_test(test);
  }
  decide_run(run);
}

namespace {

// A sequential study that calls IMPROVED at its first look, on the baseline's own seeds, stopped
// because those seeds happened to look good: the estimate is biased upward (the winner's curse)
// and nothing independent has confirmed it yet. A run on fresh seeds (--seed past the baseline's)
// that is IMPROVED too, or a later look, is what settles it.
void mark_if_provisional(MetricComparison& c) {
  c.provisional = c.verdict == Verdict::kImproved && c.looks.size() == 1 &&
                  c.looks.front().analysis.design == GateDesign::kPaired;
  if (!c.provisional) return;
  c.note += fmt::format(
      "; provisional: decided at the first look ({} seeds, the baseline's own), where an early "
      "win overstates itself; confirm it on fresh seeds (run --seed past the baseline's) before "
      "promoting",
      c.looks.front().seeds);
}

}  // namespace

void BaselineGate::decide_run(RunResult& run) const {
  const double alpha = alpha_;
  std::vector<DistributionAnalysis> analyses;
  std::vector<OtherCheck> flips;  // McNemar's tests of predictions: the same families
  std::vector<std::pair<TestResult*, MetricComparison*>> owners, flip_owners;
  for (TestResult& test : run.tests) {
    for (MetricComparison& c : test.comparisons) {
      if (c.decision) continue;
      if (c.distribution) {
        analyses.push_back(*c.distribution);
        owners.emplace_back(&test, &c);
      } else if (c.flips) {
        flips.push_back({c.flips->p_worse, c.flips->p_better});
        flip_owners.emplace_back(&test, &c);
      }
    }
  }
  if (analyses.empty() && flips.empty()) return;
  std::vector<OtherCheck> flips_adjusted;
  std::vector<GateDecision> decisions = decide_gate(analyses, flips, flips_adjusted, alpha);
  for (std::size_t i = 0; i < flips.size(); ++i) {
    decisions.push_back(
        decide_predictions(*flip_owners[i].second->flips, flips_adjusted[i], alpha));
    owners.push_back(flip_owners[i]);
  }
  for (std::size_t i = 0; i < decisions.size(); ++i) {
    auto [test, c] = owners[i];
    c->decision = decisions[i];
    c->verdict = decisions[i].verdict;
    c->note = decisions[i].reason;
    mark_if_provisional(*c);
    if (c->verdict == Verdict::kRegression && test->status == TestStatus::kPassed) {
      test->status = TestStatus::kRegressed;
    }
  }
  // The decided verdicts change the evidence of every value of their tests (a sibling moved).
  TestResult* explained = nullptr;
  for (const auto& [test, c] : owners) {
    if (test != explained) explain(*test);
    explained = test;
  }
}

}  // namespace mlregress::internal
