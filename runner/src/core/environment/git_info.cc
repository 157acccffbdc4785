#include "environment/git_info.h"

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string_view>

#include "support/child_process.h"

namespace mlregress::internal {

GitInfo probe_git(const std::string& directory) {
  std::vector<std::string> argv = {"git"};
  if (!directory.empty()) argv.insert(argv.end(), {"-C", directory});
  argv.insert(argv.end(), {"status", "--porcelain=v2", "--branch", "--untracked-files=no"});
  GitInfo info;
  // One git process answers both questions: "# branch.oid <hash>", then one line per change.
  const std::optional<std::string> status = capture_output(argv);
  if (!status) return info;
  std::string_view rest = *status;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find('\n'), rest.size());
    const std::string_view line = rest.substr(0, end);
    rest.remove_prefix(std::min(end + 1, rest.size()));
    if (line.starts_with("# branch.oid ")) {
      const std::string_view oid = line.substr(13);
      if (oid != "(initial)") info.commit = std::string(oid);
    } else if (!line.empty() && line[0] != '#') {
      info.dirty = true;
    }
  }
  return info;
}

std::string run_repository(const std::string& repo_option,
                           const std::vector<std::string>& source_files) {
  if (!repo_option.empty()) return repo_option;
  if (const char* env = std::getenv("MLREGRESS_REPO"); env != nullptr && *env != '\0') return env;
  for (const std::string& file : source_files) {
    const std::filesystem::path path(file);
    if (path.is_absolute()) return path.parent_path().string();
  }
  return "";
}

GitInfo recorded_git(const nlohmann::json& environment) {
  GitInfo info;
  const auto git = environment.find("git");
  if (git == environment.end() || !git->is_object()) return info;
  if (const auto commit = git->find("commit"); commit != git->end() && commit->is_string()) {
    info.commit = commit->get<std::string>();
  }
  if (const auto dirty = git->find("dirty"); dirty != git->end() && dirty->is_boolean()) {
    info.dirty = dirty->get<bool>();
  }
  return info;
}

}  // namespace mlregress::internal
