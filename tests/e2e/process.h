// Running a command line as a user would, capturing what it printed and how it exited.
#pragma once

#include <string>

namespace mlregress::e2e {

struct ProcessResult {
  int exit_code = -1;  ///< -1 when the process did not exit normally
  std::string out;
  std::string err;
};

/// Runs `command` through /bin/sh with stdout and stderr captured separately.
ProcessResult run_command(const std::string& command);

std::string read_file(const std::string& path);
bool file_exists(const std::string& path);

/// A fresh directory under $TMPDIR (or /tmp), removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace mlregress::e2e
