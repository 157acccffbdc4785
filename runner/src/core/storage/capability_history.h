// A capability's history: the value each finished run under a runs folder recorded for a metric
// with a target (record_target), oldest first. The run's report states the success rate over it
// (attach_capability_rates); `graduate` decides on its last runs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "record/run_result.h"

namespace mlregress::internal {

/// One run's value of a capability.
struct CapabilityObservation {
  std::string run_id;
  std::string folder;  ///< the run folder, canonical
  std::string started_at;
  std::string commit;
  double value = 0.0;
  Target target;  ///< as that run recorded it
  /// The test's parameters and settings as that run resolved them, the seed left out
  /// (capability_configuration): runs of another configuration measure another experiment.
  std::string configuration;
  std::uint64_t seed = 0;
};

/// "steps=160;threads=1": the test's recorded config values (results.json's "config") without
/// the seed, which a capability's evidence is meant to vary; "" for a run recorded without them.
std::string capability_configuration(const TestResult& test);

/// The observations that are evidence about `configuration`: those of that configuration, and of
/// several runs of one commit on one seed (a deterministic rerun, the same outcome copied) the
/// latest only. Oldest first.
std::vector<CapabilityObservation> independent_observations(
    const std::vector<CapabilityObservation>& observations, const std::string& configuration);

/// (test name, metric) -> its observations, oldest first (by the run's start time).
using CapabilityHistory =
    std::map<std::pair<std::string, std::string>, std::vector<CapabilityObservation>>;

/// The capabilities recorded by the finished, whole (not a shard's) runs of `binary` under
/// `runs_folder` (a folder holding run folders, or a run folder). A run folder that cannot be
/// read is left out and named in `unreadable` when given. Throws RunFolderError when
/// `runs_folder` does not exist.
CapabilityHistory read_capability_history(const std::string& runs_folder, const std::string& binary,
                                          std::vector<std::string>* unreadable = nullptr);

/// Whether each observation meets `target` (today's target: a run recorded under another
/// threshold is judged by this one), oldest first.
std::vector<bool> capability_outcomes(const std::vector<CapabilityObservation>& observations,
                                      const Target& target);

/// Sets test.capability_rates of every finished test of `run` from `history` (the runs before
/// this one, of the test's configuration, one per commit and seed) and this run's own outcome.
void attach_capability_rates(RunResult& run, const CapabilityHistory& history);

}  // namespace mlregress::internal
