#include "support/child_process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "support/errors.h"
#include "support/stop_signal.h"

extern char** environ;

namespace mlregress::internal {

std::string ChildExit::describe() const {
  if (timed_out_after_s > 0.0)
    return fmt::format("a timeout: killed after {:g} s", timed_out_after_s);
  if (signal != 0) return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit code {}", exit_code);
}

namespace {

int open_for_writing(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw OutputError(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  return fd;
}

// argv as execve takes it: the strings, then a null pointer.
std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  return args;
}

// This process's environment with `changes` applied, as "NAME=VALUE" strings.
std::vector<std::string> changed_environment(const EnvironmentChanges& changes) {
  std::vector<std::string> out;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string name(text.substr(0, text.find('=')));
    if (!changes.contains(name)) out.emplace_back(text);
  }
  for (const auto& [name, value] : changes) {
    if (value) out.push_back(name + "=" + *value);
  }
  return out;
}

}  // namespace

namespace {

// Starts argv[0] (a path) with stdout on `fd`, stderr on `error_fd` and stdin on /dev/null, and
// closes both descriptors here.
pid_t spawn_child(const std::vector<std::string>& argv, int fd, int error_fd,
                  const EnvironmentChanges& changes) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, error_fd, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);

  std::vector<char*> args = c_argv(argv);
  const std::vector<std::string> environment = changed_environment(changes);
  std::vector<char*> env = c_argv(environment);
  pid_t pid = 0;
  const int spawn_error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(),
                                      changes.empty() ? environ : env.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(fd);
  if (error_fd != fd) ::close(error_fd);
  if (spawn_error != 0) {
    throw std::runtime_error(
        fmt::format("cannot start {}: {}", argv[0], std::strerror(spawn_error)));
  }
  return pid;
}

// Waits for the child to end, killing it after `timeout_s` (> 0) and noting that in `result`;
// its wait status.
int wait_for_child(pid_t pid, double timeout_s, ChildExit& result) {
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    if (const int signal = stop_signal(); signal != 0) {
      // The child is a run of its own: passed the signal, it stops in order (kills its tests,
      // keeps its folder); then this process stops too.
      ::kill(pid, signal);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      throw RunInterrupted(signal);
    }
    // Without a timeout, block; with one, look every 10 ms (a hung child must not hang us).
    const pid_t done = ::waitpid(pid, &status, timeout_s > 0.0 ? WNOHANG : 0);
    if (done == pid) break;
    if (done < 0 && errno != EINTR)
      throw std::runtime_error(fmt::format("waitpid: {}", std::strerror(errno)));
    if (done == 0) {
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
          timeout_s) {
        ::kill(pid, SIGKILL);
        result.timed_out_after_s = timeout_s;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  return status;
}

}  // namespace

ChildExit run_child_process(const std::vector<std::string>& argv, const std::string& output_path,
                            const std::string& error_path, double timeout_s,
                            const EnvironmentChanges& changes) {
  if (argv.empty()) throw std::invalid_argument("run_child_process: empty argv");
  const int fd = open_for_writing(output_path);
  int error_fd = fd;
  if (!error_path.empty() && error_path != output_path) {
    try {
      error_fd = open_for_writing(error_path);
    } catch (...) {
      ::close(fd);
      throw;
    }
  }
  const pid_t pid = spawn_child(argv, fd, error_fd, changes);
  ChildExit result;
  const int status = wait_for_child(pid, timeout_s, result);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::optional<std::string> capture_output(const std::vector<std::string>& argv) {
  if (argv.empty()) return std::nullopt;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args = c_argv(argv);
  pid_t pid = 0;
  const int spawn_error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawn_error != 0) {
    ::close(fds[0]);
    return std::nullopt;
  }
  std::string output;
  char chunk[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    output.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return output;
}

std::string this_executable() {
  std::error_code error;
  const std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error)
    throw std::runtime_error("cannot find this binary's path (/proc/self/exe): " + error.message());
  return path.string();
}

std::string why_not_executable(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return fmt::format("{}: {}", path, std::strerror(errno));
  if (!S_ISREG(info.st_mode)) return fmt::format("{}: not a regular file", path);
  if (::access(path.c_str(), X_OK) != 0)
    return fmt::format("{}: not executable ({})", path, std::strerror(errno));
  return "";
}

}  // namespace mlregress::internal
