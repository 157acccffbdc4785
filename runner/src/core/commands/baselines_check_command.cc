#include "commands/baselines_check_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

#include "baselines/baseline_store.h"
#include "environment/environment_probe.h"
#include "environment/environment_profile.h"
#include "registry/test_registry.h"

namespace mlregress::internal {

ExitCode baselines_check_command(const BaselinesCheckOptions& options, const RunnerHooks& hooks,
                                 const std::string& binary) {
  const BaselineSet set = BaselineSet::load(options.baselines, binary, /*allow_missing=*/false);
  // Only the profile matters here, and it does not depend on git.
  const EnvironmentProfile profile =
      environment_profile(probe_environment(GitInfo{}, hooks, {{"intra_op_threads", 1}}));

  const TestRegistry& registry = TestRegistry::instance();
  int findings = 0;
  std::printf("baselines check: %s in %s (this machine: %s, numerics %s)\n", binary.c_str(),
              baseline_folder(options.baselines, binary).c_str(), profile.id.c_str(),
              profile.numerics_id.c_str());
  for (const LoadedBaselineFile& file : set.files()) {
    for (const auto& [name, test] : file.file.tests) {
      if (registry.find(name) == nullptr) {
        std::printf("  stale      %s: baseline for '%s', which the binary no longer has\n",
                    file.path.c_str(), name.c_str());
        ++findings;
      }
      for (const auto& [metric, entry] : test.metrics) {
        // Per-seed samples are portable: seeds, not the machine, drive their randomness.
        if (entry.samples.empty() && !entry.value && stored_profile_id(entry, profile).empty()) {
          const std::string profiles = fmt::format("{}", fmt::join(recorded_profiles(entry), ", "));
          std::printf("  ungated    %s: %s.%s recorded on %s only (baselines adopt adds %s)\n",
                      file.path.c_str(), name.c_str(), metric.c_str(), profiles.c_str(),
                      profile_id_for(entry.policy, profile).c_str());
          ++findings;
        }
      }
    }
  }
  for (const RegisteredTest& test : registry.tests()) {
    if (set.find(test.name) == nullptr) {
      std::printf("  no-baseline %s: no baseline entry (new, or it records no metrics)\n",
                  test.full_name().c_str());
      ++findings;
    }
  }
  std::printf("baselines check: %d finding%s\n", findings, findings == 1 ? "" : "s");
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
