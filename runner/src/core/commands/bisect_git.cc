#include "commands/bisect_git.h"

#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "support/child_process.h"
#include "support/errors.h"

namespace mlregress::internal {

namespace fs = std::filesystem;

std::optional<std::string> git(const std::string& repo, std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", repo});
  std::optional<std::string> out = capture_output(args);
  if (out) {
    while (!out->empty() && (out->back() == '\n' || out->back() == '\r')) out->pop_back();
  }
  return out;
}

std::string commit_id(const std::string& repo, const std::string& name) {
  const auto id = git(repo, {"rev-parse", "--verify", "--quiet", name + "^{commit}"});
  if (!id || id->empty())
    throw ConfigError(fmt::format("bisect: '{}' is not a commit in {}", name, repo));
  return *id;
}

std::string commit_subject(const std::string& repo, const std::string& commit) {
  return git(repo, {"show", "-s", "--format=%s", commit}).value_or("");
}

void check_repository(const std::string& repo) {
  const auto dirty = git(repo, {"status", "--porcelain", "--untracked-files=no"});
  if (!dirty) throw ConfigError(fmt::format("bisect: {} is not a git work tree", repo));
  if (!dirty->empty()) {
    throw ConfigError(fmt::format(
        "bisect: {} has uncommitted changes; bisect checks out other commits, so commit or "
        "stash them first:\n{}",
        repo, *dirty));
  }
  const auto log = git(repo, {"rev-parse", "--git-path", "BISECT_LOG"});
  std::error_code error;
  if (log && fs::exists(fs::path(repo) / *log, error)) {
    throw ConfigError(fmt::format(
        "bisect: a git bisect is in progress in {}; end it with git bisect reset", repo));
  }
}

std::string starting_point(const std::string& repo) {
  if (const auto branch = git(repo, {"symbolic-ref", "--quiet", "--short", "HEAD"});
      branch && !branch->empty()) {
    return *branch;
  }
  const auto head = git(repo, {"rev-parse", "HEAD"});
  if (!head) throw BisectFailed("git rev-parse HEAD failed in " + repo);
  return *head;
}

std::vector<std::string> range_commits(const std::string& repo, const std::string& good,
                                       const std::string& bad) {
  std::vector<std::string> range = {good};
  if (const auto list = git(repo, {"rev-list", "--reverse", good + ".." + bad})) {
    std::istringstream in(*list);
    for (std::string commit; std::getline(in, commit);) range.push_back(commit);
  }
  return range;
}

std::vector<std::string> first_bad_commits(const std::string& log) {
  std::vector<std::string> found;
  std::istringstream in(log);
  bool candidates = false;
  for (std::string line; std::getline(in, line);) {
    if (const auto at = line.find(" is the first bad commit"); at != std::string::npos) {
      return {line.substr(0, at)};
    }
    if (line.find("only 'skip'ped commits left") != std::string::npos) {
      candidates = true;
      continue;
    }
    if (candidates && line.size() >= 40 && line.find_first_not_of("0123456789abcdef") >= 40) {
      found.push_back(line.substr(0, 40));
    }
  }
  return found;
}

void RepositoryRestorer::restore() {
  if (restored_) return;
  restored_ = true;
  if (bisecting_) git(repo_, {"bisect", "reset"});
  git(repo_, {"checkout", "--quiet", start_});
}

}  // namespace mlregress::internal
