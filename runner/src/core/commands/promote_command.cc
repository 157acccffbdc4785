#include "commands/promote_command.h"

#include <fmt/format.h>

#include <cstdio>

#include "baselines/promotion.h"
#include "storage/run_record.h"
#include "support/clock.h"

namespace mlregress::internal {

ExitCode promote_command(const PromoteOptions& options) {
  const RunRecord run = read_run_record(options.run);
  PromotionRequest request;
  request.baselines_dir = options.baselines;
  request.reason = options.reason;
  request.filter = options.filter;
  request.force = options.force;
  request.add_seeds = options.add_seeds;
  request.now = utc_now_iso8601();
  std::vector<std::string> predictions;
  const std::vector<PlannedFile> written = promote_run(run, request, &predictions);
  for (const std::string& path : predictions)
    std::printf(
        "promote: %s (%s)\n", path.c_str(),
        path.find("/predictions/") != std::string::npos ? "predictions" : "reference curve");
  if (written.empty() && options.add_seeds) {
    std::printf(
        "promote: the baselines already hold every seed of run %s with the same values; "
        "nothing changed\n",
        run.run.info.run_id.c_str());
    return ExitCode::kPassed;
  }
  if (written.empty() && predictions.empty()) {
    std::printf("promote: baselines already match run %s; nothing changed\n",
                run.run.info.run_id.c_str());
    return ExitCode::kPassed;
  }
  for (const PlannedFile& file : written) {
    std::printf("promote: %s %s v%d -> v%d: %d changed, %d new metric%s\n", file.path.c_str(),
                file.created ? "created" : "updated", file.before.provenance.version,
                file.after.provenance.version, file.changed_metrics, file.new_metrics,
                file.new_metrics == 1 ? "" : "s");
    for (const std::string& line : file.detectable_effects) std::printf("  %s\n", line.c_str());
    for (const std::string& line : file.skipped_values) std::printf("  %s\n", line.c_str());
  }
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
