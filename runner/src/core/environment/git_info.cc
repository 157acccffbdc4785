#include "environment/git_info.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string_view>

#include "support/child_process.h"

namespace mlregress::internal {

namespace {

// Whether `path` is `folder` or lies under it (both absolute and normal).
bool is_within(const std::filesystem::path& path, const std::filesystem::path& folder) {
  const auto [f, p] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return f == folder.end() || (std::next(f) == folder.end() && f->empty());
}

std::filesystem::path normal_absolute(const std::string& path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::weakly_canonical(path, error);
  return (error ? std::filesystem::absolute(path) : absolute).lexically_normal();
}

// The untracked files git does not ignore under `folder`, less those under `excluded`, as git
// names them relative to the top of the work tree.
std::vector<std::string> untracked_files(const std::string& directory, const std::string& folder,
                                         const std::string& excluded) {
  std::vector<std::string> show_top = {"git"};
  if (!directory.empty()) show_top.insert(show_top.end(), {"-C", directory});
  show_top.insert(show_top.end(), {"rev-parse", "--show-toplevel"});
  const std::optional<std::string> top = capture_output(show_top);
  if (!top) return {};
  const std::filesystem::path root = normal_absolute(top->substr(0, top->find('\n')));
  const std::vector<std::string> argv = {"git",      "-C",       root.string(),
                                         "ls-files", "--others", "--exclude-standard",
                                         "-z",       "--",       normal_absolute(folder).string()};
  const std::optional<std::string> listed = capture_output(argv);
  if (!listed) return {};
  const std::filesystem::path skipped =
      excluded.empty() ? std::filesystem::path() : normal_absolute(excluded);
  std::vector<std::string> out;
  std::string_view rest = *listed;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find('\0'), rest.size());
    const std::string name(rest.substr(0, end));
    rest.remove_prefix(std::min(end + 1, rest.size()));
    if (name.empty()) continue;
    if (!skipped.empty() && is_within((root / name).lexically_normal(), skipped)) continue;
    out.push_back(name);
  }
  return out;
}

}  // namespace

GitInfo probe_git(const std::string& directory, const std::string& sources_folder,
                  const std::string& excluded) {
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
  if (!sources_folder.empty() && info.commit != "unknown") {
    std::vector<std::string> untracked = untracked_files(directory, sources_folder, excluded);
    info.untracked_count = untracked.size();
    if (untracked.size() > kListedUntracked) untracked.resize(kListedUntracked);
    info.untracked = std::move(untracked);
    info.dirty = info.dirty || info.untracked_count > 0;
  }
  return info;
}

std::string sources_folder(const std::vector<std::string>& source_files) {
  std::optional<std::filesystem::path> common;
  for (const std::string& file : source_files) {
    const std::filesystem::path path(file);
    if (!path.is_absolute()) continue;
    const std::filesystem::path folder = path.lexically_normal().parent_path();
    if (!common) {
      common = folder;
      continue;
    }
    std::filesystem::path shared;
    for (auto a = common->begin(), b = folder.begin();
         a != common->end() && b != folder.end() && *a == *b; ++a, ++b) {
      shared /= *a;
    }
    common = shared;
  }
  return common ? common->string() : "";
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
  if (const auto untracked = git->find("untracked");
      untracked != git->end() && untracked->is_array()) {
    for (const nlohmann::json& name : *untracked) {
      if (name.is_string()) info.untracked.push_back(name.get<std::string>());
    }
    info.untracked_count = info.untracked.size();
  }
  if (const auto count = git->find("untracked_count");
      count != git->end() && count->is_number_unsigned()) {
    info.untracked_count = count->get<std::size_t>();
  }
  return info;
}

}  // namespace mlregress::internal
