#include "storage/held_out_history.h"

#include <exception>
#include <filesystem>
#include <optional>

#include "storage/results_json.h"
#include "storage/run_folder_search.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

// The record of an earlier run, or nothing when its results.json cannot be read (a damaged
// folder counts for nothing; the others still do).
std::optional<RunResult> read_earlier_run(const std::string& folder) {
  try {
    return read_results_json(folder + "/results.json");
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// How often the tests of one run evaluated (name, sha256).
int evaluations_in(const RunResult& run, const HeldOutTally& tally) {
  int sum = 0;
  for (const TestResult& test : run.tests) {
    for (const HeldOutEvaluation& e : test.held_out) {
      if (e.name == tally.name && e.sha256 == tally.sha256) sum += e.evaluations;
    }
  }
  return sum;
}

bool same_folder(const std::string& a, const std::string& b) {
  std::error_code error;
  return std::filesystem::equivalent(a, b, error);
}

}  // namespace

std::vector<HeldOutTally> tally_held_out(const RunResult& run, const std::string& runs_folder) {
  std::vector<HeldOutTally> tallies = tally_this_run(run);
  if (tallies.empty()) return tallies;
  std::vector<std::string> folders;
  try {
    folders = find_run_folders({runs_folder}, "run");
  } catch (const RunFolderError&) {
    return tallies;
  }
  for (const std::string& folder : folders) {
    if (same_folder(folder, run.info.run_folder)) continue;
    const std::optional<RunResult> earlier = read_earlier_run(folder);
    if (!earlier || earlier->info.shard) continue;
    const std::string& run_id = earlier->info.run_id;
    for (HeldOutTally& tally : tallies) {
      if (const int n = evaluations_in(*earlier, tally); n > 0) {
        tally.earlier_runs.push_back({run_id, n});
      }
    }
  }
  return tallies;
}

}  // namespace mlregress::internal
