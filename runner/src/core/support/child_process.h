// Running another program (the other build of an A/B comparison, or this binary again) as a
// child process with its output in a file, and waiting for it. No shell: arguments reach the
// program exactly as given, whatever characters they hold.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlregress::internal {

struct ChildExit {
  int exit_code = -1;              ///< the program's exit status; -1 when it did not exit normally
  int signal = 0;                  ///< the signal that ended it, if one did
  double timed_out_after_s = 0.0;  ///< > 0 when it outlived its timeout and was killed
  std::string describe() const;    ///< "exit code 1", "killed by signal 9 (Killed)"
};

/// How a child's environment differs from this process's: a variable mapped to a value is set
/// to it, one mapped to nullopt is removed; every other variable is inherited.
using EnvironmentChanges = std::map<std::string, std::optional<std::string>>;

/// Runs argv[0] (a path; PATH is not searched) with stdout written to `output_path` and stderr
/// to `error_path` (both created or truncated; an empty `error_path` means the same file as
/// stdout), in this process's environment changed by `changes`, and waits for it, at most
/// `timeout_s` seconds when that is > 0 (then it is killed). Throws OutputError when a file
/// cannot be opened, std::runtime_error when the program cannot be started.
ChildExit run_child_process(const std::vector<std::string>& argv, const std::string& output_path,
                            const std::string& error_path = "", double timeout_s = 0.0,
                            const EnvironmentChanges& changes = {});

/// Runs argv[0] (looked up in PATH when it has no '/') with stdin and stderr on /dev/null and
/// returns what it wrote to stdout, waiting for it to end. nullopt when it cannot be started
/// or does not exit with code 0.
std::optional<std::string> capture_output(const std::vector<std::string>& argv);

/// The path of the running binary (/proc/self/exe); std::runtime_error when it cannot be read.
std::string this_executable();

/// Why `path` cannot be run as a program, or "" when it can: missing, not a regular file, or
/// not executable by this user.
std::string why_not_executable(const std::string& path);

}  // namespace mlregress::internal
