#include "commands/baselines_adopt_command.h"

#include <cstdio>
#include <optional>

#include "baselines/adoption.h"
#include "storage/run_record.h"
#include "support/clock.h"

namespace mlregress::internal {

ExitCode baselines_adopt_command(const BaselinesAdoptOptions& options) {
  const RunRecord run = read_run_record(options.run);
  std::optional<RunRecord> confirm;
  if (!options.confirm.empty()) confirm = read_run_record(options.confirm);
  const PromotionRequest request{.baselines_dir = options.baselines,
                                 .reason = options.reason,
                                 .filter = options.filter,
                                 .force = options.force,
                                 .now = utc_now_iso8601()};
  const AdoptionPlan plan = adopt_run(run, confirm ? &*confirm : nullptr, request);
  std::printf("adopt: run %s on %s (numerics %s)%s\n", run.run.info.run_id.c_str(),
              run.profile.id.c_str(), run.profile.numerics_id.c_str(),
              confirm ? (" confirmed by run " + confirm->run.info.run_id).c_str() : "");
  for (const PlannedFile& file : plan.files) {
    std::printf("adopt: %s v%d -> v%d: %d value%s added\n", file.path.c_str(),
                file.before.provenance.version, file.after.provenance.version, file.new_metrics,
                file.new_metrics == 1 ? "" : "s");
  }
  for (const std::string& line : plan.adopted) std::printf("  adopted  %s\n", line.c_str());
  for (const std::string& line : plan.refused) std::printf("  refused  %s\n", line.c_str());
  if (plan.files.empty() && plan.refused.empty()) {
    std::printf(
        "adopt: nothing to adopt: every value the baselines hold is gated on this machine "
        "already (or is new: promote adds it)\n");
  }
  return plan.refused.empty() ? ExitCode::kPassed : ExitCode::kPromotionRefused;
}

}  // namespace mlregress::internal
