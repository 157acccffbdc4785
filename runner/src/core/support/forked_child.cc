#include "support/forked_child.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "support/stop_signal.h"

namespace mlregress::internal {

ForkedChild fork_child(const std::function<int(int output_fd)>& body) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) {
    ::setpgid(0, 0);
    restore_default_stop_actions();
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);  // the parent died before the line above
    ::close(fds[0]);
    const int code = body(fds[1]);
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(code);
  }
  ::setpgid(pid, pid);  // also here: whichever of the two runs first, the group exists after it
  ::close(fds[1]);
  return {pid, fds[0]};
}

bool child_has_ended(pid_t pid) {
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0) {
    if (errno != EINTR) return true;  // not our child (any more): nothing to wait for
  }
  return info.si_pid == pid;
}

void wait_until_ended(pid_t pid) {
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
}

int finish_child(pid_t pid) {
  ::kill(-pid, SIGKILL);  // the child is unreaped, so its group id is still its own
  return wait_for_child(pid);
}

bool read_available(int fd, std::string& pending) {
  char chunk[65536];
  for (;;) {
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, 0) <= 0) return true;  // nothing more for now
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    pending.append(chunk, static_cast<std::size_t>(n));
  }
}

bool write_line(int fd, std::string_view line) {
  std::string text(line);
  text += '\n';
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  return true;
}

void take_complete_lines(std::string& pending,
                         const std::function<void(const std::string&)>& on_line) {
  std::size_t begin = 0;
  for (std::size_t newline; (newline = pending.find('\n', begin)) != std::string::npos;
       begin = newline + 1) {
    on_line(pending.substr(begin, newline - begin));
  }
  pending.erase(0, begin);
}

void read_lines(int fd, const std::function<void(const std::string&)>& on_line) {
  std::string pending;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(chunk, static_cast<std::size_t>(n));
    take_complete_lines(pending, on_line);
  }
}

int wait_for_child(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

std::string describe_wait_status(int status, std::string_view who) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return fmt::format("{} was killed by signal {} ({})", who, sig, ::strsignal(sig));
  }
  if (WIFEXITED(status)) return fmt::format("{} exited with code {}", who, WEXITSTATUS(status));
  return fmt::format("{} ended with wait status {}", who, status);
}

}  // namespace mlregress::internal
