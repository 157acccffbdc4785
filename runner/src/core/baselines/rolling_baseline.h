// A rolling baseline: instead of the last promotion, the recent past. `run --baseline-history
// DIR --window K` compares each metric with the last K finished runs under DIR that ran on the
// same environment profile: the median of their values for a plain metric (one bad run does not
// move it), and for a seeded metric the pooled samples, one per seed (a seed run several times
// counts once, with the median of its values, so that pairing by seed still holds). The set is
// built exactly as `promote --force` would build it from one run holding those values, so every
// verdict is the one a promoted baseline with the same values gives.
//
// What it trades: a regression that nobody fixes becomes the baseline after about K/2 runs
// (the median moves). `history` finds such steps afterwards; a promoted baseline never moves
// without a person.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "baselines/baseline_store.h"
#include "environment/environment_profile.h"

namespace mlregress::internal {

struct RollingBaseline {
  BaselineSet set;
  std::vector<std::string> runs;  ///< the run ids it was made from, oldest first
  /// Run folders under DIR left out, by reason: another binary or environment profile,
  /// incomplete, a shard, uncommitted changes, older than the window.
  std::map<std::string, std::size_t> left_out;
};

/// The last `window` runs of `binary` under `history_dir` on `profile` (ordered by start time),
/// as a baseline set. Failed tests of a run are left out of it. No run at all gives an empty set
/// (every test NEW), as an empty baseline folder does. Throws RunFolderError for a folder that
/// does not exist or a run folder that cannot be read, ConfigError for a window below 1.
RollingBaseline rolling_baseline(const std::string& history_dir, std::size_t window,
                                 const std::string& binary, const EnvironmentProfile& profile);

}  // namespace mlregress::internal
