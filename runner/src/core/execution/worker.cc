#include "execution/worker.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

#include "execution/test_context.h"
#include "support/clock.h"

namespace mlregress::internal {
namespace {

// A failure message travels to the runner, results.json and JUnit (twice there): a test that
// prints a whole tensor into one must not cost the runner hundreds of megabytes. The start of a
// message says what failed; the first 1 MiB is kept, and the note says how much was cut.
constexpr std::size_t kMaxMessageBytes = std::size_t{1} << 20;

std::string capped_message(const char* message) {
  const std::string_view text = message != nullptr ? message : "";
  if (text.size() <= kMaxMessageBytes) return std::string(text);
  return fmt::format("{}\n[... {} more bytes of this message cut: mlregress keeps the first 1 MiB]",
                     text.substr(0, kMaxMessageBytes), text.size() - kMaxMessageBytes);
}

class EventEmittingListener final : public ::testing::EmptyTestEventListener {
 public:
  EventEmittingListener(const RunPlan& plan, const RunnerHooks& hooks, EventSink& sink,
                        const SeedJob* job)
      : plan_(plan), hooks_(hooks), sink_(sink), job_(job) {}

  void OnTestStart(const ::testing::TestInfo& info) override {
    const std::string full_name = std::string(info.test_suite_name()) + "." + info.name();
    const PlannedTest* planned = plan_.find(full_name);
    if (planned == nullptr) return;  // not an ML test; the filter should have excluded it
    context_ = TestContext{planned->test, &planned->params, plan_.settings.seed,
                           plan_.settings.threads, &sink_};
    if (job_ != nullptr && job_->test == planned) {
      context_.params = &job_->variant->params;
      context_.seed = job_->seed;
      // An attempt of a flaky-aware test is the plain body under another seed: it records as
      // ML_TEST does.
      context_.seeded = !planned->attempts.has_value();
      context_.attempt = planned->attempts.has_value();
      context_.variant = job_->variant->name;
      context_.method = job_->variant->method;
      context_.held = job_->variant->held;
      context_.first_seed = planned->seeds.empty() ? job_->seed : planned->seeds.front();
      // Seeds run side by side in --jobs processes, one core each; an attempt of a flaky-aware
      // test is the plain test, with its threads.
      context_.threads = planned->attempts ? plan_.settings.threads : 1;
    }
    sink_.emit(TestStarted{full_name, utc_now_iso8601()});
    if (hooks_.before_each_test) hooks_.before_each_test(context_.seed, context_.threads);
    apply_determinism(full_name);
    set_current_test_context(&context_);
    start_ = std::chrono::steady_clock::now();
  }

  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (current_test_context() == nullptr) return;
    if (result.skipped()) {
      sink_.emit(TestSkipped{capped_message(result.message())});
      return;
    }
    if (!result.failed()) return;
    sink_.emit(AssertionFailed{{result.file_name() != nullptr ? result.file_name() : "",
                                result.line_number(), capped_message(result.message()),
                                result.fatally_failed()}});
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (current_test_context() == nullptr) return;
    // What the test printed belongs before its result line, even when stdout is a pipe.
    std::cout.flush();
    std::fflush(stdout);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const ::testing::TestResult& result = *info.result();
    sink_.emit(TestEnded{std::string(info.test_suite_name()) + "." + info.name(),
                         result.Passed() && !result.Skipped(), result.Skipped(), seconds});
    set_current_test_context(nullptr);
  }

 private:
  // Every test sets its mode afresh (the run's, or its own parameter's), so that none leaks into
  // the next test of this process. A mode other than the default is a property of the test: a
  // baseline promoted under another mode gets a note.
  void apply_determinism(const std::string& full_name) {
    context_.determinism =
        test_determinism(full_name, *context_.params, plan_.settings.determinism);
    if (hooks_.apply_determinism) hooks_.apply_determinism(context_.determinism);
    if (context_.determinism != DeterminismMode::Warn) {
      sink_.emit(PropertyRecorded{"determinism",
                                  std::string(determinism_mode_name(context_.determinism))});
    }
  }

  const RunPlan& plan_;
  const RunnerHooks& hooks_;
  EventSink& sink_;
  const SeedJob* job_;
  TestContext context_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

int run_worker(const RunPlan& plan, const RunnerHooks& hooks, EventSink& sink,
               const std::vector<std::string>& full_names, const SeedJob* job) {
  GTEST_FLAG_SET(filter, fmt::format("{}", fmt::join(full_names, ":")));

  ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
  delete listeners.Release(listeners.default_result_printer());
  listeners.Append(new EventEmittingListener(plan, hooks, sink, job));
  return RUN_ALL_TESTS();
}

}  // namespace mlregress::internal
