#include "storage/held_out_history.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "storage/run_folder_search.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

// The results.json of a finished or stopped earlier run, or null when it cannot be read.
nlohmann::json read_results(const std::string& folder) {
  std::ifstream in(folder + "/results.json");
  if (!in) return nullptr;
  return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
}

// How often the tests of one results.json evaluated (name, sha256).
int evaluations_in(const nlohmann::json& results, const HeldOutTally& tally) {
  int sum = 0;
  const auto tests = results.find("tests");
  if (tests == results.end() || !tests->is_array()) return 0;
  for (const nlohmann::json& test : *tests) {
    if (!test.is_object() || !test.contains("held_out")) continue;
    try {
      for (const HeldOutEvaluation& e : test.at("held_out").get<std::vector<HeldOutEvaluation>>()) {
        if (e.name == tally.name && e.sha256 == tally.sha256) sum += e.evaluations;
      }
    } catch (const std::exception&) {
      // A damaged entry counts for nothing; the others still do.
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
    const nlohmann::json results = read_results(folder);
    if (!results.is_object() || !results.contains("run") || !results["run"].is_object() ||
        results["run"].contains("shard")) {
      continue;
    }
    const nlohmann::json& id = results["run"].contains("id") ? results["run"]["id"] : nullptr;
    const std::string run_id = id.is_string() ? id.get<std::string>() : folder;
    for (HeldOutTally& tally : tallies) {
      if (const int n = evaluations_in(results, tally); n > 0) {
        tally.earlier_runs.push_back({run_id, n});
      }
    }
  }
  return tallies;
}

}  // namespace mlregress::internal
