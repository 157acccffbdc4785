#include "supervisor.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <utility>
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

namespace {

// Runs plain tests (not seeded) in one child process after another, as GoogleTest would in one
// process, starting a fresh one after a crash.
void run_plain_tests(const RunPlan& plan, const RunnerHooks& hooks, RunCollector& collector,
                     std::vector<std::string> remaining) {
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

// One seed of a seeded test running in its own process.
struct SeedWorker {
  SeedJob job;
  Child child;
  std::chrono::steady_clock::time_point started;
  std::string pending;  ///< bytes after the last newline
  std::vector<nlohmann::json> events;
};

void take_lines(SeedWorker& worker, RunCollector& collector) {
  std::size_t newline;
  while ((newline = worker.pending.find('\n')) != std::string::npos) {
    const std::string line = worker.pending.substr(0, newline);
    worker.pending.erase(0, newline + 1);
    nlohmann::json event = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (event.is_discarded()) {
      collector.add_runner_error("unreadable event from a seed's test process: " + line);
    } else {
      worker.events.push_back(std::move(event));
    }
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Runs every (variant, seed) of a seeded test in its own single-threaded process, up to
// plan.jobs at once. A seed that outlives plan.seed_timeout_s is killed; like a crash, that
// is an error of that seed alone.
void run_seeded_test(const RunPlan& plan, const PlannedTest& planned, const RunnerHooks& hooks,
                     RunCollector& collector) {
  std::vector<SeedJob> jobs;
  for (const PlannedVariant& variant : planned.variants) {
    for (std::uint64_t seed : planned.seeds) jobs.push_back({&planned, &variant, seed});
  }
  collector.start_seeded_test(planned);
  const auto test_start = std::chrono::steady_clock::now();
  const std::vector<std::string> names = {planned.test->full_name()};
  std::vector<SeedWorker> running;
  std::size_t next = 0;

  const auto finish = [&](std::size_t index, const std::string& death) {
    SeedWorker worker = std::move(running[index]);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(index));
    ::close(worker.child.events_fd);
    take_lines(worker, collector);
    collector.add_seed_run(worker.job, worker.events, death, seconds_since(worker.started));
  };

  while (next < jobs.size() || !running.empty()) {
    while (running.size() < static_cast<std::size_t>(std::max(plan.jobs, 1)) && next < jobs.size()) {
      const SeedJob& job = jobs[next++];
      SeedWorker worker{job, {}, std::chrono::steady_clock::now(), {}, {}};
      worker.child = fork_child([&](EventSink& sink) {
        return run_worker(plan, hooks, sink, names, &job) == 0 ? 0 : 1;
      });
      running.push_back(std::move(worker));
    }

    std::vector<pollfd> fds;
    for (const SeedWorker& worker : running) fds.push_back({worker.child.events_fd, POLLIN, 0});
    double wait_s = 1.0;
    for (const SeedWorker& worker : running) {
      wait_s = std::min(wait_s, plan.seed_timeout_s - seconds_since(worker.started));
    }
    const int timeout_ms = std::max(0, static_cast<int>(wait_s * 1000.0) + 1);
    if (::poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "poll");
    }

    // Walk backwards so that finishing (erasing) a worker keeps the other indices valid.
    for (std::size_t i = running.size(); i-- > 0;) {
      SeedWorker& worker = running[i];
      if (fds[i].revents != 0) {
        char chunk[65536];
        const ssize_t n = ::read(worker.child.events_fd, chunk, sizeof chunk);
        if (n > 0) {
          worker.pending.append(chunk, static_cast<std::size_t>(n));
          take_lines(worker, collector);
          continue;
        }
        if (n < 0 && errno == EINTR) continue;
        const int status = wait_for(worker.child.pid);  // end of file: the process is ending
        const bool clean = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1);
        finish(i, clean ? "" : describe_exit(status));
        continue;
      }
      if (seconds_since(worker.started) >= plan.seed_timeout_s) {
        ::kill(worker.child.pid, SIGKILL);
        wait_for(worker.child.pid);
        finish(i, fmt::format("timed out: killed after {:g} s (--seed-timeout)", plan.seed_timeout_s));
      }
    }
  }
  collector.end_seeded_test(seconds_since(test_start));
}

}  // namespace

void run_tests_in_child_processes(const RunPlan& plan, const RunnerHooks& hooks,
                                  RunCollector& collector) {
  // In plan order: consecutive plain tests share child processes, each seeded test gets a pool.
  std::vector<std::string> plain;
  for (const PlannedTest& planned : plan.tests) {
    if (!planned.seeded()) {
      plain.push_back(planned.test->full_name());
      continue;
    }
    if (!plain.empty()) run_plain_tests(plan, hooks, collector, std::exchange(plain, {}));
    run_seeded_test(plan, planned, hooks, collector);
  }
  if (!plain.empty()) run_plain_tests(plan, hooks, collector, std::move(plain));
}

}  // namespace mlregress::internal
