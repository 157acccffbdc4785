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
  std::vector<std::string> paths;
  if (fs::is_directory(folder, error)) {
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
      if (entry.is_regular_file() && entry.path().extension() == ".toml")
        paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
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

BaselineSet BaselineSet::from_files(std::vector<LoadedBaselineFile> files) {
  BaselineSet set;
  set.files_ = std::move(files);
  return set;
}

const LoadedBaselineFile* BaselineSet::find(const std::string& test) const {
  for (const LoadedBaselineFile& loaded : files_) {
    if (loaded.file.tests.count(test) != 0) return &loaded;
  }
  return nullptr;
}

}  // namespace mlregress::internal
