// The baselines of one test binary: <dir>/<binary>/<source stem>.toml, one file per test source
// file. Loading is all-or-nothing: one bad file stops the run before any test starts.
#pragma once

#include <string>
#include <vector>

#include "baselines/baseline.h"
#include "baselines/baseline_toml.h"

namespace mlregress::internal {

struct LoadedBaselineFile {
  std::string path;
  BaselineFile file;
};

class BaselineSet {
 public:
  /// Throws BaselineError for any invalid file, and for a folder `dir` that does not exist (a
  /// typo must not pass as "no baselines yet") unless `allow_missing`. A folder without files
  /// for `binary` gives an empty set: every test is NEW until its first promotion.
  static BaselineSet load(const std::string& dir, const std::string& binary, bool allow_missing);

  /// A set made in memory (compare builds one from a run folder, whose predictions/ and curves/
  /// then hold the reference files: `references_folder`).
  static BaselineSet from_files(std::vector<LoadedBaselineFile> files,
                                std::string references_folder = "");

  /// The file that holds `test`, or nullptr.
  const LoadedBaselineFile* find(const std::string& test) const;
  const std::vector<LoadedBaselineFile>& files() const { return files_; }
  /// The folder whose predictions/ and curves/ hold the reference files (record_predictions,
  /// record_curve with a policy): <dir>/<binary> for a loaded set; empty when there is none.
  const std::string& references_folder() const { return references_folder_; }

 private:
  std::vector<LoadedBaselineFile> files_;
  std::string references_folder_;
};

/// Folder of a binary's baseline files.
std::string baseline_folder(const std::string& dir, const std::string& binary);
/// File stem for a test source file: "suites/fast/overfit_test.cc" -> "overfit_test".
std::string baseline_stem(const std::string& source_file);

}  // namespace mlregress::internal
