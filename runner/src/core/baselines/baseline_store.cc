#include "baselines/baseline_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/text_sanitize.h"

namespace mlregress::internal {

std::string baseline_folder(const std::string& dir, const std::string& binary) {
  return dir + "/" + safe_file_stem(binary);
}

std::string baseline_stem(const std::string& source_file) {
  return safe_file_stem(std::filesystem::path(source_file).stem().string());
}

namespace {

// Why a `.toml` entry of the baseline folder cannot be read as a file, or "" when it can.
std::string unreadable_because(const std::filesystem::directory_entry& entry) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status target = entry.status(error);
  if (target.type() == fs::file_type::not_found) return "a symbolic link to nothing";
  if (error) return error.message();  // a symbolic link loop, a permission
  if (target.type() == fs::file_type::directory) return "a directory, not a file";
  if (target.type() != fs::file_type::regular) return "not a regular file";
  return "";
}

// Every `.toml` entry of the folder, sorted. An entry that is not a readable file is an error,
// never skipped: its tests would otherwise run as NEW and pass whatever they record.
std::vector<std::string> baseline_files_in(const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::symlink_status(folder, error);
  if (status.type() == fs::file_type::not_found) return {};  // nothing promoted yet
  if (!fs::is_directory(folder, error)) {
    throw BaselineError(
        fmt::format("{}: cannot be read: expected the folder of this binary's "
                    "baseline files{}",
                    folder, error ? " (" + error.message() + ")" : ""));
  }
  std::vector<std::string> paths;
  fs::directory_iterator entries(folder, error);
  for (; !error && entries != fs::directory_iterator(); entries.increment(error)) {
    const fs::directory_entry& entry = *entries;
    if (entry.path().extension() != ".toml") continue;
    const std::string why = unreadable_because(entry);
    if (!why.empty())
      throw BaselineError(fmt::format("{}: cannot be read: {}", entry.path().string(), why));
    paths.push_back(entry.path().string());
  }
  if (error) throw BaselineError(fmt::format("{}: cannot be listed: {}", folder, error.message()));
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace

BaselineSet BaselineSet::load(const std::string& dir, const std::string& binary,
                              bool allow_missing) {
  namespace fs = std::filesystem;
  BaselineSet set;
  const std::string folder = baseline_folder(dir, binary);
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    if (allow_missing) return set;
    throw BaselineError(
        fmt::format("baseline folder '{}' does not exist (create it with `{} promote RUN "
                    "--baselines {}`)",
                    dir, binary, dir));
  }
  set.references_folder_ = folder;
  const std::vector<std::string> paths = baseline_files_in(folder);
  for (const std::string& path : paths) {
    std::ifstream in(path);
    if (!in) throw BaselineError(fmt::format("{}: cannot be read", path));
    std::ostringstream text;
    text << in.rdbuf();
    set.files_.push_back({path, parse_baseline(text.str(), path)});
  }
  // A test in two files would make the verdict depend on file order.
  for (std::size_t i = 0; i < set.files_.size(); ++i) {
    for (const auto& [name, test] : set.files_[i].file.tests) {
      for (std::size_t j = i + 1; j < set.files_.size(); ++j) {
        if (set.files_[j].file.tests.count(name) != 0) {
          throw BaselineError(fmt::format("test '{}' has baselines in both {} and {}", name,
                                          set.files_[i].path, set.files_[j].path));
        }
      }
    }
  }
  return set;
}

BaselineSet BaselineSet::from_files(std::vector<LoadedBaselineFile> files,
                                    std::string references_folder) {
  BaselineSet set;
  set.files_ = std::move(files);
  set.references_folder_ = std::move(references_folder);
  return set;
}

const LoadedBaselineFile* BaselineSet::find(const std::string& test) const {
  for (const LoadedBaselineFile& loaded : files_) {
    if (loaded.file.tests.count(test) != 0) return &loaded;
  }
  return nullptr;
}

}  // namespace mlregress::internal
