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

}  // namespace mlregress::e2e
