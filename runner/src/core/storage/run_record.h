// A finished run read back from its folder, for the commands that work on runs (promote,
// compare, reports) and never re-run tests.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "environment/environment_profile.h"
#include "record/run_result.h"

namespace mlregress::internal {

struct RunRecord {
  std::string path;
  RunResult run;               ///< results.json; run.info.environment holds environment.json
  EnvironmentProfile profile;  ///< from environment.json
};

/// Reads results.json and environment.json from `path` (a run folder or the `latest` link).
/// Throws RunFolderError naming the file (and the field) for anything missing or malformed.
RunRecord read_run_record(const std::string& path);

}  // namespace mlregress::internal
