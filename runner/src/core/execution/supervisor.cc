#include "execution/supervisor.h"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <system_error>
#include <utility>

#include "execution/event_sink.h"
#include "execution/worker.h"
#include "support/forked_child.h"
#include "support/stop_signal.h"

namespace mlregress::internal {
namespace {

std::string describe_exit(int status) {
  std::string text = describe_wait_status(status, "the test process");
  if (WIFEXITED(status)) text += " before the test finished";
  return text;
}

bool exited_cleanly(int status) {
  return WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1);
}

ForkedChild fork_worker(const RunPlan& plan, const RunnerHooks& hooks,
                        const std::vector<std::string>& names, const SeedJob* job) {
  return fork_child([&](int output_fd) {
    FdEventSink sink(output_fd);
    return run_worker(plan, hooks, sink, names, job) == 0 ? 0 : 1;
  });
}

// The seconds the running test may still run before it is killed (a large number when none
// runs).
double time_left_for_running_test(const RunPlan& plan, const RunCollector& collector) {
  if (collector.running_test().empty()) return 3600.0;
  const PlannedTest* planned = plan.find(collector.running_test());
  const Tier tier = planned != nullptr ? planned->test->tier : Tier::Full;
  return test_timeout_s(plan.settings, tier) - collector.running_for_s();
}

// Feeds the complete event lines in `pending` to the collector, noting the tests that started.
void take_plain_events(std::string& pending, RunCollector& collector,
                       std::set<std::string>& started) {
  take_complete_lines(pending, [&](const std::string& line) {
    DecodedEvent decoded = decode_event_line(line);
    if (!decoded.event) {
      collector.add_runner_error("from the test process: " + decoded.error);
      return;
    }
    if (const auto* start = std::get_if<TestStarted>(&*decoded.event)) started.insert(start->test);
    collector.handle(*decoded.event);
  });
}

// What one child process of plain tests did.
struct PlainChild {
  int status = 0;                 ///< its wait status
  std::set<std::string> started;  ///< the tests it started
  std::string timed_out;          ///< why its running test was killed for its timeout, or empty
};

// Runs `remaining` in one child process until it ends, or its running test runs out of time.
// The events are read until the child has ended, not until end of file: a process a test left
// running may hold the pipe open, and is killed with the child's process group instead.
PlainChild run_plain_child(const RunPlan& plan, const RunnerHooks& hooks, RunCollector& collector,
                           const std::vector<std::string>& remaining) {
  PlainChild ran;
  const ForkedChild child = fork_worker(plan, hooks, remaining, nullptr);
  std::string pending;
  for (;;) {
    if (const int signal = stop_signal(); signal != 0) {
      finish_child(child.pid);
      ::close(child.output_fd);
      throw RunInterrupted(signal);
    }
    const double left_s = time_left_for_running_test(plan, collector);
    if (left_s <= 0.0) {
      ran.timed_out = fmt::format("timed out: killed with its processes after {:g} s (--timeout)",
                                  collector.running_for_s());
      break;
    }
    pollfd ready{child.output_fd, POLLIN, 0};
    const int wait_ms = static_cast<int>(std::clamp(left_s * 1000.0 + 1.0, 0.0, 100.0));
    if (::poll(&ready, 1, wait_ms) < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "poll");
    }
    const bool open = read_available(child.output_fd, pending);
    take_plain_events(pending, collector, ran.started);
    if (!open) {
      wait_until_ended(child.pid);  // end of file: the process is ending
      break;
    }
    if (child_has_ended(child.pid)) break;
  }
  ran.status = finish_child(child.pid);
  read_available(child.output_fd, pending);  // what it wrote just before it ended
  take_plain_events(pending, collector, ran.started);
  ::close(child.output_fd);
  return ran;
}

// Runs plain tests (not seeded) in one child process after another, as GoogleTest would in one
// process, starting a fresh one after a crash or a timeout.
void run_plain_tests(const RunPlan& plan, const RunnerHooks& hooks, RunCollector& collector,
                     std::vector<std::string> remaining) {
  while (!remaining.empty()) {
    const PlainChild ran = run_plain_child(plan, hooks, collector, remaining);
    const int status = ran.status;
    const std::string& timed_out = ran.timed_out;
    const bool died_in_test = !collector.running_test().empty();
    if (!timed_out.empty()) {
      collector.time_out_running_test(timed_out);
    } else if (died_in_test) {
      collector.crash_running_test(describe_exit(status));
    } else if (!exited_cleanly(status)) {
      collector.add_runner_error(describe_exit(status) + " outside any test");
    }

    std::vector<std::string> not_started;
    for (const std::string& name : remaining) {
      if (ran.started.count(name) == 0) not_started.push_back(name);
    }
    // A process that ended normally ran everything GoogleTest selected (its sharding may have
    // left some out); one that ended abnormally without starting anything would loop forever.
    if ((exited_cleanly(status) && !died_in_test && timed_out.empty()) ||
        not_started.size() == remaining.size())
      break;
    remaining = std::move(not_started);
  }
}

// One seed of a seeded test running in its own process.
struct SeedWorker {
  SeedJob job;
  ForkedChild child;
  std::chrono::steady_clock::time_point started;
  std::string pending;  ///< bytes after the last newline
  std::vector<TestEvent> events;
};

void take_events(SeedWorker& worker, RunCollector& collector) {
  take_complete_lines(worker.pending, [&](const std::string& line) {
    DecodedEvent decoded = decode_event_line(line);
    if (decoded.event) {
      worker.events.push_back(std::move(*decoded.event));
    } else {
      collector.add_runner_error("from a seed's test process: " + decoded.error);
    }
  });
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The jobs of a seeded test grouped into the blocks it runs between two looks at the gate: one
// group for a test that is not sequential (or may not stop early), else one per block of seeds
// (the first seed_block seeds, then later_seed_block() at a time), each holding every variant of
// those seeds.
std::vector<std::vector<SeedJob>> seed_job_blocks(const PlannedTest& planned, bool stop_early) {
  const std::vector<SeedJob> jobs = seed_jobs(planned);
  if (planned.seed_block <= 0 || !stop_early) return {jobs};
  const std::uint64_t first = planned.seeds.front();
  const auto block = static_cast<std::uint64_t>(planned.seed_block);
  const auto later = static_cast<std::uint64_t>(planned.later_seed_block());
  std::vector<std::vector<SeedJob>> blocks;
  for (const SeedJob& job : jobs) {
    const std::uint64_t position = job.seed - first;
    const auto index =
        static_cast<std::size_t>(position < block ? 0 : 1 + (position - block) / later);
    if (blocks.size() <= index) blocks.resize(index + 1);
    blocks[index].push_back(job);
  }
  std::erase_if(blocks, [](const std::vector<SeedJob>& b) { return b.empty(); });
  return blocks;
}

// Kills the running seeds' processes on a stop signal, and ends the run.
[[noreturn]] void stop_seed_workers(const std::vector<SeedWorker>& running, int signal) {
  for (const SeedWorker& worker : running) {
    finish_child(worker.child.pid);
    ::close(worker.child.output_fd);
  }
  throw RunInterrupted(signal);
}

// Waits until a running seed wrote something, or at most until the first one's timeout.
void wait_for_seed_output(const std::vector<SeedWorker>& running, double timeout_s) {
  std::vector<pollfd> fds;
  fds.reserve(running.size());
  for (const SeedWorker& worker : running) fds.push_back({worker.child.output_fd, POLLIN, 0});
  double wait_s = 0.1;  // also how soon a seed whose process ended is noticed
  for (const SeedWorker& worker : running) {
    wait_s = std::min(wait_s, timeout_s - seconds_since(worker.started));
  }
  const int timeout_ms = std::max(0, static_cast<int>(wait_s * 1000.0) + 1);
  if (::poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) {
    throw std::system_error(errno, std::generic_category(), "poll");
  }
}

// Runs the given (variant, seed) jobs of the current seeded test, each in its own
// single-threaded process, up to plan.settings.jobs at once. A seed that outlives
// plan.settings.seed_timeout_s is killed; like a crash, that is an error of that seed alone.
void run_seed_jobs(const RunPlan& plan, const std::vector<SeedJob>& jobs, const RunnerHooks& hooks,
                   RunCollector& collector) {
  const std::vector<std::string> names = {jobs.front().test->test->full_name()};
  // An attempt of a flaky-aware test is a run of a plain test: its timeout is the test's.
  const bool attempts = jobs.front().test->attempts.has_value();
  const double timeout_s = attempts ? test_timeout_s(plan.settings, jobs.front().test->test->tier)
                                    : plan.settings.seed_timeout_s;
  std::vector<SeedWorker> running;
  std::size_t next = 0;

  const auto finish = [&](std::size_t index, const std::string& death) {
    SeedWorker worker = std::move(running[index]);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(index));
    ::close(worker.child.output_fd);
    take_events(worker, collector);
    collector.add_seed_run(worker.job, worker.events, death, seconds_since(worker.started));
  };

  while (next < jobs.size() || !running.empty()) {
    if (const int signal = stop_signal(); signal != 0) stop_seed_workers(running, signal);
    while (running.size() < static_cast<std::size_t>(std::max(plan.settings.jobs, 1)) &&
           next < jobs.size()) {
      const SeedJob& job = jobs[next++];
      running.push_back(
          {job, fork_worker(plan, hooks, names, &job), std::chrono::steady_clock::now(), {}, {}});
    }

    wait_for_seed_output(running, timeout_s);

    // Walk backwards so that finishing (erasing) a worker keeps the other indices valid. A seed
    // ends when its process does (end of file may never come while a process it left running
    // holds the pipe); finish_child kills what it left.
    for (std::size_t i = running.size(); i-- > 0;) {
      SeedWorker& worker = running[i];
      const bool open = read_available(worker.child.output_fd, worker.pending);
      take_events(worker, collector);
      if (!open) wait_until_ended(worker.child.pid);
      if (!open || child_has_ended(worker.child.pid)) {
        const int status = finish_child(worker.child.pid);
        read_available(worker.child.output_fd, worker.pending);
        finish(i, exited_cleanly(status) ? "" : describe_exit(status));
        continue;
      }
      if (seconds_since(worker.started) >= timeout_s) {
        finish_child(worker.child.pid);
        finish(i, fmt::format("timed out: killed after {:g} s ({})", timeout_s,
                              attempts ? "the test's timeout, --timeout" : "--seed-timeout"));
      }
    }
  }
}

// Runs a seeded test's seeds; a sequential one block by block, asking the collector after each
// block whether the gate still needs more seeds.
void run_seeded_test(const RunPlan& plan, const PlannedTest& planned, const RunnerHooks& hooks,
                     RunCollector& collector) {
  const std::vector<std::vector<SeedJob>> blocks =
      seed_job_blocks(planned, plan.settings.stop_early);
  collector.start_seeded_test(planned);
  const auto test_start = std::chrono::steady_clock::now();
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (blocks[b].empty()) continue;
    run_seed_jobs(plan, blocks[b], hooks, collector);
    if (b + 1 < blocks.size() && !collector.seeded_test_needs_more_seeds()) break;
  }
  collector.end_seeded_test(seconds_since(test_start));
}

}  // namespace

void run_tests_in_child_processes(const RunPlan& plan, const RunnerHooks& hooks,
                                  RunCollector& collector) {
  // In plan order: consecutive plain tests share child processes, each seeded test gets a pool,
  // and each timing test a fresh process of its own. A timing test measures the process it runs
  // in: what earlier tests left there (an allocator they installed, a thread pool they started,
  // the heap they fragmented) changed its rate by up to 2x, so a figure promoted from a whole
  // tier did not hold for the same test alone, under ctest or in an --ab child. Alone in a fresh
  // process it is measured in the same state in every context (runner/docs/timing.md).
  std::vector<std::string> plain;
  for (const PlannedTest& planned : plan.tests) {
    if (!planned.seeded() && !planned.test->timing) {
      plain.push_back(planned.test->full_name());
      continue;
    }
    if (!plain.empty()) run_plain_tests(plan, hooks, collector, std::exchange(plain, {}));
    if (planned.seeded()) {
      run_seeded_test(plan, planned, hooks, collector);
    } else {
      run_plain_tests(plan, hooks, collector, {planned.test->full_name()});
    }
  }
  if (!plain.empty()) run_plain_tests(plan, hooks, collector, std::move(plain));
}

}  // namespace mlregress::internal
