// A finished run read back from its folder, for the commands that work on runs (promote,
// compare) and never re-run tests.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

#include "baseline.h"

namespace mlregress::internal {

/// A path that is not a readable run folder, or one whose files are damaged.
class RunFolderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunRecord {
  std::string path;
  std::string run_id;
  nlohmann::json results;      ///< results.json
  nlohmann::json environment;  ///< environment.json
  EnvironmentProfile profile;
};

/// Reads results.json and environment.json from `path` (a run folder or the `latest` link).
RunRecord read_run_record(const std::string& path);

}  // namespace mlregress::internal
