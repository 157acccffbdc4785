// Which source a run came from: the git commit and whether the tree had uncommitted changes.
//
// By default that is the work tree holding the test binary's sources, whose paths the build
// recorded (__FILE__ of each ML_TEST), not whatever directory the binary runs in: a binary run
// from /tmp or a CI workspace still reports the commit it was built from. `run --repo DIR`
// names another work tree.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mlregress::internal {

struct GitInfo {
  std::string commit = "unknown";  ///< full hash; "unknown" outside a git work tree
  bool dirty = false;              ///< uncommitted changes to tracked files
  std::string short_commit() const { return commit.substr(0, 7); }
};

/// Asks git about the work tree containing `directory` (the current directory when empty). No
/// shell is involved, whatever characters the path holds.
GitInfo probe_git(const std::string& directory = "");

/// The work tree a run records: `repo_option` (run --repo) when given, else $MLREGRESS_REPO,
/// else the directory of the first absolute path among `source_files` (the test sources the
/// build compiled), else "" (the current directory).
std::string run_repository(const std::string& repo_option,
                           const std::vector<std::string>& source_files);

/// The "git" part of an environment.json document ("unknown" and clean when it has none).
GitInfo recorded_git(const nlohmann::json& environment);

}  // namespace mlregress::internal
