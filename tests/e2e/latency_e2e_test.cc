// Latency distributions end to end, on the torch-free timing fixture (tests/fixture/
// timing_context_fixture.cc, Full.ObservedCallLatency: each call's time in units of an
// interleaved reference loop, so the machine's speed cancels). Promoted, an unchanged rerun (A/A)
// must PASS on every figure; planted, a tail-only slowdown (--set
// ObservedCallLatency.tail_every=10: every 10th call three times as long) must be a REGRESSION of
// p95 and p99 while p50 PASSes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "e2e_fixture.h"
#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

class LatencyE2eTest : public FixtureBinaryTest {
 protected:
  LatencyE2eTest() : FixtureBinaryTest(MLREGRESS_TIMING_CONTEXT_FIXTURE_BINARY) {}
  ProcessResult run(const std::string& args) {
    return fixture("run --color never --filter Full.ObservedCallLatency --out " + runs() + " " +
                   args);
  }
  std::string runs() const { return temp_.path() + "/runs"; }
  std::string verdict_of(const std::string& figure) const {
    const json results = json::parse(read_file(runs() + "/latest/results.json"));
    const json metric =
        metric_named(test_named(results, "ObservedCallLatency"), "call_vs_reference." + figure);
    return metric.value("verdict", "NO_BASELINE");
  }
};

TEST_F(LatencyE2eTest, AnUnchangedRerunPassesAndATailOnlySlowdownRegressesP95AndP99) {
  const ProcessResult first = run("");
  ASSERT_EQ(first.exit_code, kPassed) << first.out << first.err;
  for (const char* figure : {"p50_ms", "p95_ms", "p99_ms", "trimmed_mean_ms"}) {
    const json results = json::parse(read_file(runs() + "/latest/results.json"));
    const json metric = metric_named(test_named(results, "ObservedCallLatency"),
                                     std::string("call_vs_reference.") + figure);
    EXPECT_EQ(metric.at("direction"), "lower_is_better") << figure;
    EXPECT_EQ(metric.at("policy").at("kind"), "timing") << figure;
  }
  const ProcessResult promoted =
      fixture("promote " + runs() + "/latest --baselines " + baselines() + " --reason e2e");
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;

  const ProcessResult again = run("--baselines " + baselines());
  EXPECT_EQ(again.exit_code, kPassed) << again.out << again.err;
  for (const char* figure : {"p50_ms", "p95_ms", "p99_ms"}) {
    EXPECT_EQ(verdict_of(figure), "PASS") << figure << "\n" << again.out;
  }

  const ProcessResult planted =
      run("--baselines " + baselines() + " --set ObservedCallLatency.tail_every=10");
  EXPECT_EQ(planted.exit_code, kRegression) << planted.out << planted.err;
  EXPECT_EQ(verdict_of("p95_ms"), "REGRESSION") << planted.out;
  EXPECT_EQ(verdict_of("p99_ms"), "REGRESSION") << planted.out;
  EXPECT_EQ(verdict_of("p50_ms"), "PASS") << planted.out;
}

}  // namespace
}  // namespace mlregress::e2e
