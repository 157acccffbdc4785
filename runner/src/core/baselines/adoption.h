// Adoption: a new machine adds its own values to baselines that hold them for other machines
// only. Where promote replaces what a baseline says, adopt only fills the gaps the UNGATED
// verdicts point at: the `numerics` and `machine` exact values and the timings that have no
// value for this machine's profile. Portable values, other machines' values and this machine's
// existing values are never touched. Planned as a pure function, then written like a promotion
// (atomically, file by file, under the folder lock), with the same provenance and history.
#pragma once

#include <string>
#include <vector>

#include "baselines/baseline_store.h"
#include "baselines/promotion.h"
#include "storage/run_record.h"

namespace mlregress::internal {

struct AdoptionPlan {
  std::vector<PlannedFile> files;  ///< only the files that change
  /// "Test.metric = 0.25 → cpu-avx2-5e6f7a8b", one line per value added
  std::vector<std::string> adopted;
  /// "Test.metric: the two runs differ (0.25 and 0.2500001)": left UNGATED, with the reason
  std::vector<std::string> refused;
};

/// What adopting `run` would change (`request` as for a promotion: folder, reason, filter,
/// force, time). `confirm`, when given, is a second run on the same
/// environment profile: an exact value is adopted only when both runs recorded the same bits;
/// a timing takes `run`'s value with a spread of at least the two runs' relative difference.
/// Throws PromotionRefused for a failed, incomplete or dirty run (unless request.force) and
/// when `confirm` ran on another profile or another commit.
AdoptionPlan plan_adoption(const RunRecord& run, const RunRecord* confirm,
                           const BaselineSet& existing, const PromotionRequest& request);

/// plan_adoption against the baselines on disk, holding the folder's lock, each changed file
/// written atomically. Returns the plan that was written.
AdoptionPlan adopt_run(const RunRecord& run, const RunRecord* confirm,
                       const PromotionRequest& request);

}  // namespace mlregress::internal
