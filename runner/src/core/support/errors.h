// The user's mistakes, each carrying the exit code it ends the process with. They are thrown
// where the mistake is found, with a message that names the file, line or flag and what was
// expected, and turned into an exit code in one place (run_main). Anything else that escapes
// is a bug of ours: exit code kInternalError.
#pragma once

#include <stdexcept>
#include <string>

#include "mlregress/exit_code.h"

namespace mlregress::internal {

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode exit_code() const { return code_; }

 private:
  ExitCode code_;
};

/// Unknown flag or command, a bad --set, an invalid test registration or option value.
class ConfigError : public Error {
 public:
  explicit ConfigError(const std::string& message) : Error(ExitCode::kUsageError, message) {}
};

/// A file the run must write cannot be written (permissions, full disk, bad path).
class OutputError : public Error {
 public:
  explicit OutputError(const std::string& message) : Error(ExitCode::kOutputError, message) {}
};

/// A baseline file that cannot be used (what() starts with file:line:column), or a baseline
/// folder that does not exist.
class BaselineError : public Error {
 public:
  explicit BaselineError(const std::string& message) : Error(ExitCode::kBaselineError, message) {}
};

/// A path that is not a readable run folder, or one whose files are damaged.
class RunFolderError : public Error {
 public:
  explicit RunFolderError(const std::string& message) : Error(ExitCode::kRunFolderError, message) {}
};

/// promote refused the run; the message lists every reason.
class PromotionRefused : public Error {
 public:
  explicit PromotionRefused(const std::string& message)
      : Error(ExitCode::kPromotionRefused, message) {}
};

/// merge refused the shards; the message lists every reason.
class MergeRefused : public Error {
 public:
  explicit MergeRefused(const std::string& message) : Error(ExitCode::kMergeRefused, message) {}
};

/// bisect could not name a first bad commit; the message says why.
class BisectFailed : public Error {
 public:
  explicit BisectFailed(const std::string& message) : Error(ExitCode::kBisectFailed, message) {}
};

}  // namespace mlregress::internal
