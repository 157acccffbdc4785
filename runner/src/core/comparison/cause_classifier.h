// The rules that name the cause of a verdict that is not a PASS (analysis/cause.h), as two pure
// functions: gather_cause_evidence reads what a finished test recorded beside its verdicts (its
// dataset and data-order fingerprints against the baseline's, the gated curves that left their
// band, the values that are not finite, which counters and input statistics moved, and how the
// machine differs from the profile the baseline holds each environment-bound value for), and
// classify_cause decides one comparison's cause from it. Every rule and the evidence it reads are
// listed in runner/docs/causes.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/cause.h"
#include "baselines/baseline.h"
#include "environment/environment_profile.h"
#include "record/run_result.h"

namespace mlregress::internal {

/// A fingerprint of this run that differs from the baseline's.
struct FingerprintChange {
  std::string name;
  std::string before;  ///< "sha256:<hex>"
  std::string after;
};

/// How this machine differs from a profile the baseline holds an environment-bound value for,
/// split into the fields that choose the kernels (framework, build, capability, instruction sets,
/// kernel pins, GPU) and the rest (CPU model, machine, threads). Both empty: the same profile.
struct EnvironmentDifference {
  std::string kernels;
  std::string machine;
};

/// What one finished test recorded that can explain its verdicts.
struct CauseEvidence {
  std::vector<FingerprintChange> datasets;     ///< record_dataset, changed
  std::vector<FingerprintChange> data_orders;  ///< record_data_order, changed
  std::vector<FingerprintChange> checkpoints;  ///< record_checkpoint, changed
  bool had_baseline = false;                   ///< fingerprints and environments could be compared
  bool records_datasets = false;     ///< the test records at least one dataset fingerprint
  bool records_data_orders = false;  ///< the test records at least one data-order fingerprint
  bool records_checkpoints = false;  ///< the test records at least one checkpoint fingerprint
  /// Values that are not finite: "loss is nan", "the curve 'loss' at step 12 is inf".
  std::vector<std::string> non_finite;
  /// Per metric bound to an environment (values stored per profile: exact numerics or machine
  /// values, timings): how this machine differs from the profile(s) the baseline holds it for.
  /// A metric compared on its own profile maps to an empty difference.
  std::map<std::string, EnvironmentDifference> environment_bound;
  /// Per metric bound to an environment: the profile ids the baseline holds it for without
  /// describing them under [environments] (their fields could not be compared).
  std::map<std::string, std::vector<std::string>> undescribed_environments;
  /// The profile the baseline file was last promoted on (its provenance), and how this machine
  /// differs from it: a portable value (a band's) that moved where only the CPU or its kernels
  /// changed may have moved with them. Empty when the file does not describe that profile.
  std::string promoted_on;
  EnvironmentDifference promoted_on_difference;
};

/// Reads the evidence of a test whose comparisons are done. `baseline` and `environments` (the
/// baseline file's profile descriptions) may be null/empty when the test has no baseline;
/// `promoted_on` is the profile id of the file's provenance ("" when unknown).
CauseEvidence gather_cause_evidence(const TestResult& test, const BaselineTest* baseline,
                                    const std::map<std::string, EnvironmentProfile>& environments,
                                    const EnvironmentProfile& now,
                                    const std::string& promoted_on = "");

/// The cause of `comparison` (one of `test.comparisons`, whose other comparisons are evidence
/// too: a sibling that moved is weak evidence for this one). Defined for every verdict; reporters
/// show it for the ones `needs_cause` names.
Cause classify_cause(const MetricComparison& comparison, const TestResult& test,
                     const CauseEvidence& evidence);

/// REGRESSION, INCONCLUSIVE, NOT_COMPARABLE and UNGATED carry a cause; PASS, IMPROVED and NEW
/// do not.
bool needs_cause(Verdict verdict);

/// Sets (or clears) the cause of every comparison of `test` from `evidence`.
void explain_verdicts(TestResult& test, const CauseEvidence& evidence);

}  // namespace mlregress::internal
