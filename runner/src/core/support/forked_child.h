// A child process forked from this one to run a function, with a pipe back to the parent for
// what it has to say (test events, a probe's answer). The child leaves with _exit: static
// destructors belong to the parent.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <string_view>

namespace mlregress::internal {

struct ForkedChild {
  pid_t pid = -1;
  int output_fd = -1;  ///< read end of the pipe the child writes to
};

/// Forks; the child runs `body` with the pipe's write end and exits with what it returns.
/// Throws std::system_error when the pipe or the fork fails. The child leads a process group of
/// its own (what it starts, finish_child can kill), dies with this process (PR_SET_PDEATHSIG),
/// and its pipe end is close-on-exec, so a program it starts does not hold the pipe open.
ForkedChild fork_child(const std::function<int(int output_fd)>& body);

/// True once the child has ended. It is left unreaped, so that its process group id cannot be
/// taken by another process before finish_child.
bool child_has_ended(pid_t pid);

/// Waits until the child has ended, leaving it unreaped.
void wait_until_ended(pid_t pid);

/// Kills every process left in the child's process group (what a test started and left
/// running), including the child itself if it still runs; then reaps the child and returns its
/// wait status.
int finish_child(pid_t pid);

/// Reads what is already in the pipe without waiting for more; false once it has hit end of
/// file.
bool read_available(int fd, std::string& pending);

/// Writes `line` and a newline with as many write() calls as it takes. False when the reader
/// is gone.
bool write_line(int fd, std::string_view line);

/// Reads newline-separated lines from `fd` until end of file. A process killed in the middle of
/// writing leaves a partial last line: it carries nothing usable and is dropped.
void read_lines(int fd, const std::function<void(const std::string&)>& on_line);

/// Splits the complete lines off the front of `pending`, leaving a partial last line there.
void take_complete_lines(std::string& pending,
                         const std::function<void(const std::string&)>& on_line);

/// Waits for the child and returns its wait status.
int wait_for_child(pid_t pid);

/// "<who> was killed by signal 9 (Killed)", "<who> exited with code 3".
std::string describe_wait_status(int status, std::string_view who);

}  // namespace mlregress::internal
