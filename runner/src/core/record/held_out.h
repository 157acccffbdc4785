// Held-out sets: record_held_out_evaluation() marks that a test evaluated the held-out set NAME
// (a test set touched once, at the end of the work) with a given fingerprint. The run counts the
// evaluations of each set, in this run and in the earlier runs of its runs folder; past the first
// the set no longer estimates generalisation (choices were made by looking at it), and the run
// says so in a warning. It never fails the run.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mlregress::internal {

struct SeedRun;
struct RunResult;

/// The evaluations one test (or one seed run) made of one held-out set.
struct HeldOutEvaluation {
  std::string name;
  std::string sha256;  ///< "sha256:<hex>", as record_dataset stores it
  int evaluations = 0;
  friend bool operator==(const HeldOutEvaluation&, const HeldOutEvaluation&) = default;
};

/// Adds `times` evaluations of (name, sha256): to its entry, or as a new one at the end.
void add_held_out_evaluation(std::vector<HeldOutEvaluation>& list, const std::string& name,
                             const std::string& sha256, int times = 1);

/// A seeded test's evaluations: the seeds of one variant measure one configuration, so they count
/// as one evaluation per variant (the most any of its seeds made); the variants add up.
std::vector<HeldOutEvaluation> held_out_of_seed_runs(const std::vector<SeedRun>& runs);

/// An earlier run that evaluated the set: its id and its evaluations.
struct HeldOutEarlierRun {
  std::string run_id;
  int evaluations = 0;
  friend bool operator==(const HeldOutEarlierRun&, const HeldOutEarlierRun&) = default;
};

/// One held-out set over the run and the earlier runs in its runs folder.
struct HeldOutTally {
  std::string name;
  std::string sha256;
  int this_run = 0;                             ///< evaluations in this run, over every test
  std::vector<std::string> tests;               ///< the tests of this run that evaluated it
  std::vector<HeldOutEarlierRun> earlier_runs;  ///< in run-id order
  int total() const;
  friend bool operator==(const HeldOutTally&, const HeldOutTally&) = default;
};

/// This run's tallies, one per (name, sha256) in first-seen order; no earlier runs yet.
std::vector<HeldOutTally> tally_this_run(const RunResult& run);

/// "held-out set 'test' (sha256:ab12cd34ef56…) evaluated 3 times: runs 20261206T…, this run (2);
/// past the first it no longer estimates generalisation"; "" when evaluated at most once.
std::string held_out_warning(const HeldOutTally& tally);

void to_json(nlohmann::json& json, const HeldOutEvaluation& evaluation);
void from_json(const nlohmann::json& json, HeldOutEvaluation& evaluation);
void to_json(nlohmann::json& json, const HeldOutTally& tally);
void from_json(const nlohmann::json& json, HeldOutTally& tally);

}  // namespace mlregress::internal
