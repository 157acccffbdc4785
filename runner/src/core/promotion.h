// Promotion: a run's metrics become the new baseline. Planned as a pure function (what would
// each file become?) and then written file by file, each atomically, under a lock.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "baseline_store.h"
#include "run_record.h"

namespace mlregress::internal {

/// promote refused the run; the message lists every reason.
class PromotionRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PromotionRequest {
  std::string baselines_dir = "baselines";
  std::string reason;
  std::string filter;  ///< NameFilter syntax over test names; empty: every test
  bool force = false;
  std::string now;     ///< UTC time recorded as promoted_at
};

struct PlannedFile {
  std::string path;
  BaselineFile before;  ///< empty (version 0) for a new file
  BaselineFile after;
  int changed_metrics = 0;
  int new_metrics = 0;
  bool created = false;
};

/// Throws PromotionRefused for a failed or incomplete run, or one from a dirty tree, unless
/// request.force. Returns only the files whose content changes.
std::vector<PlannedFile> plan_promotion(const RunRecord& run, const BaselineSet& existing,
                                        const PromotionRequest& request);

/// Runs plan_promotion holding an exclusive flock on <dir>/<binary>/ and writes each changed file
/// atomically. Returns the plan that was written.
std::vector<PlannedFile> promote_run(const RunRecord& run, const PromotionRequest& request);

}  // namespace mlregress::internal
