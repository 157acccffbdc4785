// The git that `bisect` runs in the repository it bisects: commit ids and subjects, the checks
// before it starts, where to go back to, the range, and what `git bisect run` named.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlregress::internal {

/// `git -C repo args...`: its output without the trailing newline; nullopt when git fails.
std::optional<std::string> git(const std::string& repo, std::vector<std::string> args);

/// The full id of the commit `name` names. Throws ConfigError when it names none.
std::string commit_id(const std::string& repo, const std::string& name);

/// The subject line of `commit`; "" when git cannot say.
std::string commit_subject(const std::string& repo, const std::string& commit);

/// Throws ConfigError unless `repo` is a git work tree without uncommitted changes and without
/// a git bisect in progress.
void check_repository(const std::string& repo);

/// Where the repository is now (its branch, else its commit), to go back to at the end. Throws
/// BisectFailed when git cannot say.
std::string starting_point(const std::string& repo);

/// Every commit of the range, oldest first: GOOD, then each commit up to BAD.
std::vector<std::string> range_commits(const std::string& repo, const std::string& good,
                                       const std::string& bad);

/// The commits `git bisect run` named in its log: the first bad one, or the candidates left when
/// only skipped commits remain.
std::vector<std::string> first_bad_commits(const std::string& log);

/// Leaves the repository as the bisect found it, whatever happens in between.
class RepositoryRestorer {
 public:
  RepositoryRestorer(std::string repo, std::string start)
      : repo_(std::move(repo)), start_(std::move(start)) {}
  RepositoryRestorer(const RepositoryRestorer&) = delete;
  RepositoryRestorer& operator=(const RepositoryRestorer&) = delete;
  ~RepositoryRestorer() { restore(); }
  void bisecting() { bisecting_ = true; }
  void restore();

 private:
  std::string repo_, start_;
  bool bisecting_ = false, restored_ = false;
};

}  // namespace mlregress::internal
