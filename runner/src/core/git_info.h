// Which source the run came from: the git commit and whether the tree had uncommitted changes.
#pragma once

#include <string>

namespace mlregress::internal {

struct GitInfo {
  std::string commit;  ///< full hash; "unknown" outside a git work tree
  bool dirty = false;  ///< uncommitted changes to tracked files
  std::string short_commit() const { return commit.substr(0, 7); }
};

/// Asks git about the work tree containing `directory` (the current directory when empty).
GitInfo probe_git(const std::string& directory = "");

}  // namespace mlregress::internal
