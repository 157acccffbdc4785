// The supervisor runs tests in child processes so that no test can take the run with it.
// Planted: a test that aborts, one that calls _exit, one that fails (exit code 1 is no crash),
// one that hangs past --timeout, one that leaves a process holding the event pipe, a seed that
// aborts and one that hangs past --seed-timeout, seeds that must run --jobs at a time, and a
// sequential test whose gate has decided after its first block.
//
// The test bodies are GoogleTest tests of this binary, registered by each test when it runs (not
// at start: the unit run must not execute them itself, and ctest must not list them). The forked
// test process runs them with its own filter, as a test binary's does.
#include "execution/supervisor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "mlregress/ml_test.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

double now_s() {
  // CLOCK_MONOTONIC: comparable across the processes of one machine.
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void sleep_s(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

// What RunnerHooks::before_each_test was called with in this test process.
std::optional<std::uint64_t> g_hook_seed;
int g_hook_threads = 0;

void die_without_core_dump(int signal) {
  const rlimit none{0, 0};
  ::setrlimit(RLIMIT_CORE, &none);
  std::raise(signal);
}

class RecordsPid : public MlTest {
  void body() override {
    record("pid", ::getpid(), LowerIsBetter);
    record("hook_seed", g_hook_seed ? static_cast<double>(*g_hook_seed) : -1.0, LowerIsBetter);
    record("hook_threads", g_hook_threads, LowerIsBetter);
  }
};

class Aborts : public MlTest {
  void body() override {
    record("before_the_crash", 0.5, LowerIsBetter);
    die_without_core_dump(SIGABRT);
  }
};

class Exits : public MlTest {
  void body() override { ::_exit(3); }
};

class Fails : public MlTest {
  void body() override {
    record("pid", ::getpid(), LowerIsBetter);
    ADD_FAILURE() << "loss too high";
  }
};

class Hangs : public MlTest {
  void body() override {
    record("before_the_hang", 0.5, LowerIsBetter);
    sleep_s(60.0);
  }
};

// Leaves a process running that holds the event pipe open: end of file never comes.
class LeavesAProcess : public MlTest {
  void body() override {
    const pid_t left = ::fork();
    if (left == 0) {
      sleep_s(60.0);
      ::_exit(0);
    }
    record("left_pid", left, LowerIsBetter);
  }
};

// One seed: when it ran, in which process, with which seed the hook was given.
class SeedTimes : public MlTest {
  void body() override {
    const double started = now_s();
    sleep_s(0.4);
    record("pid", ::getpid(), LowerIsBetter);
    record("started", started, LowerIsBetter);
    record("ended", now_s(), LowerIsBetter);
    record("hook_seed", g_hook_seed ? static_cast<double>(*g_hook_seed) : -1.0, LowerIsBetter);
    record("hook_threads", g_hook_threads, LowerIsBetter);
  }
};

class SeedOneAborts : public MlTest {
  void body() override {
    if (seed() == 1) die_without_core_dump(SIGABRT);
    record("accuracy", 0.9, HigherIsBetter);
  }
};

class SeedOneHangs : public MlTest {
  void body() override {
    if (seed() == 1) sleep_s(60.0);
    record("accuracy", 0.9, HigherIsBetter);
  }
};

// Records nothing: with baselines, nothing is left to decide after any block.
class RecordsNothing : public MlTest {
  void body() override {}
};

template <typename Body>
MlTest* make() {
  return new Body;
}

template <typename Body>
RegisteredTest body(const char* name, Seeds seeds = Seeds(0)) {
  RegisteredTest test;
  test.tier = Tier::Fast;
  test.name = name;
  test.file = __FILE__;
  test.line = 1;
  test.factory = &make<Body>;
  test.seeds = std::move(seeds);
  return test;
}

// Registers `tests` with GoogleTest as run_main registers a binary's ML_TESTs, in plan order,
// under a suite name of their own: a test process runs them in registration order, and a new
// suite is in it whatever --gtest_shuffle did to the suites registered before.
void register_with_googletest(std::vector<RegisteredTest>& tests) {
  static int runs = 0;
  const std::string suite = "SupervisedBody" + std::to_string(++runs);
  for (RegisteredTest& test : tests) {
    test.tier_token = suite;
    ::testing::RegisterTest(test.tier_token.c_str(), test.name.c_str(), nullptr, nullptr,
                            test.file.c_str(), test.line,
                            [factory = test.factory]() -> MlTest* { return factory(); });
  }
}

// The GoogleTest flags a test process inherits from this one, set as a test binary's are, and
// the sharding variables unset: the bodies are selected by the supervisor alone.
class TestProcessFlags {
 public:
  TestProcessFlags()
      : repeat_(GTEST_FLAG_GET(repeat)),
        shuffle_(GTEST_FLAG_GET(shuffle)),
        fail_fast_(GTEST_FLAG_GET(fail_fast)) {
    GTEST_FLAG_SET(repeat, 1);
    GTEST_FLAG_SET(shuffle, false);
    GTEST_FLAG_SET(fail_fast, false);
    for (const char* name : {"GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX"}) {
      if (const char* value = std::getenv(name)) saved_env_.emplace_back(name, value);
      ::unsetenv(name);
    }
  }
  ~TestProcessFlags() {
    GTEST_FLAG_SET(repeat, repeat_);
    GTEST_FLAG_SET(shuffle, shuffle_);
    GTEST_FLAG_SET(fail_fast, fail_fast_);
    for (const auto& [name, value] : saved_env_) ::setenv(name.c_str(), value.c_str(), 1);
  }
  TestProcessFlags(const TestProcessFlags&) = delete;
  TestProcessFlags& operator=(const TestProcessFlags&) = delete;

 private:
  int repeat_;
  bool shuffle_;
  bool fail_fast_;
  std::vector<std::pair<std::string, std::string>> saved_env_;
};

struct Supervised {
  RunResult run;
  double wall_s = 0.0;
};

// Runs `tests` in plan order through the supervisor, as `run` does.
Supervised supervise(std::vector<RegisteredTest> tests, RunSettings settings,
                     const BaselineGate* gate = nullptr) {
  register_with_googletest(tests);
  std::vector<std::unique_ptr<RegisteredTest>> owned;
  std::vector<const RegisteredTest*> selected;
  for (RegisteredTest& test : tests) {
    owned.push_back(std::make_unique<RegisteredTest>(std::move(test)));
    selected.push_back(owned.back().get());
  }
  const RunPlan plan = make_run_plan(selected, {}, {}, settings);
  RunnerHooks hooks;
  hooks.before_each_test = [](std::uint64_t seed, int threads) {
    g_hook_seed = seed;
    g_hook_threads = threads;
  };
  Supervised result;
  RunCollector collector(plan, result.run, {});
  if (gate != nullptr) collector.compare_with(gate);
  const TestProcessFlags flags;
  const auto start = std::chrono::steady_clock::now();
  run_tests_in_child_processes(plan, hooks, collector);
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The hooks ran in the test processes, never here.
  EXPECT_FALSE(g_hook_seed.has_value());
  return result;
}

double value_of(const std::vector<MetricRecord>& metrics, const std::string& name) {
  for (const MetricRecord& m : metrics) {
    if (m.name == name) return m.value;
  }
  ADD_FAILURE() << "no metric '" << name << "'";
  return -1.0;
}

std::string failures_of(const RunResult& run) {
  std::string text;
  for (const std::string& e : run.runner_errors) text += "runner error: " + e + "\n";
  for (const TestResult& t : run.tests) {
    text += t.full_name + ": " + std::string(test_status_name(t.status)) + " " + t.crash_message;
    for (const TestFailure& f : t.failures) text += " | " + f.message;
    text += "\n";
  }
  return text;
}

// Alive and not a zombie (a process nobody has reaped yet is dead for this purpose).
bool process_runs(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return false;
  const std::size_t paren = text.rfind(')');
  if (paren == std::string::npos || paren + 2 >= text.size()) return false;
  const char state = text[paren + 2];
  return state != 'Z' && state != 'X';
}

TEST(Supervisor, PlainTestsShareOneProcessAndAFailureIsNoCrash) {
  const Supervised s = supervise(
      {body<RecordsPid>("RecordsPid"), body<Fails>("Fails"), body<RecordsPid>("RecordsPidToo")},
      RunSettings{});
  const RunResult& run = s.run;
  ASSERT_EQ(run.tests.size(), 3u) << failures_of(run);
  EXPECT_EQ(run.tests[0].status, TestStatus::kPassed);
  EXPECT_EQ(run.tests[1].status, TestStatus::kFailed);
  EXPECT_THAT(run.tests[1].failures.at(0).message, HasSubstr("loss too high"));
  EXPECT_EQ(run.tests[2].status, TestStatus::kPassed);
  // A test process that exits 1 after a failed test ended normally: one process, no error.
  EXPECT_TRUE(run.runner_errors.empty()) << failures_of(run);
  const double pid = value_of(run.tests[0].metrics, "pid");
  EXPECT_EQ(value_of(run.tests[1].metrics, "pid"), pid);
  EXPECT_EQ(value_of(run.tests[2].metrics, "pid"), pid);
  EXPECT_NE(pid, static_cast<double>(::getpid()));
}

TEST(Supervisor, ATestThatAbortsIsCrashedAndTheRestRunInAFreshProcess) {
  const Supervised s = supervise(
      {body<RecordsPid>("RecordsPid"), body<Aborts>("Aborts"), body<RecordsPid>("RecordsPidToo")},
      RunSettings{});
  const RunResult& run = s.run;
  ASSERT_EQ(run.tests.size(), 3u) << failures_of(run);
  EXPECT_EQ(run.tests[0].status, TestStatus::kPassed);
  const TestResult& crashed = run.tests[1];
  EXPECT_EQ(crashed.name, "Aborts");
  EXPECT_EQ(crashed.status, TestStatus::kCrashed);
  EXPECT_THAT(crashed.crash_message, HasSubstr("killed by signal 6")) << crashed.crash_message;
  // What it recorded before it died is kept.
  EXPECT_EQ(value_of(crashed.metrics, "before_the_crash"), 0.5);
  EXPECT_EQ(run.tests[2].status, TestStatus::kPassed) << failures_of(run);
  EXPECT_NE(value_of(run.tests[2].metrics, "pid"), value_of(run.tests[0].metrics, "pid"));
  EXPECT_TRUE(run.runner_errors.empty()) << failures_of(run);
}

TEST(Supervisor, ATestThatExitsIsCrashedWithItsExitCode) {
  const Supervised s =
      supervise({body<Exits>("Exits"), body<RecordsPid>("RecordsPid")}, RunSettings{});
  const RunResult& run = s.run;
  ASSERT_EQ(run.tests.size(), 2u) << failures_of(run);
  EXPECT_EQ(run.tests[0].status, TestStatus::kCrashed);
  EXPECT_THAT(run.tests[0].crash_message, HasSubstr("exited with code 3 before the test finished"));
  EXPECT_EQ(run.tests[1].status, TestStatus::kPassed);
}

TEST(Supervisor, ATestPastItsTimeoutIsKilledAndTheNextOneRuns) {
  RunSettings settings;
  settings.test_timeout_s = 0.5;
  const Supervised s = supervise({body<Hangs>("Hangs"), body<RecordsPid>("RecordsPid")}, settings);
  const RunResult& run = s.run;
  ASSERT_EQ(run.tests.size(), 2u) << failures_of(run);
  EXPECT_EQ(run.tests[0].status, TestStatus::kTimedOut);
  EXPECT_THAT(run.tests[0].crash_message, HasSubstr("timed out: killed with its processes after"));
  EXPECT_EQ(value_of(run.tests[0].metrics, "before_the_hang"), 0.5);
  EXPECT_EQ(run.tests[1].status, TestStatus::kPassed) << failures_of(run);
  // Killed, not waited for: the body would have slept a minute.
  EXPECT_LT(s.wall_s, 20.0);
}

TEST(Supervisor, AProcessATestLeftRunningNeitherHangsTheRunNorOutlivesIt) {
  const Supervised s = supervise(
      {body<LeavesAProcess>("LeavesAProcess"), body<RecordsPid>("RecordsPid")}, RunSettings{});
  const RunResult& run = s.run;
  ASSERT_EQ(run.tests.size(), 2u) << failures_of(run);
  EXPECT_EQ(run.tests[0].status, TestStatus::kPassed) << failures_of(run);
  EXPECT_EQ(run.tests[1].status, TestStatus::kPassed) << failures_of(run);
  EXPECT_LT(s.wall_s, 20.0);  // it holds the pipe open for a minute
  const auto left = static_cast<pid_t>(value_of(run.tests[0].metrics, "left_pid"));
  ASSERT_GT(left, 0);
  bool runs = process_runs(left);
  for (int i = 0; i < 50 && runs; ++i) {
    sleep_s(0.1);
    runs = process_runs(left);
  }
  EXPECT_FALSE(runs) << "process " << left << " outlived the test that started it";
}

TEST(Supervisor, HooksRunInTheTestProcessWithTheTestsSeedAndThreads) {
  RunSettings settings;
  settings.seed = 10;
  settings.threads = 3;
  settings.jobs = 3;
  const Supervised s =
      supervise({body<RecordsPid>("RecordsPid"), body<SeedTimes>("SeedTimes", Seeds(3))}, settings);
  const RunResult& run = s.run;
  ASSERT_EQ(run.tests.size(), 2u) << failures_of(run);
  EXPECT_EQ(value_of(run.tests[0].metrics, "hook_seed"), 10.0);
  EXPECT_EQ(value_of(run.tests[0].metrics, "hook_threads"), 3.0);
  const TestResult& seeded = run.tests[1];
  ASSERT_EQ(seeded.seed_runs.size(), 3u) << failures_of(run);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(seeded.seed_runs[i].seed, 10u + i);
    EXPECT_EQ(value_of(seeded.seed_runs[i].metrics, "hook_seed"), 10.0 + static_cast<double>(i));
    // Seeds run side by side, one core each, whatever --threads says.
    EXPECT_EQ(value_of(seeded.seed_runs[i].metrics, "hook_threads"), 1.0);
  }
}

// The most seeds that ran at the same time.
std::size_t most_at_once(const std::vector<SeedRun>& runs) {
  std::size_t most = 0;
  for (const SeedRun& a : runs) {
    const double t = value_of(a.metrics, "started");
    std::size_t at_once = 0;
    for (const SeedRun& b : runs) {
      at_once += value_of(b.metrics, "started") <= t && t < value_of(b.metrics, "ended");
    }
    most = std::max(most, at_once);
  }
  return most;
}

TEST(Supervisor, SeedsRunInProcessesOfTheirOwnUpToJobsAtOnce) {
  RunSettings settings;
  settings.jobs = 2;
  const Supervised s = supervise({body<SeedTimes>("SeedTimes", Seeds(5))}, settings);
  const TestResult& test = s.run.tests.at(0);
  EXPECT_EQ(test.status, TestStatus::kPassed) << failures_of(s.run);
  ASSERT_EQ(test.seed_runs.size(), 5u) << failures_of(s.run);
  std::set<double> pids;
  for (const SeedRun& r : test.seed_runs) {
    EXPECT_EQ(r.status, TestStatus::kPassed);
    pids.insert(value_of(r.metrics, "pid"));
  }
  EXPECT_EQ(pids.size(), 5u) << "each seed runs in a fresh process";
  EXPECT_EQ(pids.count(static_cast<double>(::getpid())), 0u);
  EXPECT_EQ(most_at_once(test.seed_runs), 2u);

  settings.jobs = 1;
  const Supervised serial = supervise({body<SeedTimes>("SeedTimes", Seeds(2))}, settings);
  ASSERT_EQ(serial.run.tests.at(0).seed_runs.size(), 2u) << failures_of(serial.run);
  EXPECT_EQ(most_at_once(serial.run.tests.at(0).seed_runs), 1u);
}

TEST(Supervisor, ASeedThatAbortsCrashesOnlyItsOwnRun) {
  RunSettings settings;
  settings.jobs = 2;
  const Supervised s = supervise(
      {body<SeedOneAborts>("SeedOneAborts", Seeds(3)), body<RecordsPid>("RecordsPid")}, settings);
  const RunResult& run = s.run;
  ASSERT_EQ(run.tests.size(), 2u) << failures_of(run);
  const TestResult& test = run.tests[0];
  ASSERT_EQ(test.seed_runs.size(), 3u) << failures_of(run);
  EXPECT_EQ(test.seed_runs[0].status, TestStatus::kPassed);
  EXPECT_EQ(test.seed_runs[1].status, TestStatus::kCrashed);
  EXPECT_THAT(test.seed_runs[1].crash_message, HasSubstr("killed by signal 6"));
  EXPECT_EQ(test.seed_runs[2].status, TestStatus::kPassed);
  EXPECT_EQ(test.status, TestStatus::kCrashed);
  EXPECT_EQ(run.tests[1].status, TestStatus::kPassed) << failures_of(run);
}

TEST(Supervisor, ASeedPastItsTimeoutIsKilledAsAnErrorOfThatSeed) {
  RunSettings settings;
  settings.jobs = 3;
  settings.seed_timeout_s = 1.0;
  const Supervised s = supervise({body<SeedOneHangs>("SeedOneHangs", Seeds(3))}, settings);
  const TestResult& test = s.run.tests.at(0);
  ASSERT_EQ(test.seed_runs.size(), 3u) << failures_of(s.run);
  EXPECT_EQ(test.seed_runs[0].status, TestStatus::kPassed);
  EXPECT_EQ(test.seed_runs[1].status, TestStatus::kCrashed);
  EXPECT_EQ(test.seed_runs[1].crash_message, "timed out: killed after 1 s (--seed-timeout)");
  EXPECT_EQ(test.seed_runs[2].status, TestStatus::kPassed);
  EXPECT_LT(s.wall_s, 20.0);
}

TEST(Supervisor, ASequentialTestStopsAfterTheBlockThatLeftNothingToDecide) {
  const BaselineSet no_baselines = BaselineSet::from_files({});
  const BaselineGate gate(no_baselines, EnvironmentProfile{}, 0.01);
  RunSettings settings;
  settings.jobs = 2;
  // Seeds(2).up_to(6): blocks of two seeds, at most three blocks.
  const auto seeds_run = [&](const RunSettings& with, const BaselineGate* g) {
    const Supervised s =
        supervise({body<RecordsNothing>("RecordsNothing", Seeds(2).up_to(6))}, with, g);
    EXPECT_EQ(s.run.tests.at(0).status, TestStatus::kPassed) << failures_of(s.run);
    EXPECT_EQ(s.run.tests.at(0).seed_runs_planned, 6u);
    return s.run.tests.at(0).seed_runs.size();
  };
  EXPECT_EQ(seeds_run(settings, &gate), 2u);
  // --all-seeds (stop_early false), or no baselines to stop on: every seed up to the cap.
  RunSettings all_seeds = settings;
  all_seeds.stop_early = false;
  EXPECT_EQ(seeds_run(all_seeds, &gate), 6u);
  EXPECT_EQ(seeds_run(settings, nullptr), 6u);
}

}  // namespace
}  // namespace mlregress::internal
