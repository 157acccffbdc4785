#include "git_info.h"

#include <algorithm>
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
  info.commit = "unknown";
  // One git process answers both questions: "# branch.oid <hash>", then one line per change.
  std::string status;
  if (!capture(git + " status --porcelain=v2 --branch --untracked-files=no 2>/dev/null", status)) {
    return info;
  }
  std::size_t begin = 0;
  while (begin < status.size()) {
    const std::size_t end = std::min(status.find('\n', begin), status.size());
    const std::string line = status.substr(begin, end - begin);
    if (line.rfind("# branch.oid ", 0) == 0) {
      const std::string oid = line.substr(13);
      if (oid != "(initial)") info.commit = oid;
    } else if (!line.empty() && line[0] != '#') {
      info.dirty = true;
    }
    begin = end + 1;
  }
  return info;
}

}  // namespace mlregress::internal
