#include "supervisor.h"

#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <system_error>

#include "event_sink.h"
#include "worker.h"

namespace mlregress::internal {
namespace {

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return fmt::format("the test process was killed by signal {} ({})", sig, ::strsignal(sig));
  }
  if (WIFEXITED(status)) {
    return fmt::format("the test process exited with code {} before the test finished",
                       WEXITSTATUS(status));
  }
  return fmt::format("the test process ended with wait status {}", status);
}

// Reads newline-separated lines from `fd` until end of file. A process killed in the middle of
// writing leaves a partial last line: it carries nothing usable and is dropped.
void read_lines(int fd, const std::function<void(const std::string&)>& on_line) {
  std::string buffer;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buffer.append(chunk, static_cast<std::size_t>(n));
    std::size_t newline;
    while ((newline = buffer.find('\n')) != std::string::npos) {
      on_line(buffer.substr(0, newline));
      buffer.erase(0, newline + 1);
    }
  }
}

struct Child {
  pid_t pid = -1;
  int events_fd = -1;  ///< read end of the pipe the child writes its events to
};

// Forks a child that runs `body` with an event sink on a pipe and leaves with _exit, skipping
// static destructors: they belong to the runner process, which forked it.
Child fork_child(const std::function<int(EventSink&)>& body) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) {
    ::close(fds[0]);
    FdEventSink sink(fds[1]);
    const int code = body(sink);
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(code);
  }
  ::close(fds[1]);
  return {pid, fds[0]};
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

nlohmann::json probe_in_child_process(const std::function<nlohmann::json()>& probe) {
  const Child child = fork_child([&](EventSink& sink) {
    try {
      sink.emit(probe());
    } catch (const std::exception& error) {
      sink.emit({{"error", error.what()}});
    }
    return 0;
  });
  std::string output;
  read_lines(child.events_fd, [&](const std::string& line) { output = line; });
  ::close(child.events_fd);
  const int status = wait_for(child.pid);
  nlohmann::json result = nlohmann::json::parse(output, nullptr, /*allow_exceptions=*/false);
  if (result.is_discarded()) return {{"error", "framework probe: " + describe_exit(status)}};
  return result;
}

void run_tests_in_child_processes(const RunPlan& plan, const RunnerHooks& hooks,
                                  RunCollector& collector) {
  std::vector<std::string> remaining;
  for (const PlannedTest& planned : plan.tests) remaining.push_back(planned.test->full_name());

  while (!remaining.empty()) {
    const Child child = fork_child([&](EventSink& sink) {
      return run_worker(plan, hooks, sink, remaining) == 0 ? 0 : 1;
    });
    std::set<std::string> started;
    read_lines(child.events_fd, [&](const std::string& line) {
      nlohmann::json event = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (event.is_discarded()) {
        collector.add_runner_error("unreadable event from the test process: " + line);
        return;
      }
      if (event.value("event", "") == "start") started.insert(event.value("test", ""));
      collector.handle(event);
    });
    ::close(child.events_fd);
    const int status = wait_for(child.pid);
    const bool clean_exit = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1);
    const bool died_in_test = !collector.running_test().empty();
    if (died_in_test) {
      collector.crash_running_test(describe_exit(status));
    } else if (!clean_exit) {
      collector.add_runner_error(describe_exit(status) + " outside any test");
    }

    std::vector<std::string> not_started;
    for (const std::string& name : remaining) {
      if (started.count(name) == 0) not_started.push_back(name);
    }
    // A process that ended normally ran everything GoogleTest selected (its sharding may have
    // left some out); one that ended abnormally without starting anything would loop forever.
    if ((clean_exit && !died_in_test) || not_started.size() == remaining.size()) break;
    remaining = std::move(not_started);
  }
}

}  // namespace mlregress::internal
