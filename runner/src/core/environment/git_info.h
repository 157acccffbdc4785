// Which source a run came from: the git commit and whether the tree had uncommitted changes.
//
// By default that is the work tree holding the test binary's sources, whose paths the build
// recorded (__FILE__ of each ML_TEST), not whatever directory the binary runs in: a binary run
// from /tmp or a CI workspace still reports the commit it was built from. `run --repo DIR`
// names another work tree.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mlregress::internal {

struct GitInfo {
  std::string commit = "unknown";  ///< full hash; "unknown" outside a git work tree
  /// Uncommitted changes to tracked files, or untracked files among the test sources: either way
  /// the commit does not hold the code that ran.
  bool dirty = false;
  /// Untracked (and not ignored) files under the test sources' folder, relative to the work
  /// tree's top, at most kListedUntracked of them; `untracked_count` counts them all.
  std::vector<std::string> untracked;
  std::size_t untracked_count = 0;
  std::string short_commit() const { return commit.substr(0, 7); }
};

inline constexpr std::size_t kListedUntracked = 20;

/// Asks git about the work tree containing `directory` (the current directory when empty). An
/// untracked file that git does not ignore under `sources_folder` (when given: the folder of the
/// test sources, sources_folder() below) makes the tree dirty too, except under `excluded` (the
/// run's output folder, whose run folders are not sources). No shell is involved, whatever
/// characters the paths hold.
GitInfo probe_git(const std::string& directory = "", const std::string& sources_folder = "",
                  const std::string& excluded = "");

/// The folder whose untracked files make a run dirty: the deepest folder holding every absolute
/// path among `source_files` (the ML_TEST sources the build compiled, so a test source not yet
/// added to git, and helpers beside the tests, count); "" when there is none.
std::string sources_folder(const std::vector<std::string>& source_files);

/// The work tree a run records: `repo_option` (run --repo) when given, else $MLREGRESS_REPO,
/// else the directory of the first absolute path among `source_files` (the test sources the
/// build compiled), else "" (the current directory).
std::string run_repository(const std::string& repo_option,
                           const std::vector<std::string>& source_files);

/// The "git" part of an environment.json document ("unknown" and clean when it has none).
GitInfo recorded_git(const nlohmann::json& environment);

}  // namespace mlregress::internal
