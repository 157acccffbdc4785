#include "storage/run_folder_search.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "support/errors.h"

namespace mlregress::internal {
namespace {

bool is_run_folder(const std::filesystem::path& path) {
  return std::filesystem::exists(path / "results.json") &&
         std::filesystem::exists(path / "environment.json");
}

void search(const std::filesystem::path& path, int depth, std::set<std::string>& found) {
  std::error_code error;
  if (is_run_folder(path)) {
    found.insert(std::filesystem::canonical(path, error).string());
    return;
  }
  if (depth == 0 || !std::filesystem::is_directory(path, error)) return;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    if (entry.is_directory(error)) search(entry.path(), depth - 1, found);
  }
}

}  // namespace

std::vector<std::string> find_run_folders(const std::vector<std::string>& paths,
                                          const std::string& command) {
  std::set<std::string> found;
  for (const std::string& path : paths) {
    if (!std::filesystem::exists(path)) {
      throw RunFolderError(fmt::format("{}: '{}' does not exist", command, path));
    }
    search(path, 2, found);
  }
  return {found.begin(), found.end()};
}

}  // namespace mlregress::internal
