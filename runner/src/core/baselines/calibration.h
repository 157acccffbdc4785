// Calibration: a band derived from the measured run-to-run noise instead of set by hand. The same
// tests, seed and threads are run K times (`calibrate`); per metric the K values give a mean, a
// sample sd and the largest deviation from the mean, and a band of ± max(k · sd, max deviation)
// with k the exact two-sided normal tolerance factor (99% of runs with 99% confidence by
// default). The band is written like a promotion (the value is the mean), with the calibration
// as the metric's provenance. Analysed as a pure function; written under the folder's lock.
//
// Across kernel paths (`calibrate --across-kernels`) the K runs are one per CPU code path
// (environment/kernel_paths.h) instead of repeats of one: the same rule then bounds what another
// CPU's kernels may do to the value. A value that moves by more than its own size across them is
// chaotic (a p-value at chance, a loss after a long chaotic training): no band is written for it,
// and the test should record the decision it supports instead.
#pragma once

#include <string>
#include <vector>

#include "baselines/promotion.h"
#include "storage/run_record.h"

namespace mlregress::internal {

/// What the tolerance interval covers, and with which confidence.
struct CalibrationRule {
  double coverage = 0.99;
  double confidence = 0.99;
  /// Empty: the runs repeat one configuration. Otherwise the kernel path of each run, in order
  /// (describe(KernelSetting)): the values are spread across CPU code paths.
  std::vector<std::string> kernel_paths;
};

/// The rule as the baseline file states it: "normal tolerance interval 99%/99% (two-sided,
/// exact k); band = max(k × sd, max_deviation)", after "across 6 kernel paths (…): " when the
/// runs were on several.
std::string calibration_rule_text(const CalibrationRule& rule);

/// What calibrate does with one metric.
enum class CalibrationOutcome {
  kBand,            ///< its values vary: a band is written
  kIdentical,       ///< bit-identical in every repeat: offered Exact, nothing written
  kNoiseDominates,  ///< the band would be wider than the value itself: reported, not written
  kChaotic,         ///< across kernel paths it moves by more than its own size: not written
  kNotRepeatable,   ///< the test records it Exact (or must_equal), yet its values vary
  kIncomplete,      ///< missing or not finite in some repeat
  kNotCalibrated,   ///< a timing: promote stores its own spread (cv)
};

struct MetricCalibration {
  std::string test;
  std::string metric;
  CalibrationOutcome outcome = CalibrationOutcome::kBand;
  std::vector<double> values;  ///< one per repeat, in repeat order
  Calibration calibration;     ///< filled when at least two finite values were recorded
  double half_width = 0.0;     ///< the band's atol: calibrated_half_width(calibration)
  std::string note;            ///< why it is not written, or what is offered
};

/// The calibration of every metric the repeats recorded (tests and metrics in the order of the
/// first repeat). `repeats` are runs of the same plan on one machine (one per kernel path when
/// `rule.kernel_paths` names them); each test must have recorded its metrics in every repeat to
/// be calibrated.
std::vector<MetricCalibration> calibrate_metrics(const std::vector<RunRecord>& repeats,
                                                 const CalibrationRule& rule);

/// Whether calibrate writes this metric's band: kBand always, kNoiseDominates only when
/// `allow_wide`, kChaotic never.
bool writes_band(const MetricCalibration& metric, bool allow_wide);

/// The files the calibrated bands change, planned like a promotion of the first repeat holding
/// only the written metrics, each with its mean as value and its calibration (provenance: the
/// calibration folder's name as source run, `request.reason`). The first repeat's checks
/// (failed, incomplete or dirty: refused unless request.force) apply.
std::vector<PlannedFile> plan_calibration(const std::vector<RunRecord>& repeats,
                                          const std::vector<MetricCalibration>& metrics,
                                          const std::string& calibration_id, bool allow_wide,
                                          const BaselineSet& existing,
                                          const PromotionRequest& request);

/// plan_calibration against the baselines on disk, holding the folder's lock, each changed file
/// written atomically. Returns the plan that was written.
std::vector<PlannedFile> write_calibration(const std::vector<RunRecord>& repeats,
                                           const std::vector<MetricCalibration>& metrics,
                                           const std::string& calibration_id, bool allow_wide,
                                           const PromotionRequest& request);

}  // namespace mlregress::internal
