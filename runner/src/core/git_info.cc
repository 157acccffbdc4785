#include "git_info.h"

#include <cstdio>

namespace mlregress::internal {
namespace {

// Runs a command and returns its standard output, or nullopt-like empty + false on failure.
bool capture(const std::string& command, std::string& output) {
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return false;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  return ::pclose(pipe) == 0;
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

GitInfo probe_git(const std::string& directory) {
  const std::string git = directory.empty() ? "git" : "git -C " + shell_quote(directory);
  GitInfo info;
  std::string commit;
  if (!capture(git + " rev-parse HEAD 2>/dev/null", commit) || commit.size() < 7) {
    info.commit = "unknown";
    return info;
  }
  while (!commit.empty() && (commit.back() == '\n' || commit.back() == '\r')) commit.pop_back();
  info.commit = commit;
  std::string status;
  capture(git + " status --porcelain --untracked-files=no 2>/dev/null", status);
  info.dirty = !status.empty();
  return info;
}

}  // namespace mlregress::internal
