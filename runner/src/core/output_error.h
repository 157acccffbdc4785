// A file the run must write could not be written (permissions, full disk, bad path). The user's
// problem, not ours: reported with the path and the system's reason, exit code kOutputError.
#pragma once

#include <stdexcept>
#include <string>

namespace mlregress::internal {

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mlregress::internal
