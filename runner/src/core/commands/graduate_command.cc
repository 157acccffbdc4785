#include "commands/graduate_command.h"

#include <fmt/format.h>

#include <cstdio>

#include "baselines/graduation.h"
#include "support/clock.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

ExitCode demote(const GraduateOptions& options, const std::string& binary) {
  const std::string path = demote_guard({.binary = binary,
                                         .test = options.test,
                                         .metric = options.metric,
                                         .baselines_dir = options.baselines,
                                         .reason = options.reason,
                                         .now = utc_now_iso8601()});
  std::printf(
      "graduate --demote: %s.%s is a capability again (guard removed from %s; the "
      "demotion is recorded there)\n",
      options.test.c_str(), options.metric.c_str(), path.c_str());
  return ExitCode::kPassed;
}

}  // namespace

ExitCode graduate_command(const GraduateOptions& options, const std::string& binary) {
  if (options.demote) return demote(options, binary);
  const GraduationResult result = graduate_capability({.runs_folder = options.runs,
                                                       .binary = binary,
                                                       .test = options.test,
                                                       .metric = options.metric,
                                                       .baselines_dir = options.baselines,
                                                       .last = options.last,
                                                       .min_lower_bound = options.min_lower_bound,
                                                       .reason = options.reason,
                                                       .force = options.force,
                                                       .now = utc_now_iso8601()});
  const GraduationEvidence& e = result.evidence;
  const Calibration& c = result.calibration.calibration;
  std::printf(
      "graduate: %s.%s (target %s) met %d of the last %d runs; the lower 95%% Wilson bound of "
      "its success rate is %.3f >= %g\n",
      options.test.c_str(), options.metric.c_str(), target_text(result.target).c_str(), e.met,
      e.runs, e.lower, e.threshold);
  std::printf("  guard: band ±%s around the mean %s (sd %s over %d runs; %s)\n",
              format_value(result.calibration.half_width).c_str(), format_value(c.mean).c_str(),
              format_value(c.sd).c_str(), c.repeats, c.rule.c_str());
  if (result.written.empty()) {
    std::printf("  the baselines already hold this guard; nothing changed\n");
  }
  for (const PlannedFile& file : result.written) {
    std::printf("  %s %s v%d -> v%d\n", file.path.c_str(), file.created ? "created" : "updated",
                file.before.provenance.version, file.after.provenance.version);
  }
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
