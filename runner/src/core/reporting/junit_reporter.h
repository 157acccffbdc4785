// JUnit XML that the Jenkins xunit plugin's junit-10.xsd accepts: one <testsuite> per tier, one
// <testcase> per test, failures naming the failing assertion, the test's report in system-out.
// The file is rewritten (atomically) after every test, so a run that dies keeps what finished.
#pragma once

#include <string>

#include "execution/run_observer.h"

namespace mlregress::internal {

class JunitReporter final : public RunObserver {
 public:
  explicit JunitReporter(std::string path) : path_(std::move(path)) {}

  void on_run_start(const RunResult& run) override { write(run); }
  void on_test_end(const TestResult& /*test*/, const RunResult& run) override { write(run); }
  void on_run_end(const RunResult& run) override { write(run); }

 private:
  void write(const RunResult& run) const;
  std::string path_;
};

/// The JUnit document for a run, as text. Exposed for golden-file tests.
std::string render_junit(const RunResult& run);

/// Seconds with exactly three decimals and no exponent, whatever the locale: "12.345".
std::string junit_seconds(double seconds);

}  // namespace mlregress::internal
