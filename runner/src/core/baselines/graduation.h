// Graduation: a capability (a metric recorded with record_target) met reliably becomes a
// regression guard. The decision is the history's (analysis/capability.h: k of the last n runs,
// the lower 95% Wilson bound of the success rate at least a threshold); the guard is a band
// derived from those n runs' values by calibrate's tolerance-interval rule (calibration.h) and
// written through promotion's path (one file at a time, atomically, under the folder's lock),
// with the graduation's provenance. A guard can be demoted back to a capability, recorded in
// the file (runner/docs/capabilities.md).
#pragma once

#include <string>
#include <vector>

#include "analysis/capability.h"
#include "baselines/calibration.h"
#include "baselines/promotion.h"
#include "storage/capability_history.h"

namespace mlregress::internal {

struct GraduationRequest {
  std::string runs_folder = "runs";
  std::string binary;
  std::string test;
  std::string metric;
  std::string baselines_dir = "baselines";
  int last = kGraduationDefaultRuns;
  double min_lower_bound = kGraduationDefaultLowerBound;
  std::string reason;
  bool force = false;  ///< graduate from runs of a dirty tree
  std::string now;     ///< UTC
};

struct GraduationResult {
  GraduationEvidence evidence;
  Target target;
  std::vector<CapabilityObservation> window;  ///< the runs it graduated on, oldest first
  MetricCalibration calibration;              ///< their values, the band calibrate's rule gives
  std::vector<PlannedFile> written;           ///< empty: the baseline already held this guard
};

/// Decides on the capability's history under request.runs_folder and, when it graduates,
/// writes its guard. Throws PromotionRefused with the numbers (graduation_refusal) when the
/// evidence is short, or when the values give no band (not finite, say); ConfigError for a
/// window < 2 or a threshold outside (0, 1).
GraduationResult graduate_capability(const GraduationRequest& request);

struct DemotionRequest {
  std::string binary;
  std::string test;
  std::string metric;
  std::string baselines_dir = "baselines";
  std::string reason;
  std::string now;  ///< UTC
};

/// Removes the guard `graduate` wrote for test.metric, which is a capability again, and records
/// the demotion (metric, when, reason, when it had graduated) in the test's baseline; written
/// atomically under the folder's lock. Returns the file written. Throws ConfigError when the
/// baselines hold no graduated guard of that name.
std::string demote_guard(const DemotionRequest& request);

}  // namespace mlregress::internal
